"""Scenarios of tests outside combat: extended tests and contests, played on the engine.

``options: {kind: test}`` makes a scenario a test (Target 10 text, "Tests", "Man vs. Man", "Man vs.
Nature"). The first side's characters test, taking turns in TV order (ties: skill, ability
score, a coin; :func:`~sim.rules.target10.skill_tests.turn_order`); the second side opposes with its
best TV (``nature: true`` members are nature: TV 1..10, default ``nature_tv`` 5, never rolling).
Each roll is d20 + (TV - opposing TV) + situational against ``test_target``.

- ``mode: extended`` (default): the test succeeds on ``successes`` successes before
  ``failures`` shared failures (Juan and Susan: 3 before 4). A single opposed test is
  ``successes: 1, failures: 1``, the defaults.
- ``mode: contest``: both sides' characters test in one TV order ("the character with the higher
  TV always rolls their test first"), each against the other side's best TV; the first side to
  ``successes`` successes wins.

So that records, summaries and the CLI work unchanged, a test is a "combat" whose first side wins
on success and whose second side wins on failure: ``combatsim run`` then prints the success rate
with its Wilson 95% interval as the first side's win rate. Each roll takes one round of game
time (60 s); a contest still undecided at the time limit is a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.engine.combat import Combat
from sim.engine.combatant import Fighter
from sim.rules.target10.luck import luck_cap, spend_on_failed_test
from sim.rules.target10.skill_tests import roll_test, turn_order, tv_of
from sim.rules.target10.state import ROUND, ROUND_S
from sim.rules.target10.values import ability_modifier, clamp

if TYPE_CHECKING:
    from sim.rules.target10.models import Tester, TestOptions


class TesterFighter(Fighter):
    """A character taking part in a test."""

    __slots__ = ("ability", "luck", "nature", "policy", "situational", "skill", "tv")

    def __init__(
        self,
        name: str,
        side: int,
        index: int,
        tv: int,
        skill: int,
        ability: int,
        luck: int,
        policy: str,
        nature: bool,
    ) -> None:
        super().__init__(name, side, index, 1)
        self.tv = tv
        self.skill = skill
        self.ability = ability
        self.luck = luck
        self.policy = policy
        self.nature = nature


def tester_values(model: Tester, options: TestOptions) -> tuple[int, int, int, int, str, bool]:
    """``(tv, skill, ability score, luck, luck policy, nature)`` of a validated tester."""
    if model.nature:
        tv = model.tv if model.tv is not None else options.nature_tv
    elif model.tv is not None:
        tv = model.tv
    else:
        mod = model.ability_mod
        if mod is None:
            mod = ability_modifier(model.ability, options.ability_modifier)
        tv = tv_of(mod, model.skill)
    cap = luck_cap(model.skill_level, options.luck_caps.model_dump())
    luck = model.luck if model.luck is not None else cap
    return tv, model.skill, model.ability, luck, model.tactics.luck, model.nature


class TestPlay:
    """Plays one test outside combat as a process on the combat's clock."""

    def __init__(self, combat: Combat[TesterFighter], options: TestOptions) -> None:
        self.combat = combat
        self.mode = options.mode
        self.successes = options.successes
        self.failures = options.failures
        self.target = options.test_target
        limit = options.situational_clamp
        self.situational = clamp(options.situational, limit)
        self.rolls_allowed = int(combat.time_limit_s // ROUND_S + 1e-9)

    def start(self) -> None:
        """Start the process."""
        self.combat.env.process(self.run())

    def _best(self, side: int) -> int:
        return max(f.tv for f in self.combat.sides[side])

    def _turns(self) -> tuple[list, list[int]]:
        """Who rolls in which order, and the TV each side's rolls are made against."""
        combat = self.combat
        if self.mode == "extended":
            testers = [f for f in combat.sides[0] if not f.nature]
        else:
            testers = [f for side in combat.sides for f in side if not f.nature]
        order = turn_order([(f.tv, f.skill, f.ability) for f in testers], combat.dice)
        turns = [testers[i] for i in order]
        against = [self._best(1), self._best(0)]
        if combat.trace is not None:
            combat.emit(
                "test_order",
                None,
                order=[f.name for f in turns],
                tvs=[f.tv for f in turns],
                against=against[0],
            )
        return turns, against

    def run(self):
        """Roll until the test is decided."""
        combat = self.combat
        dice = combat.dice
        turns, against = self._turns()
        wins = [0, 0]
        failures = 0
        timeout = combat.env.timeout
        for n in range(self.rolls_allowed):
            f = turns[n % len(turns)]
            side = f.side
            modifier = f.tv - against[side] + self.situational
            roll = roll_test(dice, modifier, self.target)
            face = roll.face
            success = roll.success
            lucky = False
            if not success and f.luck > 0:
                decisive = self.mode == "extended" and failures + 1 >= self.failures
                if spend_on_failed_test(f.policy, decisive):
                    f.luck -= 1
                    success = lucky = True
            f.actions_taken += 1
            if success:
                wins[side] += 1
                f.hits += 1
            elif self.mode == "extended":
                failures += 1
            if combat.trace is not None:
                combat.emit(
                    "test",
                    f,
                    roll=face,
                    modifier=modifier,
                    need=self.target,
                    success=success,
                    luck=lucky,
                    successes=wins[side],
                    failures=failures,
                )
            duration = (n + 1) * ROUND_S
            if wins[side] >= self.successes:
                combat.finish("victory", duration, side)
                return
            if self.mode == "extended" and failures >= self.failures:
                combat.finish("victory", duration, 1)
                return
            yield timeout(ROUND)
        combat.finish("time_limit", combat.time_limit_s)
