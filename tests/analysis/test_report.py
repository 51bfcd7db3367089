"""The HTML report: self-contained, with every chart and table, and it renders in Chromium."""

from __future__ import annotations

import html
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.charts import standard_plots
from analysis.odds_text import odds_html
from analysis.report import write_report
from analysis.results import read_results
from sim.cli.app import cli
from sim.exact.odds import scenario_odds
from sim.run.summary import DEFINITIONS, wilson_interval
from sim.scenario.loader import parse_scenario
from tests.analysis.conftest import DUEL

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=10000",
]


class Inventory(HTMLParser):
    """The ids of tables and figures, image sources and anything fetched from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[str] = []
        self.figures: list[str] = []
        self.images: list[str] = []
        self.external: list[str] = []
        self.body: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append(attrs.get("id", ""))
        elif tag == "figure":
            self.figures.append(attrs.get("id", ""))
        elif tag == "img":
            self.images.append(attrs.get("src", ""))
        elif tag == "body":
            self.body = {k: v or "" for k, v in attrs.items()}
        for key in ("src", "href"):
            value = attrs.get(key) or ""
            if value and not value.startswith("data:") and not value.startswith("#"):
                self.external.append(value)
        if tag == "link":
            self.external.append(str(attrs))


def inventory(text: str) -> Inventory:
    parser = Inventory()
    parser.feed(text)
    return parser


def expected(results_dir: Path) -> tuple[list[str], list[str]]:
    results = read_results(results_dir)
    charts = [f"chart-{p.stem}" for p in standard_plots(results)]
    tables = ["table-run", "table-summary"]
    # The exact odds of one exchange (combatsim odds), as the odds command's own HTML has them.
    scenario = parse_scenario((results_dir / "scenario.yaml").read_text(), "scenario.yaml")
    tables += inventory(odds_html(scenario_odds(scenario))).tables
    if results.kind == "run" and results.combatants is not None:
        tables.append("table-combatants")
    return [*tables, "table-options"], charts


@pytest.fixture(scope="module")
def reports(run_dir, hp_sweep_dir, grid_sweep_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return {
        "run": (run_dir, write_report(run_dir, out / "run.html", scenario=DUEL)),
        "hp_sweep": (hp_sweep_dir, write_report(hp_sweep_dir, out / "hp.html")),
        "grid_sweep": (grid_sweep_dir, write_report(grid_sweep_dir, out / "grid.html")),
    }


@pytest.mark.parametrize("kind", ["run", "hp_sweep", "grid_sweep"])
def test_the_report_holds_every_chart_and_table_and_needs_nothing_else(reports, kind):
    results_dir, report = reports[kind]
    text = report.read_text(encoding="utf-8")
    found = inventory(text)
    tables, charts = expected(results_dir)
    assert found.tables == tables
    assert found.figures == charts
    assert len(found.images) == len(charts)
    assert all(src.startswith("data:image/svg+xml;base64,") for src in found.images)
    assert found.external == []
    assert "<script src" not in text
    results = read_results(results_dir)
    assert results.scenario_name in text
    assert f"<th>seed</th><td>{results.seed}</td>" in text
    assert "combatsim 0." in text or "combatsim 1." in text
    assert "duplicates" in text  # the rule options
    assert "The Ambition Combat System" in text


def test_the_report_of_a_run_summarizes_each_combatant(reports):
    text = reports["run"][1].read_text(encoding="utf-8")
    for heading in ("damage dealt", "damage taken", "actions lost", "actions disrupted", "hits"):
        assert f"<th>{heading}</th>" in text
    assert "criticals" in text and "time out of the fight" in text and "how it left" in text
    assert "Red swordsman" in text and "still standing" in text
    assert "95% CI (Wilson)" in text


def test_the_report_of_a_sweep_has_a_row_per_point(reports):
    text = reports["grid_sweep"][1].read_text(encoding="utf-8")
    assert text.count("<tr><td>") >= 6  # six points (and the options rows)
    assert "guard defense" in text and "goblins win rate (95% CI)" in text
    assert "common random numbers" in text


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        pytest.skip(
            "Chromium is not installed, so the report is not rendered here "
            "(Debian: apt-get install chromium; CI installs it)"
        )
    return found


@pytest.mark.parametrize("kind", ["run", "hp_sweep", "grid_sweep"])
def test_the_report_renders_in_headless_chromium(reports, kind, tmp_path):
    browser = chromium()
    results_dir, report = reports[kind]
    done = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         report.resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    found = inventory(done.stdout)
    tables, charts = expected(results_dir)
    assert found.tables == tables
    assert found.figures == charts
    # The page's own script counted the charts that decoded and laid out with a size.
    assert found.body.get("data-charts") == str(len(charts))
    assert found.body.get("data-charts-rendered") == str(len(charts))


def test_combatsim_report_writes_one_file(hp_sweep_dir, tmp_path):
    out = tmp_path / "mail-me.html"
    result = CliRunner().invoke(cli, ["report", str(hp_sweep_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    assert out.stat().st_size > 50_000


def test_combatsim_report_refuses_what_is_not_results(tmp_path):
    result = CliRunner().invoke(cli, ["report", str(tmp_path)])
    assert result.exit_code == 2
    assert "no outcomes.parquet" in result.output and "Traceback" not in result.output


def test_a_streamed_run_directory_reads_back_and_reports(tmp_path):
    out = tmp_path / "run"
    args = ["run", str(DUEL), "--runs", "300", "--seed", "6", "--out", str(out), "--chunk-size"]
    result = CliRunner().invoke(cli, [*args, "100", "--workers", "1", "--quiet", "--detail"])
    assert result.exit_code == 0, result.output
    results = read_results(out)
    assert results.kind == "run" and results.seed == 6 and results.runs == 300
    assert list(results.outcomes["combat"]) == list(range(300))
    assert results.combatants is not None and len(results.combatants) == 600
    assert results.meta["combatsim_version"]
    text = write_report(out).read_text(encoding="utf-8")
    # The run kept its scenario next to its results: the report shows it without --scenario.
    assert "pass --scenario FILE" not in text
    assert "Red swordsman" in text and "to_hit" in text
    found = inventory(text)
    assert found.figures == [f"chart-{p.stem}" for p in standard_plots(results)]


def test_the_report_opens_with_a_one_line_verdict(reports, run_dir):
    text = reports["run"][1].read_text(encoding="utf-8")
    outcomes = read_results(run_dir).outcomes
    wins = outcomes["winner"].value_counts()
    leader = wins.idxmax()
    low, high = wilson_interval(int(wins.max()), 400)
    even = "not even" if not low <= 0.5 <= high else "even within the noise"
    line = f"{leader} won {wins.max() / 400:.1%} ± {(high - low) * 50:.1f} of 400 combats; {even}"
    verdict = text.split('<p class="verdict" id="verdict">')[1].split("</p>")[0]
    assert verdict.startswith(line)
    assert text.index('id="verdict"') < text.index('id="run"')  # at the top
    sweep = reports["hp_sweep"][1].read_text(encoding="utf-8")
    assert "nearest even at red hp = " in sweep


def test_the_report_shows_rules_and_time_limit_of_a_run(reports):
    # The run was saved without meta.json: both come from the scenario saved next to it.
    text = reports["run"][1].read_text(encoding="utf-8")
    assert "<th>rules</th><td>acs</td>" in text
    assert "<th>time limit</th><td>60 game seconds (then a draw)</td>" in text
    assert "<th>these results are</th><td>one run</td>" in text


def test_the_report_defines_every_column(reports):
    text = reports["run"][1].read_text(encoding="utf-8")
    terms = text.split('id="terms-list">')[1].split("</dl>")[0]
    for column in ("wins", "win rate", "95% CI (Wilson)", "survivors", "hp left"):
        assert f"<dt>{html.escape(column)}</dt><dd>{html.escape(DEFINITIONS[column])}</dd>" in terms
    assert "over all combats" in DEFINITIONS["hp left"]
    for kind in ("hp_sweep", "grid_sweep"):
        sweep = reports[kind][1].read_text(encoding="utf-8")
        assert "<dt>point</dt>" in sweep and "<dt>draws</dt>" in sweep
    # Each chart's caption says what it shows: an interval, or that it is a distribution.
    assert "distribution of single fights" in text and "Student&#x27;s t" in text


def test_per_combatant_means_carry_their_interval(reports, run_dir):
    text = reports["run"][1].read_text(encoding="utf-8")
    frame = read_results(run_dir).combatants
    red = frame[frame["combatant"] == "Red swordsman"]["damage_dealt"]
    half = 1.96 * red.std(ddof=1) / len(red) ** 0.5
    assert f"<td>{red.mean():.2f} ± {half:.2f}</td>" in text


def test_the_run_table_on_the_terminal_defines_survivors_and_hp_left():
    result = CliRunner().invoke(cli, ["run", str(DUEL), "--runs", "30", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "survivors: mean number standing at the end, over all combats (0 when lost)" in (
        result.output
    )
    assert "hp left: mean hit points of those standing, over all combats" in result.output
