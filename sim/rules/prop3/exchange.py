"""One exchange of rolls: the attacker's pool against the defender's, read and compared.

``rules/combat-proposition-three.txt``, "THE CORE MECHANIC" ("In the case of opposed rolls, the
lowest roll is superior ... re-roll if these are tied") and "(ANOTHER) COMBAT PROPOSAL" ("Melee
combat is an opposed check"; "Ranged combat works almost exactly as melee combat"), as RULINGS
part C ("Reading a roll", "Wiggle points", "Resolving an attack") reads them:

1. the attacker rolls its pool and wiggles it for its best result (:meth:`Fight.attack_roll`);
2. no pair is a fumble, and the defender does not roll; an attack nobody defends against is
   compared with no result at all;
3. otherwise the defender rolls and, seeing the attack, answers (:meth:`Fight.defense_answer`);
4. ``pool.resolve`` gives the outcome; a full tie is re-rolled as a new exchange.

Melee attacks, missiles and both kinds of automatic counter-hit roll here, so the dice are drawn
in one order everywhere: attack faces, then (if the attack succeeded and there is a defense)
defense faces, exchange after exchange. What an outcome *does* is :mod:`~sim.rules.prop3.outcomes`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from sim.rules.prop3.character import DEFENSE_FORMS, DODGE, stat_now
from sim.rules.prop3.pool import (
    CRITICAL_HIT,
    DEFENDED,
    FUMBLE,
    HIT,
    NO_SET,
    NOTHING,
    TIE,
    TRIPLE,
    Outcome,
    Pool,
    can_crit,
    only_ones,
    resolve,
    roll_pool,
)
from sim.rules.prop3.wiggle import Defense, Wiggled

if TYPE_CHECKING:
    from sim.rules.prop3.fight import Fight

MAX_TIES = 1000
"""Re-rolls of a full tie before the attack is called defended (a safety net: only pools whose
wiggle points always reach the same best result could tie forever)."""


def ready_pool(fighter: Any, roll: int, dice: int, wiggle: int) -> Pool:
    """``fighter``'s pool for ``roll``: its die and the stat rules as its stats stand now."""
    profile = fighter.state.profile
    stat = stat_now(fighter, profile, roll)
    return Pool(roll, dice, profile.sides[roll], wiggle, can_crit(stat), only_ones(stat))


class Exchange(NamedTuple):
    """One roll of both sides and its outcome (immutable; a named tuple, cheap to build).

    Attributes:
        name: what the attack is called in the trace (its form, or the missile weapon).
        attack: the attacker's pool.
        defense: the defender's pool (None: it has no defense to roll).
        faces: the attacker's rolled faces.
        wiggled: the attacker's wiggled roll and result.
        d_faces: the defender's rolled faces (None: it did not roll).
        answer: the defender's answer (None: it did not roll).
        outcome: the outcome (a tie only in an exchange that was re-rolled).
        ties: full ties re-rolled before this exchange.
        automatic: an automatic hit, rolled only to see whether it is critical.
    """

    name: str
    attack: Pool
    defense: Pool | None
    faces: tuple[int, ...]
    wiggled: Wiggled
    d_faces: tuple[int, ...] | None
    answer: Defense | None
    outcome: Outcome
    ties: int = 0
    automatic: bool = False

    @property
    def defense_rolled(self) -> bool:
        """Whether the defender rolled in this exchange or in a tie before it."""
        return self.d_faces is not None or self.ties > 0

    @property
    def attack_succeeded(self) -> bool:
        """Whether an attack roll of the exchange (or of a tie before it) made a pair or better."""
        return self.outcome != FUMBLE or self.ties > 0


#: ``_exchange(fields)``: an :class:`Exchange` from all ten of its fields, in order. A named
#: tuple's own constructor is a Python function (its defaults, its keywords), about half the cost
#: of building one; this builds the tuple directly, and ``Exchange``'s fields and properties read
#: it as usual.
_exchange = partial(tuple.__new__, Exchange)


def roll_exchange(
    fight: Fight,
    attacker: Any,
    defender: Any,
    attack: Pool,
    defense: Pool | None,
    *,
    name: str,
    primary: bool = False,
    save: int = 0,
) -> Exchange:
    """Roll exchanges until one is not a full tie (at most :data:`MAX_TIES` re-rolls).

    Args:
        fight: the fight (its dice, its wiggle policies, its book-keeping of defenses).
        attacker: who attacks.
        defender: its target.
        attack: the attacker's pool.
        defense: the defender's pool, or None when it cannot defend.
        name: the attack's name in the trace.
        primary: the attack is an action on the ACS clock (which books its defense itself).
        save: armor wiggle points that may still save a failed missile defense.

    Returns:
        The last exchange (a tie still standing after :data:`MAX_TIES` re-rolls is defended).
    """
    dice = fight.dice
    rolled = False
    ties = 0
    while True:
        faces = roll_pool(dice, attack.dice, attack.sides)
        wiggled = fight.attack_roll(attacker, attack, faces)
        result = wiggled.result
        answer = d_faces = None
        if result.kind == NO_SET:
            outcome = FUMBLE
        elif defense is None:
            outcome = resolve(result, NOTHING)
        else:
            d_faces = roll_pool(dice, defense.dice, defense.sides)
            if not rolled:
                rolled = True
                fight.defense_rolled(defender, primary)
            answer = fight.defense_answer(defender, defense, result, d_faces, save)
            outcome = resolve(result, answer.result, fight.rules.cuts)
        exchange = _exchange(
            (name, attack, defense, faces, wiggled, d_faces, answer, outcome, ties, False)
        )
        if fight.tracing:
            trace_exchange(fight, attacker, defender, exchange)
        if outcome != TIE:
            return exchange
        ties += 1
        if ties >= MAX_TIES:
            return exchange._replace(outcome=DEFENDED, ties=ties)


def roll_auto_hit(
    fight: Fight, attacker: Any, defender: Any, attack: Pool, *, name: str
) -> Exchange:
    """An automatic hit (a counter-attack after a critical parry): critical on a triple."""
    faces = roll_pool(fight.dice, attack.dice, attack.sides)
    wiggled = fight.attack_roll(attacker, attack, faces)
    outcome = CRITICAL_HIT if wiggled.result.kind == TRIPLE else HIT
    exchange = _exchange((name, attack, None, faces, wiggled, None, None, outcome, 0, True))
    if fight.tracing:
        trace_exchange(fight, attacker, defender, exchange)
    return exchange


def trace_exchange(fight: Fight, attacker: Any, defender: Any, exchange: Exchange) -> None:
    """Emit one exchange (the ``exchange`` event the narration reads)."""
    defense = exchange.defense
    answer = exchange.answer
    d_faces = exchange.d_faces
    fight.combat.emit(
        "exchange",
        attacker,
        defender,
        attack=exchange.name,
        defense=None if defense is None else DEFENSE_FORMS[defense.roll - DODGE].value,
        dice=exchange.attack.dice,
        sides=exchange.attack.sides,
        wiggle=exchange.attack.wiggle,
        faces=list(exchange.faces),
        wiggled=list(exchange.wiggled.faces),
        result=str(exchange.wiggled.result),
        d_dice=0 if defense is None else defense.dice,
        d_sides=0 if defense is None else defense.sides,
        d_wiggle=0 if defense is None else defense.wiggle,
        d_faces=None if d_faces is None else list(d_faces),
        d_wiggled=None if answer is None else list(answer.wiggled.faces),
        d_result=None if answer is None else str(answer.result),
        outcome=exchange.outcome.value,
        automatic=exchange.automatic,
    )
