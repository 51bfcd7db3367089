"""A scenario's ``sensitivity:`` section: the parameters a study varies, and their ranges.

A sensitivity study asks "of all these levers, which one moves the balance most?":
``combatsim sensitivity`` plays the scenario with each parameter at its low and its high end
(the others at the scenario's value), and over a quasi-random design of the joint ranges, with
the same per-combat seeds everywhere (common random numbers). The section is checked with the
rest of the file: its shape by the models below, then every path must name a value written in
the scenario, and both ends of every range (or every listed value) must give a valid scenario.
Each problem names the entry's own line::

    sensitivity:
      side: red                  # whose win rate (default: the first side)
      runs: 100                  # combats per point of the global design
      samples: 32                # base samples of the Sobol design (a power of two)
      oat_runs: 1000             # combats at each one-at-a-time point
      parameters:
        - path: sides.red.combatants.0.hp
          label: red hp          # the name in tables and charts (default: the path)
          low: 12                # whole numbers stay whole numbers
          high: 36
        - path: sides.red.combatants.0.damage
          values: [1d6, 1d8, 1d10]   # or a list, in order (low = first, high = last)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sim.scenario.overrides import get_value, split_path
from sim.scenario.problems import Problem, ScenarioError, format_path
from sim.scenario.sweep_section import FIXED_KEYS, Scalar
from sim.scenario.variant_section import BuildScenario
from sim.scenario.yamlsource import Source

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario

#: Most parameters one study may vary (the design grows with their number).
MAX_PARAMETERS = 12
#: Most values a listed parameter may take.
MAX_VALUES = 50
#: Most base samples of the global design.
MAX_SAMPLES = 4096
#: Defaults: combats per design point, base samples, combats per one-at-a-time point.
DEFAULT_RUNS = 100
DEFAULT_SAMPLES = 32
DEFAULT_OAT_RUNS = 1000
#: The sections that set up other analyses; a study's points leave them out.
SECTIONS = ("sensitivity", "sweep", "variants", "strategies")
#: Top-level keys a study may not vary (a sweep's, plus the sections it cannot vary).
STUDY_FIXED_KEYS = {
    **FIXED_KEYS,
    "sensitivity": "a sensitivity study cannot vary itself",
}


class SensitivityParameterModel(BaseModel):
    """One varied parameter: where it is in the scenario and the range it spans."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(..., min_length=1, description="Dotted path, e.g. sides.red.combatants.0.hp")
    label: str | None = Field(
        None, min_length=1, max_length=60, description="Name in tables and charts."
    )
    low: int | float | None = Field(None, description="The low end of the range.")
    high: int | float | None = Field(None, description="The high end of the range.")
    values: list[Scalar] | None = Field(
        None, min_length=2, max_length=MAX_VALUES, description="Listed values, low to high."
    )

    @field_validator("low", "high", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("a finite number")
        return value

    @model_validator(mode="after")
    def _range_or_values(self) -> SensitivityParameterModel:
        ranged = self.low is not None or self.high is not None
        if ranged == (self.values is not None):
            raise ValueError("either low and high, or values: [...], not both")
        if ranged:
            if self.low is None or self.high is None:
                raise ValueError("both low and high")
            if not self.high > self.low:
                raise ValueError(f"high ({self.high}) above low ({self.low})")
        return self

    @property
    def column(self) -> str:
        """The parameter's name in tables and charts."""
        return self.label or self.path

    @property
    def integer(self) -> bool:
        """Whether the range holds whole numbers only (hit points, counts, bonuses)."""
        return isinstance(self.low, int) and isinstance(self.high, int)

    def ends(self) -> tuple[Any, Any]:
        """The low and the high end: what one-at-a-time effects compare."""
        if self.values is not None:
            return self.values[0], self.values[-1]
        return self.low, self.high


class SensitivityModel(BaseModel):
    """The ``sensitivity:`` section of a scenario."""

    model_config = ConfigDict(extra="forbid")

    side: str | None = Field(None, min_length=1, description="Whose win rate (default: first).")
    runs: int = Field(
        DEFAULT_RUNS, ge=2, le=1_000_000, description="Combats per point of the global design."
    )
    samples: int = Field(
        DEFAULT_SAMPLES, ge=4, le=MAX_SAMPLES, description="Base samples of the Sobol design."
    )
    oat_runs: int = Field(
        DEFAULT_OAT_RUNS, ge=2, le=10_000_000, description="Combats per one-at-a-time point."
    )
    parameters: list[SensitivityParameterModel] = Field(
        ..., min_length=1, max_length=MAX_PARAMETERS, description="The parameters to vary."
    )

    @field_validator("samples")
    @classmethod
    def _power_of_two(cls, value: int) -> int:
        if value & (value - 1):
            raise ValueError(
                f"a power of two (Sobol points balance only then), e.g. {1 << value.bit_length()}"
            )
        return value

    @model_validator(mode="after")
    def _distinct(self) -> SensitivityModel:
        columns = [p.column for p in self.parameters]
        if len(set(columns)) != len(columns):
            raise ValueError("a different label (or path) for each parameter")
        paths = [p.path for p in self.parameters]
        if len(set(paths)) != len(paths):
            raise ValueError("each path once")
        return self

    def problems(
        self, source: Source, data: dict, scenario: Scenario, build: BuildScenario
    ) -> list[Problem]:
        """Every path that names nothing, and every range end that gives a bad scenario.

        ``data`` is the file's data and ``scenario`` the scenario it gives, valid apart from
        this section; ``build`` is the loader's ``build_scenario``, handed in so that this
        module does not import the loader.
        """
        base = study_base(data)
        file = source.file
        found: list[Problem] = []

        def add(path: tuple, what: str, expected: str) -> None:
            found.append(Problem(file, path, source.line_of(path), what, expected))

        sides = [s.get("name") for s in data.get("sides", []) if isinstance(s, dict)]
        if self.side is not None and self.side not in sides:
            shown = ", ".join(map(str, sides))
            add(("sensitivity", "side"), repr(self.side), f"one of the sides ({shown})")
        for i, parameter in enumerate(self.parameters):
            where = ("sensitivity", "parameters", i)
            top = parameter.path.split(".")[0]
            if top in STUDY_FIXED_KEYS:
                add(
                    (*where, "path"), repr(parameter.path), f"another path: {STUDY_FIXED_KEYS[top]}"
                )
                continue
            try:
                current_value(base, scenario.option_values(), parameter.path)
            except (KeyError, ValueError, IndexError) as exc:
                add(
                    (*where, "path"),
                    f"{parameter.path!r}: {exc.args[0] if exc.args else exc}",
                    "a path to a value written in the scenario, like "
                    "sides.red.combatants.0.hp (a list item by its name or index); the others "
                    "stay at that value while one moves",
                )
                continue
            if parameter.values is not None:
                spots: list[tuple[tuple, Any]] = [
                    ((*where, "values", j), v) for j, v in enumerate(parameter.values)
                ]
                bounds = ""
            else:
                spots = [((*where, "low"), parameter.low), ((*where, "high"), parameter.high)]
                bounds = "a range inside the stat's bounds: "
            for spot, value in spots:
                try:
                    build(Source(file, base, source.lines), {parameter.path: value})
                except ScenarioError as exc:
                    for problem in exc.problems:
                        what = f"{value!r} for {format_path(problem.path)}"
                        if problem.found != repr(value):
                            what += f" ({problem.found})"
                        add(spot, what, bounds + problem.expected)
        return found


def current_value(data: dict, options: Mapping[str, Any], path: str) -> Any:
    """The scenario's own value at ``path``: written in the file, or a rule option's default.

    Raises:
        KeyError: with a sentence, when the path names nothing the scenario has.
    """
    try:
        return get_value(data, path)
    except KeyError:
        steps = split_path(path)
        name = steps[-1]
        if len(steps) == 2 and steps[0] == "options" and isinstance(name, str) and name in options:
            return options[name]
        raise


def study_base(data: dict) -> dict:
    """The scenario's data without the sections a study's points do not need.

    The points are plain scenarios: their sweep, variants, strategies and this section are left
    out (so checking a point never checks the study again, nor builds every other section's
    scenarios).
    """
    return {k: v for k, v in data.items() if k not in SECTIONS}
