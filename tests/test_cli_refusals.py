"""The last of hostile input: a damaged baseline, an --out into no folder, an unrecorded scenario.

Each is refused, or said, in words: exit code 2 with the file and what to do, never a traceback
and never a silent exit 0.
"""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from sim.cli.app import cli
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"


def _recorded(tmp_path):
    shutil.copyfile(DUEL, tmp_path / "duel.yaml")
    result = CliRunner().invoke(
        cli, ["baseline", str(tmp_path / "duel.yaml"), "--runs", "20", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    return tmp_path / "duel.baseline.json"


def test_a_baseline_whose_scenario_file_holds_a_nul_byte_is_refused_in_words(tmp_path):
    path = _recorded(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["scenario_file"] = "duel\x00.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "is not a file name" in result.stderr and "Traceback" not in result.output


def test_a_baseline_out_into_a_missing_folder_is_refused_before_playing(tmp_path):
    out = tmp_path / "missing" / "dir" / "duel.baseline.json"
    result = CliRunner().invoke(cli, ["baseline", str(DUEL), "--runs", "20", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "no such folder" in result.stderr and str(out.parent) in result.stderr
    assert not (tmp_path / "missing").exists()
    assert "baseline of" not in result.stdout  # nothing was played


def test_check_of_a_scenario_without_a_baseline_exits_2(tmp_path):
    shutil.copyfile(DUEL, tmp_path / "alone.yaml")
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "alone.yaml")])
    assert result.exit_code == 2
    assert "no baseline (alone.baseline.json)" in result.stderr


def test_check_of_a_folder_names_the_scenarios_it_could_not_check(tmp_path):
    _recorded(tmp_path)
    shutil.copyfile(DUEL, tmp_path / "second.yaml")
    (tmp_path / "notes.yaml").write_text("just: data\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tmp_path), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "note: not checked, no baseline next to them:" in result.stderr
    assert "second.yaml" in result.stderr and "notes.yaml" not in result.stderr
    as_json = CliRunner().invoke(cli, ["check", str(tmp_path), "--json", "--workers", "1"])
    assert json.loads(as_json.stdout)["unrecorded"] == [str(tmp_path / "second.yaml")]
