"""A scenario's ``sweep:`` section: one or two parameters, each a path and the values it takes.

A sweep asks "how does the balance move when this changes?": ``combatsim sweep`` plays the
scenario at every point of the grid with the same per-combat seeds (common random numbers). The
section is checked with the rest of the file: its shape by the models below, and then every swept
path must name a value of the scenario and every swept value must give a valid scenario. Each
problem names the sweep entry's own line, so a bad value is reported where it was written::

    sweep:
      runs: 500                                   # combats per point (default: runs)
      parameters:
        - path: sides.red.combatants.knight.hp    # a dotted path, as for overrides
          label: red hp                           # the column and axis name (default: the path)
          range: {first: 12, last: 36, step: 2}   # or values: [12, 16, 20]
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from sim.scenario.addressing import address
from sim.scenario.columns import COMBATANT_COLUMNS, combat_columns
from sim.scenario.overrides import resolve_path
from sim.scenario.problems import MAX_PROBLEMS_LISTED, Problem, format_path
from sim.scenario.variant_section import Build, Known
from sim.scenario.yamlsource import Source

#: Most values one parameter may take, and most points a whole sweep may have.
MAX_VALUES = 200
MAX_POINTS = 2500

#: Top-level keys a sweep may not change, and why.
FIXED_KEYS = {
    "seed": "the seed is the same at every point (common random numbers)",
    "runs": "the number of combats per point is sweep.runs or --runs",
    "sweep": "a sweep cannot sweep itself",
    "variants": "variants are compared with combatsim compare",
    "name": "the name changes nothing the fights use",
    "description": "the description changes nothing the fights use",
}


def _scalar(value: Any) -> Any:
    if not isinstance(value, (bool, int, float, str)):
        raise ValueError("a number, text or true/false (one value per point)")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("a finite number")
    return value


Scalar = Annotated[Any, AfterValidator(_scalar)]


class RangeModel(BaseModel):
    """Evenly spaced numbers from ``first`` up to ``last`` (included when on the grid)."""

    model_config = ConfigDict(extra="forbid")

    first: int | float = Field(..., description="The first value.")
    last: int | float = Field(..., description="The last value (included when on the grid).")
    step: int | float = Field(1, gt=0, description="The distance between two values.")

    @model_validator(mode="after")
    def _ordered(self) -> RangeModel:
        if self.last < self.first:
            raise ValueError(
                f"last ({self.last}) at least first ({self.first}); for a falling sweep list "
                "the values"
            )
        if (self.last - self.first) / self.step + 1 > MAX_VALUES + 1e-9:
            raise ValueError(f"at most {MAX_VALUES} values (use a larger step)")
        return self

    def values(self) -> list[int | float]:
        """The values, as whole numbers when first, last and step all are."""
        count = math.floor((self.last - self.first) / self.step + 1e-9) + 1
        if all(isinstance(v, int) for v in (self.first, self.last, self.step)):
            return [int(self.first + k * self.step) for k in range(count)]
        return [round(self.first + k * self.step, 10) for k in range(count)]


class SweepParameterModel(BaseModel):
    """One swept parameter: where it is in the scenario and the values it takes."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(
        ..., min_length=1, description="Dotted path, e.g. sides.red.combatants.knight.hp"
    )
    label: str | None = Field(
        None, min_length=1, max_length=60, description="Column and axis name (default: the path)."
    )
    values: list[Scalar] | None = Field(
        None, min_length=1, max_length=MAX_VALUES, description="The values, in order."
    )
    range: RangeModel | None = Field(None, description="Evenly spaced values instead of a list.")

    @field_validator("values")
    @classmethod
    def _each_once(cls, values: list[Any] | None) -> list[Any] | None:
        seen: list[Any] = []
        for value in values or []:
            if any(type(value) is type(s) and value == s for s in seen):
                raise ValueError(f"each value once ({value!r} is listed twice)")
            seen.append(value)
        return values

    @model_validator(mode="after")
    def _values_or_range(self) -> SweepParameterModel:
        if (self.values is None) == (self.range is None):
            raise ValueError("either values: [...] or range: {first, last, step}, not both")
        return self

    @property
    def column(self) -> str:
        """The name of the parameter's column in the sweep's tables."""
        return self.label or self.path

    def points(self) -> list[Any]:
        """The values the parameter takes, in order."""
        if self.values is not None:
            return list(self.values)
        return self.range.values() if self.range is not None else []


class SweepModel(BaseModel):
    """The ``sweep:`` section of a scenario."""

    model_config = ConfigDict(extra="forbid")

    runs: int | None = Field(
        None, ge=1, le=1_000_000_000, description="Combats per point (default: the scenario's)."
    )
    parameters: list[SweepParameterModel] = Field(
        ..., min_length=1, description="One or two parameters."
    )

    @field_validator("parameters")
    @classmethod
    def _one_or_two(cls, value: list[SweepParameterModel]) -> list[SweepParameterModel]:
        if len(value) > 2:
            raise ValueError(
                f"one parameter (a curve) or two (a heat map), not {len(value)}; "
                "sweep the others in separate scenarios"
            )
        return value

    @model_validator(mode="after")
    def _grid(self) -> SweepModel:
        columns = [p.column for p in self.parameters]
        if len(set(columns)) != len(columns):
            raise ValueError("a different label (or path) for each parameter")
        total = math.prod(len(p.points()) for p in self.parameters)
        if total > MAX_POINTS:
            raise ValueError(f"at most {MAX_POINTS} points in all ({total} asked)")
        return self


def sweep_problems(source: Source, data: dict, build: Build, known: Known) -> list[Problem]:
    """Every swept path that names nothing, and every value that gives a bad scenario.

    Each parameter is checked on its own, so a malformed one (reported with the top level by
    :class:`SweepModel`) does not hide the others' problems, and a base with problems does not
    hide the sweep's: of each swept value's problems, those the base has (``known``) are left
    out. ``build`` is the loader's ``check_source``, handed in so that this module does not
    import the loader.
    """
    section = data.get("sweep")
    raw = section.get("parameters") if isinstance(section, dict) else None
    if not isinstance(raw, list):
        return []
    parameters: list[tuple[int, SweepParameterModel]] = []
    for i, item in enumerate(raw[:2]):
        try:
            parameters.append((i, SweepParameterModel.model_validate(item)))
        except ValidationError:
            continue  # reported with the top level
    base = base_data(data, (p.path for _, p in parameters))
    base.pop("variants", None)  # checked once, by the variants' own section
    file = source.file
    found: list[Problem] = []

    def add(path: tuple, what: str, expected: str) -> None:
        found.append(Problem(file, path, source.line_of(path), what, expected))

    sides = data.get("sides")
    side_names = (
        [s.get("name") for s in sides if isinstance(s, dict)] if isinstance(sides, list) else []
    )
    taken = {"scenario", "variant", "point", *COMBATANT_COLUMNS}
    taken |= set(combat_columns(tuple(str(s) for s in side_names)))
    for i, parameter in parameters:
        where = ("sweep", "parameters", i)
        if parameter.column in taken:
            add(
                (*where, "label" if parameter.label else "path"),
                f"the column name {parameter.column!r}, which the outcome tables use",
                "another label",
            )
        top = parameter.path.split(".")[0]
        if top in FIXED_KEYS:
            add((*where, "path"), repr(parameter.path), f"another path: {FIXED_KEYS[top]}")
            continue
        try:
            resolve_path(copy.deepcopy(base), parameter.path)
        except (KeyError, ValueError, IndexError) as exc:
            add(
                (*where, "path"),
                f"{parameter.path!r}: {exc.args[0] if exc.args else exc}",
                "a path to a value of the scenario, like sides.red.combatants.hp "
                "(a list item by its name, or by its index: combatants[0])",
            )
            continue
        built = []
        comparable = True
        for j, value in enumerate(parameter.points()):
            spot = (*where, "values", j) if parameter.values is not None else (*where, "range")
            if len(found) >= MAX_PROBLEMS_LISTED - len(known) - 1:
                add(
                    spot,
                    "this value and the next not checked: the list of problems is full",
                    "a file with fewer mistakes: fix those listed and validate again",
                )
                break
            checked = build(Source(file, base, source.lines), {parameter.path: value})
            own = [p for p in checked.problems if (p.path, p.found, p.expected) not in known]
            for problem in own:
                what = f"{value!r} for {format_path(address(checked.data, problem.path))}"
                if problem.found != repr(value):
                    what += f" ({problem.found})"
                add(spot, what, problem.expected)
            if checked.scenario is not None:
                built.append(checked.scenario.fight_key())
            elif not own:
                comparable = False  # the base's problems hide what this value changes
        if comparable and len(built) > 1 and all(b == built[0] for b in built[1:]):
            add(
                (*where, "path"),
                f"{parameter.path!r}, which changes nothing the fights use",
                "a path to a stat, option or count the combatants use",
            )
    return found


def base_data(data: dict, paths: Iterable[str]) -> dict:
    """The scenario's data without its sweep, with an ``options:`` mapping if one is swept.

    Args:
        data: the scenario's data.
        paths: the swept parameters' paths (``options.prepared_bonus``, ...).
    """
    base = {k: v for k, v in data.items() if k != "sweep"}
    if any(path.split(".")[0] == "options" for path in paths) and not isinstance(
        base.get("options"), dict
    ):
        base["options"] = {}
    return base
