"""A study called from Python writes into a folder that does not exist yet, as its command does.

The commands take their ``--out`` folder (made, claimed, locked) before they play; the Python
functions behind them reach the job's manifest first (:func:`analysis.job.open_job`), which
makes and claims the folder itself. A nested folder that does not exist yet is the case the
docs show (``run_study(plan, out="cole/")``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.sensitivity_study import plan_study, run_study
from analysis.tournament import plan_tournament, run_tournament
from sim.run.files import WriteError

ROOT = Path(__file__).resolve().parents[2]


def test_a_sensitivity_study_from_python_makes_its_folder(tmp_path):
    plan = plan_study(ROOT / "scenarios/t10-sensitivity.yaml", samples=2, runs=10, oat_runs=10)
    out = tmp_path / "new" / "cole"
    run_study(plan, out=out)
    job = json.loads((out / "job.json").read_text())
    assert job["kind"] == "sensitivity" and job["finished"] is False
    assert (out / "points").is_dir()


def test_a_tournament_from_python_makes_its_folder(tmp_path):
    plan = plan_tournament(ROOT / "scenarios/t10-tactics-tournament.yaml")
    out = tmp_path / "new" / "games"
    run_tournament(plan, runs=10, seed=1, out=out)
    assert json.loads((out / "job.json").read_text())["kind"] == "tournament"


def test_a_folder_of_other_files_is_refused_from_python_too(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("a designer's notes\n")
    plan = plan_study(ROOT / "scenarios/t10-sensitivity.yaml", samples=2, runs=10, oat_runs=10)
    with pytest.raises(WriteError, match="files combatsim did not write"):
        run_study(plan, out=out)
    assert (out / "notes.txt").read_text() == "a designer's notes\n"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
