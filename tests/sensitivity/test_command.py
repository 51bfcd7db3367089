"""``combatsim sensitivity``: its output, its folder, continuing a study, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from analysis.sensitivity_study import plan_study, run_study
from sim.cli.app import cli
from sim.run.choices import Execution

KNOWN = Path(__file__).with_name("known.yaml")
SMALL = ("--samples", "4", "--runs", "6", "--oat-runs", "40")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "out"
    result = invoke("sensitivity", KNOWN, *SMALL, "--out", out, "--json", "--workers", "1")
    assert result.exit_code == 0, result.output
    return out, json.loads(result.output)


def test_json_summary_and_folder(played):
    out, summary = played
    assert summary["kind"] == "sensitivity"
    assert [p["label"] for p in summary["parameters"]] == ["red hp", "prepared bonus"]
    assert summary["design_points"] == 4 * (2 + 2)
    assert summary["verdict"]["leader"] == "red hp"
    on_disk = json.loads((out / "summary.json").read_text())
    assert on_disk == {k: v for k, v in summary.items() if k != "out"}
    for name in ("design", "effects", "indices", "outcomes"):
        assert (out / f"{name}.parquet").is_file() and (out / f"{name}.csv").is_file()
    for chart in ("tornado", "sobol"):
        assert (out / "plots" / f"{chart}.png").stat().st_size > 10_000
    points = sorted((out / "points").iterdir())
    assert len(points) == summary["points_played"]
    assert all((p / "run.json").is_file() for p in points)


def test_same_results_with_more_workers_in_memory(played):
    _out, summary = played
    plan = plan_study(KNOWN, samples=4, runs=6, oat_runs=40)
    found = run_study(plan, execution=Execution(workers=2)).summary
    assert found == {k: v for k, v in summary.items() if k != "out"}


def test_resume_continues_the_study(played, tmp_path):
    out, summary = played
    kept = sorted((out / "points" / "p00002" / "outcomes.parquet").iterdir())
    before = {p.name: p.stat().st_mtime_ns for p in kept}
    lost = out / "points" / "p00005"
    for part in (lost / "outcomes.parquet").iterdir():
        part.unlink()  # as if the study had stopped before this point was played
    again = invoke(
        "sensitivity", KNOWN, *SMALL, "--out", out, "--workers", "1", "--no-plots", "--resume"
    )
    assert again.exit_code == 0, again.output
    assert json.loads((out / "summary.json").read_text()) == {
        k: v for k, v in summary.items() if k != "out"
    }
    assert "verdict: red hp moves red's win rate most" in again.output
    assert "one at a time" in again.output and "Sobol indices" in again.output
    after = {p.name: p.stat().st_mtime_ns for p in kept}
    assert after == before  # finished chunks are read back, not played again
    assert any((lost / "outcomes.parquet").iterdir())


def test_another_study_in_the_same_out_is_refused_on_resume(played):
    out, _summary = played
    other = ("--samples", "4", "--runs", "7", "--oat-runs", "40")
    refused = invoke("sensitivity", KNOWN, *other, "--out", out, "--workers", "1", "--resume")
    assert refused.exit_code == 2
    assert "holds a different sensitivity (runs differ)" in refused.output
    assert "Traceback" not in refused.output


def test_report_has_the_sensitivity_section(played):
    out, _summary = played
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    text = (out / "report.html").read_text()
    assert '<section id="sensitivity">' in text
    assert 'id="chart-tornado"' in text and 'id="chart-sobol"' in text


# -- bad input --------------------------------------------------------------------------------


def _with(tmp_path, parameters, **section):
    data = yaml.safe_load(KNOWN.read_text())
    data["sensitivity"] = {**data["sensitivity"], **section, "parameters": parameters}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path, path.read_text().splitlines()


def _line(lines, text, after=0):
    return next(i for i, line in enumerate(lines, 1) if i > after and text in line)


def test_unknown_path_is_refused_with_file_path_and_line(tmp_path):
    path, lines = _with(tmp_path, [{"path": "sides.red.combatants.Red.hq", "low": 1, "high": 3}])
    result = invoke("sensitivity", path, "--out", tmp_path / "o")
    assert result.exit_code == 2
    line = _line(lines, "path: sides.red.combatants.Red.hq")
    assert f"{path}:{line}: sensitivity.parameters[0].path" in result.output
    assert "'sides.red.combatants.Red.hq'" in result.output
    assert not (tmp_path / "o").exists()


def test_range_out_of_the_stats_bounds_is_refused(tmp_path):
    path, lines = _with(
        tmp_path, [{"path": "sides.red.combatants.Red.to_hit", "low": 0, "high": 60}]
    )
    result = invoke("sensitivity", path)
    assert result.exit_code == 2
    line = _line(lines, "low: 0", _line(lines, "to_hit", _line(lines, "sensitivity:")))
    assert f"{path}:{line}: sensitivity.parameters[0].low: found 0" in result.output
    assert "greater than or equal to 1" in result.output


def test_empty_parameter_list_is_refused(tmp_path):
    path, lines = _with(tmp_path, [])
    result = invoke("sensitivity", path)
    assert result.exit_code == 2
    assert f"{path}:{_line(lines, 'parameters: []')}: sensitivity.parameters" in result.output


@pytest.mark.parametrize(
    ("parameter", "expected"),
    [
        ({"path": "seed", "low": 1, "high": 4}, "the seed is the same at every point"),
        ({"path": "sides.red.combatants.Red.hp", "low": 9, "high": 3}, "high (3) above low (9)"),
        ({"path": "sides.red.combatants.Red.hp", "low": 9}, "both low and high"),
        (
            {"path": "sides.red.combatants.Red.hp", "low": 1, "high": 3, "values": [1, 2]},
            "either low and high, or values",
        ),
        ({"path": "sides.red.combatants.Red.damage", "values": ["1d6", "1x8"]}, "'1x8'"),
    ],
)
def test_other_bad_parameters(tmp_path, parameter, expected):
    path, _lines = _with(tmp_path, [parameter])
    result = invoke("sensitivity", path)
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output


def test_scenario_without_a_section_and_bad_samples(tmp_path):
    data = yaml.safe_load(KNOWN.read_text())
    del data["sensitivity"]
    path = tmp_path / "none.yaml"
    path.write_text(yaml.safe_dump(data))
    result = invoke("sensitivity", path)
    assert result.exit_code == 2 and "no sensitivity: section" in result.output
    result = invoke("sensitivity", KNOWN, "--samples", "12")
    assert result.exit_code == 2 and "not a power of two" in result.output
