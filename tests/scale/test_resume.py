"""Streaming and resume: a run killed outright, or interrupted, loses nothing it finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from sim import Execution, Storage, load_scenario, simulate
from sim.cli.app import cli
from sim.run.store import StoreMismatch
from tests.conftest import ROOT, SCENARIOS
from tests.scale.support import assert_close

DUEL = SCENARIOS / "acs-duel.yaml"
RUNS = 12_000
CHUNK = 400


def start_run(out, *extra):
    """``combatsim run`` in its own process group (so the test can kill it and its workers)."""
    command = [sys.executable, "-m", "sim", "run", str(DUEL), "--runs", str(RUNS), "--seed", "3"]
    command += ["--chunk-size", str(CHUNK), "--workers", "2", "--quiet", "--json", "--out"]
    return subprocess.Popen(
        [*command, str(out), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def parts(out):
    folder = out / "outcomes.parquet"
    return sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []


def wait_for_parts(process, out, count, timeout=60.0):
    deadline = time.monotonic() + timeout
    while len(parts(out)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run wrote no chunks"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def uninterrupted():
    return simulate(
        load_scenario(DUEL), runs=RUNS, seed=3, execution=Execution(workers=1, chunk_size=RUNS)
    )


def test_a_run_killed_outright_resumes_to_the_uninterrupted_table(tmp_path, uninterrupted):
    out = tmp_path / "run"
    process = start_run(out)
    wait_for_parts(process, out, 4)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    finished = len(parts(out))
    assert 4 <= finished < RUNS // CHUNK, "the kill came too late to test anything"
    assert not (out / "summary.json").exists()

    resumed = start_run(out, "--resume")
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    table = pd.read_parquet(out / "outcomes.parquet")
    assert list(table["combat"]) == list(range(RUNS))  # nothing lost, nothing twice
    pd.testing.assert_frame_equal(table, uninterrupted.outcomes)
    assert not list((out / "outcomes.parquet").glob(".*"))  # no half-written file left
    summary = json.loads(stdout)
    assert_close(summary, json.loads(json.dumps(uninterrupted.summary)))
    assert json.loads((out / "summary.json").read_text()) == summary


#: Waits, at the point of a run where it is called, until Ctrl-C has been pressed; the run's own
#: handler of Ctrl-C (which counts presses: sim.run.interrupts) is told of it as usual.
WAIT_FOR_CTRL_C = """
import signal, sys, time

def wait_for_ctrl_c(said):
    pressed = []
    run_handler = signal.getsignal(signal.SIGINT)

    def press(signum, frame):
        pressed.append(signum)
        if callable(run_handler):
            run_handler(signum, frame)

    signal.signal(signal.SIGINT, press)
    print(said, file=sys.stderr, flush=True)
    while not pressed:  # not signal.pause(): Ctrl-C may land on another thread of this process
        time.sleep(0.01)
"""

#: ``combatsim run`` with one change: after writing its third chunk, the run says so on stderr
#: and waits for Ctrl-C. The test's Ctrl-C therefore always reaches a run that has started and
#: cannot have finished, whatever the load on the machine.
PAUSED_RUN = WAIT_FOR_CTRL_C + """
from sim.cli.app import main
from sim.run.store import RunStore

write = RunStore.write
written = []

def write_then_wait(self, chunk, scenario_name):
    frame = write(self, chunk, scenario_name)
    written.append(chunk.start)
    if len(written) == 3:
        wait_for_ctrl_c("three chunks written")
    return frame

RunStore.write = write_then_wait
sys.argv = ["combatsim", *sys.argv[1:]]
main()
"""


def ctrl_c_as_at_a_terminal():
    """In the child, before it starts: Ctrl-C raises, as in a shell's foreground job.

    A background job of a shell without job control (how CI scripts and test runners are often
    started) begins with Ctrl-C ignored, and a process started from it inherits that; Python
    then installs no handler of its own and the run would never see the test's Ctrl-C. This was
    why the Ctrl-C test failed in every CI run and passed in every terminal.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_line(process, line):
    """Read stderr until ``line`` (the run's own signal that it has started)."""
    seen = []
    for text in process.stderr:
        if text.strip() == line:
            return
        seen.append(text)
    raise AssertionError(f"the run ended without saying {line!r}: {''.join(seen)}")


def test_ctrl_c_prints_the_summary_so_far_and_exits_cleanly(tmp_path, uninterrupted):
    out = tmp_path / "run"
    command = [sys.executable, "-c", PAUSED_RUN, "run", str(DUEL), "--runs", str(RUNS)]
    command += ["--seed", "3", "--chunk-size", str(CHUNK), "--workers", "2", "--quiet"]
    process = subprocess.Popen(
        [*command, "--json", "--out", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    wait_for_line(process, "three chunks written")
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "finished and kept" in stderr and "--resume" in stderr
    assert "dropped" not in stderr  # the chunks under way finished: nothing counted is lost
    summary = json.loads(stdout)
    # The three chunks written, and the chunks the workers had begun, finished after Ctrl-C.
    table = pd.read_parquet(out / "outcomes.parquet")
    assert 3 * CHUNK <= summary["runs"] < RUNS and summary["runs"] % CHUNK == 0
    assert summary["runs"] == len(table)
    assert list(table["combat"]) == list(range(summary["runs"]))
    pd.testing.assert_frame_equal(table, uninterrupted.outcomes.iloc[: len(table)])


#: ``combatsim run`` with one change: before its third chunk, the serial run says so on stderr
#: and waits until Ctrl-C has been pressed, then goes on with that chunk.
WAITING_SERIAL_RUN = WAIT_FOR_CTRL_C + """
import sim.run.parallel
from sim.cli.app import main

run_chunk = sim.run.parallel.run_chunk
calls = []

def wait_then_run(scenario, seed, start, stop, detail=False, interrupted=None, **kwargs):
    calls.append(start)
    if len(calls) == 3:
        wait_for_ctrl_c("two chunks played")
    return run_chunk(scenario, seed, start, stop, detail, interrupted, **kwargs)

sim.run.parallel.run_chunk = wait_then_run
sys.argv = ["combatsim", *sys.argv[1:]]
main()
"""


def test_ctrl_c_in_a_serial_run_without_out_prints_what_it_has():
    command = [sys.executable, "-c", WAITING_SERIAL_RUN, "run", str(DUEL), "--runs", "100000"]
    process = subprocess.Popen(
        [*command, "--json", "--workers", "1", "--chunk-size", "200", "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    wait_for_line(process, "two chunks played")
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "finished and kept" in stderr
    summary = json.loads(stdout)
    assert summary["runs"] == 600  # the two chunks before Ctrl-C, and the one under way


def test_resume_refuses_a_different_run(tmp_path):
    out = tmp_path / "run"
    simulate(
        DUEL,
        runs=600,
        seed=1,
        execution=Execution(workers=1, chunk_size=200),
        storage=Storage(out=out),
    )
    result = CliRunner().invoke(
        cli,
        [
            "run",
            str(DUEL),
            "--runs",
            "600",
            "--seed",
            "2",
            "--chunk-size",
            "200",
            "--out",
            str(out),
            "--resume",
            "--quiet",
        ],
    )
    assert result.exit_code == 2
    assert "different run" in result.output and "seed" in result.output


def test_resume_needs_out():
    result = CliRunner().invoke(cli, ["run", str(DUEL), "--resume"])
    assert result.exit_code == 2 and "--out" in result.output


def test_resume_plays_only_missing_chunks_and_clears_half_written_files(tmp_path):
    out = tmp_path / "run"
    simulate(
        DUEL,
        runs=1000,
        seed=5,
        execution=Execution(workers=1, chunk_size=250),
        storage=Storage(out=out),
    )
    folder = out / "outcomes.parquet"
    (folder / "part-000000000500.parquet").unlink()
    (folder / ".part-000000000500.parquet.tmp").write_bytes(b"half a file")
    kept = {p.name: p.stat().st_mtime_ns for p in parts(out)}
    result = simulate(
        DUEL,
        runs=1000,
        seed=5,
        execution=Execution(workers=1, chunk_size=250),
        storage=Storage(out=out, resume=True),
    )
    assert {p.name: p.stat().st_mtime_ns for p in parts(out) if p.name in kept} == kept
    assert len(parts(out)) == 4 and not list(folder.glob(".*"))
    assert result.runs == 1000 and result.summary["runs"] == 1000
    pd.testing.assert_frame_equal(
        result.outcomes, simulate(DUEL, runs=1000, seed=5, execution=Execution(workers=1)).outcomes
    )


def test_a_fresh_run_replaces_an_earlier_one_only_with_force_when_that_one_is_larger(tmp_path):
    out = tmp_path / "run"
    one = Execution(workers=1, chunk_size=100)
    simulate(DUEL, runs=900, seed=5, execution=one, storage=Storage(out=out))
    with pytest.raises(StoreMismatch, match="add --force"):
        simulate(DUEL, runs=300, seed=6, execution=one, storage=Storage(out=out))
    simulate(DUEL, runs=300, seed=6, execution=one, storage=Storage(out=out, force=True))
    table = pd.read_parquet(out / "outcomes.parquet")
    assert list(table["combat"]) == list(range(300)) and set(table["seed"]) == {6}


#: ``combatsim run`` with one change: before timing its first combats it waits for Ctrl-C.
EARLY_CTRL_C_RUN = WAIT_FOR_CTRL_C + """
import sim.run.parallel
from sim.cli.app import main

probe = sim.run.parallel.probe

def wait_then_probe(*args, **kwargs):
    wait_for_ctrl_c("about to play the first combats")
    return probe(*args, **kwargs)

sim.run.parallel.probe = wait_then_probe
sys.argv = ["combatsim", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_before_any_combat_says_so_instead_of_nan(as_json):
    command = [sys.executable, "-c", EARLY_CTRL_C_RUN, "run", str(DUEL), "--runs", "100000"]
    process = subprocess.Popen(
        [*command, "--quiet", *(["--json"] if as_json else [])],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    wait_for_line(process, "about to play the first combats")
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted: no combat finished yet (of 100,000)" in stderr
    assert "nan" not in stdout.lower() + stderr.lower()
    if as_json:
        summary = json.loads(stdout)  # valid JSON: no NaN
        assert summary["runs"] == 0 and summary["sides"]["red"]["win_rate"] is None
    else:
        assert stdout == ""
