"""The one table of rule systems and resolutions: the built-ins, then the plug-ins, behind a guard.

A scenario's ``rules:`` key names a rule system; ACS's ``resolution`` option names a resolution.
Both are looked up here and nowhere else. The built-in rule systems are handed to the registry
by :mod:`sim.rules`; third-party ones come from two Python entry-point groups, each entry point
under the name a scenario uses:

- ``combatsim.rules``: rule systems (:class:`~sim.rules.base.RuleSystem`);
- ``combatsim.resolutions``: resolutions for the ACS clock (:class:`~sim.rules.base.Resolution`).

::

    [project.entry-points."combatsim.rules"]
    coinflip = "coinflip_rules:COIN_FLIP"

    [project.entry-points."combatsim.resolutions"]
    coin = "coinflip_rules:COIN"

Until the next release a resolution found in ``combatsim.rules`` (where both kinds lived before
there were two groups) is still read, with a :class:`PluginDeprecationWarning` that names the
plug-in and the new group.

The plug-ins are discovered once, on first use (a command that never reads the table never
imports them). Everything the registry does with a plug-in, and every later call into it, is
behind one guard (:func:`guarded`): a plug-in that cannot be imported (whatever it raises,
``SystemExit`` and ``KeyboardInterrupt`` included), that is not the kind of object its group
holds, whose members raise when read, or whose name another rule system or resolution already
has, is a :class:`PluginError`: one sentence naming the plug-in, its entry point and the cause,
which the command line prints with exit code 2. A plug-in that fails later, in a scenario's
``check``, in ``prepare``, ``spawn`` or ``start``, or in a resolution hook, raises a
:class:`PluginFailure` (a :class:`PluginError`) that says which call failed; the run layer adds
the scenario and the combat. The built-in rule systems are not guarded: their bugs are ours, and
show as tracebacks.

A resolution may leave out the optional hooks (:class:`~sim.rules.base.OptionalHooks`): it is
completed once, here, with the clock's defaults. Resolutions are collected from every rule
system's ``resolutions`` (built-ins first, in order), then from the resolution plug-ins.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, ParamSpec, TypeGuard, TypeVar, cast

from pydantic import BaseModel

from sim.engine.combat import Combat, TraceEvent
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.engine.errors import CommandError, Problem
from sim.rules.base import (
    OptionalHooks,
    Prepared,
    Resolution,
    RuleSystem,
    ScenarioView,
    protocol_members,
)

#: The entry-point group of third-party rule systems.
RULES_GROUP = "combatsim.rules"
#: The entry-point group of third-party resolutions for the ACS clock.
RESOLUTIONS_GROUP = "combatsim.resolutions"
#: The group's name before there were two (rule systems, and resolutions until the next release).
ENTRY_POINT_GROUP = RULES_GROUP

#: What a rule system provides (:class:`~sim.rules.base.RuleSystem`).
RULE_SYSTEM_MEMBERS = protocol_members(RuleSystem)
#: Every member of a resolution (:class:`~sim.rules.base.Resolution`) ...
RESOLUTION_MEMBERS = protocol_members(Resolution)
#: ... of which these have defaults (:class:`~sim.rules.base.OptionalHooks`) ...
OPTIONAL_HOOKS = protocol_members(OptionalHooks)
#: ... and these do not.
REQUIRED_RESOLUTION_MEMBERS = tuple(m for m in RESOLUTION_MEMBERS if m not in OPTIONAL_HOOKS)

#: A resolution of any clock. (``Any``: each has its own clock, fighter and stats types, which
#: the rule system that plays it pairs.)
AnyResolution = Resolution[Any, Any, Any]
#: The built-in rule systems, given the registry's (late-read) table of every resolution.
BuiltIns = Callable[[Mapping[str, AnyResolution]], Iterable[RuleSystem]]


class PluginError(CommandError):
    """A rule system plug-in that cannot be used; the message names it, its entry point, why."""


class PluginFailure(PluginError):
    """A plug-in raised an exception when called: which plug-in, which call, where, and what.

    The fields are the exception's arguments, so that it survives being pickled back from a
    worker process and being raised again by the engine (which rebuilds the exceptions of failed
    SimPy events from their arguments).

    Args:
        plugin: the plug-in, as :attr:`Origin.text` names it.
        call: what failed (``spawn()``, ``the attack hook``, ``its round process``).
        cause: the exception, in one line (``ZeroDivisionError: division by zero``).
        scenario: the scenario, named (empty when not known yet).
        combat: the combat's number in the run (-1 when not in a combat).
    """

    def __init__(
        self, plugin: str, call: str, cause: str, scenario: str = "", combat: int = -1
    ) -> None:
        super().__init__(plugin, call, cause, scenario, combat)
        self.plugin = plugin
        self.call = call
        self.cause = cause
        self.scenario = scenario
        self.combat = combat

    def __str__(self) -> str:
        where = ""
        if self.combat >= 0:
            where = f" in combat {self.combat}"
        if self.scenario:
            where += f" {'of' if where else 'on'} the scenario {self.scenario}"
        return f"{self.plugin} failed{where}, in {self.call}: {self.cause}"

    def during(self, scenario: ScenarioView, combat: int = -1) -> PluginFailure:
        """The same failure, with the scenario (and the combat) it happened in."""
        return PluginFailure(
            self.plugin,
            self.call,
            self.cause,
            self.scenario or scenario_label(scenario),
            combat if self.combat < 0 else self.combat,
        )


class PluginDeprecationWarning(FutureWarning):
    """A plug-in registered the way that is read for one more release only.

    A ``FutureWarning``, Python's deprecation warning for the users of a program, which it shows
    by default (a ``DeprecationWarning`` is hidden outside ``__main__``): whoever runs combatsim
    reads it, and may not be the plug-in's author.
    """


def scenario_label(scenario: ScenarioView) -> str:
    """``'coin duel' (duel.yaml)``: a scenario, for a plug-in's failure."""
    return f"{scenario.name!r} ({scenario.file})"


@dataclass(frozen=True)
class Origin:
    """Where a rule system or resolution came from, for the messages that name it."""

    #: ``combatsim itself``, or ``the rule system plug-in DIST (entry point E = module:object)``.
    text: str

    @classmethod
    def of(cls, entry: EntryPoint, kind: str = "rule system") -> Origin:
        """The plug-in behind an entry point, named by its distribution."""
        dist = entry.dist.name if entry.dist is not None else "of unknown distribution"
        return cls(f"the {kind} plug-in {dist} (entry point {entry.name} = {entry.value})")


BUILT_IN = Origin("combatsim itself")

#: What the guard turns into one sentence when the registry loads or inspects a plug-in ...
_AT_LOAD: tuple[type[BaseException], ...] = (Exception, SystemExit, KeyboardInterrupt)
#: ... and when it calls one later (a Ctrl-C then is the user's, and stays a Ctrl-C).
_AT_CALL: tuple[type[BaseException], ...] = (Exception, SystemExit)


def cause_of(exc: BaseException) -> str:
    """An exception in one line: its type and the first line of its message."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else '(no message)'}"


@contextmanager
def guarded(origin: Origin, failing: str) -> Iterator[None]:
    """The guard around a plug-in being loaded or inspected: any failure is one sentence.

    ``failing`` says what went wrong, ``{}`` standing for the cause (``cannot be loaded: {}``);
    the message is the plug-in's name followed by that. A :class:`PluginError` raised inside
    (the registry's own refusals) passes as it is.
    """
    try:
        yield
    except PluginError:
        raise
    except _AT_LOAD as exc:
        raise PluginError(f"{origin.text} {failing.format(cause_of(exc))}") from None


P = ParamSpec("P")
R = TypeVar("R")


def _call(origin: Origin, call: str, fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` behind the guard: a failure inside is a :class:`PluginFailure` naming the call."""

    def guarded_call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except PluginError:
            raise
        except _AT_CALL as exc:
            scenario = next((scenario_label(a) for a in args if _is_scenario(a)), "")
            raise PluginFailure(origin.text, call, cause_of(exc), scenario) from exc

    return guarded_call


def _is_scenario(arg: object) -> TypeGuard[ScenarioView]:
    return all(hasattr(arg, m) for m in ("name", "file", "combatants", "options"))


# -- plug-ins behind the guard -------------------------------------------------------------------


class GuardedSystem:
    """A plug-in rule system whose every method is called behind the guard.

    What it says of itself (``name``, ``title``, ...) is read once, behind the guard, when it is
    registered (``own`` has every member of the protocol, checked then).
    """

    def __init__(self, own: RuleSystem, origin: Origin, resolutions: Mapping[str, AnyResolution]):
        self.origin = origin
        self.name = own.name
        self.title = own.title
        self.default_time_limit_s = own.default_time_limit_s
        self.resolutions = resolutions
        self._options_model = _call(origin, "options_model()", own.options_model)
        self._combatant_model = _call(origin, "combatant_model()", own.combatant_model)
        self._check = _call(origin, "check()", own.check)
        self._prepare = _call(origin, "prepare()", own.prepare)
        self._narration_for = _call(origin, "narration_for()", own.narration_for)
        self._time_label = _call(origin, "time_label()", own.time_label)
        self._round_seconds = _call(origin, "round_seconds()", own.round_seconds)

    def options_model(self, raw: Mapping[str, object]) -> type[BaseModel]:
        """The plug-in's options model."""
        return self._options_model(raw)

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The plug-in's stat-block model."""
        return self._combatant_model(options)

    def check(self, scenario: ScenarioView) -> list[Problem]:
        """The plug-in's cross-field problems."""
        return self._check(scenario)

    def prepare(self, scenario: ScenarioView) -> GuardedPrepared:
        """The plug-in's prepared scenario, its ``spawn`` and ``start`` behind the guard too."""
        return GuardedPrepared(self._prepare(scenario), self.origin)

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """The plug-in's sentences, each behind the guard."""
        return _narration(self._narration_for(options), self.origin)

    def time_label(self, t: float) -> str:
        """The plug-in's replay headings."""
        return self._time_label(t)

    def round_seconds(self, options: BaseModel) -> float | None:
        """The plug-in's round length (None: it counts game seconds)."""
        return self._round_seconds(options)


class GuardedPrepared:
    """A plug-in's prepared scenario: ``spawn`` and ``start`` behind the guard.

    The processes ``start`` launches run later, inside the engine's loop: the run layer names
    the plug-in when one of them fails (:func:`plugin_failure`).
    """

    def __init__(self, own: Prepared[Any], origin: Origin) -> None:
        # (``Any``: the plug-in's fighter type, which only its own round process reads.)
        self.origin = origin
        self._spawn = _call(origin, "spawn()", own.spawn)
        self._start = _call(origin, "start()", own.start)

    def spawn(self, dice: Dice) -> list[Fighter]:
        """Fresh fighters for one combat."""
        return self._spawn(dice)

    def start(self, combat: Combat[Fighter]) -> None:
        """Start the plug-in's round process(es)."""
        self._start(combat)


def guarded_resolution(own: object, origin: Origin, defaults: object | None) -> AnyResolution:
    """A plug-in's resolution with every hook behind the guard, completed with ``defaults``.

    The members are those of :class:`~sim.rules.base.Resolution`, read from the protocol: the
    plug-in's own where it has one, else the clock's default for an optional hook (a plug-in
    that lacks a required one was refused before). Values (``name``, the models) are copied;
    callables are wrapped, and so are the narration's sentences.
    """
    members: dict[str, object] = {}
    for member in RESOLUTION_MEMBERS:
        if hasattr(own, member):
            value = getattr(own, member)  # a hook the protocol declares
        elif defaults is not None:
            members[member] = getattr(defaults, member)
            continue
        else:
            raise PluginError(
                f"{origin.text} cannot be used: its resolution lacks {member} (derive it from "
                "sim.rules.acs.resolution.Defaults for the clock's defaults)"
            )
        if member == "narration" and isinstance(value, Mapping):
            value = _narration(value, origin)
        elif callable(value) and not isinstance(value, type):
            value = _call(origin, f"the {member} hook", value)
        members[member] = value
    return cast(AnyResolution, _Resolution(origin, members))


class _Resolution:
    """The members :func:`guarded_resolution` gathered, as attributes."""

    def __init__(self, origin: Origin, members: dict[str, object]) -> None:
        self.origin = origin
        self.__dict__.update(members)


def _narration(
    table: Mapping[str, Callable[[TraceEvent], str]], origin: Origin
) -> Mapping[str, Callable[[TraceEvent], str]]:
    return {kind: _call(origin, f"its narration of {kind!r}", say) for kind, say in table.items()}


def plugin_failure(prepared: object, exc: BaseException) -> PluginFailure | None:
    """The plug-in to blame for ``exc``, raised while a prepared scenario played, or None.

    A :class:`PluginFailure` names its plug-in already. Anything else escaping a combat that a
    plug-in's rule system drives came from its round process (the engine under it is ours, and
    holds to its tests on every built-in); under a built-in rule system it is our own bug.
    """
    if isinstance(exc, PluginFailure):
        return exc
    if isinstance(prepared, GuardedPrepared) and isinstance(exc, _AT_CALL):
        return PluginFailure(prepared.origin.text, "its round process", cause_of(exc))
    return None


# -- the registry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Loaded:
    systems: dict[str, RuleSystem]
    resolutions: dict[str, AnyResolution]


class RuleRegistry(Mapping[str, RuleSystem]):
    """Rule systems by name, built-ins first, plug-ins loaded on first use.

    Args:
        built_ins: makes the built-in rule systems; it receives :attr:`resolutions` (for ACS,
            which reads the table late, when a scenario is validated or prepared).
        group: the entry-point group of rule system plug-ins (and, for one more release, of
            resolutions too).
        discover: returns the entry points of a group (``importlib.metadata`` by default; tests
            may hand in their own).
        resolution_group: the entry-point group of resolution plug-ins.
        hook_defaults: the clock's answers to the optional hooks, which complete a plug-in's
            resolution that leaves some out (None: such a resolution is refused).
    """

    def __init__(
        self,
        built_ins: BuiltIns,
        group: str = RULES_GROUP,
        discover: Callable[[str], Iterable[EntryPoint]] | None = None,
        resolution_group: str = RESOLUTIONS_GROUP,
        hook_defaults: object | None = None,
    ) -> None:
        self._built_ins = built_ins
        self.group = group
        self.resolution_group = resolution_group
        self._discover = discover or _entry_points
        self._defaults = hook_defaults
        self._loaded: _Loaded | None = None
        self._building = False
        #: Every resolution on offer, by the name ACS's ``resolution`` option uses.
        self.resolutions: Mapping[str, AnyResolution] = _Resolutions(self)

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
                self._loaded = _Building(self._defaults).build(
                    self._built_ins(self.resolutions),
                    self._entries(self.group),
                    self._entries(self.resolution_group),
                )
            finally:
                self._building = False
        return self._loaded

    def _entries(self, group: str) -> list[EntryPoint]:
        found = self._discover(group)
        return sorted((e for e in found if e.group == group), key=lambda e: (e.name, e.value))


class _Building:
    """One build of the table: every rule system and resolution, and where each came from."""

    def __init__(self, defaults: object | None) -> None:
        self.defaults = defaults
        self.systems: dict[str, RuleSystem] = {}
        self.resolutions: dict[str, AnyResolution] = {}
        self.origins: dict[tuple[str, str], Origin] = {}

    def build(
        self,
        built_ins: Iterable[RuleSystem],
        systems: list[EntryPoint],
        resolutions: list[EntryPoint],
    ) -> _Loaded:
        for system in built_ins:
            missing = _missing(system.resolutions.values(), RESOLUTION_MEMBERS)
            if missing:  # our own bug: a built-in resolution that does not derive from Defaults
                raise TypeError(f"a built-in resolution of {system.name} lacks {missing}")
            self.add_system(system, BUILT_IN)
        for entry in systems:
            self.add_entry(entry, Origin.of(entry))
        for entry in resolutions:
            self.add_entry(entry, Origin.of(entry, "resolution"), resolution_group=True)
        return _Loaded(self.systems, self.resolutions)

    def claim(self, kind: str, name: str, origin: Origin) -> None:
        claimed = self.origins.get((kind, name))
        if claimed is not None:
            raise PluginError(
                f"{origin.text} cannot be used: it adds the {kind} {name!r}, a name "
                f"{claimed.text} already uses"
            )
        self.origins[kind, name] = origin

    def add_system(self, system: RuleSystem, origin: Origin) -> None:
        self.claim("rule system", system.name, origin)
        self.systems[system.name] = system
        for resolution in system.resolutions.values():
            self.add_resolution(resolution, origin)

    def add_resolution(self, resolution: AnyResolution, origin: Origin) -> None:
        self.claim("resolution", resolution.name, origin)
        self.resolutions[resolution.name] = resolution

    def add_entry(self, entry: EntryPoint, origin: Origin, resolution_group: bool = False) -> None:
        with guarded(origin, "cannot be loaded: {}"):
            loaded = entry.load()
        with guarded(origin, "cannot be used: reading its members raised {}"):
            if isinstance(loaded, type):
                raise PluginError(
                    f"{origin.text} cannot be used: it names the class {loaded.__name__}, not an "
                    f"object (point it at an instance, such as {entry.name.upper()} = "
                    f"{loaded.__name__}())"
                )
            if resolution_group:
                if not _provides(loaded, REQUIRED_RESOLUTION_MEMBERS):
                    raise PluginError(
                        f"{origin.text} cannot be used: its {type(loaded).__name__} is not a "
                        f"resolution (it lacks {_lacks(loaded, REQUIRED_RESOLUTION_MEMBERS)}); "
                        "see docs/extending.md"
                    )
                _named(loaded.name, entry, origin, "resolution")
                self.add_resolution(guarded_resolution(loaded, origin, self.defaults), origin)
            elif _provides(loaded, RULE_SYSTEM_MEMBERS):
                _named(loaded.name, entry, origin, "rule system")
                resolutions = {
                    name: guarded_resolution(r, origin, self.defaults)
                    for name, r in loaded.resolutions.items()
                }
                self.add_system(GuardedSystem(loaded, origin, resolutions), origin)
            elif _provides(loaded, REQUIRED_RESOLUTION_MEMBERS):
                warnings.warn(
                    f"{origin.text} registers the resolution {loaded.name!r} in the entry-point "
                    f"group {RULES_GROUP}, which holds rule systems; move the entry point to the "
                    f"group {RESOLUTIONS_GROUP} (resolutions in {RULES_GROUP} are read until the "
                    "next release)",
                    PluginDeprecationWarning,
                    stacklevel=2,
                )
                _named(loaded.name, entry, origin, "resolution")
                self.add_resolution(guarded_resolution(loaded, origin, self.defaults), origin)
            else:
                raise PluginError(
                    f"{origin.text} cannot be used: its {type(loaded).__name__} is neither a "
                    f"rule system (it lacks {_lacks(loaded, RULE_SYSTEM_MEMBERS)}) nor a "
                    f"resolution (it lacks {_lacks(loaded, REQUIRED_RESOLUTION_MEMBERS)}); see "
                    "docs/extending.md"
                )


class _Resolutions(Mapping[str, AnyResolution]):
    """The registry's resolutions, read when asked (loading the plug-ins on first use)."""

    def __init__(self, registry: RuleRegistry) -> None:
        self._registry = registry

    def __getitem__(self, name: str) -> AnyResolution:
        return self._registry._load().resolutions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry._load().resolutions)

    def __len__(self) -> int:
        return len(self._registry._load().resolutions)


def _entry_points(group: str) -> Iterable[EntryPoint]:
    return entry_points(group=group)


def _provides(obj: object, members: tuple[str, ...]) -> bool:
    return all(hasattr(obj, m) for m in members)


def _lacks(obj: object, members: tuple[str, ...]) -> str:
    return ", ".join(m for m in members if not hasattr(obj, m))


def _missing(objects: Iterable[object], members: tuple[str, ...]) -> str:
    return "; ".join(lacks for obj in objects if (lacks := _lacks(obj, members)))


def _named(name: object, entry: EntryPoint, origin: Origin, kind: str) -> None:
    if name != entry.name:
        raise PluginError(
            f"{origin.text} cannot be used: its {kind} is named {name!r}, and the entry "
            f"point must have the name scenarios use (rename the entry point {name!r})"
        )
