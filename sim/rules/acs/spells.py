"""Spells and maneuvers: a combatant's named actions on the ACS clock.

ACS "Actions should include ... the use of a skill or spell" and "Action disruption": "If a
subject is interrupted, attacked, amidst a maneuver, or while invoking a spell-or similar type of
action, that action can be disrupted, and may have to be started again." The text gives no
effects (they are "each game's mechanics"); combatsim offers four kinds (``docs/rules/acs.md``):
the combatant's own attack, damage dice to one or several enemies, hit points back to the most
wounded ally, and a bonus or penalty for the rest of the second. Any of them may take several
segments, and the clock disrupts every multi-segment action alike.

Which action a combatant takes is a tactic: at each action it takes the first of its named
actions that :func:`usable` allows, else its plain attack. Each rule here is one pure function;
:func:`perform` applies an effect on the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from sim.engine.dice import DiceExpr

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock
    from sim.rules.acs.fighter import AcsFighter
    from sim.rules.acs.models import NamedAction

#: A resolution's stats and state (as ``resolution.StatsT`` and ``StateT``: the resolution module
#: imports this one, so the type variables are declared here too).
StatsT = TypeVar("StatsT")
StateT = TypeVar("StateT")

#: The effects a resolution supports when it says nothing (``Resolution.action_effects``).
ATTACK_ONLY = frozenset({"attack"})
#: Every effect of a named action.
ALL_EFFECTS = frozenset({"attack", "damage", "heal", "modifier"})
#: ``uses`` of an action with no limit.
UNLIMITED = -1


@dataclass(frozen=True, slots=True)
class Special:
    """One named action as the clock reads it (:class:`~sim.rules.acs.models.NamedAction`)."""

    index: int
    name: str
    effect: str
    segments: int
    targets: int
    amount: DiceExpr
    to: str
    attack_bonus: int
    defense_bonus: int
    wounded_only: bool
    min_enemies: int
    uses: int
    #: Aimed at enemies (an attack, damage): while under way it counts as an attack ready and
    #: aimed for prepared ambition.
    aimed: bool

    @classmethod
    def of(cls, index: int, model: NamedAction) -> Special:
        """Read a validated named action (its position among the combatant's)."""
        return cls(
            index=index,
            name=model.name,
            effect=model.effect,
            segments=model.segments,
            targets=model.targets,
            amount=DiceExpr.parse(model.amount),
            to=model.to,
            attack_bonus=model.attack_bonus,
            defense_bonus=model.defense_bonus,
            wounded_only=model.when == "wounded_ally",
            min_enemies=model.min_enemies,
            uses=UNLIMITED if model.uses is None else model.uses,
            aimed=model.effect in ("attack", "damage"),
        )


def wounded(hp: int, max_hp: int) -> bool:
    """At half its starting hit points or below: what ``when: wounded_ally`` waits for."""
    return 2 * hp <= max_hp


def usable(special: Special, uses_left: int, enemies: int, hurt: bool, wounded_ally: bool) -> bool:
    """Whether a combatant takes this named action now (the tactic of ``docs/rules/acs.md``).

    Args:
        special: the action.
        uses_left: completions left this fight (:data:`UNLIMITED` for no limit).
        enemies: enemies still able to fight.
        hurt: someone on its side (itself included) is below its starting hit points.
        wounded_ally: someone on its side (itself included) is :func:`wounded`.
    """
    if uses_left == 0 or enemies < special.min_enemies:
        return False
    if special.wounded_only and not wounded_ally:
        return False
    return special.effect != "heal" or hurt


def healed(hp: int, max_hp: int, rolled: int) -> int:
    """Hit points a heal gives back: the roll, never above the starting hit points."""
    room = max_hp - hp
    return rolled if rolled < room else max(room, 0)


def choose_action(
    clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT]
) -> Special | None:
    """The first named action :func:`usable` allows, else None (the plain attack)."""
    combat = clock.combat
    side = [f for f in combat.sides[me.side] if f.out is None]
    hurt = any(f.hp < f.max_hp for f in side)
    wounded_ally = any(wounded(f.hp, f.max_hp) for f in side)
    enemies = len(combat.enemies(me))
    uses_left = me.uses_left
    for special in me.timing.specials:
        if usable(special, uses_left[special.index], enemies, hurt, wounded_ally):
            return special
    return None


def perform(
    clock: AcsClock[StatsT, StateT],
    me: AcsFighter[StatsT, StateT],
    special: Special,
    free: bool,
    completing: bool,
) -> None:
    """Apply a named action's effect now (a one-segment action, or a long one completing)."""
    if me.uses_left[special.index] > 0:
        me.uses_left[special.index] -= 1
    effect = special.effect
    if effect == "attack":
        clock.attack_now(me, free, completing, special.name)
        return
    act = Act(clock, me, special, free, "complete" if completing else "act")
    if effect == "damage":
        _damage(act)
    elif effect == "heal":
        _heal(act)
    else:
        _modify(act)


@dataclass(frozen=True, slots=True)
class Act(Generic[StatsT, StateT]):
    """One named action being performed: who, what, and how the replay tells it."""

    clock: AcsClock[StatsT, StateT]
    me: AcsFighter[StatsT, StateT]
    special: Special
    free: bool
    #: ``act`` (a one-segment action) or ``complete`` (a long one completing).
    kind: str

    def emit(self, target: AcsFighter[StatsT, StateT] | None, **data: object) -> None:
        """Tell the replay what the action did (a no-op unless tracing)."""
        clock, me, special = self.clock, self.me, self.special
        clock.combat.emit(
            self.kind,
            me,
            target,
            segment=clock.segment_now(me),
            free=self.free,
            action=special.name,
            effect=special.effect,
            **data,
        )


def _damage(act: Act[StatsT, StateT]) -> None:
    """Damage dice, rolled once, to its target and to as many more enemies as it strikes."""
    clock, me, special = act.clock, act.me, act.special
    combat = clock.combat
    dice = clock.dice
    first = clock.target_of(me)
    if first is None:
        return
    struck = [first]
    rest = [f for f in combat.enemies(me) if f is not first]
    allies = combat.allies(me)
    while rest and len(struck) < special.targets:
        chosen = me.timing.choose(me, rest, allies, dice)
        struck.append(chosen)
        rest.remove(chosen)
    rolled = special.amount.roll(dice)
    me.attacks += 1
    me.hits += len(struck)
    if combat.trace is not None:
        act.emit(first, amount=rolled, struck=[f.name for f in struck])
    for target in struck:
        combat.damage(me, target, rolled)
        if combat.end_reason is not None:
            return


def _heal(act: Act[StatsT, StateT]) -> None:
    """Hit points back to the most wounded of its side (itself included)."""
    clock, me, special = act.clock, act.me, act.special
    combat = clock.combat
    side = [f for f in combat.sides[me.side] if f.out is None]
    patient = max(side, key=lambda f: f.max_hp - f.hp)
    gain = healed(patient.hp, patient.max_hp, special.amount.roll(clock.dice))
    patient.hp += gain
    if combat.trace is not None:
        act.emit(patient, amount=gain, hp=patient.hp)


def _modify(act: Act[StatsT, StateT]) -> None:
    """A bonus or penalty on attack totals and defense chances for the rest of the second."""
    clock, me, special = act.clock, act.me, act.special
    combat = clock.combat
    if special.to == "self":
        changed = [me]
    elif special.to == "allies":
        changed = [f for f in combat.sides[me.side] if f.out is None]
    else:
        changed = combat.enemies(me)
    second = clock.second
    for f in changed:
        if f.boost_second != second:
            f.boost_second = second
            f.boost_attack = f.boost_defense = 0
        f.boost_attack += special.attack_bonus
        f.boost_defense += special.defense_bonus
    if combat.trace is not None:
        act.emit(
            None,
            attack_bonus=special.attack_bonus,
            defense_bonus=special.defense_bonus,
            changed=[f.name for f in changed],
        )
