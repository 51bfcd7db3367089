"""Load, fill defaults, validate, build: a scenario file to a :class:`Scenario`.

The whole file is checked before anything runs, and every problem is reported at once, each
with the file, the YAML path and line, what was found and what was expected. The top level is
checked with :class:`~sim.scenario.schema.ScenarioModel`; the options and every stat block with
the models of the rule system the file names, so each rule system decides what its combatants
need without the loader knowing any rules.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import (
    MAX_COMBATANTS,
    NAME_PATTERN,
    CombatantSpec,
    Scenario,
    ScenarioModel,
)
from sim.scenario.yamlsource import Source, load_source, parse_source

#: Keys of a combatant entry that the loader reads itself; the rest is the stat block.
ENTRY_KEYS = ("name", "count", "template")
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
        ScenarioError: with every problem found.
    """
    data = source.data
    if overrides:
        from sim.scenario.overrides import apply_overrides

        data = apply_overrides(data, overrides, source)
    checker = _Checker(source)
    scenario = checker.build(data)
    if checker.problems:
        raise ScenarioError(checker.problems)
    return scenario


class _Checker:
    """Collects problems while building a scenario."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.problems: list[Problem] = []

    # -- reporting -------------------------------------------------------------------------------

    def add(self, path: tuple, found: str, expected: str) -> None:
        problem = Problem(self.source.file, path, self.source.line_of(path), found, expected)
        if problem not in self.problems:
            self.problems.append(problem)

    def add_validation(
        self, exc: ValidationError, model: type[BaseModel], base: tuple, origin=None
    ) -> None:
        for error in exc.errors(include_url=False):
            loc = tuple(error["loc"])
            path = origin(loc) if origin else (*base, *loc)
            found, expected = describe_error(error, model, loc)
            self.add(path, found, expected)

    # -- building --------------------------------------------------------------------------------

    def build(self, data: Any) -> Scenario | None:
        if not isinstance(data, dict):
            self.add(
                (),
                _show(data) if data is not None else "an empty file",
                "a mapping with name, rules and sides",
            )
            return None
        top = None
        try:
            top = ScenarioModel.model_validate(data)
        except ValidationError as exc:
            self.add_validation(exc, ScenarioModel, ())
        from sim.rules import RULE_SYSTEMS

        system = RULE_SYSTEMS.get(data.get("rules")) if isinstance(data.get("rules"), str) else None
        if system is None:
            return None
        raw_options = data.get("options") or {}
        options = None
        if isinstance(raw_options, dict):
            options_model = system.options_model(raw_options)
            try:
                options = options_model.model_validate(raw_options)
            except ValidationError as exc:
                self.add_validation(exc, options_model, ("options",))
                # Keep checking the combatants under the options that are fine.
                bad = {error["loc"][0] for error in exc.errors() if error["loc"]}
                kept = {k: v for k, v in raw_options.items() if k not in bad}
                try:
                    options = system.options_model(kept).model_validate(kept)
                except ValidationError:
                    options = None
        if options is None:
            return None
        combatants, side_names = self._combatants(data, system.combatant_model(options))
        if top is None or self.problems:
            return None
        time_limit = top.time_limit if top.time_limit is not None else system.default_time_limit_s
        scenario = Scenario(
            name=top.name,
            description=top.description,
            file=self.source.file,
            rules=top.rules,
            options=options,
            seed=top.seed,
            runs=top.runs,
            time_limit_s=float(time_limit),
            side_names=tuple(side_names),
            combatants=tuple(combatants),
            data=copy.deepcopy(data),
        )
        self.problems.extend(top.sweep.problems(self.source, data) if top.sweep else [])
        from sim.scenario.variants import check_variants  # the variants: section (issue 6)

        self.problems.extend(check_variants(self.source, data, scenario))
        for problem in system.check(scenario):
            if problem not in self.problems:
                self.problems.append(problem)
        return scenario

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
        seen_names: dict[str, tuple] = {}
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
                for spec in self._entry(entry, base, i, templates, model):
                    if spec.name in seen_names:
                        self.add(
                            (*base, "name"),
                            f"combatant name {spec.name!r} again",
                            "names unique in the scenario (count: N numbers them)",
                        )
                    seen_names.setdefault(spec.name, base)
                    combatants.append(spec)
        if len(combatants) > MAX_COMBATANTS:
            self.add(("sides",), f"{len(combatants)} combatants", f"at most {MAX_COMBATANTS}")
        return combatants, side_names

    def _entry(
        self, entry: Any, base: tuple, side: int, templates: dict, model: type[BaseModel]
    ) -> list[CombatantSpec]:
        if not isinstance(entry, dict):
            self.add(base, _show(entry), "a mapping with a name and the combatant's stats")
            return []
        ok = True
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            self.add(
                (*base, "name"),
                _show(name) if "name" in entry else "nothing",
                "a name for the combatant",
            )
            ok = False
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            self.add((*base, "count"), _show(count), f"a whole number from 1 to {MAX_COUNT}")
            ok = False
        template_name = entry.get("template")
        template: dict = {}
        if template_name is not None:
            if template_name not in templates:
                known = ", ".join(map(str, templates)) or "none are defined"
                self.add(
                    (*base, "template"),
                    _show(template_name),
                    f"a template under templates: ({known})",
                )
                ok = False
            elif not isinstance(templates[template_name], dict):
                self.add(
                    ("templates", template_name),
                    _show(templates[template_name]),
                    "a mapping of stats",
                )
                ok = False
            else:
                template = templates[template_name]
        own = {k: v for k, v in entry.items() if k not in ENTRY_KEYS}
        fields = _merge(template, own)

        def origin(loc: tuple) -> tuple:
            if loc and _from_template(loc, own, template):
                return ("templates", template_name, *loc)
            return (*base, *loc)

        try:
            stats = model.model_validate(fields)
        except ValidationError as exc:
            self.add_validation(exc, model, base, origin)
            return []
        if not ok:
            return []
        if count == 1:
            return [CombatantSpec(name, side, stats, base)]
        return [CombatantSpec(f"{name} {k}", side, stats, base) for k in range(1, count + 1)]


def _merge(template: dict, own: dict) -> dict:
    """A template's fields overridden by an entry's, mappings merged one level deep."""
    fields = dict(template)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(fields.get(key), dict):
            fields[key] = {**fields[key], **value}
        else:
            fields[key] = value
    return fields


def _from_template(loc: tuple, own: dict, template: dict) -> bool:
    key = loc[0]
    if key in own:
        inner = own[key]
        if len(loc) > 1 and isinstance(inner, dict) and isinstance(template.get(key), dict):
            return loc[1] not in inner and loc[1] in template[key]
        return False
    return key in template


# -- turning pydantic errors into sentences ---------------------------------------------------


def describe_error(error: Mapping[str, Any], model: type[BaseModel], loc: tuple) -> tuple[str, str]:
    """``(found, expected)`` for one pydantic error."""
    kind = error["type"]
    message = str(error.get("msg", ""))
    value = error.get("input")
    if kind == "missing":
        return "nothing", f"a value for the required key {loc[-1]!r}"
    if kind == "extra_forbidden":
        allowed = sorted(_allowed_keys(model, loc[:-1]))
        key = str(loc[-1])
        close = difflib.get_close_matches(key, allowed, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown key {key!r}", f"one of the known keys: {', '.join(allowed)}{hint}"
    if kind == "string_pattern_mismatch" and NAME_PATTERN in message:
        return _show(value), "a short name: a letter, then letters, digits, _ or - (40 at most)"
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    if message.startswith("Input should be "):
        message = message[len("Input should be ") :]
    if kind == "too_short" and isinstance(value, (list, dict)):
        least = (error.get("ctx") or {}).get("min_length", 1)
        return f"{len(value)} item(s)", f"at least {least} item(s)"
    return _show(value), message


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys the model accepts at ``loc`` (list indices are skipped)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not _is_model(current) or part not in current.model_fields:
            return []
        current = _model_in(current.model_fields[part].annotation)
    return list(current.model_fields) if _is_model(current) else []


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if _is_model(annotation):
        return annotation
    if get_origin(annotation) is not None:
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _show(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, dict):
        text = (
            "a mapping {" + ", ".join(map(str, list(value)[:5])) + ("…}" if len(value) > 5 else "}")
        )
    elif isinstance(value, list):
        text = f"a list of {len(value)} item(s)"
    else:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"
