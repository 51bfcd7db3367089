"""Rule systems, registered by the name a scenario's ``rules:`` key uses.

This table is the one place that knows every rule system; the scenario loader and the engine look
rule systems up here, never by importing them directly.
"""

from __future__ import annotations

from sim.rules.acs.system import ACS
from sim.rules.base import Prepared, RuleSystem
from sim.rules.prop3.system import PROP3
from sim.rules.target10.system import TARGET10

#: Rule systems by name.
RULE_SYSTEMS: dict[str, RuleSystem] = {
    ACS.name: ACS,
    TARGET10.name: TARGET10,
    PROP3.name: PROP3,
}

__all__ = ["RULE_SYSTEMS", "Prepared", "RuleSystem"]
