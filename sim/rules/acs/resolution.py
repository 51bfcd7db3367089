"""Resolutions on the ACS clock, by the name the ``resolution`` option uses.

ACS is "a timing framework to be modified to fit each game's mechanics": the clock decides who
acts when, a resolution decides what an attack does. A resolution brings its own rule options
and stat-block model (which must include :class:`~sim.rules.acs.models.AcsTiming`), makes plain
hot-path stats from a validated stat block, and resolves one attack, telling the clock whether
the defender rolled a defense (which may cost it an action or disrupt a long one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from pydantic import BaseModel

from sim.rules.acs.percentile import Percentile
from sim.rules.prop3.hybrid import Prop3Resolution
from sim.rules.target10.hybrid import TARGET10_RESOLUTION


class Resolution(Protocol):
    """What the ACS clock asks of a resolution."""

    name: str
    options_model: type[BaseModel]
    combatant_model: type[BaseModel]
    #: Sentences for the events the resolution emits (for ``combatsim replay``).
    narration: Mapping[str, Callable[[Any], str]]

    def stats(self, model: Any, options: Any) -> Any:
        """Plain hot-path stats from a validated stat block."""

    def attack(self, clock: Any, attacker: Any, target: Any, can_defend: bool) -> bool:
        """Resolve one attack; True when the target rolled a defense."""


#: The resolutions, by name.
RESOLUTIONS: dict[str, Resolution] = {
    "percentile": Percentile(),
    "target10": TARGET10_RESOLUTION,
    "prop3": Prop3Resolution(),
}
