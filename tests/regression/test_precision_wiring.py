"""--precision on run and sweep, and compare/check on every core, give the fixed-run answers."""

from __future__ import annotations

import json

import pandas as pd
from click.testing import CliRunner

from analysis.sweep import plan_sweep, run_sweep
from sim import simulate
from sim.cli.app import cli
from sim.run.choices import Execution
from tests.conftest import SCENARIOS


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_run_precision_stops_on_a_batch_and_plays_the_first_combats(tmp_path):
    out = tmp_path / "run"
    summary = json.loads(
        invoke(
            "run",
            SCENARIOS / "acs-duel.yaml",
            "--precision",
            0.03,
            "--batch",
            300,
            "--workers",
            1,
            "--out",
            out,
            "--json",
        )
    )
    ran = summary["precision"]
    assert ran["reached"] and ran["widest_half_width"] <= 0.03
    assert ran["runs"] % 300 == 0 and summary["runs"] == ran["runs"]
    for side in summary["sides"].values():
        low, high = side["ci95"]
        assert (high - low) / 2 <= 0.03
    fixed = simulate(
        SCENARIOS / "acs-duel.yaml", runs=ran["runs"], execution=Execution(workers=1)
    ).outcomes
    saved = pd.read_parquet(out / "outcomes.parquet")
    pd.testing.assert_frame_equal(saved, fixed)
    # One batch fewer was not enough.
    fewer = simulate(
        SCENARIOS / "acs-duel.yaml", runs=ran["runs"] - 300, execution=Execution(workers=1)
    ).summary
    widths = [(s["ci95"][1] - s["ci95"][0]) / 2 for s in fewer["sides"].values()]
    assert max(widths) > 0.03


def test_run_precision_says_so_when_the_cap_is_reached():
    summary = json.loads(
        invoke(
            "run",
            SCENARIOS / "acs-duel.yaml",
            "--precision",
            0.001,
            "--batch",
            200,
            "--max-runs",
            400,
            "--workers",
            1,
            "--json",
        )
    )
    assert summary["precision"]["reached"] is False
    assert summary["runs"] == 400


def test_run_precision_refuses_runs():
    result = CliRunner().invoke(
        cli, ["run", str(SCENARIOS / "acs-duel.yaml"), "--runs", "10", "--precision", "0.05"]
    )
    assert result.exit_code == 2
    assert "not both" in result.output


def test_sweep_precision_equals_a_fixed_sweep_of_the_same_length(tmp_path):
    path = SCENARIOS / "acs-duel-hp-sweep.yaml"
    out = tmp_path / "sweep"
    summary = json.loads(
        invoke(
            "sweep",
            path,
            "--precision",
            0.06,
            "--batch",
            100,
            "--workers",
            1,
            "--no-plots",
            "--out",
            out,
            "--json",
        )
    )
    runs = summary["precision"]["runs"]
    assert summary["precision"]["reached"] and runs % 100 == 0
    fixed = run_sweep(plan_sweep(path), runs=runs, execution=Execution(workers=1)).outcomes
    saved = pd.read_parquet(out / "outcomes.parquet")
    pd.testing.assert_frame_equal(saved.reset_index(drop=True), fixed)


def test_compare_on_two_workers_equals_one():
    path = SCENARIOS / "acs-duel-tweaks.yaml"
    one = json.loads(invoke("compare", path, "--runs", 300, "--workers", 1, "--json"))
    two = json.loads(
        invoke("compare", path, "--runs", 300, "--workers", 2, "--chunk-size", 70, "--json")
    )
    assert one == two
