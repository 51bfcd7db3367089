"""Tournaments played through the run machinery: a dominant strategy, resume, precision, outputs."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from click.testing import CliRunner
from rich.console import Console

from analysis.report import write_report
from analysis.tournament import analyse, plan_tournament, run_tournament
from analysis.tournament_plot import plot_tournament
from sim.cli.app import cli
from sim.cli.commands.tournament import render_tournament
from sim.run.api import simulate
from sim.run.choices import Execution
from sim.scenario.loader import parse_scenario

#: Every cell played in this process.
ONE = Execution(workers=1)

# Red's "strong" has the most hit points, "plain" the scenario's, "weak" the fewest, all else
# equal: against every blue strategy, more hit points can only help red.
DOMINANT = """\
name: dominant duel
rules: acs
runs: 150
seed: 7
time_limit: 30
sides:
  - name: red
    combatants:
      - {name: Red, hp: 8, to_hit: 45, defense: 35, damage: 1d6}
  - name: blue
    combatants:
      - {name: Blue, hp: 8, to_hit: 45, defense: 35, damage: 1d6}
strategies:
  red:
    - name: plain
      set: {}
    - name: strong
      set:
        sides.red.combatants.Red.hp: 20
    - name: weak
      set:
        sides.red.combatants.Red.hp: 3
  blue:
    - name: plain
      set: {}
    - name: sharp
      set:
        sides.blue.combatants.Blue.to_hit: 35
"""


@pytest.fixture(scope="module")
def plan():
    return plan_tournament(parse_scenario(DOMINANT, "dominant.yaml"))


@pytest.fixture(scope="module")
def played(plan):
    return run_tournament(plan, execution=ONE, resamples=200)


def test_a_strictly_dominant_strategy_is_found_and_is_the_whole_mix(played):
    assert played.dominated("rows") == ["plain", "weak"]
    assert all(e.by == 1 and e.round == 1 for e in played.eliminated if e.side == "rows")
    assert played.mix("rows") == {"plain": 0.0, "strong": 1.0, "weak": 0.0}
    # With a dominant row the value is that row's worst cell, and blue plays that column.
    strong = played.payoff[1]
    assert played.solution.value == pytest.approx(strong.min())
    assert played.mix("columns")[played.columns[int(np.argmin(strong))]] == pytest.approx(1.0)
    assert played.verdict().startswith(
        "dominant strategy: red/strong (the best red choice against every blue strategy)"
    )
    low, high = played.spread.value
    assert low <= played.solution.value <= high


def test_every_cell_is_the_run_of_its_scenario_on_the_same_seeds(plan, played):
    # Cell (weak, sharp) is an ordinary run of its scenario with the tournament's seed.
    run = simulate(plan.cells[2][1], runs=150, seed=7, execution=ONE)
    counts = run.outcomes["winner"].value_counts()
    assert played.counts[2, 1].tolist() == [
        counts.get("red", 0),
        counts.get("blue", 0),
        counts.get("draw", 0),
    ]
    wins, _, draws = played.counts[2, 1]
    assert played.payoff[2, 1] == pytest.approx((wins + draws / 2) / 150)
    low, high = played.ci95[2, 1]
    assert low < played.payoff[2, 1] < high


def test_streamed_resumed_and_in_memory_agree(plan, tmp_path):
    fresh = run_tournament(plan, runs=60, out=tmp_path, execution=ONE, resamples=100)
    parts = sorted((tmp_path / "cells").rglob("part-*.parquet"))
    assert len(parts) == 6  # one chunk per pairing
    stamps = [p.stat().st_mtime_ns for p in parts]
    again = run_tournament(
        plan, runs=60, out=tmp_path, resume=True, execution=ONE, resamples=100
    )
    assert [p.stat().st_mtime_ns for p in parts] == stamps  # nothing played again
    assert again.to_dict() == fresh.to_dict()
    # A pairing lost (an interrupted tournament) is played again, and only it.
    lost = tmp_path / "cells" / "weak.vs.sharp"
    for path in sorted(lost.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    resumed = run_tournament(
        plan, runs=60, out=tmp_path, resume=True, execution=ONE, resamples=100
    )
    assert resumed.to_dict() == fresh.to_dict()
    kept = [p for p in parts if "weak.vs.sharp" not in str(p)]
    assert all(p.stat().st_mtime_ns == s for p, s in zip(parts, stamps, strict=True) if p in kept)
    memory = run_tournament(plan, runs=60, execution=ONE, resamples=100)
    assert memory.to_dict() == fresh.to_dict()


def test_precision_plays_batches_of_one_seed_stream(plan, tmp_path):
    wide = run_tournament(plan, precision=0.2, batch=30, max_runs=200, execution=ONE, resamples=100)
    assert wide.runs == 30 and wide.precision.reached and wide.precision.batches == 1
    assert (np.diff(wide.ci95, axis=2) / 2 <= 0.2).all()
    capped = run_tournament(
        plan, precision=0.01, batch=30, max_runs=60, out=tmp_path, execution=ONE, resamples=100
    )
    assert capped.runs == 60 and not capped.precision.reached
    assert (tmp_path / "cells" / "strong.vs.plain" / "combats-30-60").is_dir()
    # The batches continue one stream: the same as 60 combats played at once.
    fixed = run_tournament(plan, runs=60, execution=ONE, resamples=100)
    assert np.array_equal(capped.counts, fixed.counts)


def test_the_command_prints_the_json_and_writes_the_results(tmp_path):
    scenario = tmp_path / "dominant.yaml"
    scenario.write_text(DOMINANT, encoding="utf-8")
    out = tmp_path / "out"
    args = ["tournament", str(scenario), "--runs", "50", "--workers", "1", "--resamples", "100"]
    result = CliRunner().invoke(cli, [*args, "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    for key in ("scenario", "runs", "seed", "rows", "columns", "payoff", "ci95", "value"):
        assert key in summary
    assert summary["kind"] == "tournament" and summary["runs"] == 50 and summary["seed"] == 7
    assert summary["rows"] == ["plain", "strong", "weak"]
    assert summary["columns"] == ["plain", "sharp"]
    assert np.shape(summary["payoff"]) == (3, 2) and np.shape(summary["ci95"]) == (3, 2, 2)
    assert set(summary["dominated"]) == {"rows", "columns"}
    assert set(summary["mix"]["rows"]) == {"plain", "strong", "weak"}
    assert sum(summary["mix"]["columns"].values()) == pytest.approx(1)
    for name in ("matrix.parquet", "matrix.csv", "summary.json", "plots/payoff.png"):
        assert (out / name).is_file(), name
    saved = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert saved["kind"] == "tournament" and saved["payoff"] == summary["payoff"]
    report = write_report(out)
    html = report.read_text(encoding="utf-8")
    assert 'id="table-payoff"' in html and "data:image/svg+xml;base64," in html
    assert json.loads((out / "summary.json").read_text())["verdict"] in html.replace("&#x27;", "'")


def test_the_chart_marks_dominated_rows_and_columns(played):
    summary = played.to_dict()
    figure = plot_tournament(summary)
    ax = figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert [("dominated (round 1)" in label) for label in labels] == [True, False, True]
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == len(played.eliminated)
    texts = {t.get_text() for t in ax.texts}
    assert f"{played.payoff[1, 0]:.0%}\n±{np.diff(played.ci95[1, 0])[0] / 2:.1%}" in texts


def test_the_payoff_option_and_the_printed_table(plan, played):
    outcomes = np.stack(
        [[_codes(played, i, j) for j in range(2)] for i in range(3)]
    )  # the same counts, in any order: the payoffs only count them
    wins = analyse(plan, outcomes, 7, payoff="wins", resamples=100)
    draws = played.counts[:, :, 2]
    assert np.allclose(wins.payoff, played.payoff - draws / 2 / played.runs)
    console = Console(file=io.StringIO(), width=200)
    render_tournament(wins, console)
    text = console.file.getvalue()
    assert "Payoff: red's win rate (a draw counts as a loss for both sides)" in text
    assert "plain ✗" in text and "weak ✗" in text
    assert f"Verdict: {wins.verdict()}" in text


def _codes(result, i: int, j: int) -> np.ndarray:
    red, blue, draw = (int(c) for c in result.counts[i, j])
    return np.array([0] * red + [1] * blue + [2] * draw, dtype=np.int8)
