"""The scenario format as a JSON Schema, so that an editor completes keys and flags mistakes.

The schema is built from the same pydantic models the loader validates with, so it cannot drift
from them: the top level from :class:`~sim.scenario.schema.ScenarioModel` (every section a
helper adds there flows in), and for each rule system of the registry (plug-ins included) its
options and its combatants' stat block, with their descriptions and defaults. The choice of rule
system is a JSON Schema ``if``/``then`` on ``rules:``; an option that selects other options and
another stat block (ACS's ``resolution``, Target 10's ``kind``) is a nested ``if``/``then``.

The schema is a help while typing, not the judge: ``combatsim validate`` also checks what a
JSON Schema cannot say (names unique, dice notation, templates merged into entries, cross-field
rules, variants and sweeps that must give a valid scenario). So the schema errs on the side of
accepting: a combatant entry with a ``template:`` need not repeat the template's keys.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ValidationError

from sim.rules.base import RuleSystem
from sim.scenario.loader import ENTRY_KEYS, MAX_COUNT
from sim.scenario.schema import ScenarioModel

#: The JSON Schema dialect (the one the VS Code YAML extension and ``jsonschema`` both read).
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The schema of the built-in rule systems, as committed (``combatsim schema`` writes it).
SCHEMA_FILE = "schema/scenario.schema.json"
#: The first line of every bundled scenario: it points editors at that file.
MODELINE = "# yaml-language-server: $schema=../schema/scenario.schema.json"


@dataclass(frozen=True)
class Flavour:
    """One set of options and stat block of a rule system, and the option value that picks it.

    Attributes:
        options: the options model.
        combatant: the stat block model under those options.
        selector: ``(option, value)`` that selects this flavour, or None for the default one.
    """

    options: type[BaseModel]
    combatant: type[BaseModel]
    selector: tuple[str, Any] | None


def scenario_schema(systems: Mapping[str, RuleSystem], resolutions: Iterable[str] = ()) -> dict:
    """The JSON Schema of a scenario file for the given rule systems.

    Args:
        systems: rule systems by the name ``rules:`` uses (``sim.rules.RULE_SYSTEMS``, or a
            part of it).
        resolutions: names a text option may select a flavour by (ACS's ``resolution`` names
            one of ``sim.rules.RESOLUTIONS``).
    """
    defs: dict[str, Any] = {}
    top = _inline(ScenarioModel, "", defs)
    names = list(systems)
    top["properties"]["rules"] = {
        **top["properties"]["rules"],
        "enum": names,
        "description": "The rule system: " + ", ".join(names) + ".",
    }
    choices = list(resolutions)
    branches = []
    for name in names:
        flavours = flavours_of(systems[name], choices)
        branches.append(
            {
                "if": {"properties": {"rules": {"const": name}}, "required": ["rules"]},
                "then": _flavour_branches(name, flavours, defs),
            }
        )
    schema = {
        "$schema": DIALECT,
        "title": "combatsim scenario",
        **{k: v for k, v in top.items() if k != "title"},
        "allOf": branches,
        "$defs": defs,
    }
    _merge_twins(schema)
    schema["$defs"] = dict(sorted(schema["$defs"].items()))
    return schema


def _merge_twins(schema: dict) -> None:
    """Keep one copy of definitions that are alike (a sub-model two flavours share).

    Each flavour puts its models under its own prefix, so that two different models of one name
    never clash; most are the same model, and the copy with the shortest name is kept.
    """
    defs = schema["$defs"]
    while True:
        kept: dict[str, str] = {}
        renamed: dict[str, str] = {}
        for key in sorted(defs, key=lambda k: (k.count("."), k)):
            text = json.dumps(defs[key], sort_keys=True)
            if text in kept:
                renamed[key] = kept[text]
            else:
                kept[text] = key
        if not renamed:
            return
        for key in renamed:
            del defs[key]
        _point(schema, {f"#/$defs/{old}": f"#/$defs/{new}" for old, new in renamed.items()})


def _point(node: Any, moves: dict[str, str]) -> None:
    """Rewrite every ``$ref`` found in ``moves``, in place."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref in moves:
            node["$ref"] = moves[ref]
        for value in node.values():
            _point(value, moves)
    elif isinstance(node, list):
        for item in node:
            _point(item, moves)


def schema_text(schema: dict) -> str:
    """The schema as the committed file holds it: sorted keys, two-space indents, one newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def flavours_of(system: RuleSystem, choices: list[str]) -> list[Flavour]:
    """The default flavour of a rule system, then one per option value that changes the models.

    An option that picks other options or another stat block is found by trying each value it
    may take: every value of a ``Literal`` option, and each of ``choices`` for a text option.
    """
    default_model = system.options_model({})
    default = Flavour(default_model, _combatant(system, default_model, {}), None)
    found = [default]
    for field, info in default_model.model_fields.items():
        annotation = info.annotation
        if get_origin(annotation) is Literal:
            values = list(get_args(annotation))
        elif annotation is str:
            values = choices
        else:
            continue
        for value in values:
            if value == info.default:
                continue
            raw = {field: value}
            model = system.options_model(raw)
            try:
                combatant = _combatant(system, model, raw)
            except ValueError:
                continue
            if (model, combatant) != (default.options, default.combatant):
                found.append(Flavour(model, combatant, (field, value)))
    return found


def _combatant(system: RuleSystem, model: type[BaseModel], raw: dict) -> type[BaseModel]:
    try:
        options = model.model_validate(raw)
    except ValidationError as exc:  # this value needs other options too: not a flavour alone
        raise ValueError(str(exc)) from exc
    return system.combatant_model(options)


def _flavour_branches(system: str, flavours: list[Flavour], defs: dict) -> dict:
    """``if options.X == v then (that flavour) else ...``, ending with the default flavour."""
    result = _flavour(system, flavours[0], defs)
    for flavour in reversed(flavours[1:]):
        assert flavour.selector is not None
        option, value = flavour.selector
        result = {
            "if": {
                "properties": {
                    "options": {"properties": {option: {"const": value}}, "required": [option]}
                },
                "required": ["options"],
            },
            "then": _flavour(system, flavour, defs),
            "else": result,
        }
    return result


def _flavour(system: str, flavour: Flavour, defs: dict) -> dict:
    """The options, templates and combatant entries of one flavour, as references."""
    prefix = _prefix(system, flavour)
    options = _define(flavour.options, prefix, defs)
    stats = _inline(flavour.combatant, prefix, defs)
    entry_name = f"{prefix}{flavour.combatant.__name__}.entry"
    template_name = f"{prefix}{flavour.combatant.__name__}.template"
    if entry_name not in defs:
        template = copy.deepcopy(stats)
        template.pop("required", None)
        template["description"] = (
            "Stats several combatants share; an entry names it with template: and may "
            "override any key."
        )
        defs[template_name] = template
        entry = copy.deepcopy(stats)
        required = entry.pop("required", [])
        entry["properties"] = {
            "name": {
                "type": "string",
                "minLength": 1,
                "description": "The combatant's name, unique in the scenario (count: N numbers "
                "them: goblin 1, goblin 2 ...).",
            },
            "count": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_COUNT,
                "default": 1,
                "description": "How many combatants this entry stands for.",
            },
            "template": {
                "type": "string",
                "description": "A template under templates: whose stats this entry starts from.",
            },
            **entry.get("properties", {}),
        }
        assert set(ENTRY_KEYS) <= set(entry["properties"])
        entry["required"] = ["name"]
        entry["if"] = {"required": ["template"]}
        entry["else"] = {"required": required}
        defs[entry_name] = entry
    return {
        "properties": {
            "options": {"$ref": f"#/$defs/{options}"},
            "templates": {"additionalProperties": {"$ref": f"#/$defs/{template_name}"}},
            "sides": {
                "items": {
                    "properties": {"combatants": {"items": {"$ref": f"#/$defs/{entry_name}"}}}
                }
            },
        }
    }


def _prefix(system: str, flavour: Flavour) -> str:
    """Where a flavour's models go in ``$defs``: ``acs.`` for the default, ``acs.prop3.`` ..."""
    return f"{system}." if flavour.selector is None else f"{system}.{flavour.selector[1]}."


def _define(model: type[BaseModel], prefix: str, defs: dict) -> str:
    """Put a model in ``$defs`` (its own sub-models too) and give its name there."""
    name = f"{prefix}{model.__name__}"
    if name not in defs:
        defs[name] = _inline(model, prefix, defs)
    return name


def _inline(model: type[BaseModel], prefix: str, defs: dict) -> dict:
    """A model's schema, its sub-models moved to ``defs`` under ``prefix`` + their name.

    A model that reads its input before validating it (a ``before`` model validator: Target
    10's ``if:``/``then:`` rules, a hybrid stat block whose ``hp`` defaults to its Vigor) may
    fill in or rename keys, so its schema requires none and refuses none.
    """
    schema = model.model_json_schema(ref_template=f"#/$defs/{prefix}{{model}}")
    loose = {m.__name__: m for m in _models_in(model) if _reads_raw_input(m)}
    if model.__name__ in loose:
        _loosen(schema, model)
    for name, sub in schema.pop("$defs", {}).items():
        if name in loose:
            _loosen(sub, loose[name])
        key = f"{prefix}{name}"
        if key in defs and defs[key] != sub:
            raise ValueError(f"two different models are both called {key}")
        defs[key] = sub
    return schema


#: A key no model knows, to see whether a model's own keys are what its input holds.
_PROBE = "__combatsim_probe__"


def _loosen(schema: dict, model: type[BaseModel]) -> None:
    """Require no key; refuse unknown keys only if the input's keys are the model's own.

    Whether they are is asked of the model itself: given an unknown key, a model whose keys
    pass through its ``before`` validator says "extra key" (a hybrid stat block), while one
    that reads other keys says something else (Target 10's ``if``/``then`` rule).
    """
    schema.pop("required", None)
    try:
        model.model_validate({_PROBE: 1})
    except ValidationError as exc:
        if any(e["type"] == "extra_forbidden" and e["loc"] == (_PROBE,) for e in exc.errors()):
            return
    schema.pop("additionalProperties", None)


def _reads_raw_input(model: type[BaseModel]) -> bool:
    validators = model.__pydantic_decorators__.model_validators.values()
    return any(v.info.mode in ("before", "wrap") for v in validators)


def _models_in(model: type[BaseModel]) -> list[type[BaseModel]]:
    """A model and every model its fields hold, however deep (each once)."""
    found: list[type[BaseModel]] = []
    todo: list[Any] = [model]
    while todo:
        item = todo.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            if item in found:
                continue
            found.append(item)
            todo.extend(field.annotation for field in item.model_fields.values())
        else:
            todo.extend(get_args(item))
    return found
