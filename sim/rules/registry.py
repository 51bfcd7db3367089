"""The one table of rule systems and resolutions: the built-ins, then the plug-ins.

A scenario's ``rules:`` key names a rule system; ACS's ``resolution`` option names a resolution.
Both are looked up here and nowhere else. The built-in rule systems are handed to the registry
by :mod:`sim.rules`; third-party ones come from the Python entry-point group
``combatsim.rules``: each entry point names either a rule system (an object with the members of
:class:`~sim.rules.base.RuleSystem`) or a resolution for the ACS clock (the members of
:class:`~sim.rules.acs.resolution.Resolution`), under the name a scenario uses::

    [project.entry-points."combatsim.rules"]
    coinflip = "coinflip_rules:COIN_FLIP"

The plug-ins are discovered once, on first use (a command that never reads the table never
imports them). A plug-in that cannot be imported, that is neither kind of object, or whose name
another rule system or resolution already has, is a :class:`PluginError`: one sentence naming
the plug-in, its entry point and the cause, which the command line prints with exit code 2.
Resolutions are collected from every rule system's ``resolutions`` (built-ins first, in order),
then from the resolution plug-ins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from sim.engine.errors import CommandError
from sim.rules.acs.resolution import Resolution
from sim.rules.base import RuleSystem

#: The entry-point group third-party rule systems and resolutions register in.
ENTRY_POINT_GROUP = "combatsim.rules"

#: What a rule system must provide (:class:`~sim.rules.base.RuleSystem`).
RULE_SYSTEM_MEMBERS = (
    "name",
    "title",
    "default_time_limit_s",
    "resolutions",
    "options_model",
    "combatant_model",
    "check",
    "prepare",
    "narration_for",
    "time_label",
    "round_seconds",
)
#: What a resolution must provide (:class:`~sim.rules.acs.resolution.Resolution`).
RESOLUTION_MEMBERS = (
    "name",
    "options_model",
    "combatant_model",
    "narration",
    "stats",
    "begin",
    "attack",
)

#: The built-in rule systems, given the registry's (late-read) table of every resolution.
BuiltIns = Callable[[Mapping[str, Resolution[Any, Any]]], Iterable[RuleSystem]]


class PluginError(CommandError):
    """A rule system plug-in that cannot be used; the message names it, its entry point, why."""


@dataclass(frozen=True)
class Origin:
    """Where a rule system or resolution came from, for the clash message."""

    #: ``combatsim itself``, or ``the rule system plug-in DIST (entry point E = module:object)``.
    text: str

    @classmethod
    def of(cls, entry: EntryPoint) -> Origin:
        """The plug-in behind an entry point, named by its distribution."""
        dist = entry.dist.name if entry.dist is not None else "of unknown distribution"
        return cls(f"the rule system plug-in {dist} (entry point {entry.name} = {entry.value})")


BUILT_IN = Origin("combatsim itself")


@dataclass(frozen=True)
class _Loaded:
    systems: dict[str, RuleSystem]
    resolutions: dict[str, Resolution[Any, Any]]


class RuleRegistry(Mapping[str, RuleSystem]):
    """Rule systems by name, built-ins first, plug-ins loaded on first use.

    Args:
        built_ins: makes the built-in rule systems; it receives :attr:`resolutions` (for ACS,
            which reads the table late, when a scenario is validated or prepared).
        group: the entry-point group to discover plug-ins in.
        discover: returns the entry points of a group (``importlib.metadata`` by default; tests
            may hand in their own).
    """

    def __init__(
        self,
        built_ins: BuiltIns,
        group: str = ENTRY_POINT_GROUP,
        discover: Callable[[str], Iterable[EntryPoint]] | None = None,
    ) -> None:
        self._built_ins = built_ins
        self.group = group
        self._discover = discover or _entry_points
        self._loaded: _Loaded | None = None
        self._building = False
        #: Every resolution on offer, by the name ACS's ``resolution`` option uses.
        self.resolutions: Mapping[str, Resolution[Any, Any]] = _Resolutions(self)

    # -- Mapping -----------------------------------------------------------------------------

    def __getitem__(self, name: str) -> RuleSystem:
        return self._load().systems[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load().systems)

    def __len__(self) -> int:
        return len(self._load().systems)

    def __repr__(self) -> str:
        state = "loaded" if self._loaded is not None else "not loaded yet"
        return f"<RuleRegistry {self.group} ({state})>"

    # -- loading -----------------------------------------------------------------------------

    def _load(self) -> _Loaded:
        if self._loaded is None:
            if self._building:
                raise PluginError(
                    "a rule system plug-in reads the table of rule systems while it is being "
                    "imported; it may read it only once loaded (in its methods)"
                )
            self._building = True
            try:
                self._loaded = self._build()
            finally:
                self._building = False
        return self._loaded

    def _build(self) -> _Loaded:
        systems: dict[str, RuleSystem] = {}
        resolutions: dict[str, Resolution[Any, Any]] = {}
        origins: dict[tuple[str, str], Origin] = {}

        def add_resolution(resolution: Resolution[Any, Any], origin: Origin) -> None:
            claimed = origins.get(("resolution", resolution.name))
            if claimed is not None:
                raise PluginError(_clash(origin, "resolution", resolution.name, claimed))
            origins["resolution", resolution.name] = origin
            resolutions[resolution.name] = resolution

        def add_system(system: RuleSystem, origin: Origin) -> None:
            claimed = origins.get(("rule system", system.name))
            if claimed is not None:
                raise PluginError(_clash(origin, "rule system", system.name, claimed))
            origins["rule system", system.name] = origin
            systems[system.name] = system
            for resolution in system.resolutions.values():
                add_resolution(resolution, origin)

        for system in self._built_ins(self.resolutions):
            add_system(system, BUILT_IN)
        for entry in sorted(self._discover(self.group), key=lambda e: (e.name, e.value)):
            origin = Origin.of(entry)
            loaded = _load_entry(entry, origin)
            if isinstance(loaded, type):
                raise PluginError(
                    f"{origin.text} cannot be used: it names the class {loaded.__name__}, not an "
                    f"object (point it at an instance, such as {entry.name.upper()} = "
                    f"{loaded.__name__}())"
                )
            if _provides(loaded, RULE_SYSTEM_MEMBERS):
                add_system(_named(loaded, entry, origin, "rule system"), origin)
            elif _provides(loaded, RESOLUTION_MEMBERS):
                add_resolution(_named(loaded, entry, origin, "resolution"), origin)
            else:
                raise PluginError(
                    f"{origin.text} cannot be used: its {type(loaded).__name__} is neither a "
                    f"rule system (it lacks {_missing(loaded, RULE_SYSTEM_MEMBERS)}) nor a "
                    f"resolution (it lacks {_missing(loaded, RESOLUTION_MEMBERS)}); see "
                    "docs/extending.md"
                )
        return _Loaded(systems, resolutions)


class _Resolutions(Mapping[str, Resolution[Any, Any]]):
    """The registry's resolutions, read when asked (loading the plug-ins on first use)."""

    def __init__(self, registry: RuleRegistry) -> None:
        self._registry = registry

    def __getitem__(self, name: str) -> Resolution[Any, Any]:
        return self._registry._load().resolutions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry._load().resolutions)

    def __len__(self) -> int:
        return len(self._registry._load().resolutions)


def _entry_points(group: str) -> Iterable[EntryPoint]:
    return entry_points(group=group)


def _load_entry(entry: EntryPoint, origin: Origin) -> Any:
    try:
        return entry.load()
    except Exception as exc:  # a plug-in may fail in any way: say how, in one sentence
        text = str(exc).strip()
        cause = text.splitlines()[0] if text else "(no message)"
        raise PluginError(
            f"{origin.text} cannot be loaded: {type(exc).__name__}: {cause}"
        ) from None


def _provides(obj: Any, members: tuple[str, ...]) -> bool:
    return all(hasattr(obj, m) for m in members)


def _missing(obj: Any, members: tuple[str, ...]) -> str:
    return ", ".join(m for m in members if not hasattr(obj, m))


def _named(obj: Any, entry: EntryPoint, origin: Origin, kind: str) -> Any:
    if obj.name != entry.name:
        raise PluginError(
            f"{origin.text} cannot be used: its {kind} is named {obj.name!r}, and the entry "
            f"point must have the name scenarios use (rename the entry point {obj.name!r})"
        )
    return obj


def _clash(origin: Origin, kind: str, name: str, claimed: Origin) -> str:
    return (
        f"{origin.text} cannot be used: it adds the {kind} {name!r}, a name {claimed.text} "
        "already uses"
    )
