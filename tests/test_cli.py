"""The command line: run's JSON summary, replay is the K-th combat, help on every command."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest
import yaml
from click.testing import CliRunner

from sim import load_scenario, simulate
from sim.cli.app import cli
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_run_json_summary_shape():
    summary = json.loads(invoke("run", DUEL, "--runs", 300, "--seed", 1, "--json"))
    assert summary["scenario"] == "ACS duel"
    assert summary["runs"] == 300 and summary["seed"] == 1
    assert set(summary["sides"]) == {"red", "blue"}
    for side in summary["sides"].values():
        low, high = side["ci95"]
        assert 0 <= low <= side["win_rate"] <= high <= 1
        assert side["wins"] == round(side["win_rate"] * 300)
    wins = sum(s["wins"] for s in summary["sides"].values())
    assert wins + summary["draws"] == 300
    assert summary["mean_duration_s"] > 0


def test_run_json_agrees_with_the_library():
    summary = json.loads(invoke("run", DUEL, "--runs", 200, "--seed", 5, "--json"))
    assert summary == json.loads(json.dumps(simulate(DUEL, runs=200, seed=5).summary))


def test_run_table_and_out_directory(tmp_path):
    output = invoke("run", DUEL, "--runs", 100, "--seed", 2, "--out", tmp_path / "out")
    assert "win rate" in output and "red" in output and "blue" in output
    table = pd.read_parquet(tmp_path / "out" / "outcomes.parquet")
    csv = pd.read_csv(tmp_path / "out" / "outcomes.csv")
    assert len(table) == len(csv) == 100
    assert list(table["combat"]) == list(range(100))
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["runs"] == 100
    kept = yaml.safe_load((tmp_path / "out" / "scenario.yaml").read_text())
    assert kept == load_scenario(DUEL).data


@pytest.mark.parametrize("k", [0, 17])
def test_replay_narrates_exactly_the_kth_combat(k):
    scenario = load_scenario(DUEL)
    row = simulate(scenario, runs=20, seed=4).outcomes.iloc[k]
    text = invoke("replay", DUEL, "--combat", k, "--seed", 4)
    assert text.startswith(f"ACS duel: combat {k} of seed 4")
    assert "ambition d12=" in text and "segment" in text
    last = text.strip().splitlines()[-1]
    assert f"after {row['duration_s']:g} s" in last
    assert f"{row['winner']} wins" in last


@pytest.mark.parametrize("command", [[], ["run"], ["replay"], ["validate"]])
def test_every_command_has_help(command):
    output = invoke(*command, "--help")
    assert "Usage:" in output
    assert len(output.splitlines()) > 3


def test_python_dash_m_sim_works():
    done = subprocess.run([sys.executable, "-m", "sim", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "combatsim" in done.stdout and "run" in done.stdout


def test_validate_bundled_scenarios_are_fine():
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert len(files) >= 3
    output = invoke("validate", *files)
    assert output.count(": ok") == len(files)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_replay_has_a_sentence_for_every_event(path):
    from sim.run.narrate import ENGINE_NARRATION
    from sim.run.runner import trace_combat

    scenario = load_scenario(path)
    sentences = {**ENGINE_NARRATION, **scenario.system.narration_for(scenario.options)}
    kinds = set()
    for k in range(3):
        _, trace = trace_combat(scenario, scenario.seed, k)
        kinds |= {event.kind for event in trace}
    assert kinds, "a traced combat emits events"
    assert kinds <= set(sentences), f"no sentence for {sorted(kinds - set(sentences))}"
