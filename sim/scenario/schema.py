"""The scenario file format, and the validated scenario the engine runs.

A scenario file says which rule system to use (``rules:``), its rule options (``options:``, any
default overridable by name), the sides and their combatants, how many combats to run, the seed
and the time limit. ``templates:`` name stat blocks that several combatants share, and
``count: 6`` says "six goblins" without six copies (they are named ``goblin 1`` .. ``goblin 6``).

The top level is checked here; the stat blocks and options are checked by the models of the rule
system named in ``rules:`` (see :mod:`sim.scenario.loader`, which validates the whole file and
reports every problem at once).
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim.rules import RULE_SYSTEMS
from sim.scenario.describe import did_you_mean
from sim.scenario.names import NAME_PATTERN
from sim.scenario.sensitivity_section import SensitivityModel
from sim.scenario.strategies import StrategiesSection
from sim.scenario.sweep_section import SweepModel
from sim.scenario.variant_section import VariantModel

__all__ = ["NAME_PATTERN", "CombatantSpec", "Scenario", "ScenarioModel", "SideModel"]

MAX_COMBATANTS = 2000


class SideModel(BaseModel):
    """One side of the fight."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., pattern=NAME_PATTERN, description="A short name (letters, digits, _ -).")
    combatants: list[dict[str, Any]] = Field(..., min_length=1)


class ScenarioModel(BaseModel):
    """The top level of a scenario file."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1)
    description: str = ""
    rules: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(0, ge=0, le=2**63 - 1)
    runs: int = Field(1000, ge=1, le=1_000_000_000)
    time_limit: float | None = Field(
        None, gt=0, le=10_000_000, description="Game seconds after which a fight is a draw."
    )
    templates: dict[str, dict[str, Any]] = Field(default_factory=dict)
    sides: list[SideModel] = Field(..., min_length=2)
    variants: list[VariantModel] = Field(
        default_factory=list, description="Named rule tweaks (see docs/regression.md)."
    )
    sweep: SweepModel | None = Field(None, description="Parameters to sweep (combatsim sweep).")
    strategies: StrategiesSection | None = Field(
        None, description="Each side's named strategies (combatsim tournament)."
    )
    sensitivity: SensitivityModel | None = Field(
        None, description="Parameters and ranges to study (combatsim sensitivity)."
    )

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, value: str) -> str:

        if value not in RULE_SYSTEMS:
            titles = {name: system.title for name, system in RULE_SYSTEMS.items()}
            close = did_you_mean(value, list(RULE_SYSTEMS), titles)
            hint = f" (did you mean {close}?)" if close else ""
            raise ValueError(f"one of {', '.join(RULE_SYSTEMS)}{hint}")
        return value


@dataclass(frozen=True)
class CombatantSpec:
    """One combatant of the scenario, after templates and counts are expanded.

    Attributes:
        name: unique in the scenario (``goblin 3`` for the third of ``count: 6``).
        side: index of its side.
        stats: the validated stat block (a model of the rule system).
        path: the YAML path of the entry it came from.
    """

    name: str
    side: int
    stats: BaseModel
    path: tuple


@dataclass(frozen=True)
class Scenario:
    """A validated scenario, ready to run.

    Attributes:
        name: the scenario's name.
        description: free text.
        file: the file it came from (or ``<string>``).
        rules: the rule system's name.
        options: the validated rule options (a model of the rule system).
        seed: the default seed.
        runs: the default number of combats.
        time_limit_s: game seconds after which a fight is a draw.
        side_names: the sides' names, by index.
        combatants: every combatant in scenario order.
        frozen_data: the file's data as validated (overrides applied), pickled once when the
            scenario is made: nothing can change it afterwards, so a worker process or a Dask
            worker rebuilds the very same scenario from it. Read it as :attr:`data`.
        checksum: a digest of the :meth:`fingerprint` when the scenario was validated, so a
            scenario changed afterwards (``dataclasses.replace``) is told from one that was not
            without validating it again.
        text: the scenario file as written, comments kept (its UTF-8 encoding is the file's
            bytes), or None when the scenario was made from data; results folders keep it.
        applied: the values set on top of ``text`` to make this scenario, by dotted path
            (overrides, a variant, a sweep point, a tournament cell); empty for the file as
            written.

    Make one with :meth:`made` (the loader does); change one by building a new one from
    changed :attr:`data` (``scenario_from_dict``, or the variants and overrides of
    :mod:`sim.scenario`).
    """

    name: str
    description: str
    file: str
    rules: str
    options: BaseModel
    seed: int
    runs: int
    time_limit_s: float
    side_names: tuple[str, ...]
    combatants: tuple[CombatantSpec, ...]
    frozen_data: bytes = field(repr=False, compare=False)
    checksum: str = field(default="", repr=False, compare=False)
    text: str | None = field(default=None, repr=False, compare=False)
    applied: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def made(cls, data: Mapping[str, Any], **fields: Any) -> Scenario:
        """A scenario of these validated fields, holding ``data`` frozen and its checksum."""
        unsealed = cls(frozen_data=pickle.dumps(dict(data), protocol=4), **fields)
        return _sealed(unsealed)

    @property
    def data(self) -> dict:
        """A fresh copy of the file's data as validated: change it freely, it is yours."""
        data: dict = pickle.loads(self.frozen_data)
        return data

    def unchanged(self) -> bool:
        """Whether the scenario is still the one validated (its fields match its checksum)."""
        return self.checksum == _digest(self.fingerprint())

    @property
    def system(self):
        """The rule system object."""
        return RULE_SYSTEMS[self.rules]

    def fight_key(self) -> tuple:
        """What the fights of the scenario depend on, as plain data (not its name, seed or runs).

        Two scenarios with equal keys play the same combats from the same seed: a sweep point
        that changes nothing the fights use is found by it.
        """
        return (
            self.rules,
            self.options.model_dump(mode="json"),
            self.time_limit_s,
            self.side_names,
            tuple((c.name, c.side, c.stats.model_dump(mode="json")) for c in self.combatants),
        )

    def fingerprint(self) -> tuple:
        """The :meth:`fight_key` with the scenario's name in front: what a results folder holds."""
        return (self.name, *self.fight_key())

    def option_values(self) -> dict[str, Any]:
        """Every rule option with its value (defaults included), JSON-ready."""
        return self.options.model_dump(mode="json")


def _digest(fingerprint: tuple) -> str:
    text = json.dumps(fingerprint, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _sealed(scenario: Scenario) -> Scenario:
    # A frozen dataclass: the checksum is set once, at creation, through the dataclass's own
    # replace (which calls __init__ again), never by assignment.
    return replace(scenario, checksum=_digest(scenario.fingerprint()))
