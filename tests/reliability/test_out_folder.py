"""Writes stay where they belong: --out refuses a folder that is not combatsim's, and no write
follows a symbolic link out of it."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from sim.run.files import write_text
from tests.conftest import ROOT
from tests.reliability.support import (
    DUEL,
    clean_table,
    parts,
    refused,
    run_args,
    streamed_table,
    succeeded,
)


@pytest.fixture
def outside(tmp_path):
    """A folder outside the results, with a file that must survive every test."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("precious")
    (folder / "part-000000000000.parquet").write_text("not combatsim's")
    return folder


def untouched(outside):
    assert (outside / "precious.txt").read_text() == "precious"
    assert (outside / "part-000000000000.parquet").read_text() == "not combatsim's"
    assert sorted(p.name for p in outside.iterdir()) == [
        "part-000000000000.parquet",
        "precious.txt",
    ]


def test_a_folder_with_the_users_own_files_is_refused_unless_forced(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    for name in ("summary.json", "run.json", "outcomes.csv", "notes.txt"):
        (out / name).write_text(f"my own {name}")
    refused(run_args(out), "files combatsim did not write", "summary.json", "--force")
    assert (out / "summary.json").read_text() == "my own summary.json"
    refused(run_args(out, "--resume"), "files combatsim did not write")  # not a run of ours
    assert not (out / ".combatsim.lock").exists()
    assert (out / "run.json").read_text() == "my own run.json"
    succeeded(run_args(out, "--force"))
    pd.testing.assert_frame_equal(streamed_table(out), clean_table())
    assert (out / "notes.txt").read_text() == "my own notes.txt"  # not a name combatsim writes


def test_a_folder_combatsim_wrote_is_written_again_without_force(tmp_path):
    out = tmp_path / "run"
    succeeded(run_args(out, seed=1))
    (out / "notes.txt").write_text("a note next to the results")
    succeeded(run_args(out, seed=2))
    assert set(streamed_table(out)["seed"]) == {2}
    assert (out / "notes.txt").read_text() == "a note next to the results"


def test_a_linked_outcomes_folder_is_never_followed(tmp_path, outside):
    out = tmp_path / "run"
    succeeded(run_args(out))
    for part in parts(out):
        part.unlink()
    (out / "outcomes.parquet").rmdir()
    (out / "outcomes.parquet").symlink_to(outside, target_is_directory=True)
    refused(run_args(out), "outcomes.parquet", "symbolic link")
    refused(run_args(out, "--resume"), "outcomes.parquet", "symbolic link")
    untouched(outside)
    succeeded(run_args(out, "--force"))  # replaces the link itself
    untouched(outside)
    assert not (out / "outcomes.parquet").is_symlink()
    pd.testing.assert_frame_equal(streamed_table(out), clean_table())


def test_a_linked_summary_is_replaced_not_written_through(tmp_path, outside):
    out = tmp_path / "run"
    succeeded(run_args(out))
    (out / "summary.json").unlink()
    (out / "summary.json").symlink_to(outside / "precious.txt")
    refused(run_args(out), "symbolic link")
    succeeded(run_args(out, "--force"))
    untouched(outside)
    assert not (out / "summary.json").is_symlink()


def test_a_planted_tmp_link_is_never_written_through(tmp_path, outside):
    target = tmp_path / "summary.json"
    for planted in (".summary.json.tmp", "summary.json.tmp"):
        (tmp_path / planted).symlink_to(outside / "precious.txt")
    write_text(target, "{}\n")
    assert target.read_text() == "{}\n"
    untouched(outside)


def test_a_run_to_precision_claims_its_folder_before_playing(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "summary.json").write_text("my own")
    args = ["run", DUEL, "--precision", "0.2", "--batch", "50", "--max-runs", "100"]
    refused([*args, "--workers", "1", "--out", out], "files combatsim did not write")
    assert (out / "summary.json").read_text() == "my own"


SWEEP = DUEL.with_name("acs-duel-hp-sweep.yaml")


@pytest.fixture
def held_elsewhere(tmp_path):
    """A folder whose lock another process holds."""
    folder = tmp_path / "busy"
    code = (
        "import sys, time; from sim.run.outdir import FolderLock; "
        f"FolderLock({str(folder)!r}).acquire(); print('held', flush=True); time.sleep(120)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        yield folder, holder.pid
    finally:
        holder.kill()
        holder.wait(timeout=30)


def test_sweep_and_compare_refuse_a_folder_being_written_before_playing(held_elsewhere):
    folder, pid = held_elsewhere
    sweep = ["sweep", SWEEP, "--runs", "20", "--workers", "1", "--no-plots", "--out", folder]
    refused(sweep, "being written by another combatsim", f"pid {pid}")
    compare = ["compare", DUEL.with_name("acs-duel-tweaks.yaml"), "--runs", "20"]
    refused([*compare, "--workers", "1", "--out", folder], "being written", f"pid {pid}")
    refused(["baseline", DUEL, "--runs", "20", "--out", folder / "x.json"], "being written")


def test_sweep_refuses_a_folder_that_is_not_combatsims_unless_forced(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "summary.json").write_text("my own")
    sweep = ["sweep", SWEEP, "--runs", "20", "--workers", "1", "--no-plots", "--out", out]
    refused(sweep, "files combatsim did not write", "--force")
    assert (out / "summary.json").read_text() == "my own"
    succeeded([*sweep, "--force"])
    assert json.loads((out / "summary.json").read_text())["runs"] == 20
    succeeded(sweep)  # combatsim's own now


def test_report_replaces_a_planted_link_and_writes_through_no_tmp_link(tmp_path, outside):
    out = tmp_path / "run"
    succeeded(run_args(out))
    (out / "report.html").symlink_to(outside / "precious.txt")
    (out / "report.html.tmp").symlink_to(outside / "precious.txt")
    succeeded(["report", out])
    untouched(outside)
    assert not (out / "report.html").is_symlink()
    assert (out / "report.html").read_text().startswith("<!")
