"""Sweeps, comparisons, tournaments and studies resume after a kill exactly as ``run`` does.

Each streams its arms into run folders of its own (:mod:`analysis.job`): a process killed
outright (SIGKILL of its whole process group, as the out-of-memory killer or a closed laptop
does) loses only its chunks in flight, and the same command with ``--resume`` gives the table of
an uninterrupted command, byte for byte. Before anything on disk is trusted the folder's
``job.json`` is checked: another job is refused on ``--resume``, and a fresh start never
replaces a larger job without ``--force``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT, SCENARIOS
from tests.reliability.support import invoke, refused, succeeded

HP_SWEEP = SCENARIOS / "acs-duel-hp-sweep.yaml"
TWEAKS = SCENARIOS / "acs-duel-tweaks.yaml"
TOURNAMENT = SCENARIOS / "acs-builds-tournament.yaml"
SENSITIVITY = ROOT / "tests" / "sensitivity" / "known.yaml"

SWEEP_ARGS = ["sweep", HP_SWEEP, "--runs", 300, "--chunk-size", 50, "--no-plots", "--csv"]
COMPARE_ARGS = ["compare", TWEAKS, "--runs", 500, "--chunk-size", 50]
ENGINE = ["--workers", 1, "--quiet", "--json"]


def chunks(out: Path) -> list[Path]:
    """Every chunk file written so far under a job's folder."""
    return sorted(out.glob("*/*/*/outcomes.parquet/part-*.parquet"))


def start(args, out) -> subprocess.Popen:
    """The command in a process group of its own (the test kills it with its workers)."""
    command = [sys.executable, "-m", "sim", *map(str, args), *map(str, ENGINE), "--out", str(out)]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def kill_after(process: subprocess.Popen, out: Path, count: int, timeout: float = 120.0) -> int:
    """SIGKILL the command once ``count`` chunks are on disk; how many there were."""
    deadline = time.monotonic() + timeout
    while len(chunks(out)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command wrote no chunks in time"
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    return len(chunks(out))


def uninterrupted(args, out: Path) -> Path:
    succeeded([*args, *ENGINE, "--out", out])
    return out


@pytest.mark.parametrize(
    ("args", "total", "table"),
    [
        pytest.param(SWEEP_ARGS, 9 * 300 // 50, "outcomes.csv", id="sweep"),
        pytest.param(COMPARE_ARGS, 5 * 500 // 50, "outcomes.csv", id="compare"),
    ],
)
def test_killed_outright_then_resumed_gives_the_uninterrupted_table_byte_for_byte(
    tmp_path, args, total, table
):
    reference = uninterrupted(args, tmp_path / "reference")
    out = tmp_path / "killed"
    process = start(args, out)
    kept = kill_after(process, out, total // 3)
    assert kept < total, "the kill came too late to test anything"
    assert not (out / table).exists()  # the job's own tables come at the end
    stamps = {path: path.stat().st_mtime_ns for path in chunks(out)}
    output = succeeded([*args, *ENGINE, "--out", out, "--resume"])
    assert "Traceback" not in output
    assert (out / table).read_bytes() == (reference / table).read_bytes()
    pd.testing.assert_frame_equal(
        pd.read_parquet(out / "outcomes.parquet"), pd.read_parquet(reference / "outcomes.parquet")
    )
    assert json.loads((out / "job.json").read_text())["finished"] is True
    assert len(chunks(out)) == total
    # What was on disk was read back, not played again: those chunk files are untouched.
    assert {path: path.stat().st_mtime_ns for path in stamps} == stamps


def test_a_killed_compare_without_resume_starts_over_and_says_nothing_was_lost(tmp_path):
    out = tmp_path / "killed"
    process = start(COMPARE_ARGS, out)
    kill_after(process, out, 10)
    # Fewer combats than the job plays were kept: a fresh start replaces them (as run does).
    succeeded([*COMPARE_ARGS, *ENGINE, "--out", out])
    assert json.loads((out / "job.json").read_text())["finished"] is True


def test_resume_refuses_another_job_and_fresh_refuses_to_replace_a_larger_one(tmp_path):
    out = uninterrupted(COMPARE_ARGS, tmp_path / "cmp")
    refused([*COMPARE_ARGS, *ENGINE, "--out", out, "--resume", "--seed", 9], "seed differ")
    refused([*COMPARE_ARGS[:3], 200, *ENGINE, "--out", out], "finished comparison", "--force")
    succeeded([*COMPARE_ARGS[:3], 200, *ENGINE, "--out", out, "--force"])
    summary = json.loads((out / "comparison.json").read_text())
    assert summary["runs"] == 200
    # A sweep over it is another job: refused on --resume.
    refused([*SWEEP_ARGS, *ENGINE, "--out", out, "--resume"], "holds a different comparison")


def test_resume_of_runs_with_no_job_manifest_is_a_clear_error(tmp_path):
    out = uninterrupted(SWEEP_ARGS, tmp_path / "sweep")
    (out / "job.json").unlink()
    refused([*SWEEP_ARGS, *ENGINE, "--out", out, "--resume"], "no readable job.json")


def _drop_half(out: Path) -> None:
    """What a kill leaves: the job's own files gone, and half of its chunks."""
    for name in ("summary.json", "matrix.parquet", "outcomes.parquet"):
        (out / name).unlink(missing_ok=True)
    for found in chunks(out)[::2]:
        found.unlink()
    for summary in out.glob("*/*/*/summary.json"):
        summary.unlink()
    for summary in out.glob("*/*/summary.json"):
        summary.unlink()


def test_a_tournament_resumes_to_the_same_matrix(tmp_path):
    args = ["tournament", TOURNAMENT, "--runs", 120, "--chunk-size", 30]
    reference = uninterrupted(args, tmp_path / "reference")
    out = uninterrupted(args, tmp_path / "again")
    _drop_half(out)
    succeeded([*args, *ENGINE, "--out", out, "--resume"])
    assert (out / "matrix.csv").read_bytes() == (reference / "matrix.csv").read_bytes()
    refused([*args[:3], 60, *ENGINE, "--out", out], "finished tournament", "--force")


def test_a_study_resumes_to_the_same_tables(tmp_path):
    args = ["sensitivity", SENSITIVITY, "--samples", 4, "--runs", 20, "--oat-runs", 60]
    args += ["--chunk-size", 10, "--no-plots"]
    reference = uninterrupted(args, tmp_path / "reference")
    out = uninterrupted(args, tmp_path / "again")
    for found in sorted(out.glob("points/*/outcomes.parquet/part-*.parquet"))[::3]:
        found.unlink()
    for name in out.glob("points/*/summary.json"):
        name.unlink()
    succeeded([*args, *ENGINE, "--out", out, "--resume"])
    for name in ("design.csv", "effects.csv", "indices.csv", "outcomes.csv"):
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name
    result = invoke([*args, *ENGINE, "--out", out, "--resume", "--seed", 5])
    assert result.exit_code == 2 and "holds a different" in result.output
