"""A scenario's ``strategies:`` section: each side's named alternatives, for a tournament.

A designer's first fear is a degenerate choice: one tactic or build that beats everything.
``combatsim tournament`` answers it by playing every strategy of one side against every
strategy of the other. A strategy is written like a variant (see :mod:`sim.scenario.variants`):
a name and a set of overrides by dotted path, here listed per side::

    strategies:
      red:
        - name: charge
          set:
            sides.red.combatants.0.tactics: {declare: {movement: charge, action: kill}}
        - name: hold
          set: {}                       # the scenario as written
      blue:
        - name: withdraw-and-shoot
          set:
            sides.blue.combatants.0.tactics: {declare: {movement: withdraw, action: kill}}

A *cell* of the tournament is the scenario with one red and one blue strategy applied. When the
file is loaded every strategy and every cell is checked with the file's other problems, each at
the line of the entry or override that causes it: the section needs exactly two sides, each
listed with at least one strategy; a strategy may not set ``seed`` or ``runs`` (every cell
plays the same seeds, which is what pairs them), may not change the other side's combatants,
and no path may be set by both a red and a blue strategy (the cell would depend on the order).

Building a strategy's scenario is the loader's work, so the loader hands its ``build`` in and
this module never imports the loader (as :mod:`sim.scenario.variant_section` does).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.scenario.addressing import address
from sim.scenario.overrides import apply_overrides
from sim.scenario.problems import Problem, ScenarioError, format_path
from sim.scenario.variant_section import BuildScenario, VariantModel
from sim.scenario.yamlsource import Source

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario

#: Top-level keys a strategy may not set, and why.
FIXED_KEYS = {
    "seed": "every cell plays the same seeds (common random numbers)",
    "runs": "every cell plays the same combats; give --runs to the tournament",
    "strategies": "a strategy cannot hold strategies",
    "variants": "variants are compared with combatsim compare",
    "sweep": "sweeps are played with combatsim sweep",
    "name": "the name changes nothing the fights use",
    "description": "the description changes nothing the fights use",
}
#: Top-level keys a cell's scenario leaves out: they describe other commands' plans.
PLAN_KEYS = ("strategies", "variants", "sweep")
#: Most strategies a side may list (a 12 x 12 tournament plays 144 cells).
MAX_STRATEGIES = 12


class StrategyModel(VariantModel):
    """One strategy of a side: a name, a description and the values it sets, by dotted path."""


#: The section's shape: side name -> its strategies (checked further by :func:`check_strategies`).
StrategiesSection = dict[str, list[StrategyModel]]


@dataclass(frozen=True)
class Strategy:
    """A side's strategy, as the tournament plays it.

    Attributes:
        side: the side's name.
        name: the strategy's name.
        description: free text.
        overrides: the values it sets, by dotted path.
    """

    side: str
    name: str
    description: str
    overrides: dict[str, Any]


def strategies_of(scenario: Scenario) -> tuple[list[Strategy], list[Strategy]]:
    """The row side's and the column side's strategies (the scenario's first and second side).

    Raises:
        ScenarioError: the scenario has no ``strategies:`` section.
    """
    section = scenario.data.get("strategies")
    if not isinstance(section, dict) or not section:
        raise ScenarioError(
            [
                Problem(
                    scenario.file,
                    ("strategies",),
                    None,
                    "no strategies: section",
                    "a strategies: section listing each side's named strategies "
                    "(see docs/analysis.md, Tournaments)",
                )
            ]
        )
    rows, columns = (
        [
            Strategy(side, e["name"], e.get("description", ""), dict(e.get("set") or {}))
            for e in section.get(side) or []
        ]
        for side in scenario.side_names[:2]
    )
    return rows, columns


def cell_data(data: Mapping[str, Any], row: Strategy, column: Strategy) -> dict:
    """The data of one cell: the scenario with both strategies applied and its plans left out.

    Raises:
        ScenarioError: a path does not resolve.
    """
    base = {k: copy.deepcopy(v) for k, v in data.items() if k not in PLAN_KEYS}
    return apply_overrides(base, {**row.overrides, **column.overrides})


# -- checking the section while a file is loaded ----------------------------------------------


def check_strategies(
    source: Source, data: Mapping[str, Any], scenario: Scenario, build: BuildScenario
) -> list[Problem]:
    """Problems of the ``strategies:`` section of an otherwise valid scenario.

    Called by the loader once the base scenario is built (the entries' shape is checked with the
    top level by :class:`~sim.scenario.schema.ScenarioModel`).
    """
    section = data.get("strategies")
    if not isinstance(section, dict):
        return []
    checker = _SectionCheck(source, data, scenario, build)
    return checker.run(section)


class _SectionCheck:
    """The checks of one ``strategies:`` section, gathering problems at their lines."""

    def __init__(
        self, source: Source, data: Mapping[str, Any], scenario: Scenario, build: BuildScenario
    ) -> None:
        self.source = source
        self.data = data
        self.scenario = scenario
        self.build = build
        self.problems: list[Problem] = []
        self.base_checks = {(p.path, p.found, p.expected) for p in scenario.system.check(scenario)}

    def add(self, path: tuple, found: str, expected: str) -> None:
        line = self.source.line_of(path)
        self.problems.append(Problem(self.source.file, path, line, found, expected))

    def run(self, section: dict) -> list[Problem]:
        sides = list(self.scenario.side_names)
        if len(sides) != 2:
            self.add(
                ("strategies",),
                f"strategies in a scenario of {len(sides)} sides",
                "a scenario of two sides: a tournament is a two-player game (merge allies into "
                "one side, or play each pair of sides in a scenario of its own)",
            )
            return self.problems
        missing = [s for s in sides if s not in section]
        for key in section:
            if key not in sides:
                self.add(
                    ("strategies", key), f"a side {key!r}", f"one of the sides ({', '.join(sides)})"
                )
        if missing:
            self.add(
                ("strategies",),
                f"no strategies for {' and '.join(missing)}",
                f"a list of strategies for each side ({' and '.join(sides)}); a side with one "
                "way to fight lists one strategy with set: {}",
            )
        valid: dict[str, list[tuple[int, dict]]] = {}
        for side in sides:
            entries = section.get(side)
            if side in missing or not isinstance(entries, list):
                continue
            valid[side] = self._side(side, sides, entries)
        if not self.problems and len(valid) == 2:
            self._cells(sides, valid)
        return self.problems

    def _side(self, side: str, sides: Sequence[str], entries: list) -> list[tuple[int, dict]]:
        """One side's entries checked alone; the good ones, with their index."""
        where = ("strategies", side)
        if not entries:
            self.add(where, f"no strategies for {side}", "at least one named strategy (name, set)")
            return []
        if len(entries) > MAX_STRATEGIES:
            self.add(where, f"{len(entries)} strategies", f"at most {MAX_STRATEGIES} per side")
            return []
        other = next(s for s in sides if s != side)
        other_steps = {other, str(sides.index(other))}
        seen: dict[str, int] = {}
        good = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            name = entry.get("name")
            if isinstance(name, str):
                if name in seen:
                    again = f"strategy name {name!r} again"
                    self.add(
                        (*where, i, "name"), again, f"a name not used by strategy {seen[name]}"
                    )
                seen.setdefault(name, i)
            overrides = entry.get("set") or {}
            if not isinstance(overrides, dict):
                continue
            ok = True
            for path in overrides:
                steps = path.split(".")  # a malformed path is reported when applied
                spot = (*where, i, "set", path)
                if steps[0] in FIXED_KEYS:
                    self.add(
                        spot,
                        f"a strategy setting {steps[0]!r}",
                        f"another path: {FIXED_KEYS[steps[0]]}",
                    )
                    ok = False
                elif steps[0] == "sides" and len(steps) > 1 and steps[1] in other_steps:
                    self.add(
                        spot,
                        f"a {side} strategy changing side {other}",
                        f"paths of {side}'s own combatants, templates or options: {other}'s "
                        "choices are its own strategies",
                    )
                    ok = False
            if ok and self._alone(where, i, name, overrides):
                good.append((i, overrides))
        return good

    def _alone(self, where: tuple, i: int, name: Any, overrides: dict) -> bool:
        """Whether the strategy applied alone gives a valid scenario (problems at its lines)."""
        base = {k: v for k, v in self.data.items() if k not in PLAN_KEYS}
        try:
            built = self.build(Source(self.source.file, apply_overrides(base, overrides)), None)
        except ScenarioError as exc:
            for problem in exc.problems:
                if (problem.path, problem.found, problem.expected) in self.base_checks:
                    continue
                path = _cause(problem.path, overrides, base)
                spot = (*where, i, "set", path) if path is not None else (*where, i, "set")
                found = problem.found
                if problem.path[:1] != ("override",):
                    found += f", at {format_path(problem.path)}"
                self.add(spot, f"{found} (in strategy {name!r})", problem.expected)
            return False
        if built.side_names != self.scenario.side_names:
            self.add(
                (*where, i, "set"),
                f"sides {', '.join(built.side_names)}",
                f"the scenario's sides ({', '.join(self.scenario.side_names)})",
            )
            return False
        return True

    def _cells(self, sides: Sequence[str], valid: dict[str, list[tuple[int, dict]]]) -> None:
        """Every pairing of a good red and a good blue strategy gives a valid scenario."""
        section = self.data["strategies"]
        pairs = itertools.product(valid[sides[0]], valid[sides[1]])
        for (i, row), (j, column) in pairs:
            shared = sorted(set(row) & set(column))
            row_name = section[sides[0]][i].get("name")
            column_name = section[sides[1]][j].get("name")
            cell = f"{sides[0]}/{row_name} against {sides[1]}/{column_name}"
            if shared:
                self.add(
                    ("strategies", sides[1], j, "set", shared[0]),
                    f"{shared[0]!r} set by both {cell}",
                    "each path set by one side's strategies only",
                )
                continue
            base = {k: v for k, v in self.data.items() if k not in PLAN_KEYS}
            try:
                self.build(Source(self.source.file, apply_overrides(base, {**row, **column})), None)
            except ScenarioError as exc:
                for problem in exc.problems:
                    if (problem.path, problem.found, problem.expected) in self.base_checks:
                        continue
                    self.add(
                        ("strategies", sides[1], j, "set"),
                        f"{problem.found} at {format_path(problem.path)} (in the pairing {cell})",
                        problem.expected,
                    )


def _cause(path: tuple, overrides: Mapping[str, Any], data: Any) -> str | None:
    """The override a problem at ``path`` (a YAML path of the built scenario) comes from."""
    if path[:1] == ("override",):
        return str(path[1])
    for dotted in overrides:
        steps = _yaml_steps(data, dotted)
        # The problem's path may name list items (as errors print them) or index them.
        for form in (steps, address(data, steps)):
            size = min(len(form), len(path))
            if size and form[:size] == tuple(path[:size]):
                return dotted
    return None


def _yaml_steps(data: Any, dotted: str) -> tuple:
    """A dotted path as the loader's YAML path (list items by index) as far as it resolves."""
    node = data
    steps: list[str | int] = []
    for step in dotted.split("."):
        if isinstance(node, dict) and step in node:
            node = node[step]
            steps.append(step)
        elif isinstance(node, list):
            named = [
                k
                for k, item in enumerate(node)
                if isinstance(item, dict) and item.get("name") == step
            ]
            index = (
                named[0]
                if named
                else int(step)
                if step.isdigit() and int(step) < len(node)
                else None
            )
            if index is None:
                break
            node = node[index]
            steps.append(index)
        else:
            steps.append(step)
            break
    return tuple(steps)
