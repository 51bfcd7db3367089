"""Target 10 through the command line: run, tests outside combat, replay, validate."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from tests.conftest import SCENARIOS

T10 = sorted(SCENARIOS.glob("t10-*.yaml"))


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_reference_duel_json_summary():
    summary = json.loads(invoke("run", SCENARIOS / "t10-cole-vs-francois.yaml", "--runs", 5000,
                                "--seed", 1, "--json"))
    assert summary["runs"] == 5000 and summary["seed"] == 1
    assert set(summary["sides"]) == {"soldier", "leatherstocking"}
    for side in summary["sides"].values():
        low, high = side["ci95"]
        assert 0 <= low <= side["win_rate"] <= high <= 1
    assert sum(s["wins"] for s in summary["sides"].values()) + summary["draws"] == 5000
    assert set(summary["ends"]) <= {"victory", "mutual", "time_limit"}
    assert summary["ends"].get("mutual", 0) > 0
    assert summary["mean_duration_s"] % 60 != 0 or summary["mean_duration_s"] >= 60
    # Francois (+3, more hit points) is the favourite.
    francois = summary["sides"]["leatherstocking"]["win_rate"]
    assert francois > summary["sides"]["soldier"]["win_rate"]


def test_test_scenario_prints_the_success_rate_with_its_interval():
    output = invoke("run", SCENARIOS / "t10-apache-chief.yaml", "--runs", 2000, "--seed", 1)
    assert "venturers" in output and "Wilson" in output and "chief" in output


@pytest.mark.parametrize("path", T10, ids=lambda p: p.name)
def test_every_t10_scenario_validates_runs_and_replays(path):
    assert "ok" in invoke("validate", path)
    summary = json.loads(invoke("run", path, "--runs", 40, "--seed", 2, "--json"))
    assert summary["runs"] == 40
    story = invoke("replay", path, "--combat", 3, "--seed", 2)
    assert "The fight ends" in story or "Time limit" in story


def test_replay_speaks_in_rounds():
    story = invoke("replay", SCENARIOS / "t10-skirmish.yaml", "--combat", 0, "--seed", 1)
    assert "-- round 1" in story and "declares" in story and "initiative d6=" in story
