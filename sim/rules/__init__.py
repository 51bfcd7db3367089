"""Rule systems, registered by the name a scenario's ``rules:`` key uses.

:data:`RULE_SYSTEMS` is the one place that knows every rule system: the three built in here,
then the plug-ins of the ``combatsim.rules`` entry-point group, loaded on first use
(:mod:`sim.rules.registry`). :data:`RESOLUTIONS` is every resolution for the ACS clock, collected
from the rule systems that offer one and from the plug-ins of ``combatsim.resolutions``; a
plug-in's resolution that leaves out optional hooks gets the ACS clock's defaults. The scenario
loader and the engine look rule systems up here, never by importing them directly. The contract
a plug-in answers is :mod:`sim.rules.base`.
"""

from __future__ import annotations

from collections.abc import Mapping

from sim.rules.acs.resolution import DEFAULTS
from sim.rules.acs.system import AcsSystem
from sim.rules.base import (
    OptionalHooks,
    Prepared,
    Resolution,
    RuleSystem,
    ScenarioCombatant,
    ScenarioView,
    Space,
)
from sim.rules.prop3.system import PROP3
from sim.rules.registry import (
    ENTRY_POINT_GROUP,
    RESOLUTIONS_GROUP,
    RULES_GROUP,
    AnyResolution,
    PluginError,
    PluginFailure,
    RuleRegistry,
)
from sim.rules.target10.system import TARGET10


def built_in_rule_systems(resolutions: Mapping[str, AnyResolution]) -> tuple[RuleSystem, ...]:
    """The rule systems that ship with combatsim; ACS reads ``resolutions`` when it needs them."""
    return (AcsSystem(resolutions), TARGET10, PROP3)


#: Rule systems by name: the built-ins, then the plug-ins (loaded on first use).
RULE_SYSTEMS = RuleRegistry(built_in_rule_systems, hook_defaults=DEFAULTS)
#: Resolutions of the ACS clock by name, from every registered rule system and plug-in.
RESOLUTIONS = RULE_SYSTEMS.resolutions

__all__ = [
    "ENTRY_POINT_GROUP",
    "RESOLUTIONS",
    "RESOLUTIONS_GROUP",
    "RULES_GROUP",
    "RULE_SYSTEMS",
    "OptionalHooks",
    "PluginError",
    "PluginFailure",
    "Prepared",
    "Resolution",
    "RuleRegistry",
    "RuleSystem",
    "ScenarioCombatant",
    "ScenarioView",
    "Space",
]
