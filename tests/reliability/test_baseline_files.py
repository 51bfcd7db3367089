"""Baselines are data from anywhere: a damaged or hostile one is refused before anything plays,
and its scenario must lie inside its own folder."""

from __future__ import annotations

import json
import shutil

import pytest

from analysis.baseline import BaselineError, check_baseline
from tests.reliability.support import DUEL, refused, succeeded

RUNS = 60


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recorded")
    shutil.copy(DUEL, folder / "duel.yaml")
    succeeded(["baseline", folder / "duel.yaml", "--runs", RUNS, "--workers", "1", "--json"])
    return folder


@pytest.fixture
def baseline(recorded, tmp_path):
    folder = tmp_path / "project"
    shutil.copytree(recorded, folder)
    return folder / "duel.baseline.json"


def edit(path, **changes):
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def never_played(*args, **kwargs):
    raise AssertionError("a damaged baseline was played")


def test_a_recorded_baseline_checks_clean(baseline):
    assert check_baseline(baseline).changed == {"base": 0}


@pytest.mark.parametrize("name", ["/etc/passwd", "../../../../../../../etc/passwd", "../duel.yaml"])
def test_a_scenario_outside_the_baselines_folder_is_refused_without_reading_it(
    baseline, tmp_path, name
):
    shutil.copy(DUEL, tmp_path / "duel.yaml")  # a real scenario, just outside the folder
    edit(baseline, scenario_file=name)
    output = refused(["check", baseline, "--workers", "1"], "leads out of the baseline's folder")
    assert "root:" not in output


def test_a_scenario_in_a_subfolder_is_fine(baseline):
    (baseline.parent / "sub").mkdir()
    shutil.move(baseline.parent / "duel.yaml", baseline.parent / "sub" / "duel.yaml")
    edit(baseline, scenario_file="sub/duel.yaml")
    assert check_baseline(baseline).changed == {"base": 0}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"runs": 10**12}, "runs (found 1000000000000"),
        ({"runs": 0}, "runs (found 0"),
        ({"runs": True}, "runs"),
        ({"seed": -1}, "seed (found -1"),
        ({"sides": [1, 2]}, "sides"),
        ({"sides": ["red"]}, "sides"),
        ({"sides": ["red", "red"]}, "sides"),
    ],
)
def test_damaged_fields_are_refused(baseline, changes, words):
    edit(baseline, **changes)
    refused(["check", baseline, "--workers", "1"], "malformed", words)
    with pytest.raises(BaselineError):
        check_baseline(baseline, play=never_played)


def test_runs_that_disagree_with_the_winners_are_refused_before_playing(baseline):
    edit(baseline, runs=10**9)
    with pytest.raises(BaselineError, match=f"{RUNS} winners of base for 1000000000 runs"):
        check_baseline(baseline, play=never_played)


def test_baseline_writes_through_no_planted_link(recorded, tmp_path):
    folder = tmp_path / "project"
    shutil.copytree(recorded, folder)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for planted in ("duel.baseline.json.tmp", ".duel.baseline.json.tmp"):
        (folder / planted).symlink_to(victim)
    succeeded(["baseline", folder / "duel.yaml", "--runs", RUNS, "--workers", "1", "--json"])
    assert victim.read_text() == "precious"
    assert json.loads((folder / "duel.baseline.json").read_text())["runs"] == RUNS


def test_baseline_out_under_a_file_is_a_message(tmp_path):
    (tmp_path / "file").write_text("a file")
    target = tmp_path / "file" / "x.json"
    refused(["baseline", DUEL, "--runs", RUNS, "--workers", "1", "--out", target], "cannot write")
