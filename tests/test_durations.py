"""Fight lengths in each rule system's own unit: Target 10 and Proposition Three count rounds.

The rules count one-minute rounds (Target 10) or rounds of ``round_s`` seconds (Proposition
Three); ACS, and every resolution on its clock, counts seconds. The terminal table, the summary
(``mean_duration_rounds`` beside the old ``mean_duration_s``), the charts and the report say a
fight's length in that unit with the game time beside. And the report of a rule system that does
not count a column (Target 10 loses and disrupts no actions) leaves the column out and says so.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from analysis.charts import standard_plots, time_unit
from analysis.report import build_report
from analysis.results import read_results
from sim import Execution, load_scenario, simulate
from sim.cli.app import cli
from sim.rules import RULE_SYSTEMS
from sim.run.summary import duration_text, round_length_s
from sim.scenario.loader import scenario_from_dict
from tests.conftest import SCENARIOS

COLE = SCENARIOS / "t10-cole-vs-francois.yaml"
MOONBELLY = SCENARIOS / "p3-moonbelly-vs-kronzer.yaml"
DUEL = SCENARIOS / "acs-duel.yaml"
HYBRID = SCENARIOS / "t10-hybrid-acs-duel.yaml"


def test_each_rule_system_says_the_length_of_its_round():
    assert round_length_s(load_scenario(COLE)) == 60.0
    assert round_length_s(load_scenario(MOONBELLY)) == 6.0
    assert round_length_s(load_scenario(DUEL)) is None
    assert round_length_s(load_scenario(HYBRID)) is None  # Target 10 on the ACS clock: seconds
    data = dict(load_scenario(MOONBELLY).data, options={"round_s": 3})
    assert round_length_s(scenario_from_dict(data)) == 3.0
    for system in RULE_SYSTEMS.values():  # every system declares it (a protocol member)
        system.round_seconds(system.options_model({}).model_validate({}))


@pytest.mark.parametrize(("path", "round_s"), [(COLE, 60.0), (MOONBELLY, 6.0)])
def test_the_summary_gives_rounds_beside_game_seconds(path, round_s):
    summary = simulate(path, runs=120, seed=2, execution=Execution(workers=1)).summary
    assert summary["round_s"] == round_s
    assert summary["mean_duration_rounds"] == pytest.approx(summary["mean_duration_s"] / round_s)
    outcomes = simulate(path, runs=120, seed=2, execution=Execution(workers=1)).outcomes
    assert summary["mean_duration_rounds"] == pytest.approx(
        (outcomes["duration_s"] / round_s).mean(), rel=1e-12
    )


def test_an_acs_summary_keeps_its_keys():
    summary = simulate(DUEL, runs=50, seed=2, execution=Execution(workers=1)).summary
    assert "round_s" not in summary and "mean_duration_rounds" not in summary
    assert "mean_duration_s" in summary


def test_the_terminal_says_rounds_with_the_game_time_beside():
    result = CliRunner().invoke(cli, ["run", str(COLE), "--runs", "100", "--workers", "1"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("mean duration"))
    assert re.match(r"mean duration \d+\.\d\d rounds \(\d+\.\d\d s of game time\); ends:", line)
    acs = CliRunner().invoke(cli, ["run", str(DUEL), "--runs", "50", "--workers", "1"])
    assert re.search(r"mean duration \d+\.\d\d s of game time; ends:", acs.stdout)
    assert duration_text(60.0, 60.0) == "1.00 round (60.00 s of game time)"


def test_a_sweep_of_target10_has_a_column_of_mean_rounds(tmp_path):
    swept = tmp_path / "cole-sweep.yaml"
    swept.write_text(
        COLE.read_text(encoding="utf-8")
        + "\nsweep:\n  runs: 20\n  parameters:\n    - path: time_limit\n"
        "      values: [1800, 3600]\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli, ["sweep", str(swept), "--no-plots", "--out", str(tmp_path / "out"), "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "mean rounds" in result.stdout and "mean s" in result.stdout
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert {p["summary"]["round_s"] for p in summary["points"]} == {60.0}
    assert time_unit(read_results(tmp_path / "out")).round_s == 60.0


@pytest.fixture(scope="module")
def cole_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("cole") / "run"
    result = CliRunner().invoke(
        cli, ["run", str(COLE), "--runs", "150", "--seed", "3", "--detail", "--out", str(directory)]
    )
    assert result.exit_code == 0, result.output
    return directory


def test_the_charts_of_a_target10_run_count_rounds(cole_dir):
    results = read_results(cole_dir)
    assert time_unit(results).round_s == 60.0
    plots = {p.stem: p for p in standard_plots(results)}
    length = plots["fight_length"].figure.axes[0]
    assert length.get_xlabel() == "fight length (rounds (one round: 60 s of game time))"
    durations = results.outcomes["duration_s"] / 60
    mean_line = next(x for x in length.get_lines() if x.get_label().startswith("mean"))
    assert mean_line.get_xdata()[0] == pytest.approx(durations.mean())
    assert re.fullmatch(r"mean \d+\.\d\d rounds \(\d+ s\)", mean_line.get_label())
    survival = plots["survival"]
    assert "after t rounds" in survival.caption and "rounds" in survival.figure.axes[0].get_xlabel()
    steps = survival.figure.axes[0].get_lines()[0].get_xdata()
    assert max(steps) == pytest.approx(durations.max())


def test_the_report_of_a_target10_run_counts_rounds_and_leaves_out_what_it_does_not_count(
    cole_dir,
):
    page = build_report(read_results(cole_dir))
    summary = json.loads((cole_dir / "summary.json").read_text(encoding="utf-8"))
    rounds = f"{summary['mean_duration_rounds']:.2f} rounds"
    assert f"Mean fight length {rounds} ({summary['mean_duration_s']:.2f} s of game time)" in page
    assert "60 rounds of 60 s: 3600 game seconds" in page
    table = page[page.index('id="combatants"') :]
    table = table[: table.index("</table>")]
    for column in ("actions lost", "actions disrupted", "criticals"):
        assert column not in table
    note = page[page.index("Left out, 0 in every combat") :].split("</p>")[0]
    assert "actions lost" in note and "actions disrupted" in note and "criticals" in note


def test_the_report_of_an_acs_run_keeps_the_clocks_columns(tmp_path):
    simulate(DUEL, runs=150, seed=3, detail=True, execution=Execution(workers=1)).save(tmp_path)
    page = build_report(read_results(tmp_path))
    table = page[page.index('id="combatants"') :]
    table = table[: table.index("</table>")]
    assert "actions lost" in table
    assert "game seconds" in page and "rounds" not in page.split("Mean fight length")[1][:40]
