"""A scenario's named variants: the base scenario with a few values changed by path.

A rule tweak, in the sense of RULINGS ("every ruling is a default, never a constant"), is a named
variant of a scenario: a set of overrides by dotted path (see :mod:`sim.scenario.overrides`) of
rule options, stats, equipment or tactics::

    variants:
      - name: red-plus3
        description: Red's sword gets +3 to hit.
        set:
          sides.red.combatants.0.attack_bonus: 3
      - name: reroll
        set:
          options.duplicates: reroll

``combatsim compare`` plays the base and every variant on the same per-combat seeds, so the
comparison is paired combat by combat. Every variant is checked when the file is loaded (see
:mod:`sim.scenario.variant_section`, which also holds the section's model).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sim.scenario.loader import made_from, scenario_from_dict
from sim.scenario.names import NAME_PATTERN
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.variant_section import BASE, FIXED_KEYS, VariantModel, variant_data

__all__ = [
    "BASE",
    "FIXED_KEYS",
    "NAME_PATTERN",
    "VariantModel",
    "arms",
    "variant_data",
    "variant_names",
    "variant_overrides",
    "variant_scenario",
]


# -- using variants ---------------------------------------------------------------------------


def variant_names(scenario: Scenario) -> list[str]:
    """The names of a scenario's variants, in file order (the base not included)."""
    return [entry["name"] for entry in _entries(scenario.data)]


def variant_overrides(scenario: Scenario, name: str) -> dict[str, Any]:
    """The overrides of one variant (empty for the base)."""
    if name == BASE:
        return {}
    for entry in _entries(scenario.data):
        if entry["name"] == name:
            return dict(entry.get("set") or {})
    raise _unknown(scenario, name)


def variant_scenario(scenario: Scenario, name: str) -> Scenario:
    """The scenario of one variant (the scenario itself for :data:`BASE`)."""
    if name == BASE:
        return scenario
    overrides = variant_overrides(scenario, name)
    data = variant_data(scenario.data, overrides)
    return made_from(scenario_from_dict(data, file=scenario.file), scenario, overrides)


def arms(scenario: Scenario, names: Sequence[str] | None = None) -> dict[str, Scenario]:
    """The base and the chosen variants (default: all of them), by name, base first.

    Raises:
        ScenarioError: a name is not a variant of the scenario.
    """
    chosen = variant_names(scenario) if names is None else [n for n in names if n != BASE]
    known = set(variant_names(scenario))
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise _unknown(scenario, unknown[0])
    result = {BASE: scenario}
    for name in dict.fromkeys(chosen):
        result[name] = variant_scenario(scenario, name)
    return result


def _entries(data: Mapping[str, Any]) -> Iterable[dict]:
    entries = data.get("variants") or []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("name"), str)]


def _unknown(scenario: Scenario, name: str) -> ScenarioError:
    known = ", ".join(variant_names(scenario)) or "the scenario has none"
    return ScenarioError(
        [
            Problem(
                scenario.file,
                ("variants",),
                None,
                f"no variant named {name!r}",
                f"one of its variants ({known})",
            )
        ]
    )
