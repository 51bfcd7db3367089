"""Every results folder can be plotted, reported and sent: run, comparison, sweep, balance,
tournament and sensitivity, each with its scenario file byte for byte, and a report that
``combatsim run REPORT.html`` plays again to the same outcome table.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from analysis.charts import standard_plots
from analysis.rerun import read_report, replay_record, replay_report
from analysis.results import read_results
from sim.cli.app import cli
from sim.run.choices import Execution
from tests.analysis.test_report import CHROMIUM_FLAGS, chromium, inventory
from tests.conftest import ROOT, SCENARIOS

#: A comment only the file as written holds (a re-dump of the data loses it).
COMMENT = "# a designer's note, kept byte for byte: ±½ — it must survive\r\n"

#: Each kind: the command (its scenario first), and the charts its folder is drawn with.
KINDS = {
    "run": (
        ["run", "acs-duel.yaml", "--runs", "120"],
        ["win_rates", "fight_length", "survival", "hp_left"],
    ),
    "comparison": (
        ["compare", "acs-duel-tweaks.yaml", "--runs", "80", "--variant", "red-plus3"],
        ["arm_win_rates", "paired_differences"],
    ),
    "sweep": (
        ["sweep", "acs-duel-hp-sweep.yaml", "--runs", "30", "--no-plots"],
        ["win_rate_curve", "duration_curve", "survival"],
    ),
    "balance": (
        [
            "balance",
            "acs-duel-hp-sweep.yaml",
            "--param",
            "sides.red.combatants.Red swordsman.hp",
            "--runs",
            "40",
            "--points",
            "5",
            "--range",
            "12",
            "36",
        ],
        ["balance"],
    ),
    "tournament": (
        ["tournament", "acs-builds-tournament.yaml", "--runs", "30", "--resamples", "50"],
        ["payoff"],
    ),
    "sensitivity": (
        [
            "sensitivity",
            "known.yaml",
            "--samples",
            "4",
            "--runs",
            "10",
            "--oat-runs",
            "40",
            "--no-plots",
        ],
        ["win_rates", "fight_length", "survival", "hp_left", "tornado", "sobol"],
    ),
}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _with_comment(path, folder):
    """A copy of a scenario with a comment line and CRLF line ends (what a re-dump loses)."""
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\n", "\r\n")
    copy = folder / path.name
    copy.write_bytes((COMMENT + text).encode("utf-8"))
    return copy


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """One results folder of each kind, made by its command, from scenarios with a comment."""
    made = {}
    for kind, (args, _charts) in KINDS.items():
        base = tmp_path_factory.mktemp(kind)
        source = (
            SCENARIOS / args[1] if kind != "sensitivity" else ROOT / "tests/sensitivity/known.yaml"
        )
        scenario = _with_comment(source, base)
        out = base / "out"
        command = [args[0], scenario, *args[2:], "--workers", "1", "--quiet", "--out", out]
        result = invoke(*command)
        assert result.exit_code == 0, (kind, result.output)
        made[kind] = (out, scenario)
    return made


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_is_read_and_drawn_with_its_commands_charts(folders, kind, tmp_path):
    out, _ = folders[kind]
    results = read_results(out)
    assert results.kind == kind
    expected = KINDS[kind][1]
    assert [p.stem for p in standard_plots(results)] == expected
    result = invoke("plot", out, "--out", tmp_path / "plots", "--format", "png")
    assert result.exit_code == 0, result.output
    assert sorted(p.stem for p in (tmp_path / "plots").glob("*.png")) == sorted(expected)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_folder_holds_its_scenario_file_as_written(folders, kind):
    out, scenario = folders[kind]
    assert (out / "scenario.yaml").read_bytes() == scenario.read_bytes()


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_report_of_every_kind_shows_and_embeds_the_scenario_byte_for_byte(folders, kind):
    out, scenario = folders[kind]
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    text = (out / "report.html").read_bytes().decode("utf-8")
    shown = re.search(r'<pre id="scenario-text">(.*?)</pre>', text, re.DOTALL)
    assert shown is not None
    assert html.unescape(shown.group(1)).encode("utf-8") == scenario.read_bytes()
    record = read_report(out / "report.html")
    assert record["kind"] == kind
    assert record["scenario"]["text"].encode("utf-8") == scenario.read_bytes()
    assert record["command"] == f"combatsim {KINDS[kind][0][0]}"
    assert record["combatsim"] and isinstance(record["seed"], int) and record["runs"] >= 1
    assert "workers" not in json.dumps(record["options"])
    figures = re.findall(r'<figure id="chart-([^"]+)"', text)
    assert figures == KINDS[kind][1]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_report_of_every_kind_plays_again_to_the_same_table(folders, kind):
    out, _ = folders[kind]
    report = out / "report.html"
    if not report.exists():
        assert invoke("report", out).exit_code == 0
    check = replay_report(report, Execution(workers=1))
    assert check.matches, check.sentences()
    assert check.arms and all(arm.combats > 0 for arm in check.arms)


def test_run_report_html_exits_0_when_it_matches_and_1_with_what_differs(folders, tmp_path):
    out, _ = folders["run"]
    assert invoke("report", out).exit_code == 0
    result = invoke("run", out / "report.html", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "matches the report's, byte for byte" in result.output
    # The same report with another seed recorded: the combats played again differ.
    edited = tmp_path / "edited.html"
    text = (out / "report.html").read_text(encoding="utf-8")
    record = read_report(out / "report.html")
    edited.write_text(text.replace(f'"seed": {record["seed"]}', '"seed": 99', 1), "utf-8")
    result = invoke("run", edited, "--workers", "1")
    assert result.exit_code == 1, result.output
    assert "does NOT match" in result.output and "another winner" in result.output
    assert "wins red" in result.output


def test_a_report_with_a_damaged_block_is_refused_with_exit_2(tmp_path, folders):
    out, _ = folders["run"]
    assert invoke("report", out).exit_code == 0
    text = (out / "report.html").read_text(encoding="utf-8")
    broken = tmp_path / "broken.html"
    broken.write_text(text.replace('"runs": 120', '"runs": 10000000000000', 1), "utf-8")
    result = invoke("run", broken)
    assert result.exit_code == 2 and "damaged" in result.output
    assert "Traceback" not in result.output
    plain = tmp_path / "plain.html"
    plain.write_text("<html><body>hello</body></html>", "utf-8")
    result = invoke("run", plain)
    assert result.exit_code == 2 and "no combatsim-run block" in result.output


def test_the_record_of_a_comparison_of_files_carries_each_file(tmp_path):
    other = tmp_path / "other.yaml"
    shutil.copy(SCENARIOS / "acs-duel-tweaks.yaml", other)
    out = tmp_path / "out"
    result = invoke("compare", SCENARIOS / "acs-duel.yaml", other, "--runs", 60, "--workers", 1,
                    "--quiet", "--out", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (out / "scenario.yaml").read_bytes() == (SCENARIOS / "acs-duel.yaml").read_bytes()
    assert (out / "scenario-other.yaml").read_bytes() == other.read_bytes()
    assert invoke("report", out).exit_code == 0
    record = read_report(out / "report.html")
    assert record["arm_scenarios"]["other"]["text"].encode() == other.read_bytes()
    assert replay_record(record, Execution(workers=1)).matches


def test_report_help_names_every_kind():
    text = invoke("report", "--help").output
    for command in ("run", "compare", "sweep", "balance", "tournament", "sensitivity"):
        assert command in text
    assert "REPORT.html" in text


def test_what_was_set_on_top_of_the_file_is_recorded_next_to_it(folders):
    out, scenario = folders["sweep"]
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["scenario_sha256"] == hashlib.sha256(scenario.read_bytes()).hexdigest()
    assert meta["scenario_text"] == "as written" and meta["applied"] == {}
    # The first point's own run folder: the same file, and the value the point sets on it.
    point = out / "points" / "p0000" / "combats-0-30"
    assert (point / "scenario.yaml").read_bytes() == scenario.read_bytes()
    record = json.loads((point / "scenario.json").read_text(encoding="utf-8"))
    assert record["applied"] == {"sides.red.combatants.Red swordsman.hp": 12}
    manifest = json.loads((point / "run.json").read_text(encoding="utf-8"))
    assert manifest["applied"] == record["applied"]


@pytest.mark.parametrize("kind", ["balance", "tournament", "sensitivity"])
def test_the_reports_of_the_new_kinds_render_in_headless_chromium(folders, kind, tmp_path):
    out, _ = folders[kind]
    assert invoke("report", out).exit_code == 0
    browser = chromium()
    done = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         (out / "report.html").resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    found = inventory(done.stdout)
    assert found.figures == [f"chart-{stem}" for stem in KINDS[kind][1]]
    assert found.body.get("data-charts-rendered") == str(len(KINDS[kind][1]))
    assert not found.external  # nothing fetched from anywhere
