"""The duel lane: the rounds of a *static duel*, without declarations and steps.

Two combatants who hold their ground and Kill (or Subdue) each other in reach can never change
that: nobody moves, no action leaves a condition, and the first one out ends the fight. Their
rounds (Target 10 text, "Combat Tests": initiative 1d6 + DEX bonus, highest first, ties
simultaneous) are then just initiative, attack tests and damage. This lane plays them with the
round's own functions (:func:`~sim.rules.target10.combat_rolls.attack_rolls`,
:func:`~sim.rules.target10.combat_rolls.damage_roll`,
:mod:`~sim.rules.target10.effects`), drawing
the same dice in the same order, and skips only the bookkeeping a static duel cannot need. It is
used only without tracing; ``tests/target10/test_t10_round.py`` checks that it gives exactly the
general path's results. It takes cover (:func:`~sim.rules.target10.combat_rolls.cover_modifier`)
and luck spent to hit (:func:`~sim.rules.target10.combat_rolls.lucky_hit`) through the same
functions, and leaves to the general round a duel in which someone would shoot (a ranged weapon
at point-blank range: :func:`~sim.rules.target10.combat_rolls.weapon_for`), since shots use
ammunition and firearms reload.
"""

from __future__ import annotations

from sim.rules.target10.actions import KILL, SUBDUE
from sim.rules.target10.combat_rolls import (
    MELEE,
    attack_rolls,
    cover_modifier,
    damage_roll,
    lucky_hit,
    weapon_for,
)
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.effects import Effect, land, land_blow
from sim.rules.target10.movements import HOLD
from sim.rules.target10.skill_tests import DIE, D20Roll
from sim.rules.target10.state import ROUND_S, DuelPlan, RoundState

INITIATIVE_DIE = 6


class StaticDuel:
    """Plays the rounds of a static duel (see the module's docstring)."""

    __slots__ = ("a", "a_kind", "a_rolls", "b", "b_kind", "b_rolls", "dice", "least", "state")

    def __init__(self, state: RoundState, plan: DuelPlan, a: T10Fighter, b: T10Fighter) -> None:
        self.state = state
        self.a = a
        self.b = b
        self.dice = state.dice
        self.least = state.rules.test.min_damage
        self.a_rolls = plan.a_rolls
        self.b_rolls = plan.b_rolls
        self.a_kind = plan.a_kind
        self.b_kind = plan.b_kind

    def play(self, r: int) -> None:
        """Play round ``r`` of the duel."""
        rs = self.state
        roll = rs.dice.roll
        a = self.a
        b = self.b
        ia = roll(INITIATIVE_DIE) + a.dex_mod
        ib = roll(INITIATIVE_DIE) + b.dex_mod
        a.init = ia
        b.init = ib
        if ia == ib:
            # One step: both attacks read the state before it, and their hits land together.
            a.actions_taken += 1
            b.actions_taken += 1
            a_hit = self.strike(a, b, self.a_rolls, r)
            b_hit = self.strike(b, a, self.b_rolls, r)
            effects = []
            if a_hit is not None:
                effects.append(Effect(self.a_kind, a, b, a_hit))
            if b_hit is not None:
                effects.append(Effect(self.b_kind, b, a, b_hit))
            if effects:
                land(rs, effects, r)
        else:
            if ia > ib:
                first, second, first_rolls, second_rolls = a, b, self.a_rolls, self.b_rolls
                first_kind, second_kind = self.a_kind, self.b_kind
            else:
                first, second, first_rolls, second_rolls = b, a, self.b_rolls, self.a_rolls
                first_kind, second_kind = self.b_kind, self.a_kind
            # Two steps: each hit lands as it is rolled.
            first.actions_taken += 1
            amount = self.strike(first, second, first_rolls, r)
            if amount is not None:
                land_blow(rs, first, second, first_kind, amount, r)
            if second.out is None:
                second.actions_taken += 1
                amount = self.strike(second, first, second_rolls, r)
                if amount is not None:
                    land_blow(rs, second, first, second_kind, amount, r)
        if rs.changed:
            rs.changed = False
            rs.combat.check_end((r + 1) * ROUND_S)

    def strike(
        self, f: T10Fighter, t: T10Fighter, rolls: tuple[D20Roll, ...], r: int
    ) -> int | None:
        """One attack of the duel, as :func:`~sim.rules.target10.attacks.attack` rolls it.

        Returns:
            The damage of a hit, or None for a miss.
        """
        f.attacks += 1
        t.attacked = r
        dice = self.dice
        s = f.stats
        if not rolls[dice.roll(DIE)].success:  # roll_test, its table looked up once
            if f.luck <= 0 or not s.succeed.spends:
                return None
            sample = rolls[1]  # every roll of the table carries its modifier and need
            if not lucky_hit(
                s.succeed, sample.modifier, sample.need, t.hp, s.melee_damage, s.str_mod, self.least
            ):
                return None
            f.luck -= 1
        f.hits += 1
        faces = s.melee_faces
        if faces is not None:
            return faces[dice.roll(len(faces) - 1)]  # damage_roll, its table looked up
        return damage_roll(dice, s.melee_damage, s.str_mod, self.least)


def static_duel(rs: RoundState) -> StaticDuel | None:
    """The duel lane, when the fight is a static duel from its start (see :class:`StaticDuel`).

    The answer and the plan come from the chunk's :class:`LaneMemo` when the round has one
    (:func:`duel_plan` works them out for its first combat).
    """
    memo = rs.lane
    if memo is None:
        plan = duel_plan(rs)
    elif memo.known:
        plan = memo.plan
    else:
        plan = memo.plan = duel_plan(rs)
        memo.known = True
    if plan is None:
        return None
    a, b = rs.fighters
    a.target = b
    b.target = a
    return StaticDuel(rs, plan, a, b)


def duel_plan(rs: RoundState) -> DuelPlan | None:
    """The plan of a fight that is a static duel from its start, or None for any other fight."""
    fighters = rs.fighters
    if len(fighters) != 2:
        return None
    a, b = fighters
    distance = abs(a.pos - b.pos)
    if a.side == b.side or distance > min(a.reach, b.reach):
        return None
    for f in fighters:
        s = f.stats
        if (
            weapon_for(distance, f.reach, f.range, s.point_blank) != MELEE
            or s.decide is not None
            or s.fixed[0] != HOLD
            or s.fixed[1] not in (KILL, SUBDUE)
            or f.on_ground
            or f.out is not None
        ):
            return None
    test = rs.rules.test
    cover_all = rs.rules.cover_all
    a_sit = a.stats.situational + cover_modifier(b.stats.cover, False, cover_all)
    b_sit = b.stats.situational + cover_modifier(a.stats.cover, False, cover_all)
    return DuelPlan(
        a_rolls=attack_rolls(a.stats.fight, b.dv, a_sit, test),
        b_rolls=attack_rolls(b.stats.fight, a.dv, b_sit, test),
        a_kind=a.stats.fixed[1],
        b_kind=b.stats.fixed[1],
    )
