"""The progress bar: on stderr when it is a terminal, never otherwise (or with --quiet).

It moves combat by combat whatever the chunk size (workers report as they play), its rate is
smoothed so the time left is steady, and the rate shown at the end is the run's average.
"""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
import threading

import pytest

from sim import load_scenario
from sim.run.parallel import RunSpec, SerialExecutor, executor_for
from sim.run.progress import (
    FLUSH_S,
    NoProgress,
    Reporter,
    RunProgress,
    SteadyRate,
    progress_bar,
    wanted,
)
from tests.conftest import ROOT, SCENARIOS

DUEL = str(SCENARIOS / "acs-duel.yaml")
RUN = [sys.executable, "-m", "sim", "run", DUEL]


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_off_when_stderr_is_not_a_terminal():
    done = subprocess.run(
        [*RUN, "--runs", "3000", "--chunk-size", "500", "--workers", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert '"runs": 3000' in done.stdout


def test_wanted_only_for_a_terminal_and_when_not_quiet():
    assert not wanted(True, io.StringIO())
    assert wanted(True, FakeTerminal())
    assert not wanted(False, FakeTerminal())
    assert isinstance(progress_bar(10, stream=io.StringIO()), NoProgress)
    assert isinstance(progress_bar(10, enabled=False, stream=FakeTerminal()), NoProgress)


def test_the_bar_counts_combats_on_a_terminal():
    stream = FakeTerminal()
    with progress_bar(1000, done=200, stream=stream) as bar:
        assert isinstance(bar, RunProgress)
        bar.advance(500)
        bar.advance(300)
        bar._progress.refresh()
        shown = stream.getvalue()
    assert "1000/1000" in shown or "700/1000" in shown


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_run_draws_the_bar_on_a_terminal_and_not_with_quiet():
    def stderr_of(*extra):
        main, child = os.openpty()
        command = [sys.executable, "-m", "sim", "run", DUEL, "--runs", "6000"]
        process = subprocess.Popen(
            [*command, "--chunk-size", "200", "--workers", "2", "--json", *extra],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=child,
            text=True,
        )
        os.close(child)
        process.stdout.read()
        process.wait(timeout=120)
        seen = b""
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:
                break
            if not data:
                break
            seen += data
        os.close(main)
        return seen.decode("utf-8", "replace")

    assert "combats/s" in stderr_of()
    assert stderr_of("--quiet") == ""


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class SharedValue:
    """What a ``multiprocessing.Value`` offers a reporter: a value and its lock."""

    def __init__(self):
        self.value = 0
        self.lock = threading.Lock()

    def get_lock(self):
        return self.lock


def test_a_worker_reports_its_combats_a_few_times_a_second_and_at_the_end_of_a_chunk():
    clock, shared = Clock(), SharedValue()
    reporter = Reporter(shared, clock)
    for _ in range(7):
        reporter.played()
    assert shared.value == 0  # kept until FLUSH_S has passed
    clock.now = FLUSH_S
    reporter.played()
    assert shared.value == 8
    reporter.played()
    reporter.flush()  # the chunk ends
    assert shared.value == 9


def test_workers_count_combats_inside_their_chunks():
    # A pool of two plays two chunks of 150; the pool's counter knows every combat played,
    # which the bar reads while the chunks are under way.
    scenario = load_scenario(DUEL)
    with executor_for(2, None, 2, scenario) as executor:
        before = executor.played()
        spec = RunSpec.of(scenario, 1, False)
        finished = list(executor.play(spec, [(0, 150), (150, 300)]))
        assert executor.played() - before == 300
    assert sorted(chunk.start for chunk in finished) == [0, 150]


def test_a_serial_run_counts_combat_by_combat():
    scenario = load_scenario(DUEL)
    executor = SerialExecutor(scenario)
    seen = []
    for chunk in executor.play(RunSpec.of(scenario, 1, False, check=False), [(0, 40), (40, 60)]):
        seen.append((chunk.stop, executor.played()))
    assert seen == [(40, 40), (60, 60)]


def test_the_bar_follows_its_source_between_chunks():
    stream, clock = FakeTerminal(), Clock()
    played = [0]
    bar = RunProgress(20_000, stream=stream, source=lambda: played[0], clock=clock)
    bar._progress.start()
    for second in range(1, 6):  # one chunk of 20,000 under way: no chunk has finished
        clock.now, played[0] = second, 171 * second
        bar.look()
    bar._progress.refresh()
    bar._progress.stop()
    assert "855/20000" in stream.getvalue()
    assert "171 combats/s" in stream.getvalue()


def test_the_smoothed_rate_keeps_the_time_left_steady_when_counts_come_in_bursts():
    # 171 combats a second on average, reported in bursts of 2,000 (whole chunks) every
    # 11.7 s, read every second: the time left must not swing with each burst.
    rate = SteadyRate(0, 0.0)
    total, lefts, played = 20_000, [], 0
    for second in range(1, 100):
        if second % 12 == 0:
            played += 2000
        rate.update(played, float(second))
        left = rate.left(total)
        if second > 24 and left is not None:
            lefts.append(left + second)  # when the run is expected to end
    # The expected end moves by far less than a burst's worth (12 s) from a reading to the next.
    assert max(abs(b - a) for a, b in itertools.pairwise(lefts)) < 1.0
    assert lefts[-1] == pytest.approx(120.0, abs=1.0)  # 20,000 at 2,000 every 12 s


def test_the_final_rate_is_the_runs_average():
    clock = Clock()
    stream = FakeTerminal()
    played = [0]
    bar = RunProgress(20_000, stream=stream, source=lambda: played[0], clock=clock)
    bar._progress.start()
    clock.now, played[0] = 10.0, 4000  # a fast start (400/s)...
    bar.look()
    clock.now, played[0] = 116.96, 20_000  # ... and a slow end: 20,000 in 116.96 s overall
    bar.look()
    bar.finish()
    bar._progress.refresh()
    bar._progress.stop()
    assert "171 combats/s" in stream.getvalue()[-400:]
    assert SteadyRate(0, 0.0).overall(20_000, 116.96) == pytest.approx(171.0, abs=0.01)


def test_the_final_rate_counts_the_whole_run_from_its_start():
    # The run started 5 s before its bar (timing its first combats, starting workers): the
    # final rate is every combat it played over all its wall-clock time.
    clock, stream = Clock(), FakeTerminal()
    clock.now = 5.0
    bar = RunProgress(1000, done=200, stream=stream, source=lambda: 200, clock=clock)
    bar._progress.start()
    clock.now = 13.0
    bar.finish(started=0.0)
    bar._progress.refresh()
    bar._progress.stop()
    assert "62 combats/s" in stream.getvalue()[-400:]  # 800 combats in 13 s
