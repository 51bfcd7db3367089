"""Every results directory says what it holds; a comparison is never pooled into one run."""

from __future__ import annotations

import html
import json

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.container import ErrorbarContainer

from analysis.charts import standard_plots
from analysis.compare import compare, compare_outcomes
from analysis.comparison_view import comparison_verdict
from analysis.report import build_report
from analysis.results import ResultsError, read_results
from sim.cli.app import cli
from tests.conftest import SCENARIOS

TWEAKS = SCENARIOS / "acs-duel-tweaks.yaml"


@pytest.fixture(scope="module")
def comparison():
    return compare(TWEAKS, runs=200, seed=1)


@pytest.fixture(scope="module")
def comparison_dir(tmp_path_factory, comparison):
    directory = tmp_path_factory.mktemp("comparison")
    comparison.save(directory)
    return directory


def test_each_writer_records_the_kind(run_dir, hp_sweep_dir, comparison_dir):
    assert json.loads((run_dir / "summary.json").read_text())["kind"] == "run"
    assert json.loads((hp_sweep_dir / "meta.json").read_text())["kind"] == "sweep"
    assert json.loads((comparison_dir / "meta.json").read_text())["kind"] == "comparison"
    assert json.loads((comparison_dir / "comparison.json").read_text())["kind"] == "comparison"
    kinds = [read_results(d).kind for d in (run_dir, hp_sweep_dir, comparison_dir)]
    assert kinds == ["run", "sweep", "comparison"]


def test_a_streamed_run_records_its_kind_rules_and_time_limit(tmp_path):
    out = tmp_path / "run"
    args = ["run", str(SCENARIOS / "acs-duel.yaml"), "--runs", "50", "--out", str(out)]
    assert CliRunner().invoke(cli, [*args, "--workers", "1", "--quiet"]).exit_code == 0
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["kind"] == "run" and manifest["rules"] == "acs"
    assert manifest["time_limit_s"] == 60
    results = read_results(out)
    assert results.kind == "run" and results.meta["time_limit_s"] == 60


def test_the_charts_of_a_comparison_are_per_arm_and_paired(comparison_dir, comparison):
    results = read_results(comparison_dir)
    assert results.arms == ["base", "control", "red-plus3", "reroll-duplicates", "no-free-action"]
    plots = standard_plots(results)
    assert [p.stem for p in plots] == ["arm_win_rates", "paired_differences"]
    ax = plots[1].figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    at = dict(zip(labels, ax.get_yticks(), strict=True))
    expected = [f"{w.variant}: {w.side}" for w in comparison.wins]
    assert sorted(at, key=at.get, reverse=True) == expected  # read top down, in compare's order
    # Each marker sits at the paired difference compare printed, in points.
    shown = sorted(
        round(float(c.lines[0].get_xdata()[0]), 9)
        for c in ax.containers
        if isinstance(c, ErrorbarContainer)
    )
    assert shown == sorted(round(w.difference * 100, 9) for w in comparison.wins)


def test_the_report_of_a_comparison_shows_each_arm_and_never_a_pooled_run(
    comparison_dir, comparison
):
    text = build_report(read_results(comparison_dir))
    assert "<th>these results are</th><td>a paired comparison</td>" in text
    assert "<th>combats</th>" not in text  # a run's row: the arms are never one run
    assert "<th>combats per arm</th><td>200</td>" in text
    assert '<table id="table-summary" class="data"><thead><tr><th>arm</th>' in text
    assert 'id="table-differences"' in text and 'id="table-effects"' in text
    for arm, summary in comparison.arms.items():
        assert f"<td>{arm}</td><td>{summary['sides']['red']['win_rate']:.1%}" in text
    # The verdict on top, from the saved table, is the one of the comparison as it was played.
    verdict = comparison_verdict(comparison)
    assert f'<p class="verdict" id="verdict">{html.escape(verdict)}</p>' in text
    if not any(w.significant for w in comparison.wins):
        assert verdict.startswith("No variant moved a win rate detectably")
    assert "not recorded" not in text.split('id="table-run"')[1].split("</table>")[0]


def test_an_old_comparison_directory_without_a_marker_is_still_a_comparison(
    comparison_dir, tmp_path
):
    # Only the table, as a comparison's outcomes copied somewhere: several arms, no records.
    outcomes = pd.read_parquet(comparison_dir / "outcomes.parquet")
    outcomes.to_csv(tmp_path / "outcomes.csv", index=False)
    results = read_results(tmp_path)
    assert results.kind == "comparison"
    assert [p.stem for p in standard_plots(results)] == ["arm_win_rates", "paired_differences"]


def test_a_run_marker_over_several_arms_is_refused(comparison_dir, tmp_path):
    outcomes = pd.read_parquet(comparison_dir / "outcomes.parquet")
    outcomes.to_parquet(tmp_path / "outcomes.parquet")
    (tmp_path / "summary.json").write_text(json.dumps({"kind": "run"}))
    with pytest.raises(ResultsError, match="refusing to pool them"):
        read_results(tmp_path)
    for command in ("report", "plot"):
        result = CliRunner().invoke(cli, [command, str(tmp_path)])
        assert result.exit_code == 2, result.output
        assert "5 arms" in result.output and "Traceback" not in result.output


def test_an_unknown_kind_and_a_baseline_file_are_refused(run_dir, tmp_path):
    outcomes = pd.read_parquet(run_dir / "outcomes.parquet")
    outcomes.to_parquet(tmp_path / "outcomes.parquet")
    (tmp_path / "meta.json").write_text(json.dumps({"kind": "tournament-of-doom"}))
    result = CliRunner().invoke(cli, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "kind 'tournament-of-doom'" in result.output
    baseline = SCENARIOS / "acs-duel.baseline.json"
    result = CliRunner().invoke(cli, ["report", str(baseline)])
    assert result.exit_code == 2 and "a baseline" in result.output
    assert "combatsim check" in result.output and "Traceback" not in result.output


def test_compare_out_then_report_works_from_the_command_line(tmp_path):
    out = tmp_path / "cmp"
    args = ["compare", str(TWEAKS), "--variant", "red-plus3", "--runs", "100", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} >= {"outcomes.parquet", "comparison.json", "meta.json"}
    result = CliRunner().invoke(cli, ["report", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.html").read_text(encoding="utf-8")
    assert "a paired comparison" in text and "red-plus3" in text


def test_the_verdict_of_a_comparison_names_the_largest_significant_move():
    n = 200
    base = ["red"] * 120 + ["blue"] * 80
    variant = ["red"] * 150 + ["blue"] * 50  # 30 combats turned red's way, none back
    outcomes = pd.DataFrame(
        {
            "variant": ["base"] * n + ["tweak"] * n,
            "combat": list(range(n)) * 2,
            "winner": base + variant,
            "end": ["victory"] * (2 * n),
            "duration_s": [1.0] * (2 * n),
            **{
                f"{c}_{side}": [0] * (2 * n)
                for c in ("survivors", "hp_left")
                for side in ("red", "blue")
            },
        }
    )
    verdict = comparison_verdict(compare_outcomes(outcomes, ("red", "blue"), scenario="x"))
    assert verdict.startswith("tweak moves the win rate of red +15.0 points (60.0% → 75.0%")
    assert verdict.endswith("2 of 2 differences significant (Holm, α 0.05).")
