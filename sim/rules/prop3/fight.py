"""What every Proposition Three attack needs from the fight it happens in.

A :class:`Fight` is shared by the round process (:mod:`~sim.rules.prop3.round`) and the ACS
hybrid (:mod:`~sim.rules.prop3.hybrid`); they differ only in who counts as higher in initiative,
how far apart two combatants are, whether a defender may defend, and how a lost point of Vigor
takes a combatant out. Here are the parts they share:

- playing an exchange (:func:`~sim.rules.prop3.exchange.roll_exchange`, a pure function) and
  applying what it returns: the persistent points (advantages and skill focuses) it spent taken
  off the combatants, the defense roll booked, the trace told;
- the damage track (:mod:`~sim.rules.prop3.damage`);
- effects "until the next action" (stumble, fall, critical block and dodge), registered on the
  combatant whose next action ends them and undone then;
- counter-attacks (fumble 3, critical parry), which are free attacks, not actions: the fight is
  handed the function that makes them (:mod:`~sim.rules.prop3.counters`, which sits above the
  attack modules that call back into the fight).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic

from sim.rules.prop3.character import DEFENSE_FORMS, DODGE, F, LastingEffect
from sim.rules.prop3.cluster import Cluster
from sim.rules.prop3.consequences import Consequence, Counter, Drop, Harm, Mark
from sim.rules.prop3.damage import track
from sim.rules.prop3.exchange import ExchangeInput, ExchangeOutcome, roll_exchange
from sim.rules.prop3.spending import attack_wiggle, defense_wiggle

if TYPE_CHECKING:
    from sim.engine.combat import Combat
    from sim.rules.prop3.character import Body
    from sim.rules.prop3.exchange import Attempt, AttemptPlan
    from sim.rules.prop3.models import Rules
    from sim.rules.prop3.pool import Pool


def weapon_down(body: Body) -> bool:
    """Whether a fumble left the melee weapon, or the missile weapon, out of hand."""
    return not body.armed or (body.profile.missile is not None and not body.bow)


#: Makes a free counter-attack: ``counter(fight, fighter, target, automatic)``.
CounterAttack = Callable[["Fight[F]", F, F, bool], None]


class Fight(Generic[F]):
    """The state of one fight that attacks read and change.

    Args:
        combat: the engine's combat.
        rules: the hot-path rule options.
        counter: makes a counter-attack (``counter(fight, fighter, target, automatic)``).
    """

    __slots__ = ("_counter", "cluster", "combat", "dice", "rules", "tracing")

    def __init__(self, combat: Combat[F], rules: Rules, counter: CounterAttack[F]) -> None:
        self._counter = counter
        self.combat = combat
        self.dice = combat.dice
        self.rules = rules
        self.tracing = combat.trace is not None
        self.cluster = Cluster(len(combat.side_names))

    # -- what the round process and the hybrid decide ---------------------------------------------

    def higher(self, a: F, b: F) -> bool:
        """Whether ``a`` is higher than ``b`` in initiative (``b`` then declares first)."""
        raise NotImplementedError

    def distance(self, a: F, b: F) -> float:
        """Feet between two combatants."""
        return 0.0

    def can_defend(self, defender: F, primary: bool) -> bool:
        """Whether ``defender`` may roll a defense against this attack."""
        return True

    def defense_rolled(self, defender: F, primary: bool) -> None:
        """Book-keep a defense roll."""
        defender.defenses += 1

    def lose_vigor(self, attacker: F | None, target: F, wounds: int) -> None:
        """Lower ``target``'s Vigor (its hit points) by ``wounds``; out at 0."""
        raise NotImplementedError

    # -- damage -----------------------------------------------------------------------------------

    def harm(self, attacker: F | None, target: F, nicks: int, wounds: int) -> None:
        """Put nicks and wounds on ``target``'s damage track."""
        body = target.state
        body.nicks, wounds = track(body.nicks, nicks, wounds, self.rules.nicks_per_wound)
        if self.tracing:
            self.combat.emit(
                "harm",
                attacker,
                target,
                nicks=nicks,
                wounds=wounds,
                track=body.nicks,
                vigor=target.hp - wounds,
            )
        if wounds > 0:
            self.lose_vigor(attacker, target, wounds)

    def taken_out(self, fighter: F) -> None:
        """A combatant left the fight: the effects it caused end."""
        body = fighter.state
        for effect in body.at_start:
            effect.undo()
        for effect in body.after:
            effect.undo()
        body.at_start = []
        body.after = []

    def pick_up(self, fighter: F) -> bool:
        """A weapon dropped by a fumble (melee or missile) is picked up: the action goes to it.

        The fumble text: "You are weaponless until your next action, when you can pick up the
        dropped weapon or draw another one." Returns True when the action was spent so.
        """
        body = fighter.state
        if not weapon_down(body):
            return False
        body.armed = True
        body.bow = body.profile.missile is not None
        if self.tracing:
            self.combat.emit("pick_up", fighter)
        return True

    def apply(self, consequence: Consequence, attacker: F, defender: F) -> None:
        """Apply what a critical defense or a fumble does (its parts: attacker, defender)."""
        parts = (attacker, defender)
        if isinstance(consequence, Drop):
            body = attacker.state
            if consequence.missile:
                body.bow = False
            else:
                body.armed = False
        elif isinstance(consequence, Harm):
            self.harm(None, parts[consequence.victim], consequence.nicks, consequence.wounds)
        elif isinstance(consequence, Counter):
            by = consequence.by
            self.counter(parts[by], parts[1 - by], consequence.automatic)
        elif isinstance(consequence, Mark):
            self.mark(
                parts[consequence.owner],
                parts[consequence.victim],
                consequence.exposed,
                consequence.shaken,
                consequence.after,
            )

    # -- effects until the next action ------------------------------------------------------------

    def mark(
        self, owner: F, victim: F, exposed: int = 0, shaken: int = 0, after: bool = False
    ) -> None:
        """An effect on ``victim`` that lasts until ``owner``'s next action starts (or is over).

        Args:
            owner: whose next action ends it.
            victim: who suffers it.
            exposed: wiggle points everyone attacking the victim gets.
            shaken: dice the victim loses on every defense.
            after: ends when the owner's next action is over, not when it starts.
        """
        if owner.out is not None:
            return
        effect = LastingEffect(victim.state, exposed, shaken)
        effect.apply()
        (owner.state.after if after else owner.state.at_start).append(effect)

    def begin_action(self, fighter: F) -> Sequence[LastingEffect]:
        """``fighter``'s action starts: end its "until my next action" effects.

        Returns:
            The effects that end when this action is over (pass them to :meth:`end_action`).
        """
        body = fighter.state
        if body.at_start:
            for effect in body.at_start:
                effect.undo()
            body.at_start = []
        closing = body.after
        if not closing:
            return ()
        body.after = []
        return closing

    def end_action(self, closing: Sequence[LastingEffect]) -> None:
        """The action is over: end the effects :meth:`begin_action` handed over."""
        for effect in closing:
            effect.undo()

    # -- exchanges --------------------------------------------------------------------------------

    def reserve(self, fighter: F, pool: Pool) -> int:
        """The persistent points (advantages, skill focuses) ``fighter`` has left for ``pool``."""
        body = fighter.state
        profile = body.profile
        if self.rules.spending == "never" or not profile.has_points:
            return 0
        return sum(body.points[i] for i in profile.points[pool.roll])

    def exchange(
        self,
        attacker: F,
        defender: F,
        attack: Pool,
        defense: Pool | None,
        *,
        name: str,
        primary: bool = False,
        save: int = 0,
        automatic: bool = False,
        first: AttemptPlan | None = None,
    ) -> ExchangeOutcome:
        """Play one exchange (:func:`~sim.rules.prop3.exchange.roll_exchange`) and apply it.

        Args:
            attacker: who attacks.
            defender: its target.
            attack: the attacker's pool.
            defense: the defender's pool, or None when it cannot defend.
            name: the attack's name in the trace.
            primary: the attack is an action on the ACS clock (which books its defense itself).
            save: armor points that may still save a failed missile defense.
            automatic: an automatic hit, rolled only to see whether it is critical.
            first: the tables of the first attempt, kept by the caller for an input that is
                always the same (:meth:`fixed_input`); None: looked up.

        Returns:
            The outcome, applied: persistent points spent, the defense booked, the trace told.
            What the outcome does to the fight is the caller's (``outcomes.settle``).
        """
        if first is None:
            exchange = self.exchange_input(attacker, defender, attack, defense, save, automatic)
        else:
            exchange = first.exchange
        outcome = roll_exchange(exchange, self.dice, first)
        booked = False
        for attempt in outcome.attempts:
            if attempt.attack.extra > 0:
                self.spend(attacker, attack, attempt.attack.extra)
            answer = attempt.defense
            if answer is not None and defense is not None:
                if not booked:
                    booked = True
                    self.defense_rolled(defender, primary)
                if answer.armor and self.tracing:
                    self.combat.emit("armor_save", defender, points=answer.armor)
                if answer.extra > 0:
                    self.spend(defender, defense, answer.extra)
            if self.tracing:
                self._trace(attacker, defender, exchange, attempt, name)
        return outcome

    def exchange_input(
        self,
        attacker: F,
        defender: F,
        attack: Pool,
        defense: Pool | None,
        save: int = 0,
        automatic: bool = False,
    ) -> ExchangeInput:
        """The input of an exchange (:meth:`exchange`): the pools and the points left to spend."""
        a_points = attacker.state.profile.has_points
        d_points = defense is not None and defender.state.profile.has_points
        return ExchangeInput(
            attack,
            defense,
            self.rules.exchange,
            self.reserve(attacker, attack) if a_points else 0,
            self.reserve(defender, defense) if d_points and defense is not None else 0,
            save,
            automatic,
        )

    def fixed_input(
        self, attacker: F, defender: F, attack: Pool, defense: Pool | None, save: int = 0
    ) -> ExchangeInput | None:
        """The input of an exchange of these pools if it is always the same, else None.

        It is unless a side has persistent points it may spend (their reserves change).
        """
        if self.rules.spending != "never" and (
            attacker.state.profile.has_points
            or (defense is not None and defender.state.profile.has_points)
        ):
            return None
        return self.exchange_input(attacker, defender, attack, defense, save)

    def spend(self, fighter: F, pool: Pool, amount: int) -> None:
        """Take ``amount`` persistent points from the pools that help ``pool``, focuses first."""
        if amount <= 0:
            return
        points = fighter.state.points
        if self.tracing:
            self.combat.emit("advantage", fighter, points=amount)
        for i in fighter.state.profile.points[pool.roll]:
            take = min(points[i], amount)
            points[i] -= take
            amount -= take
            if not amount:
                return

    def _trace(
        self, attacker: F, defender: F, exchange: ExchangeInput, attempt: Attempt, name: str
    ) -> None:
        """Emit one attempt (the ``exchange`` event the narration reads)."""
        attack, defense = exchange.attack, exchange.defense
        rules = exchange.rules
        counted = attempt.defense
        d_faces = attempt.d_faces
        wiggled = attack_wiggle(rules, attack, attempt.faces, attempt.attack)
        answer = None
        if counted is not None and d_faces is not None and defense is not None:
            answer = defense_wiggle(rules, defense, attempt.attack.result, d_faces, counted)
        self.combat.emit(
            "exchange",
            attacker,
            defender,
            attack=name,
            defense=None if defense is None else DEFENSE_FORMS[defense.roll - DODGE].value,
            dice=attack.dice,
            sides=attack.sides,
            wiggle=attack.wiggle,
            faces=list(attempt.faces),
            wiggled=list(wiggled.faces),
            spent=wiggled.spent,
            result=str(attempt.attack.result),
            d_dice=0 if defense is None else defense.dice,
            d_sides=0 if defense is None else defense.sides,
            d_wiggle=0 if defense is None else defense.wiggle,
            d_faces=None if d_faces is None else list(d_faces),
            d_wiggled=None if answer is None else list(answer.wiggled.faces),
            d_spent=0 if answer is None else answer.wiggled.spent,
            d_result=None if counted is None else str(counted.result),
            outcome=attempt.outcome.value,
            automatic=exchange.automatic,
        )

    # -- counter-attacks --------------------------------------------------------------------------

    def counter(self, fighter: F, target: F, automatic: bool) -> None:
        """``fighter``'s immediate free counter-attack on ``target`` (fumble 3, critical parry).

        ``automatic``: it hits, and is rolled only to see whether it is critical. The attack
        itself is the one the fight was given (:func:`~sim.rules.prop3.counters.counter_attack`).
        """
        self._counter(self, fighter, target, automatic)
