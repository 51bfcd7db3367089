"""One writer per results directory: a second is refused naming the first; a dead one's lock is
taken over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd

from sim.run.outdir import LOCK, FolderLock, Holder
from tests.conftest import ROOT
from tests.reliability.support import DUEL, clean_table, invoke, refused, run_args


def start_long_run(out):
    command = [sys.executable, "-m", "sim", "run", str(DUEL), "--runs", "400000", "--seed", "1"]
    command += ["--chunk-size", "100", "--workers", "1", "--quiet", "--json", "--out", str(out)]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for_holder(process, out, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never took its lock"
        holder = Holder.parse((out / LOCK).read_text()) if (out / LOCK).is_file() else None
        if holder is not None and any((out / "outcomes.parquet").glob("part-*")):
            return holder
        time.sleep(0.05)


def test_a_second_writer_is_refused_naming_the_first_and_a_killed_ones_lock_is_taken_over(
    tmp_path,
):
    out = tmp_path / "run"
    first = start_long_run(out)
    try:
        holder = wait_for_holder(first, out)
        assert holder.pid == first.pid
        # The same run again, the run resumed, and another seed: all refused while it writes.
        second = subprocess.run(
            [sys.executable, "-m", "sim", *run_args(out, seed=1)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 2, second.stderr
        assert "Traceback" not in second.stderr
        assert "being written by another combatsim" in second.stderr
        assert f"pid {first.pid} on " in second.stderr and "combatsim run" in second.stderr
        for extra in (["--resume"], []):
            seed = 1 if extra else 4
            refused(run_args(out, *extra, seed=seed), "being written", f"pid {first.pid}")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    # The kill left the holder's description behind, but not the OS lock.
    assert Holder.parse((out / LOCK).read_text()).pid == first.pid
    with FolderLock(out) as lock:
        assert lock.took_over is not None and lock.took_over.pid == first.pid
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["seed"] == 1 and manifest["runs"] == 400000  # the refused changed nothing


def test_a_lock_left_by_a_killed_writer_is_taken_over_with_a_warning(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    dead = Holder(pid=999_999_999, host="elsewhere", command="combatsim run x", since="then")
    (out / LOCK).write_text(dead.to_json())
    result = invoke(run_args(out))
    assert result.exit_code == 0, result.output
    assert "took over the lock of pid 999999999 on elsewhere" in result.output
    pd.testing.assert_frame_equal(pd.read_parquet(out / "outcomes.parquet"), clean_table())
    assert (out / LOCK).read_text() == ""  # let go of, emptied


def test_a_lock_is_shared_within_a_process_and_let_go_by_its_last_holder(tmp_path):
    with FolderLock(tmp_path) as outer:
        with FolderLock(tmp_path / ".") as inner:  # a sweep's command and its save()
            assert outer.held and inner.held
        assert Holder.parse((tmp_path / LOCK).read_text()).pid == os.getpid()
        busy = subprocess.run(
            [
                sys.executable,
                "-c",
                f"from sim.run.outdir import FolderLock; FolderLock({str(tmp_path)!r}).acquire()",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert busy.returncode != 0 and "FolderBusy" in busy.stderr
        assert f"pid {os.getpid()} on " in busy.stderr
    assert (tmp_path / LOCK).read_text() == ""
    with FolderLock(tmp_path) as again:  # free once the last holder let go
        assert again.held and again.took_over is None


def test_a_link_planted_at_the_lock_is_refused(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK).symlink_to(victim)
    refused(run_args(out, "--force"), "symbolic link")
    assert victim.read_text() == "precious"


def test_pool_workers_do_not_keep_a_killed_writers_lock(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "sim", *run_args(out, runs=400000)]
    command[command.index("--workers") + 1] = "2"
    writer = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for_holder(writer, out)
        os.kill(writer.pid, signal.SIGKILL)  # the writer only: its workers live on a moment
        writer.wait(timeout=30)
        with FolderLock(out) as lock:
            assert lock.took_over is not None and lock.took_over.pid == writer.pid
    finally:
        os.killpg(writer.pid, signal.SIGKILL)
