"""Rule systems, registered by the name a scenario's ``rules:`` key uses.

:data:`RULE_SYSTEMS` is the one place that knows every rule system: the three built in here,
then the plug-ins of the ``combatsim.rules`` entry-point group, loaded on first use
(:mod:`sim.rules.registry`). :data:`RESOLUTIONS` is every resolution for the ACS clock, collected
from the rule systems that offer one. The scenario loader and the engine look rule systems up
here, never by importing them directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.rules.acs.resolution import Resolution
from sim.rules.acs.system import AcsSystem
from sim.rules.base import Prepared, RuleSystem, ScenarioCombatant, ScenarioView
from sim.rules.prop3.system import PROP3
from sim.rules.registry import ENTRY_POINT_GROUP, PluginError, RuleRegistry
from sim.rules.target10.system import TARGET10


def built_in_rule_systems(
    resolutions: Mapping[str, Resolution[Any, Any]],
) -> tuple[RuleSystem, ...]:
    """The rule systems that ship with combatsim; ACS reads ``resolutions`` when it needs them."""
    return (AcsSystem(resolutions), TARGET10, PROP3)


#: Rule systems by name: the built-ins, then the plug-ins (loaded on first use).
RULE_SYSTEMS = RuleRegistry(built_in_rule_systems)
#: Resolutions of the ACS clock by name, from every registered rule system and plug-in.
RESOLUTIONS = RULE_SYSTEMS.resolutions

__all__ = [
    "ENTRY_POINT_GROUP",
    "RESOLUTIONS",
    "RULE_SYSTEMS",
    "PluginError",
    "Prepared",
    "Resolution",
    "RuleRegistry",
    "RuleSystem",
    "ScenarioCombatant",
    "ScenarioView",
]
