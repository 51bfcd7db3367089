"""Target 10 as a rule system of the engine (``rules: target10``).

Binds the scenario models (:mod:`~sim.rules.target10.models`) to the round process
(:mod:`~sim.rules.target10.round`), or, for ``options: {kind: test}``, to the tests outside combat
(:mod:`~sim.rules.target10.extended`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pydantic import BaseModel

from sim.engine.combat import Combat, TraceEvent
from sim.engine.dice import Dice, DiceExpr
from sim.engine.errors import Problem
from sim.rules.base import ScenarioCombatant
from sim.rules.base import ScenarioView as Scenario
from sim.rules.target10.combatant import Stats, T10Fighter
from sim.rules.target10.exchange import AttackInput
from sim.rules.target10.extended import TesterFighter, TestPlay, tester_values
from sim.rules.target10.hybrid import TARGET10_RESOLUTION, Target10Resolution
from sim.rules.target10.luck import luck_cap
from sim.rules.target10.models import Combatant, CombatOptions, Tester, TestOptions
from sim.rules.target10.narration import NARRATION, time_label
from sim.rules.target10.round import RoundRules, Target10Rounds, keeps_history
from sim.rules.target10.state import ROUND_S


class Target10Prepared:
    """A Target 10 combat scenario ready to play combat after combat."""

    def __init__(self, scenario: Scenario) -> None:
        options = scenario.options
        assert isinstance(options, CombatOptions)  # options_model's choice for a combat
        self.rules = RoundRules.of(options)
        # The attacks' inputs its combats have made (values: every combat may reuse them).
        self.exchanges: dict[tuple[object, ...], AttackInput] = {}
        distance = options.start_distance
        self.roster = []
        for spec in scenario.combatants:
            model = spec.stats
            assert isinstance(model, Combatant)
            position = model.position if model.position is not None else spec.side * distance
            stats = Stats.of(model, options, spec.side)
            self.roster.append(
                (spec.name, spec.side, DiceExpr.parse(model.hp), stats, position, model.on_ground)
            )
        self.history = keeps_history(stats for _, _, _, stats, _, _ in self.roster)

    def spawn(self, dice: Dice) -> list[T10Fighter]:
        """Fresh fighters, hit point dice rolled in scenario order."""
        fighters = []
        for index, (name, side, hp, stats, position, on_ground) in enumerate(self.roster):
            f = T10Fighter(name, side, index, hp.roll(dice), stats, position)
            if on_ground:
                f.on_ground = True
                f.hampered = self.rules.ground_pen
            fighters.append(f)
        return fighters

    def start(self, combat: Combat[T10Fighter]) -> None:
        """Start the round process."""
        Target10Rounds(combat, self.rules, self.exchanges, self.history).start()


class TestPrepared:
    """A scenario of a test outside combat."""

    def __init__(self, scenario: Scenario) -> None:
        options = scenario.options
        assert isinstance(options, TestOptions)  # options_model's choice for kind: test
        self.options = options
        self.roster = []
        for spec in scenario.combatants:
            assert isinstance(spec.stats, Tester)
            self.roster.append((spec.name, spec.side, tester_values(spec.stats, options)))

    def spawn(self, dice: Dice) -> list[TesterFighter]:
        """Fresh testers (nothing is rolled)."""
        return [
            TesterFighter(name, side, index, *numbers)
            for index, (name, side, numbers) in enumerate(self.roster)
        ]

    def start(self, combat: Combat[TesterFighter]) -> None:
        """Start the test."""
        TestPlay(combat, self.options).start()


class Target10System:
    """``rules: target10``: rounds of declared movements and actions, or tests outside combat."""

    name = "target10"
    title = "Target 10"
    default_time_limit_s = 3600.0
    resolutions: Mapping[str, Target10Resolution] = {"target10": TARGET10_RESOLUTION}

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events of its rounds."""
        return NARRATION

    @staticmethod
    def time_label(t: float) -> str:
        """``round N`` for simulation time ``t``."""
        return time_label(t)

    @staticmethod
    def round_seconds(options: BaseModel) -> float | None:
        """A round of one minute (Target 10, "Combat": "A round is roughly one minute long")."""
        return ROUND_S

    def options_model(self, raw: Mapping[str, object]) -> type[BaseModel]:
        """Combat options, or test options when ``kind: test``."""
        return TestOptions if raw.get("kind") == "test" else CombatOptions

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """A fighter's stat block, or a tester's in a test scenario."""
        return Tester if isinstance(options, TestOptions) else Combatant

    def check(self, scenario: Scenario) -> list[Problem]:
        """Rules that involve several fields: luck caps, negotiators, the shape of a test."""
        options = scenario.options
        assert isinstance(options, (CombatOptions, TestOptions))
        problems = [
            p for spec in scenario.combatants for p in _combatant_problems(scenario, options, spec)
        ]
        if isinstance(options, TestOptions):
            problems += _test_problems(scenario, options)
        elif scenario.time_limit_s < 60:
            problems.append(
                Problem(
                    scenario.file,
                    ("time_limit",),
                    None,
                    f"{scenario.time_limit_s:g} s",
                    "at least one round of 60 s",
                )
            )
        return problems

    def prepare(self, scenario: Scenario) -> Target10Prepared | TestPrepared:
        """Plain objects for the hot path."""
        if isinstance(scenario.options, TestOptions):
            return TestPrepared(scenario)
        return Target10Prepared(scenario)


def _combatant_problems(
    scenario: Scenario, options: CombatOptions | TestOptions, spec: ScenarioCombatant
) -> list[Problem]:
    """Luck beyond the cap of the skill level (text, "Luck Points"); a negotiating non-venturer."""
    problems = []
    model = spec.stats
    assert isinstance(model, (Combatant, Tester))
    caps = options.luck_caps.model_dump()
    cap = luck_cap(model.skill_level, caps)
    if model.luck is not None and model.luck > cap:
        level = model.skill_level or "no skill level"
        problems.append(
            Problem(
                scenario.file,
                (*spec.path, "luck"),
                None,
                f"{model.luck} luck points for {spec.name}",
                f"at most {cap} for {level} (luck_caps; set skill_level: low for up to "
                f"{caps['low']})",
            )
        )
    if isinstance(model, Combatant) and not model.venturer and _negotiates(model):
        problems.append(
            Problem(
                scenario.file,
                (*spec.path, "tactics"),
                None,
                f"a negotiate action for {spec.name}, who is not a venturer",
                "negotiate only for venturers (venturer: true)",
            )
        )
    return problems


def _test_problems(scenario: Scenario, options: TestOptions) -> list[Problem]:
    """The shape of a test outside combat: two sides, a tester, and someone to contest it."""
    file = scenario.file
    if len(scenario.side_names) != 2:
        found = f"{len(scenario.side_names)} sides"
        return [Problem(file, ("sides",), None, found, "two sides in a test: the testers, "
                        "then the opposition")]
    testers = [s.stats for s in scenario.combatants if s.side == 0]
    opposed = [s.stats for s in scenario.combatants if s.side == 1]
    if options.mode == "extended" and all(isinstance(t, Tester) and t.nature for t in testers):
        return [Problem(file, ("sides", 0), None, "no character on the testing side",
                        "at least one tester who is not nature")]
    if options.mode == "contest" and not any(
        isinstance(t, Tester) and not t.nature for t in opposed
    ):
        return [Problem(file, ("sides", 1), None, "no character on the second side",
                        "someone to contest the test (nature never rolls)")]
    return []


def _negotiates(model: Combatant) -> bool:
    tactics = model.tactics
    if tactics.declare is not None:
        return tactics.declare.action == "negotiate"
    if tactics.rules is not None:
        return any(rule.then.action == "negotiate" for rule in tactics.rules)
    return False


TARGET10 = Target10System()
