"""Workers and chunk size chosen from the work (issue 12, item 13), and the same answer anyway.

A run left to itself times its first combats in this process (the probe) and chooses: no pool
for a run one core finishes in a couple of seconds, else every core in chunks of about a
second's work, several per worker. What is given wins. The probe's combats are the run's own.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sim import load_scenario, simulate
from sim.run.api import play_records
from sim.run.choices import Execution, Storage
from sim.run.runner import (
    CHUNK_S,
    CHUNKS_PER_WORKER,
    PROBE_CAP_S,
    SERIAL_S,
    Work,
    choose_plan,
    merged,
    probe,
    range_records,
    run_chunk,
)
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"


@pytest.fixture(scope="module")
def duel():
    return load_scenario(DUEL)


def test_a_run_one_core_finishes_quickly_gets_no_pool():
    plan = choose_plan(combats=1900, per_s=1000.0, cores=8)
    assert plan.workers == 1
    assert "no pool" in plan.reason


def test_a_long_run_goes_to_every_core_in_chunks_of_about_a_second():
    plan = choose_plan(combats=200_000, per_s=1000.0, cores=4)
    assert plan.workers == 4
    assert plan.chunk_size == round(1000.0 * CHUNK_S)


def test_chunks_shrink_so_that_every_worker_gets_several():
    # 3 s of work on 2 cores: a second's chunks would give 3 chunks, fewer than 4 per worker.
    plan = choose_plan(combats=3000, per_s=1000.0, cores=2)
    assert SERIAL_S < 3.0
    assert plan.workers == 2
    assert plan.chunk_size == -(-3000 // (2 * CHUNKS_PER_WORKER))  # 375
    assert -(-3000 // plan.chunk_size) >= 2 * CHUNKS_PER_WORKER


def test_one_core_plays_in_this_process():
    assert choose_plan(combats=10**6, per_s=100.0, cores=1).workers == 1


def test_what_is_given_wins():
    assert choose_plan(100, 1000.0, cores=8, workers=3).workers == 3
    assert choose_plan(10**6, 1000.0, cores=8, chunk_size=17).chunk_size == 17
    given = choose_plan(10**6, None, cores=8, workers=2, chunk_size=50)
    assert (given.workers, given.chunk_size, given.per_s) == (2, 50, None)
    with pytest.raises(ValueError):
        choose_plan(10**6, None, cores=8, workers=2)


def test_the_first_chunk_holds_at_least_the_probes_combats():
    # A slow start measured few combats a second, but the probe already played 40.
    assert choose_plan(combats=10, per_s=5.0, cores=2, probed=40).chunk_size == 40


def test_pool_workers_never_outnumber_the_chunks():
    plan = choose_plan(combats=30, per_s=1.0, cores=64)  # one combat a second: 30 s of work
    assert plan.chunk_size >= 1
    assert plan.workers <= -(-30 // plan.chunk_size)


class StepClock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step):
        self.now, self.step = 0.0, step

    def __call__(self):
        self.now += self.step
        return self.now


def test_the_probe_plays_until_its_time_is_up_and_keeps_the_records(duel):
    # Read once before the first combat and once after each: 1/16 s per combat here; the time
    # counts from the end of the first combat.
    head, per_s = probe(duel, 3, 10, 1000, seconds=0.25, clock=StepClock(0.0625))
    assert (head.start, head.stop) == (10, 15)
    assert per_s == 16.0
    assert head.records == range_records(duel, 3, 10, 15)


class WarmingClock:
    """The first combat takes ``first`` seconds (warming up), every later one ``step``."""

    def __init__(self, first, step):
        self.reads, self.first, self.step = 0, first, step

    def __call__(self):
        self.reads += 1
        return 0.0 if self.reads == 1 else self.first + (self.reads - 2) * self.step


def test_the_probe_does_not_take_the_warm_up_of_the_first_combat_for_the_speed(duel):
    # A first combat of 0.5 s, then 50 ms each: the run plays 20 combats a second, not 2.
    head, per_s = probe(duel, 3, 0, 1000, seconds=0.25, clock=WarmingClock(0.5, 0.05))
    assert per_s == pytest.approx(20.0)
    assert head.stop - head.start == 6


def test_the_probe_of_a_very_slow_run_stops_after_its_cap(duel):
    head, per_s = probe(duel, 3, 0, 1000, clock=WarmingClock(PROBE_CAP_S, 10.0))
    assert head.stop - head.start == 1
    assert per_s == pytest.approx(1 / PROBE_CAP_S)


def test_the_probe_stops_at_the_end_of_its_range(duel):
    head, _ = probe(duel, 3, 0, 2, seconds=100.0, clock=StepClock(0.001))
    assert (head.start, head.stop) == (0, 2)


def test_a_probe_and_the_rest_of_its_chunk_make_the_chunk(duel):
    head = run_chunk(duel, 3, 0, 5)
    whole = merged(head, run_chunk(duel, 3, 5, 12))
    assert whole.records == run_chunk(duel, 3, 0, 12).records
    with pytest.raises(ValueError):
        merged(head, run_chunk(duel, 3, 6, 12))


def test_a_run_left_to_itself_says_how_it_was_played_and_gives_the_same_table(duel):
    chosen = simulate(duel, runs=600, seed=2)
    assert chosen.plan is not None and chosen.plan.per_s > 0
    assert chosen.plan.describe().startswith(("this process", f"{chosen.plan.workers} workers"))
    fixed = simulate(duel, runs=600, seed=2, execution=Execution(workers=1, chunk_size=600))
    pd.testing.assert_frame_equal(chosen.outcomes, fixed.outcomes)
    assert chosen.summary == fixed.summary


def test_records_for_comparisons_do_not_depend_on_the_plan(duel):
    chosen = play_records(duel, 4, 100, 700)
    assert chosen == play_records(duel, 4, 100, 700, execution=Execution(workers=2, chunk_size=33))
    assert chosen == range_records(duel, 4, 100, 700)


def test_a_streamed_run_with_a_chosen_chunk_size_resumes_with_it(duel, tmp_path):
    out = tmp_path / "run"
    first = simulate(duel, runs=900, seed=5, storage=Storage(out=out))
    size = json.loads((out / "run.json").read_text())["chunk_size"]
    assert size == first.plan.chunk_size
    parts = sorted((out / "outcomes.parquet").glob("part-*.parquet"))
    parts[-1].unlink()  # a chunk lost
    resumed = simulate(
        duel, runs=900, seed=5, storage=Storage(out=out, resume=True)
    )  # no chunk size given
    assert resumed.plan.chunk_size == size
    pd.testing.assert_frame_equal(resumed.outcomes, first.outcomes)


def test_the_probes_combats_open_the_first_chunk_and_are_joined_back(duel):
    def probe_seven(start, stop):
        return run_chunk(duel, 8, start, min(start + 7, stop)), 50.0

    work = Work.make(0, 100, None, None, None, set(), cores=2, probe=probe_seven)
    assert (work.plan.workers, work.plan.chunk_size) == (1, 50)  # 1.86 s of work: no pool
    assert work.todo == [(0, 50), (50, 100)]
    assert work.jobs() == [(7, 50), (50, 100)]
    played = (run_chunk(duel, 8, start, stop) for start, stop in work.jobs())
    chunks = list(work.whole(played))
    assert [(c.start, c.stop) for c in chunks] == [(0, 50), (50, 100)]
    assert chunks[0].records == run_chunk(duel, 8, 0, 50).records


def test_a_resumed_run_probes_its_first_missing_chunk(duel):
    asked = []

    def probe_all(start, stop):
        asked.append((start, stop))
        return run_chunk(duel, 8, start, stop), 1000.0

    work = Work.make(0, 90, None, None, 30, {0, 60}, cores=2, probe=probe_all)
    assert asked == [(30, 60)]
    assert work.todo == [(30, 60)] and work.jobs() == []
    assert [(c.start, c.stop) for c in work.whole(iter([]))] == [(30, 60)]


def test_a_run_told_everything_measures_nothing(duel):
    def no_probe(start, stop):
        raise AssertionError("nothing to choose, nothing to time")

    work = Work.make(0, 90, 2, None, 30, set(), cores=2, probe=no_probe)
    assert (work.plan.workers, work.plan.chunk_size, work.head) == (2, 30, None)
    assert work.jobs() == [(0, 30), (30, 60), (60, 90)]
