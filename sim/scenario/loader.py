"""Load, fill defaults, validate, build: a scenario file to a :class:`Scenario`.

The whole file is checked before anything runs, and every problem is reported at once, each
with the file, the YAML path and line, what was found and what was expected. The top level is
checked with :class:`~sim.scenario.schema.ScenarioModel`; the options and every stat block with
the models of the rule system the file names, so each rule system decides what its combatants
need without the loader knowing any rules.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from sim.rules import RULE_SYSTEMS
from sim.scenario.addressing import address
from sim.scenario.describe import MAX_SUGGESTED, describe_error, show
from sim.scenario.limits import value_problems
from sim.scenario.overrides import apply_overrides
from sim.scenario.problems import MAX_PROBLEMS_LISTED, Problem, ScenarioError
from sim.scenario.schema import MAX_COMBATANTS, CombatantSpec, Scenario, ScenarioModel
from sim.scenario.strategies import check_strategies
from sim.scenario.sweep_section import sweep_problems
from sim.scenario.templates import from_template, known_templates, merge, unused_templates
from sim.scenario.variant_section import Checked, check_variants
from sim.scenario.yamlsource import Source, load_source, parse_source

#: Keys of a combatant entry that the loader reads itself; the rest is the stat block.
ENTRY_KEYS = ("name", "count", "template")
#: Top-level keys a rule system's cross-field checks read: when one is wrong they do not run.
CHECKED_TOGETHER = ("", "rules", "options", "templates", "sides", "time_limit")
MAX_COUNT = 1000


def load_scenario(path: str | Path, overrides: Mapping[str, Any] | None = None) -> Scenario:
    """Load and validate a scenario file.

    Args:
        path: the YAML file.
        overrides: values to set before validation, by dotted path (see
            :func:`sim.scenario.overrides.apply_overrides`).

    Raises:
        ScenarioError: with every problem in the file.
    """
    source = load_source(path)
    return build_scenario(source, overrides)


def parse_scenario(
    text: str, file: str = "<string>", overrides: Mapping[str, Any] | None = None
) -> Scenario:
    """Validate a scenario given as YAML text (see :func:`load_scenario`)."""
    return build_scenario(parse_source(text, file), overrides)


def scenario_from_dict(
    data: dict, file: str = "<dict>", overrides: Mapping[str, Any] | None = None
) -> Scenario:
    """Validate a scenario given as already-loaded data (no line numbers in its problems)."""
    problems = value_problems(data, file, lambda path: None)
    if problems:
        raise ScenarioError(problems)
    return build_scenario(Source(file, copy.deepcopy(data)), overrides)


def validate_file(path: str | Path) -> list[Problem]:
    """Every problem in a scenario file (empty when it is fine)."""
    try:
        load_scenario(path)
    except ScenarioError as exc:
        return exc.problems
    return []


def build_scenario(source: Source, overrides: Mapping[str, Any] | None = None) -> Scenario:
    """Validate loaded YAML data as a whole and build the scenario.

    Raises:
        ScenarioError: with every problem found, each list item named as an override would
            name it (see :mod:`sim.scenario.addressing`).
    """
    checked = check_source(source, overrides)
    if checked.problems or checked.scenario is None:
        data = checked.data
        raise ScenarioError(
            [dataclasses.replace(p, path=address(data, p.path)) for p in checked.problems]
        )
    scenario = checked.scenario
    if overrides:
        scenario = dataclasses.replace(scenario, applied={str(k): v for k, v in overrides.items()})
    return scenario


def made_from(scenario: Scenario, base: Scenario, applied: Mapping[str, Any]) -> Scenario:
    """``scenario``, made from ``base`` (a variant, a sweep point, a tournament cell), marked so.

    It keeps the text of ``base``'s file and records what was set on top of it (``base``'s own
    ``applied`` first, then ``applied``), so that a results folder holds the file as the
    designer wrote it and says which values its runs changed.
    """
    on_top = {**base.applied, **{str(k): v for k, v in applied.items()}}
    return dataclasses.replace(scenario, text=base.text, applied=on_top)


def check_source(source: Source, overrides: Mapping[str, Any] | None = None) -> Checked:
    """Every problem of a scenario (paths by index, as the YAML has them), and the scenario.

    The variants and the sweep are checked with the rest, even when the base has problems:
    each variant and each swept value is built in full, and only the problems the base does
    not have are its own.
    """
    data = source.data
    if overrides:
        try:
            data = apply_overrides(data, overrides, source)
        except ScenarioError as exc:
            return Checked(None, exc.problems, data)
    problems = value_problems(data, source.file, source.line_of)
    if problems:
        return Checked(None, problems, data)
    checker = _Checker(source)
    scenario = checker.build(data)
    return Checked(None if checker.problems else scenario, checker.problems, data)


class _Checker:
    """Collects problems while building a scenario."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self._seen: set[Problem] = set()

    # -- reporting -------------------------------------------------------------------------------

    def add(self, path: tuple, found: str, expected: str) -> None:
        self.add_problem(
            Problem(self.source.file, path, self.source.line_of(path), found, expected)
        )

    def add_problem(self, problem: Problem) -> None:
        """Keep a problem once (a set, so that thousands of problems stay fast to collect).

        A problem of this file without a line (a rule system's cross-field check) gets the line
        of its path.
        """
        if problem.line is None and problem.file == self.source.file:
            problem = dataclasses.replace(problem, line=self.source.line_of(problem.path))
        if problem not in self._seen:
            self._seen.add(problem)
            self.problems.append(problem)

    def add_validation(
        self,
        exc: ValidationError,
        model: type[BaseModel],
        base: tuple,
        origin: Callable[[tuple], tuple] | None = None,
        partial: bool = False,
    ) -> None:
        """Each error of a pydantic model as a problem (``partial``: keys may be missing)."""
        errors = exc.errors(include_url=False)
        if partial:
            errors = [e for e in errors if e["type"] != "missing" and e["loc"]]
        unknown = sum(error["type"] == "extra_forbidden" for error in errors)
        for error in errors:
            loc = tuple(error["loc"])
            path = origin(loc) if origin else (*base, *loc)
            found, expected = describe_error(error, model, loc, unknown <= MAX_SUGGESTED)
            self.add(path, found, expected)

    # -- building --------------------------------------------------------------------------------

    def build(self, data: Any) -> Scenario | None:
        """The scenario, or None with :attr:`problems` holding every problem of the file."""
        if not isinstance(data, dict):
            self.add(
                (),
                show(data) if data is not None else "an empty file",
                "a mapping with name, rules and sides",
            )
            return None
        top = None
        broken: set = set()
        try:
            top = ScenarioModel.model_validate(data)
        except ValidationError as exc:
            self.add_validation(exc, ScenarioModel, ())
            broken = {error["loc"][0] if error["loc"] else "" for error in exc.errors()}
        scenario = self._base(data, top, broken.isdisjoint(CHECKED_TOGETHER))
        self._sections(data)
        if scenario is not None:
            for problem in check_strategies(self.source, data, scenario, build_scenario):
                self.add_problem(problem)
            study = top.sensitivity if top is not None else None
            if study:
                for problem in study.problems(self.source, data, scenario, build_scenario):
                    self.add_problem(problem)
        return None if self.problems else scenario

    def _base(self, data: dict, top: ScenarioModel | None, checkable: bool) -> Scenario | None:
        """The scenario without its variants and sweep, checked as far as it can be.

        The rule system's cross-field checks run whenever what they read is valid (the options,
        the sides and combatants, the time limit: ``checkable``), even if another top-level key
        is not (that one is reported already).
        """
        rules = data.get("rules")
        system = RULE_SYSTEMS.get(rules) if isinstance(rules, str) else None
        if system is None:
            return None
        options = self._options(system, data)
        if options is None:
            return None
        before = len(self.problems)
        combatants, side_names = self._combatants(data, system.combatant_model(options))
        if len(self.problems) > before or not (top is not None or checkable):
            return None
        if top is not None:
            name, description, seed, runs = top.name, top.description, top.seed, top.runs
            limit = top.time_limit
        else:  # only for the cross-field checks below: the top-level problems are reported
            name, description, seed, runs = str(data.get("name")), "", 0, 1
            limit = data.get("time_limit")
            if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit <= 0:
                limit = None
        scenario = Scenario.made(
            copy.deepcopy(data),
            name=name,
            description=description,
            file=self.source.file,
            rules=str(rules),
            options=options,
            seed=seed,
            runs=runs,
            time_limit_s=float(limit if limit is not None else system.default_time_limit_s),
            side_names=tuple(side_names),
            combatants=tuple(combatants),
            text=self.source.text,
        )
        for problem in system.check(scenario):
            self.add_problem(problem)
        return scenario if top is not None else None

    def _options(self, system: Any, data: dict) -> BaseModel | None:
        """The validated options; with a bad one, the others (so the combatants get checked)."""
        raw_options = data.get("options") or {}
        if not isinstance(raw_options, dict):
            return None
        options_model = system.options_model(_selectors(raw_options))
        try:
            return options_model.model_validate(raw_options)
        except ValidationError as exc:
            self.add_validation(exc, options_model, ("options",))
            bad = {error["loc"][0] for error in exc.errors() if error["loc"]}
            kept = {k: v for k, v in raw_options.items() if k not in bad}
            try:
                return system.options_model(_selectors(kept)).model_validate(kept)
            except ValidationError:
                return None

    def _sections(self, data: dict) -> None:
        """The problems of the variants and the sweep that the base does not have."""
        known = {(p.path, p.found, p.expected) for p in self.problems}
        if len(self.problems) >= MAX_PROBLEMS_LISTED:
            sections = [key for key in ("variants", "sweep") if data.get(key)]
            if sections:
                self.add(
                    (sections[0],),
                    f"{' and '.join(sections)} not checked: the list of problems is full",
                    "a file with fewer mistakes: fix those listed and validate again",
                )
            return
        for problem in sweep_problems(self.source, data, check_source, known):
            self.add_problem(problem)
            known.add((problem.path, problem.found, problem.expected))
        for problem in check_variants(self.source, data, check_source, known):
            self.add_problem(problem)

    def _combatants(self, data: dict, model: type[BaseModel]) -> tuple[list, list]:
        templates = data.get("templates") or {}
        if not isinstance(templates, dict):
            templates = {}
        sides = data.get("sides")
        if not isinstance(sides, list):
            return [], []
        combatants: list[CombatantSpec] = []
        side_names: list[str] = []
        seen_sides: dict[str, int] = {}
        seen_names: set[str] = set()
        total = 0
        for i, side in enumerate(sides):
            if not isinstance(side, dict):
                continue
            side_name = side.get("name")
            side_names.append(str(side_name))
            if isinstance(side_name, str):
                if side_name in seen_sides:
                    self.add(
                        ("sides", i, "name"),
                        f"side name {side_name!r} again",
                        f"a name not used by side {seen_sides[side_name]}",
                    )
                seen_sides.setdefault(side_name, i)
            entries = side.get("combatants")
            if not isinstance(entries, list):
                continue
            for j, entry in enumerate(entries):
                base = ("sides", i, "combatants", j)
                checked = self._entry(entry, base, templates, model)
                if checked is None:
                    continue
                name, count, stats = checked
                total += count
                if total > MAX_COMBATANTS:
                    continue  # refused below; never expand past the limit
                names = [name] if count == 1 else [f"{name} {k}" for k in range(1, count + 1)]
                for each in names:
                    if each in seen_names:
                        self.add(
                            (*base, "name"),
                            f"combatant name {each!r} again",
                            "names unique in the scenario (count: N numbers them)",
                        )
                    seen_names.add(each)
                    combatants.append(CombatantSpec(each, i, stats, base))
        if total > MAX_COMBATANTS:
            self.add(("sides",), f"{total} combatants", f"at most {MAX_COMBATANTS}")
        self._unused_templates(templates, sides, model)
        return combatants, side_names

    def _unused_templates(self, templates: dict, sides: list, model: type[BaseModel]) -> None:
        """The wrong values of templates no entry uses (a template may leave keys out)."""
        for name in unused_templates(templates, sides):
            try:
                model.model_validate(templates[name])
            except ValidationError as exc:
                self.add_validation(exc, model, ("templates", name), partial=True)

    def _entry(
        self, entry: Any, base: tuple, templates: dict, model: type[BaseModel]
    ) -> tuple[str, int, BaseModel] | None:
        """One combatant entry checked: its name, count and stats, or None when it is wrong."""
        if not isinstance(entry, dict):
            self.add(base, show(entry), "a mapping with a name and the combatant's stats")
            return None
        ok = True
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            self.add(
                (*base, "name"),
                show(name) if "name" in entry else "nothing",
                "a name for the combatant",
            )
            ok = False
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            self.add((*base, "count"), show(count), f"a whole number from 1 to {MAX_COUNT}")
            ok = False
        template_name = entry.get("template")
        template: dict = {}
        template_ok = True
        if template_name is not None:
            if not isinstance(template_name, (str, int, float)) or template_name not in templates:
                self.add(
                    (*base, "template"),
                    show(template_name),
                    known_templates(template_name, templates),
                )
                template_ok = ok = False
            elif not isinstance(templates[template_name], dict):
                self.add(
                    ("templates", template_name),
                    show(templates[template_name]),
                    "a mapping of stats",
                )
                template_ok = ok = False
            else:
                template = templates[template_name]
        own = {k: v for k, v in entry.items() if k not in ENTRY_KEYS}
        fields = merge(template, own)

        def origin(loc: tuple) -> tuple:
            if loc and from_template(loc, own, template):
                return ("templates", template_name, *loc)
            return (*base, *loc)

        try:
            stats = model.model_validate(fields)
        except ValidationError as exc:
            # Without its template an entry lacks the template's keys: say only what is wrong
            # with the keys it has, not the consequences of the template.
            self.add_validation(exc, model, base, origin, partial=not template_ok)
            return None
        if not ok or not isinstance(name, str):
            return None
        return name, count, stats


def _selectors(raw_options: Mapping[str, Any]) -> dict[str, Any]:
    """The plain values of the options: what a rule system may pick its options model by.

    A rule system's ``options_model`` looks values up (``resolution: percentile`` names a
    resolution); a mapping or list there is a mistake the model reports, not one to look up.
    """
    plain = (str, int, float, bool, type(None))
    return {key: value for key, value in raw_options.items() if isinstance(value, plain)}
