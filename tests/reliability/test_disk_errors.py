"""The file system's refusals are one sentence, exit 2, what was done kept, --resume offered."""

from __future__ import annotations

import errno
import os
from types import SimpleNamespace

import pandas as pd
import pytest

import sim.run.chunks
import sim.run.files
import sim.run.store
import sim.run.tables
from sim.run.files import WriteError, write_text
from tests.reliability.support import (
    CHUNK,
    DUEL,
    RUNS,
    clean_table,
    parts,
    refused,
    run_args,
    streamed_table,
    succeeded,
)


def fail_after(monkeypatch, module, writes, error):
    """Let ``writes`` atomic writes of ``module`` through, then fail in the middle of each."""
    real = sim.run.files.write_atomically
    count = {"writes": 0}

    def write_atomically(path, fill):
        count["writes"] += 1
        if count["writes"] <= writes:
            return real(path, fill)

        def half_then_error(handle):
            handle.write(b"PAR1 half a file")
            raise OSError(error, os.strerror(error))

        return real(path, half_then_error)

    monkeypatch.setattr(module, "write_atomically", write_atomically)


def hidden_files(out):
    return [p for p in out.rglob(".*") if p.name != ".combatsim.lock"]


def test_a_full_disk_mid_run_keeps_the_chunks_and_resume_finishes(tmp_path, monkeypatch):
    out = tmp_path / "run"
    fail_after(monkeypatch, sim.run.chunks, 2, errno.ENOSPC)
    message = refused(run_args(out), "cannot write", "the disk is full", "--resume")
    assert "part-000000000200.parquet" in message
    assert len(message.strip().splitlines()) == 1
    assert [p.name for p in parts(out)] == [
        "part-000000000000.parquet",
        "part-000000000100.parquet",
    ]
    assert not hidden_files(out)  # the half-written file was removed
    monkeypatch.undo()
    succeeded(run_args(out, "--resume"))
    pd.testing.assert_frame_equal(streamed_table(out), clean_table())


def test_a_full_disk_while_writing_the_csv_copy_is_finished_by_resume(tmp_path, monkeypatch):
    out = tmp_path / "run"
    fail_after(monkeypatch, sim.run.store, 0, errno.ENOSPC)
    refused(run_args(out), "outcomes.csv", "the disk is full", "--resume")
    assert len(parts(out)) == RUNS // CHUNK and not (out / "outcomes.csv").exists()
    monkeypatch.undo()
    succeeded(run_args(out, "--resume"))
    assert len(pd.read_csv(out / "outcomes.csv")) == RUNS


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (errno.EACCES, "permission denied"),
        (errno.EROFS, "the file system is read-only"),
        (errno.EDQUOT, "the disk quota is used up"),
        (errno.EIO, "input/output error"),
    ],
)
def test_a_refusal_of_the_file_system_is_one_sentence(tmp_path, monkeypatch, error, cause):
    def mkstemp(**_):
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(sim.run.files, "tempfile", SimpleNamespace(mkstemp=mkstemp))
    message = refused(run_args(tmp_path / "run"), "cannot write", cause)
    assert len(message.strip().splitlines()) == 1


def test_out_under_a_file_is_a_message(tmp_path):
    (tmp_path / "file").write_text("a file")
    refused(run_args(tmp_path / "file" / "run"), "cannot write", "a file, not a folder")


def test_out_that_is_a_file_is_a_message(tmp_path):
    (tmp_path / "file").write_text("a file")
    refused(run_args(tmp_path / "file"), "file")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root may write into a read-only folder; simulated above with EACCES and EROFS",
)
def test_a_folder_without_write_permission_is_a_message(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        refused(run_args(locked / "run"), "cannot write", "permission denied")
    finally:
        locked.chmod(0o700)


def test_a_write_error_names_the_path_and_the_cause(tmp_path):
    with pytest.raises(WriteError) as caught:
        write_text(tmp_path / "no" / "such" / "file.json", "{}")
    target = tmp_path / "no" / "such" / "file.json"
    assert str(caught.value) == f"cannot write {target}: a folder on the way does not exist"


def test_a_full_disk_in_sweep_baseline_and_compare_is_one_sentence(tmp_path, monkeypatch):
    fail_after(monkeypatch, sim.run.tables, 0, errno.ENOSPC)
    fail_after(monkeypatch, sim.run.files, 0, errno.ENOSPC)
    sweep = DUEL.with_name("acs-duel-hp-sweep.yaml")
    (tmp_path / "b").mkdir()  # baseline --out writes into a folder that exists
    for args in (
        ["sweep", sweep, "--runs", "20", "--no-plots", "--out", tmp_path / "sweep"],
        ["baseline", DUEL, "--runs", "20", "--out", tmp_path / "b" / "x.baseline.json"],
        [
            "compare",
            DUEL.with_name("acs-duel-tweaks.yaml"),
            "--runs",
            "20",
            "--out",
            tmp_path / "c",
        ],
    ):
        message = refused(
            [*args, "--workers", "1"], "the disk is full", "run the same command again"
        )
        assert len(message.strip().splitlines()) == 1
    assert not [p for p in tmp_path.rglob("*.tmp")]
