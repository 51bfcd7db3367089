"""Rule system plug-ins: the coin-flip duel installed from tests/plugins, and broken plug-ins.

The coin flip offers a rule system (entry-point group ``combatsim.rules``) and a resolution for
the ACS clock (``combatsim.resolutions``).

A plug-in is "installed" the way an installer leaves it: the package next to a ``.dist-info``
whose ``entry_points.txt`` is written from the plug-in's own ``pyproject.toml``, in a directory
put on ``PYTHONPATH`` (``importlib.metadata`` reads entry points from any dist-info on the path).
Then ``python -m sim`` runs from the command line, as a designer would run it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from fractions import Fraction
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from sim.rules import RULE_SYSTEMS, PluginError, RuleRegistry, built_in_rule_systems
from sim.rules.acs.resolution import DEFAULTS
from sim.rules.registry import RESOLUTIONS_GROUP, RULES_GROUP
from tests.conftest import ROOT, within

COINFLIP = Path(__file__).resolve().parent / "coinflip"


def install(site: Path, project: Path) -> None:
    """Install a plug-in project into ``site``: its package and a dist-info with entry points."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for package in (p for p in project.iterdir() if (p / "__init__.py").is_file()):
        shutil.copytree(package, site / package.name)
    dist = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n",
        encoding="utf-8",
    )
    lines = []
    for group, entries in meta.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {value}" for name, value in entries.items())
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def fake_plugin(
    site: Path, dist: str, entry: str, module: str, source: str, group: str = RULES_GROUP
) -> None:
    """A one-module plug-in named ``dist`` whose entry point is ``entry`` in ``group``."""
    project = site.parent / f"src-{dist}"
    (project / module).mkdir(parents=True)
    (project / module / "__init__.py").write_text(source, encoding="utf-8")
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "{dist}"\nversion = "1.0"\n[project.entry-points."{group}"]\n{entry}\n',
        encoding="utf-8",
    )
    install(site, project)


def combatsim(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m sim ARGS`` with the plug-ins of ``site`` installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "sim", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def wins(table: str, side: str) -> int:
    """The wins of ``side`` in the outcome table ``combatsim run`` prints."""
    match = re.search(rf"│\s*{side}\s*│\s*(\d+)\s*│", table)
    assert match, table
    return int(match.group(1))


COIN_DUEL = """\
name: coin duel
rules: coinflip
options:
  heads_chance: {heads}
sides:
  - name: red
    combatants: [{{name: Red, hp: 1}}]
  - name: blue
    combatants: [{{name: Blue, hp: 1}}]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    install(site, COINFLIP)
    return site


@pytest.mark.slow
def test_the_coin_flip_plugin_runs_a_scenario_from_the_command_line(site, tmp_path):
    # Red flips first each second: it wins at once on heads (p), else Blue wins on heads, else
    # the second starts over, so P(red wins) = p / (1 - (1 - p)^2); with a fair coin 2/3.
    (tmp_path / "duel.yaml").write_text(COIN_DUEL.format(heads=0.5), encoding="utf-8")
    runs = 1200
    result = combatsim(
        site,
        "run",
        "duel.yaml",
        "--runs",
        str(runs),
        "--seed",
        "5",
        "--workers",
        "2",
        "--chunk-size",
        "300",
        "-q",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    red, blue = wins(result.stdout, "red"), wins(result.stdout, "blue")
    assert red + blue == runs  # a fair coin ends every duel within the minute
    assert within(red, runs, float(Fraction(2, 3)))
    assert not within(red, runs, 0.5)  # the order of the flips matters: not a coin toss


@pytest.mark.slow
def test_the_plugin_narrates_its_replay_with_its_own_time_labels(site, tmp_path):
    (tmp_path / "duel.yaml").write_text(COIN_DUEL.format(heads=1.0), encoding="utf-8")
    result = combatsim(site, "replay", "duel.yaml", "--combat", "0", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "coin duel: combat 0 of seed 0 (Coin-flip duel)"
    assert lines[1:4] == [
        "-- second 1",
        "Red flips at Blue: heads: a hit",
        "  Blue takes 1 damage from Red (0 hp left)",
    ]
    assert lines[-1] == "The fight ends after 0.1 s: side red wins."


@pytest.mark.slow
def test_the_plugin_checks_its_scenarios(site, tmp_path):
    (tmp_path / "duel.yaml").write_text(COIN_DUEL.format(heads=0), encoding="utf-8")
    result = combatsim(site, "run", "duel.yaml", "--runs", "10", cwd=tmp_path)
    assert result.returncode == 2
    assert "options.heads_chance: found a coin that never lands heads" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_plugin_that_cannot_be_imported_is_one_sentence_and_exit_2(site, tmp_path):
    broken = tmp_path / "site"
    fake_plugin(
        broken, "dice-of-doom", 'doom = "doom_rules:DOOM"', "doom_rules", "import no_such_dep\n"
    )
    scenario = ROOT / "scenarios" / "acs-duel.yaml"
    result = combatsim(broken, "run", str(scenario), "--runs", "10", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: the rule system plug-in dice-of-doom (entry point doom = doom_rules:DOOM) "
        "cannot be loaded: ModuleNotFoundError: No module named 'no_such_dep'"
    ]


@pytest.mark.slow
def test_a_plugin_whose_name_is_taken_is_one_sentence_and_exit_2(tmp_path):
    clash = tmp_path / "site"
    install(clash, COINFLIP)
    fake_plugin(
        clash,
        "acs-again",
        'acs = "acs_again:ACS_AGAIN"',
        "acs_again",
        "from coinflip_rules import CoinFlipSystem\n\n\n"
        "class AcsAgain(CoinFlipSystem):\n"
        '    name = "acs"\n\n\n'
        "ACS_AGAIN = AcsAgain()\n",
    )
    scenario = ROOT / "scenarios" / "acs-duel.yaml"
    result = combatsim(clash, "validate", str(scenario), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: the rule system plug-in acs-again (entry point acs = acs_again:ACS_AGAIN) "
        "cannot be used: it adds the rule system 'acs', a name combatsim itself already uses"
    ]


COIN_ON_THE_CLOCK = """\
name: coin on the clock
rules: acs
options: {resolution: coin, heads_chance: 1.0}
time_limit: 5
sides:
  - name: red
    combatants: [{name: Red, hp: 3, damage: 3}]
  - name: blue
    combatants: [{name: Blue, hp: 3, damage: 3}]
"""


@pytest.mark.slow
def test_a_plugin_resolution_plays_on_the_acs_clock(site, tmp_path):
    (tmp_path / "clock.yaml").write_text(COIN_ON_THE_CLOCK, encoding="utf-8")
    result = combatsim(site, "replay", "clock.yaml", "--combat", "0", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # ACS orders the fight (ambition, then the winner's free action on segment 1); the coin
    # resolves the attack: always heads, 3 damage against 3 hit points, so it is the only one.
    winner = next(line.split(":")[0] for line in lines if "wins ambition" in line)
    loser = ({"Red", "Blue"} - {winner}).pop()
    flips = [line for line in lines if " flips at " in line]
    assert flips == [f"{winner} flips at {loser}: heads: a hit"]
    assert lines[lines.index(flips[0]) - 1] == f"{winner} attacks {loser} (free action)"
    assert lines[-1] == f"The fight ends after 0.1 s: side {winner.lower()} wins."


# -- the registry, in this process ---------------------------------------------------------------


def registry_with(*entries: tuple[str, str], resolutions: tuple[tuple[str, str], ...] = ()):
    """A registry of the built-ins plus entry points ``(name, "module:object")``.

    ``entries`` are in the group of rule systems, ``resolutions`` in that of resolutions; the
    registry completes resolutions with the ACS clock's defaults, as ``sim.rules`` does.
    """
    points = [EntryPoint(name, value, RULES_GROUP) for name, value in entries]
    points += [EntryPoint(name, value, RESOLUTIONS_GROUP) for name, value in resolutions]
    return RuleRegistry(
        built_in_rule_systems, discover=lambda group: points, hook_defaults=DEFAULTS
    )


@pytest.fixture
def coinflip_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(COINFLIP))


def test_the_installed_registry_has_the_built_ins_first():
    assert list(RULE_SYSTEMS)[:3] == ["acs", "target10", "prop3"]
    assert list(RULE_SYSTEMS.resolutions)[:3] == ["percentile", "target10", "prop3"]


def test_a_plugin_adds_its_rule_system_and_its_resolution(coinflip_importable):
    registry = registry_with(
        ("coinflip", "coinflip_rules:COIN_FLIP"), resolutions=(("coin", "coinflip_rules:COIN"),)
    )
    assert list(registry) == ["acs", "target10", "prop3", "coinflip"]
    assert list(registry.resolutions) == ["percentile", "target10", "prop3", "coin"]
    # ACS reads the table late: the plug-in's resolution brings its options and stat block.
    acs = registry["acs"]
    options = acs.options_model({"resolution": "coin"}).model_validate({"resolution": "coin"})
    assert options.model_dump()["heads_chance"] == 0.5
    assert "damage" in acs.combatant_model(options).model_fields


def test_plugins_are_loaded_once_and_only_when_the_table_is_read():
    calls = []

    def discover(group: str) -> list[EntryPoint]:
        calls.append(group)
        return []

    registry = RuleRegistry(built_in_rule_systems, discover=discover)
    assert calls == []
    assert "acs" in registry and "prop3" in registry.resolutions and len(registry) == 3
    assert calls == [RULES_GROUP, RESOLUTIONS_GROUP]


def test_an_entry_point_naming_neither_kind_of_object(coinflip_importable):
    registry = registry_with(("coinflip", "coinflip_rules:COIN_FLIP.resolutions"))
    with pytest.raises(PluginError, match=r"its dict is neither a rule system \(it lacks name, "):
        list(registry)


def test_a_resolution_plugin_cannot_take_a_built_in_resolution_name(
    coinflip_importable, tmp_path, monkeypatch
):
    (tmp_path / "fake_percentile.py").write_text(
        "from coinflip_rules import CoinResolution\n\n\n"
        "class Fake(CoinResolution):\n"
        '    name = "percentile"\n\n\n'
        "FAKE = Fake()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = registry_with(resolutions=(("percentile", "fake_percentile:FAKE"),))
    with pytest.raises(PluginError, match="resolution 'percentile', a name combatsim itself"):
        registry.resolutions["percentile"]


def test_two_plugins_with_one_name_clash(coinflip_importable, tmp_path, monkeypatch):
    (tmp_path / "coin_twice.py").write_text(
        "from coinflip_rules import CoinResolution\nCOIN = CoinResolution()\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = registry_with(
        resolutions=(("coin", "coinflip_rules:COIN"), ("coin", "coin_twice:COIN"))
    )
    with pytest.raises(PluginError) as caught:
        registry.resolutions["coin"]
    assert str(caught.value) == (
        # entry points load in name order, then value order: coin_twice first
        "the resolution plug-in of unknown distribution (entry point coin = "
        "coinflip_rules:COIN) cannot be used: it adds the resolution 'coin', a name the "
        "resolution plug-in of unknown distribution (entry point coin = coin_twice:COIN) "
        "already uses"
    )


def test_a_rule_system_offering_a_resolution_clashes_with_a_resolution_plugin(
    coinflip_importable, tmp_path, monkeypatch
):
    (tmp_path / "coin_system.py").write_text(
        "from coinflip_rules import COIN, CoinFlipSystem\n\n\n"
        "class WithCoin(CoinFlipSystem):\n"
        '    name = "withcoin"\n'
        '    resolutions = {"coin": COIN}\n\n\n'
        "WITH_COIN = WithCoin()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = registry_with(
        ("withcoin", "coin_system:WITH_COIN"), resolutions=(("coin", "coinflip_rules:COIN"),)
    )
    with pytest.raises(PluginError, match=r"it adds the resolution 'coin', a name the rule sys"):
        list(registry)


def test_an_entry_point_must_carry_the_name_scenarios_use(coinflip_importable):
    registry = registry_with(("coins", "coinflip_rules:COIN_FLIP"))
    with pytest.raises(PluginError, match=r"named 'coinflip'.*rename the entry point 'coinflip'"):
        list(registry)


def test_an_entry_point_naming_a_class_says_to_name_an_instance(coinflip_importable):
    registry = registry_with(("coinflip", "coinflip_rules:CoinFlipSystem"))
    with pytest.raises(PluginError, match=r"names the class CoinFlipSystem.*COINFLIP = "):
        list(registry)


# -- the guard, from the command line (issue 27: each of these exited 0 or gave a traceback) -----


@pytest.mark.slow
def test_a_plugin_that_exits_at_import_stops_run_validate_and_check_with_one_sentence(tmp_path):
    quitter = tmp_path / "site"
    fake_plugin(
        quitter, "quitter", 'quit = "quit_rules:QUIT"', "quit_rules", "raise SystemExit(0)\n"
    )
    scenario = str(ROOT / "scenarios" / "acs-duel.yaml")
    said = [
        "error: the rule system plug-in quitter (entry point quit = quit_rules:QUIT) cannot be "
        "loaded: SystemExit: 0"
    ]
    for command in (["run", scenario, "--runs", "10"], ["validate", scenario], ["check", scenario]):
        result = combatsim(quitter, *command, cwd=tmp_path)
        assert (result.returncode, result.stderr.splitlines()) == (2, said), command[0]


BROKEN_COIN = """\
from coinflip_rules import CoinFlipSystem, CoinPrepared, CoinResolution


class Rolling(CoinPrepared):
    def seconds(self, combat):
        yield combat.env.timeout(1)
        raise RuntimeError("the coin rolled away")


class BrokenSystem(CoinFlipSystem):
    name = "broken"

    def prepare(self, scenario):
        if scenario.options.heads_chance == 0.75:
            raise IndexError("no coin in the purse")
        return Rolling(scenario)

    def check(self, scenario):
        if scenario.options.heads_chance == 0.25:
            raise KeyError("heads")
        return []


class BrokenCoin(CoinResolution):
    name = "brokencoin"

    def attack(self, clock, attacker, target, can_defend):
        raise ValueError("tails on both sides")


BROKEN = BrokenSystem()
BROKEN_COIN = BrokenCoin()
"""


@pytest.fixture(scope="module")
def broken(site, tmp_path_factory) -> Path:
    """The coin flip, and a plug-in ``broken-coin`` whose rule system and resolution fail."""
    place = tmp_path_factory.mktemp("broken") / "site"
    shutil.copytree(site, place)
    fake_plugin(place, "broken-coin", 'broken = "broken_coin:BROKEN"', "broken_coin", BROKEN_COIN)
    # The same module again, its resolution in the group of resolutions.
    dist = place / "broken_coin-1.0.dist-info"
    points = (dist / "entry_points.txt").read_text(encoding="utf-8")
    points += f"[{RESOLUTIONS_GROUP}]\nbrokencoin = broken_coin:BROKEN_COIN\n"
    (dist / "entry_points.txt").write_text(points, encoding="utf-8")
    return place


@pytest.mark.slow
def test_a_plugin_failing_in_a_run_names_itself_the_scenario_and_the_combat(broken, tmp_path):
    (tmp_path / "duel.yaml").write_text(
        COIN_DUEL.format(heads=0.5).replace("rules: coinflip", "rules: broken"), encoding="utf-8"
    )
    result = combatsim(broken, "run", "duel.yaml", "--runs", "100", "--workers", "2", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: the rule system plug-in broken-coin (entry point broken = broken_coin:BROKEN) "
        "failed in combat 0 of the scenario 'coin duel' (duel.yaml), in its round process: "
        "RuntimeError: the coin rolled away"
    ]
    (tmp_path / "check.yaml").write_text(
        COIN_DUEL.format(heads=0.25).replace("rules: coinflip", "rules: broken"), encoding="utf-8"
    )
    result = combatsim(broken, "validate", "check.yaml", cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines()) == (
        2,
        [
            "error: the rule system plug-in broken-coin (entry point broken = broken_coin:BROKEN) "
            "failed on the scenario 'coin duel' (check.yaml), in check(): KeyError: 'heads'"
        ],
    )
    (tmp_path / "prepare.yaml").write_text(
        COIN_DUEL.format(heads=0.75).replace("rules: coinflip", "rules: broken"), encoding="utf-8"
    )
    result = combatsim(broken, "replay", "prepare.yaml", "--combat", "2", cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines()) == (
        2,
        [
            "error: the rule system plug-in broken-coin (entry point broken = broken_coin:BROKEN) "
            "failed on the scenario 'coin duel' (prepare.yaml), in prepare(): IndexError: no coin "
            "in the purse"
        ],
    )


@pytest.mark.slow
def test_a_resolution_hook_failing_names_the_plugin_the_scenario_and_the_combat(broken, tmp_path):
    (tmp_path / "clock.yaml").write_text(
        COIN_ON_THE_CLOCK.replace("resolution: coin", "resolution: brokencoin"), encoding="utf-8"
    )
    result = combatsim(broken, "replay", "clock.yaml", "--combat", "3", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: the resolution plug-in broken-coin (entry point brokencoin = "
        "broken_coin:BROKEN_COIN) failed in combat 3 of the scenario 'coin on the clock' "
        "(clock.yaml), in the attack hook: ValueError: tails on both sides"
    ]


OLD_COIN = """\
from coinflip_rules import CoinResolution

# Written before the defaults of the optional hooks: the required members only.
members = ("options_model", "combatant_model", "narration", "stats", "begin", "attack")
OldCoin = type("OldCoin", (), {m: getattr(CoinResolution, m) for m in members})
OldCoin.name = "oldcoin"
OLD_COIN = OldCoin()
"""


@pytest.mark.slow
def test_a_resolution_in_the_old_group_still_plays_and_says_where_to_move(site, tmp_path):
    place = tmp_path / "site"
    shutil.copytree(site, place)
    fake_plugin(place, "old-coin", 'oldcoin = "old_coin:OLD_COIN"', "old_coin", OLD_COIN)
    (tmp_path / "clock.yaml").write_text(
        COIN_ON_THE_CLOCK.replace("resolution: coin", "resolution: oldcoin"), encoding="utf-8"
    )
    result = combatsim(place, "replay", "clock.yaml", "--combat", "0", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert " flips at " in result.stdout
    (note,) = [line for line in result.stderr.splitlines() if "PluginDeprecationWarning" in line]
    assert "the rule system plug-in old-coin (entry point oldcoin = old_coin:OLD_COIN)" in note
    assert f"move the entry point to the group {RESOLUTIONS_GROUP}" in note
