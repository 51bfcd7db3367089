"""The extension contract: neutral, every hook declared, and plug-ins behind one guard.

What a rule system and a resolution provide is declared once, in ``sim/rules/base.py``: the
registry's member lists are read from those protocols, the built-in resolutions have every hook
of the protocol, a plug-in's resolution that leaves optional hooks out gets the ACS clock's
defaults, and nothing in ``sim/`` asks an object for a hook by name. A plug-in is loaded and
called behind one guard: whatever it raises is one sentence naming it (and, in a run, the
scenario and the combat).
"""

from __future__ import annotations

import ast
import pickle
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules import RESOLUTIONS, RULE_SYSTEMS, RuleRegistry, built_in_rule_systems
from sim.rules.acs.percentile import PERCENTILE
from sim.rules.acs.resolution import DEFAULTS, MOVEMENT_WORDS, on_guard
from sim.rules.base import (
    CLOSE,
    FLEE,
    OptionalHooks,
    Resolution,
    RuleSystem,
    Space,
    protocol_members,
)
from sim.rules.registry import (
    OPTIONAL_HOOKS,
    REQUIRED_RESOLUTION_MEMBERS,
    RESOLUTION_MEMBERS,
    RESOLUTIONS_GROUP,
    RULE_SYSTEM_MEMBERS,
    RULES_GROUP,
    GuardedPrepared,
    Origin,
    PluginDeprecationWarning,
    PluginError,
    PluginFailure,
    guarded_resolution,
)
from sim.run.runner import play, trace_combat
from sim.scenario.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS

COINFLIP = ROOT / "tests" / "plugins" / "coinflip"
RULE_PACKAGES = ("sim.rules.acs", "sim.rules.target10", "sim.rules.prop3")

# -- neutral, declared, derived ------------------------------------------------------------------


def _imported(path: Path) -> set[str]:
    """Every module a file imports, ``if TYPE_CHECKING:`` blocks included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", ["base.py", "registry.py"])
def test_the_contract_and_the_registry_import_no_rule_system(module):
    imported = _imported(ROOT / "sim" / "rules" / module)
    assert not {m for m in imported if m.startswith(RULE_PACKAGES)}, imported


def test_the_member_lists_are_read_from_the_protocols():
    class Small(Protocol):
        size: int

        def grow(self) -> None: ...

    class Larger(Small, Protocol):
        @property
        def colour(self) -> str: ...

    assert protocol_members(Larger) == ("size", "grow", "colour")
    assert protocol_members(RuleSystem) == RULE_SYSTEM_MEMBERS
    assert protocol_members(Resolution) == RESOLUTION_MEMBERS
    assert protocol_members(OptionalHooks) == OPTIONAL_HOOKS
    # Every hook the clock calls is declared: the six movement and range hooks, the defensive
    # maneuver and the named actions' effects are optional; the attack and its set-up are not.
    assert protocol_members(Space) == (
        "distance_unit",
        "reach",
        "shot_range",
        "step",
        "ready_shot",
        "movement_word",
    )
    assert set(OPTIONAL_HOOKS) == {*protocol_members(Space), "defensive_maneuver", "action_effects"}
    assert REQUIRED_RESOLUTION_MEMBERS == (
        "name",
        "options_model",
        "combatant_model",
        "narration",
        "stats",
        "begin",
        "attack",
    )


def test_every_built_in_resolution_has_every_member_of_the_protocol():
    for name in ("percentile", "target10", "prop3"):
        resolution = RESOLUTIONS[name]
        assert [m for m in RESOLUTION_MEMBERS if not hasattr(resolution, m)] == [], name


def _hooks_asked_by_name(path: Path) -> list[str]:
    """``getattr(x, "hook", ...)`` and ``hasattr(x, "hook")`` calls that name a declared hook."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in RESOLUTION_MEMBERS + RULE_SYSTEM_MEMBERS
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value}")
    return found


def test_nothing_in_sim_asks_an_object_for_a_hook_by_name():
    found = [
        hit for path in sorted((ROOT / "sim").rglob("*.py")) for hit in _hooks_asked_by_name(path)
    ]
    assert found == []


def test_the_clocks_defaults_are_reach_everywhere_no_moves_on_guard_and_attacks_only():
    assert DEFAULTS.reach(object()) == float("inf")
    assert DEFAULTS.distance_unit == "paces"
    assert DEFAULTS.action_effects == frozenset({"attack"})
    assert DEFAULTS.defensive_maneuver is on_guard
    assert [DEFAULTS.movement_word(None, m) for m in (CLOSE, FLEE)] == [  # type: ignore[arg-type]
        MOVEMENT_WORDS[CLOSE],
        MOVEMENT_WORDS[FLEE],
    ]
    # percentile keeps its own maneuver and effects; the hybrids take the clock's maneuver.
    assert PERCENTILE.defensive_maneuver.__func__ is type(PERCENTILE).defensive_maneuver
    assert RESOLUTIONS["target10"].defensive_maneuver is on_guard
    assert RESOLUTIONS["prop3"].movement_word(None, FLEE) == "flees"  # type: ignore[arg-type]


class _OldStyle:
    """A resolution written before the defaults existed: required members and one hook."""

    name = "old"
    options_model = object
    combatant_model = object
    narration = MappingProxyType({})
    action_effects = frozenset({"attack", "heal"})

    def stats(self, model, options):
        return None

    def begin(self, clock):
        pass

    def attack(self, clock, attacker, target, can_defend):
        raise ZeroDivisionError("the coin fell on its edge")


ORIGIN = Origin("the resolution plug-in old-coin (entry point old = old:OLD)")


def test_a_plugin_resolution_that_leaves_hooks_out_gets_the_clocks_defaults():
    completed = guarded_resolution(_OldStyle(), ORIGIN, DEFAULTS)
    assert completed.name == "old" and completed.options_model is object
    assert completed.action_effects == frozenset({"attack", "heal"})  # its own
    assert completed.defensive_maneuver is on_guard  # the clock's
    assert completed.reach(None) == float("inf")
    with pytest.raises(PluginError, match=r"its resolution lacks distance_unit .*Defaults"):
        guarded_resolution(_OldStyle(), ORIGIN, None)


def test_a_resolution_hook_that_raises_names_the_plugin_and_the_hook():
    completed = guarded_resolution(_OldStyle(), ORIGIN, DEFAULTS)
    with pytest.raises(PluginFailure) as caught:
        completed.attack(None, None, None, True)
    assert str(caught.value) == (
        f"{ORIGIN.text} failed, in the attack hook: ZeroDivisionError: the coin fell on its edge"
    )
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_a_plugin_failure_survives_a_worker_and_the_engine():
    failure = PluginFailure(ORIGIN.text, "spawn()", "KeyError: 'x'", "'duel' (d.yaml)", 3)
    text = f"{ORIGIN.text} failed in combat 3 of the scenario 'duel' (d.yaml), in spawn(): "
    assert str(failure) == text + "KeyError: 'x'"
    assert str(pickle.loads(pickle.dumps(failure))) == str(failure)  # back from a worker
    assert str(type(failure)(*failure.args)) == str(failure)  # as SimPy's failed events


# -- the guard at loading ------------------------------------------------------------------------


def _registry(tmp_path: Path, monkeypatch, source: str, group: str = RULES_GROUP) -> RuleRegistry:
    """A registry with one plug-in: module ``odd_rules`` of ``source``, entry point ``odd``."""
    (tmp_path / "odd_rules.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(COINFLIP))
    monkeypatch.delitem(sys.modules, "odd_rules", raising=False)  # each test its own
    points = [EntryPoint("odd", "odd_rules:ODD", group)]
    return RuleRegistry(built_in_rule_systems, discover=lambda g: points, hook_defaults=DEFAULTS)


WHO = "the rule system plug-in of unknown distribution (entry point odd = odd_rules:ODD)"


@pytest.mark.parametrize(
    ("source", "cause"),
    [
        ("import sys\nsys.exit(0)\n", "cannot be loaded: SystemExit: 0"),
        ("raise KeyboardInterrupt\n", "cannot be loaded: KeyboardInterrupt: (no message)"),
        (
            "class Odd:\n    @property\n    def name(self):\n"
            "        raise RuntimeError('no name')\n"
            "    def __getattr__(self, member):\n        return 1\n\n\nODD = Odd()\n",
            "cannot be used: reading its members raised RuntimeError: no name",
        ),
        (
            "class Odd:\n    def __getattr__(self, member):\n"
            "        raise LookupError(member)\n\n\nODD = Odd()\n",
            "cannot be used: reading its members raised LookupError: name",
        ),
    ],
    ids=[
        "sys.exit at import",
        "Ctrl-C at import",
        "a name that raises",
        "a __getattr__ that raises",
    ],
)
def test_whatever_a_plugin_raises_while_loaded_is_one_sentence(
    tmp_path, monkeypatch, source, cause
):
    registry = _registry(tmp_path, monkeypatch, source)
    with pytest.raises(PluginError) as caught:
        list(registry)
    assert str(caught.value) == f"{WHO} {cause}"
    assert caught.value.exit_code == 2


def test_a_resolution_in_the_old_group_is_read_with_a_warning_naming_the_new_group(
    tmp_path, monkeypatch
):
    registry = _registry(
        tmp_path,
        monkeypatch,
        "from coinflip_rules import CoinResolution\n\n\n"
        "class Odd(CoinResolution):\n    name = 'odd'\n\n\nODD = Odd()\n",
    )
    with pytest.warns(PluginDeprecationWarning) as warned:
        assert "odd" in registry.resolutions
    (message,) = [str(w.message) for w in warned]
    assert message.startswith(f"{WHO} registers the resolution 'odd' in the entry-point group ")
    assert f"move the entry point to the group {RESOLUTIONS_GROUP}" in message
    assert issubclass(PluginDeprecationWarning, FutureWarning)  # shown by default


def test_the_group_of_resolutions_holds_resolutions_only(tmp_path, monkeypatch):
    registry = _registry(
        tmp_path, monkeypatch, "from coinflip_rules import COIN_FLIP as ODD\n", RESOLUTIONS_GROUP
    )
    with pytest.raises(PluginError, match=r"CoinFlipSystem is not a resolution \(it lacks narr"):
        list(registry)


# -- the guard in a run: the plug-in, the scenario and the combat --------------------------------


class _Spawns:
    """A plug-in's prepared scenario whose ``spawn`` fails."""

    def spawn(self, dice: Dice) -> list:
        return [1 / 0]

    def start(self, combat: Combat) -> None:
        pass


class _Runs:
    """A plug-in's prepared scenario whose round process fails once the combat runs."""

    def __init__(self, real) -> None:
        self.real = real

    def spawn(self, dice: Dice) -> list:
        return self.real.spawn(dice)

    def start(self, combat: Combat) -> None:
        def process():
            yield combat.env.timeout(1)
            raise ValueError("a coin too many")

        combat.env.process(process())


def test_a_plugin_failing_in_a_combat_is_named_with_the_scenario_and_the_combat():
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    where = f"in combat 7 of the scenario 'ACS duel' ({scenario.file})"
    with pytest.raises(PluginFailure) as caught:
        play(scenario, GuardedPrepared(_Spawns(), ORIGIN), 1, 7)
    assert str(caught.value) == (
        f"{ORIGIN.text} failed {where}, in spawn(): ZeroDivisionError: division by zero"
    )
    real = scenario.system.prepare(scenario)
    with pytest.raises(PluginFailure) as caught:
        play(scenario, GuardedPrepared(_Runs(real), ORIGIN), 1, 7)
    assert str(caught.value) == (
        f"{ORIGIN.text} failed {where}, in its round process: ValueError: a coin too many"
    )


def test_our_own_bugs_are_not_put_on_a_plugin():
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    with pytest.raises(ZeroDivisionError):
        play(scenario, _Spawns(), 1, 7)


def test_the_installed_registry_completes_plugins_with_the_acs_defaults():
    assert RULE_SYSTEMS._defaults is DEFAULTS
    combat, _ = trace_combat(load_scenario(SCENARIOS / "acs-duel.yaml"), 1, 0)
    assert combat.end_reason is not None
