"""The Ambition Combat System as a rule system of the engine.

Binds the ACS clock (:mod:`sim.rules.acs.clock`) to a resolution chosen by the ``resolution``
option (:mod:`sim.rules.acs.resolution`): the combatant model is the resolution's, which carries
the ACS timing fields; the options are the clock's plus the resolution's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, create_model, field_validator

from sim.dice import Dice, DiceExpr
from sim.engine import Combat
from sim.rules.acs.clock import AcsClock, AcsFighter, Timing
from sim.rules.acs.models import AcsClockOptions
from sim.rules.acs.narration import CLOCK_NARRATION
from sim.rules.acs.resolution import RESOLUTIONS
from sim.scenario.problems import Problem
from sim.scenario.schema import Scenario


class _Options(AcsClockOptions):
    @field_validator("resolution")
    @classmethod
    def _known_resolution(cls, value: str) -> str:
        if value not in RESOLUTIONS:
            raise ValueError(f"one of {', '.join(RESOLUTIONS)}")
        return value


class AcsPrepared:
    """An ACS scenario ready to play combat after combat."""

    def __init__(self, scenario: Scenario) -> None:
        options = scenario.options
        self.options = options
        self.resolution = RESOLUTIONS[options.resolution]
        self.time_limit_s = scenario.time_limit_s
        self.roster = [
            (
                spec.name,
                spec.side,
                DiceExpr.parse(spec.stats.hp),
                Timing.of(spec.stats, options),
                self.resolution.stats(spec.stats, options),
            )
            for spec in scenario.combatants
        ]

    def spawn(self, dice: Dice) -> list[AcsFighter]:
        """Fresh fighters, hit point dice rolled in scenario order."""
        return [
            AcsFighter(name, side, index, hp.roll(dice), timing, stats)
            for index, (name, side, hp, timing, stats) in enumerate(self.roster)
        ]

    def start(self, combat: Combat) -> None:
        """Start the seconds and the combatants' processes."""
        AcsClock(combat, self.options, self.resolution, self.options).start()


class AcsSystem:
    """``rules: acs``: the ACS clock with a resolution (percentile by default)."""

    name = "acs"
    title = "The Ambition Combat System"
    default_time_limit_s = 60.0

    def options_model(self, raw: Mapping[str, Any]) -> type[BaseModel]:
        """The clock's options plus those of the resolution the raw options name."""
        resolution = RESOLUTIONS.get(raw.get("resolution", "percentile"))
        if resolution is None:
            return _Options
        return create_model(
            f"AcsOptions_{resolution.name}", __base__=(_Options, resolution.options_model)
        )

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[Any], str]]:
        """The clock's sentences and those of the resolution in use."""
        return {**CLOCK_NARRATION, **RESOLUTIONS[options.resolution].narration}

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The stat block of the chosen resolution (it includes the ACS timing fields)."""
        return RESOLUTIONS[options.resolution].combatant_model

    def check(self, scenario: Scenario) -> list[Problem]:
        """No cross-field rules beyond the models' own for ACS."""
        return []

    def prepare(self, scenario: Scenario) -> AcsPrepared:
        """Plain objects for the hot path."""
        return AcsPrepared(scenario)


ACS = AcsSystem()
