"""A long run is announced with an estimate, and shows it moves where no bar is drawn."""

from __future__ import annotations

from sim.run.watch import FIRST_NOTICE_S, PERIOD_S, RunSize, RunWatch, duration

SIZE = RunSize(
    scenario="huge",
    combatants=2000,
    time_limit_s=1e7,
    total=200_000,
    done=0,
    chunk_size=2000,
    workers=2,
)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def watched(size=SIZE, lines=True):
    clock, warned, printed = Clock(), [], []
    watch = RunWatch(size, printed.append if lines else None, warned.append, clock)
    return watch, clock, warned, printed


def test_a_chunk_that_does_not_finish_is_announced_once_with_the_scenarios_size():
    watch, clock, warned, _ = watched()
    clock.now = FIRST_NOTICE_S - 0.5
    watch.tick()
    assert warned == []
    clock.now = FIRST_NOTICE_S + 0.5
    watch.tick()
    clock.now = 3 * FIRST_NOTICE_S
    watch.tick()
    assert len(warned) == 1
    assert "no chunk of 2,000 combats of huge has finished after 60 s" in warned[0]
    assert "2,000 combatants" in warned[0] and "1e+07 s" in warned[0]


def test_the_first_chunk_gives_the_estimate_of_the_whole_run():
    watch, clock, warned, _ = watched()
    clock.now = 30.0
    watch.advance(2000)
    # 99 chunks left on 2 workers: 50 rounds of 30 s.
    assert warned == [
        "this run will take about 25 min more (30 s per chunk of 2,000 combats, 198,000 "
        "combats left, 2 workers)"
    ]
    clock.now = 2 * FIRST_NOTICE_S
    watch.tick()
    clock.now = 60.0
    watch.advance(2000)
    assert len(warned) == 1  # said once


def test_a_short_run_says_nothing():
    small = RunSize("duel", 2, 60, total=4000, done=0, chunk_size=2000, workers=2)
    watch, clock, warned, printed = watched(small)
    clock.now = 0.4
    watch.advance(2000)
    clock.now = 0.5
    watch.advance(2000)
    assert warned == [] and printed == []


def test_progress_lines_every_period_where_no_bar_is_drawn():
    watch, clock, _, printed = watched()
    clock.now = PERIOD_S - 1
    watch.advance(2000)
    assert printed == []
    clock.now = PERIOD_S + 1
    watch.advance(2000)
    assert printed == ["progress: 4,000 of 200,000 combats (2%), 31 s elapsed, about 25 min left"]
    clock.now = PERIOD_S + 2
    watch.tick()
    assert len(printed) == 1
    quiet, clock, _, printed = watched(lines=False)
    clock.now = 5 * PERIOD_S
    quiet.advance(2000)
    assert printed == []


def test_durations_read_at_a_glance():
    assert [duration(s) for s in (45, 720, 3.5 * 3600, 5 * 86400)] == [
        "45 s",
        "12 min",
        "3.5 h",
        "5.0 days",
    ]


def test_a_run_that_timed_its_first_combats_says_its_length_at_once():
    timed = RunSize("big", 2, 60, total=200_000, done=0, chunk_size=500, workers=2, per_s=100.0)
    watch, clock, warned, _ = watched(timed)
    watch.tick()  # no chunk has finished yet
    assert warned == [
        "this run will take about 17 min (100 combats a second on one core, 200,000 combats "
        "left, 2 workers)"
    ]
    clock.now = 30.0
    watch.advance(500)
    assert len(warned) == 1  # said once
    short = RunSize("duel", 2, 60, total=4000, done=0, chunk_size=500, workers=2, per_s=100.0)
    watch, clock, warned, _ = watched(short)
    watch.tick()
    assert warned == []  # 20 s: not worth a word
