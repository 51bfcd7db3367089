"""What every Proposition Three attack needs from the fight it happens in.

A :class:`Fight` is shared by the round process (:mod:`~sim.rules.prop3.round`) and the ACS
hybrid (:mod:`~sim.rules.prop3.hybrid`); they differ only in who counts as higher in initiative,
how far apart two combatants are, whether a defender may defend, and how a lost point of Vigor
takes a combatant out. Here are the parts they share:

- rolling and wiggling a pool, spending the persistent points (advantages and skill focuses,
  option ``advantage_spending``) on top of the fresh combat points;
- the damage track (:mod:`~sim.rules.prop3.damage`);
- effects "until the next action" (stumble, fall, critical block and dodge), registered on the
  combatant whose next action ends them and undone then;
- counter-attacks (fumble 3, critical parry), which are free attacks, not actions: the fight is
  handed the function that makes them (:mod:`~sim.rules.prop3.counters`, which sits above the
  attack modules that call back into the fight).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sim.rules.prop3.character import LastingEffect
from sim.rules.prop3.cluster import Cluster
from sim.rules.prop3.damage import track
from sim.rules.prop3.pool import (
    CRIT_REDUCED,
    CRITICAL_DEFENSE,
    CRITICAL_HIT,
    DEFENDED,
    FAILED_DEFENSES,
    FUMBLE,
    HIT,
    NO_SET,
    TIE,
    resolve,
)
from sim.rules.prop3.ranged import missile_defense
from sim.rules.prop3.wiggle import AttackerPolicy, DefenderPolicy, Defense, Wiggled

if TYPE_CHECKING:
    from sim.engine.combat import Combat
    from sim.rules.prop3.models import Rules
    from sim.rules.prop3.pool import Pool, Result

_DEFENSE_RANK = {
    CRITICAL_HIT: 0,
    HIT: 1,
    CRIT_REDUCED: 1,
    TIE: 2,
    DEFENDED: 3,
    CRITICAL_DEFENSE: 4,
    FUMBLE: 5,
}
"""How good an outcome is for the defender."""


@lru_cache(maxsize=1 << 16)
def _attack_cached(
    policy: AttackerPolicy,
    faces: tuple[int, ...],
    sides: int,
    points: int,
    keep: str,
    crit: bool,
    ones: bool,
) -> Wiggled:
    return policy(faces, sides, points, keep=keep, crit_allowed=crit, only_ones=ones)


@lru_cache(maxsize=1 << 16)
def _defense_cached(
    policy: DefenderPolicy,
    attack: Result,
    faces: tuple[int, ...],
    sides: int,
    points: int,
    keep: str,
    crit: bool,
    ones: bool,
    cuts: str,
) -> Defense:
    return policy(
        attack, faces, sides, points, keep=keep, crit_allowed=crit, only_ones=ones, cuts=cuts
    )


def attack_policy(
    policy: AttackerPolicy, faces: Sequence[int], pool: Pool, keep: str, tracing: bool
) -> Wiggled:
    """An attacker policy's answer for ``pool``, cached by the sorted faces when not tracing.

    The policies sort the roll before searching, so their result and the points they spend do
    not depend on the order of the faces; only the trace shows the wiggled dice in rolled order.
    """
    sides, points, crit, ones = pool.sides, pool.wiggle, pool.crit_allowed, pool.only_ones
    if tracing:
        return policy(faces, sides, points, keep=keep, crit_allowed=crit, only_ones=ones)
    return _attack_cached(policy, tuple(sorted(faces)), sides, points, keep, crit, ones)


def defense_policy(
    policy: DefenderPolicy,
    attack: Result,
    faces: Sequence[int],
    sides: int,
    points: int,
    keep: str,
    crit: bool,
    ones: bool,
    tracing: bool,
    cuts: str = "cut",
) -> Defense:
    """A defender policy's answer, cached like :func:`attack_policy`."""
    if tracing:
        return policy(
            attack, faces, sides, points, keep=keep, crit_allowed=crit, only_ones=ones, cuts=cuts
        )
    return _defense_cached(
        policy, attack, tuple(sorted(faces)), sides, points, keep, crit, ones, cuts
    )


def weapon_down(body: Any) -> bool:
    """Whether a fumble left the melee weapon, or the missile weapon, out of hand."""
    return not body.armed or (body.profile.missile is not None and not body.bow)


CounterAttack = Callable[["Fight", Any, Any, bool], None]
"""Makes a free counter-attack: ``counter(fight, fighter, target, automatic)``."""


class Fight:
    """The state of one fight that attacks read and change.

    Args:
        combat: the engine's combat.
        rules: the hot-path rule options.
        counter: makes a counter-attack (``counter(fight, fighter, target, automatic)``).
    """

    __slots__ = ("_counter", "cluster", "combat", "dice", "rules", "tracing")

    def __init__(self, combat: Combat[Any], rules: Rules, counter: CounterAttack) -> None:
        self._counter = counter
        self.combat = combat
        self.dice = combat.dice
        self.rules = rules
        self.tracing = combat.trace is not None
        self.cluster = Cluster(len(combat.side_names))

    # -- what the round process and the hybrid decide ---------------------------------------------

    def higher(self, a: Any, b: Any) -> bool:
        """Whether ``a`` is higher than ``b`` in initiative (``b`` then declares first)."""
        raise NotImplementedError

    def distance(self, a: Any, b: Any) -> float:
        """Feet between two combatants."""
        return 0.0

    def can_defend(self, defender: Any, primary: bool) -> bool:
        """Whether ``defender`` may roll a defense against this attack."""
        return True

    def defense_rolled(self, defender: Any, primary: bool) -> None:
        """Book-keep a defense roll."""
        defender.defenses += 1

    def lose_vigor(self, attacker: Any, target: Any, wounds: int) -> None:
        """Lower ``target``'s Vigor (its hit points) by ``wounds``; out at 0."""
        raise NotImplementedError

    # -- damage -----------------------------------------------------------------------------------

    def harm(self, attacker: Any, target: Any, nicks: int, wounds: int) -> None:
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

    def taken_out(self, fighter: Any) -> None:
        """A combatant left the fight: the effects it caused end."""
        body = fighter.state
        for effect in body.at_start:
            effect.undo()
        for effect in body.after:
            effect.undo()
        body.at_start = []
        body.after = []

    def pick_up(self, fighter: Any) -> bool:
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

    # -- effects until the next action ------------------------------------------------------------

    def mark(
        self, owner: Any, victim: Any, exposed: int = 0, shaken: int = 0, after: bool = False
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

    def begin_action(self, fighter: Any) -> Sequence[LastingEffect]:
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

    # -- rolling ----------------------------------------------------------------------------------

    def attack_roll(self, fighter: Any, pool: Pool, faces: Sequence[int]) -> Wiggled:
        """The attacker's wiggled roll (combat points, then persistent points by the option)."""
        rules = self.rules
        policy = rules.attack_policy
        keep = rules.keep
        wiggled = attack_policy(policy, faces, pool, keep, self.tracing)
        body = fighter.state
        if rules.spending == "never" or not body.profile.has_points:
            return wiggled
        pools = body.profile.points[pool.roll]
        available = sum(body.points[i] for i in pools)
        if not available:
            return wiggled
        sides, points = pool.sides, pool.wiggle
        crit, ones = pool.crit_allowed, pool.only_ones
        if rules.spending == "always":
            more = policy(
                faces, sides, points + available, keep=keep, crit_allowed=crit, only_ones=ones
            )
            if more.result > wiggled.result:
                self._spend(fighter, pools, more.spent - points)
                return more
            return wiggled
        if wiggled.result.kind != NO_SET:
            return wiggled
        for extra in range(1, available + 1):
            more = policy(
                faces, sides, points + extra, keep=keep, crit_allowed=crit, only_ones=ones
            )
            if more.result.kind != NO_SET:
                self._spend(fighter, pools, more.spent - points)
                return more
        return wiggled

    def _answer(
        self, attack: Result, faces: Sequence[int], pool: Pool, points: int, save: int
    ) -> tuple[Defense, int]:
        """The policy's answer with ``points``, and the armor points it used (missiles only)."""
        keep = self.rules.keep
        sides, crit, ones = pool.sides, pool.crit_allowed, pool.only_ones
        if save:
            answer = missile_defense(
                attack,
                faces,
                sides,
                points,
                save_points=save,
                keep=keep,
                crit_allowed=crit,
                only_ones=ones,
                cuts=self.rules.cuts,
            )
            return answer.defense, save if answer.armor_used else 0
        return defense_policy(
            self.rules.defense_policy,
            attack,
            faces,
            sides,
            points,
            keep,
            crit,
            ones,
            self.tracing,
            self.rules.cuts,
        ), 0

    def defense_answer(
        self, fighter: Any, pool: Pool, attack: Result, faces: Sequence[int], save: int = 0
    ) -> Defense:
        """The defender's answer to a seen attack (persistent points by the option).

        ``save`` are armor points against a missile, used only if the defense fails.
        """
        points = pool.wiggle
        answer, used = self._answer(attack, faces, pool, points, save)
        if used and self.tracing:
            self.combat.emit("armor_save", fighter, points=used)
        rules = self.rules
        body = fighter.state
        if rules.spending == "never" or not body.profile.has_points:
            return answer
        cuts = rules.cuts
        outcome = resolve(attack, answer.result, cuts)
        if outcome not in FAILED_DEFENSES:
            return answer
        pools = body.profile.points[pool.roll]
        available = sum(body.points[i] for i in pools)
        if not available:
            return answer
        base = _DEFENSE_RANK[outcome]
        if rules.spending == "always":
            more, used = self._answer(attack, faces, pool, points + available, save)
            if _DEFENSE_RANK[resolve(attack, more.result, cuts)] > base:
                self._spend(fighter, pools, more.wiggled.spent - points - used)
                return more
            return answer
        reduced = None
        for extra in range(1, available + 1):
            more, used = self._answer(attack, faces, pool, points + extra, save)
            got = resolve(attack, more.result, cuts)
            if got in (DEFENDED, CRITICAL_DEFENSE):
                self._spend(fighter, pools, more.wiggled.spent - points - used)
                return more
            if reduced is None and _DEFENSE_RANK[got] > base and got != TIE:
                reduced = (more, used)
        if reduced is not None:
            more, used = reduced
            self._spend(fighter, pools, more.wiggled.spent - points - used)
            return more
        return answer

    def _spend(self, fighter: Any, pools: tuple[int, ...], amount: int) -> None:
        """Take ``amount`` persistent points from the pools, skill focuses first."""
        if amount <= 0:
            return
        points = fighter.state.points
        if self.tracing:
            self.combat.emit("advantage", fighter, points=amount)
        for i in pools:
            take = min(points[i], amount)
            points[i] -= take
            amount -= take
            if not amount:
                return

    # -- counter-attacks --------------------------------------------------------------------------

    def counter(self, fighter: Any, target: Any, automatic: bool) -> None:
        """``fighter``'s immediate free counter-attack on ``target`` (fumble 3, critical parry).

        ``automatic``: it hits, and is rolled only to see whether it is critical. The attack
        itself is the one the fight was given (:func:`~sim.rules.prop3.counters.counter_attack`).
        """
        self._counter(self, fighter, target, automatic)
