"""A run the timed first combats call short, but the wall clock calls long, says so after its
first chunk: a scenario at the combatant cap (a thousand a side) on a busy machine."""

from __future__ import annotations

from sim.run.watch import LONG_RUN_S, RunSize, RunWatch


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_first_chunk_corrects_an_estimate_too_short_to_be_said():
    # 12 combats of 2,000 combatants: one core was timed at 0.32 combats a second (19 s on two
    # workers: not worth a word), but the first chunk of one combat took 30 s of wall clock.
    size = RunSize("cap", 2000, 60, total=12, done=1, chunk_size=1, workers=2, per_s=0.32)
    clock, warned = Clock(), []
    watch = RunWatch(size, None, warned.append, clock)
    watch.tick()
    assert warned == []
    clock.now = 30.0
    watch.advance(1)
    assert warned == [
        "this run will take about 2 min more (30 s per chunk of 1 combat, 10 combats left, "
        "2 workers)"
    ]
    clock.now = 60.0
    watch.advance(1)
    assert len(warned) == 1  # said once


def test_a_run_short_by_both_clocks_says_nothing():
    size = RunSize("duel", 2, 60, total=12, done=0, chunk_size=4, workers=2, per_s=100.0)
    clock, warned = Clock(), []
    watch = RunWatch(size, None, warned.append, clock)
    watch.tick()
    clock.now = LONG_RUN_S / 10
    watch.advance(4)
    assert warned == []
