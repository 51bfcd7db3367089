"""The narrow run API: execution and storage values, progress told to a function, cancel."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import warnings

import pandas as pd
import pytest

from sim import Execution, RunInterrupted, Storage, load_scenario, simulate
from sim.run.api import play_records
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(DUEL)


@pytest.fixture(scope="module")
def reference(scenario):
    return simulate(scenario, runs=900, seed=4, execution=Execution(workers=1, chunk_size=900))


def test_the_value_types_refuse_what_cannot_be_played():
    with pytest.raises(ValueError, match="workers must be at least 1"):
        Execution(workers=0)
    with pytest.raises(ValueError, match="chunk size must be at least 1"):
        Execution(chunk_size=0)
    with pytest.raises(ValueError, match="resume needs out"):
        Storage(resume=True)
    assert Storage(out="results/x").out.as_posix() == "results/x"  # type: ignore[union-attr]


def test_the_old_keywords_still_play_the_same_run_and_warn(scenario, reference, tmp_path):
    with pytest.warns(DeprecationWarning, match=r"simulate\(workers=, chunk_size=.*Execution"):
        old = simulate(scenario, runs=900, seed=4, workers=1, chunk_size=300)
    pd.testing.assert_frame_equal(old.outcomes, reference.outcomes)
    with pytest.warns(DeprecationWarning, match=r"storage=Storage\(out=\.\.\.\)"):
        stored = simulate(scenario, runs=900, seed=4, out=tmp_path / "run")
    pd.testing.assert_frame_equal(stored.outcomes, reference.outcomes)
    with pytest.warns(DeprecationWarning, match=r"play_records\(workers="):
        records = play_records(scenario, 4, 0, 900, workers=1)
    assert len(records) == 900


def test_old_and_new_forms_together_are_refused(scenario):
    with pytest.raises(TypeError, match=r"give workers in execution=Execution"):
        simulate(scenario, runs=10, seed=1, workers=1, execution=Execution())
    with pytest.raises(TypeError, match="unexpected keyword argument 'wrkers'"):
        simulate(scenario, runs=10, seed=1, wrkers=1)


def test_the_new_forms_raise_no_warning(scenario, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        simulate(
            scenario,
            runs=300,
            seed=4,
            execution=Execution(workers=2, chunk_size=100),
            storage=Storage(out=tmp_path / "run"),
        )


def test_progress_told_to_a_function_counts_up_to_the_whole_run(scenario, reference):
    told: list[tuple[int, int]] = []
    result = simulate(
        scenario,
        runs=900,
        seed=4,
        execution=Execution(workers=2, chunk_size=100),
        progress=lambda done, total: told.append((done, total)),
    )
    pd.testing.assert_frame_equal(result.outcomes, reference.outcomes)
    assert told[-1] == (900, 900)
    assert all(total == 900 for _, total in told)
    counts = [done for done, _ in told]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cancel_stops_the_run_with_what_finished(scenario, reference, tmp_path, workers):
    cancel = threading.Event()

    def watch(done: int, total: int) -> None:
        if done >= 200:
            cancel.set()

    out = tmp_path / "run"
    with pytest.raises(RunInterrupted) as stopped:
        simulate(
            scenario,
            runs=4_000,
            seed=4,
            execution=Execution(workers=workers, chunk_size=100),
            storage=Storage(out=out),
            progress=watch,
            cancel=cancel,
        )
    kept = stopped.value.result
    assert 200 <= kept.runs < 4_000
    assert stopped.value.total == 4_000
    # What was kept is resumable, and the finished run is the uninterrupted one.
    finished = simulate(
        scenario,
        runs=4_000,
        seed=4,
        execution=Execution(workers=workers),
        storage=Storage(out=out, resume=True),
    )
    pd.testing.assert_frame_equal(finished.outcomes.iloc[:900], reference.outcomes)


def test_a_cancel_while_the_first_combats_are_timed_finishes_the_first_chunk(
    scenario, reference, tmp_path
):
    # No chunk size given: the run times its first combats here, then chooses. A cancel seen
    # on the first count (the timed combats) finishes the chunk they began, and keeps it.
    cancel = threading.Event()

    def watch(done: int, total: int) -> None:
        cancel.set()

    out = tmp_path / "run"
    with pytest.raises(RunInterrupted) as stopped:
        simulate(
            scenario, runs=10_000, seed=4, storage=Storage(out=out), progress=watch, cancel=cancel
        )
    kept = stopped.value.result
    assert 0 < kept.runs < 10_000
    assert stopped.value.dropped == 0
    finished = simulate(
        scenario, runs=10_000, seed=4, storage=Storage(out=out, resume=True)
    ).outcomes
    pd.testing.assert_frame_equal(finished.iloc[:900], reference.outcomes)


def test_a_cancel_before_anything_finished_keeps_nothing(scenario):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(RunInterrupted) as stopped:
        simulate(scenario, runs=5_000, seed=4, cancel=cancel)
    assert stopped.value.result.runs == 0


def test_runs_in_two_threads_at_once_give_the_answers_of_one(scenario, reference):
    results: dict[str, pd.DataFrame] = {}
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            played = simulate(
                scenario, runs=900, seed=4, execution=Execution(workers=2, chunk_size=150)
            )
            results[name] = played.outcomes
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    for name in ("a", "b"):
        pd.testing.assert_frame_equal(results[name], reference.outcomes)


def test_a_scenario_holds_its_data_frozen(scenario):
    data = scenario.data
    data["sides"][0]["combatants"][0]["hp"] = 1
    assert scenario.data["sides"][0]["combatants"][0]["hp"] != 1
    assert scenario.unchanged()
    assert not dataclasses.replace(scenario, time_limit_s=5.0).unchanged()


@pytest.fixture
def at_a_terminal():
    """Ctrl-C as in a terminal's foreground job, whatever started the tests.

    A background job of a shell without job control (``cmd &`` in a script) starts with Ctrl-C
    ignored, and the run then rightly keeps ignoring it (``interrupts.Halt.counting_ctrl_c``):
    these tests would see no interrupt. So they put Python's own handler back meanwhile.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _ctrl_c() -> None:
    """Ctrl-C, as the terminal sends it: SIGINT to this process (its handler runs in the main
    thread, where pytest runs the test)."""
    os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_keeps_every_combat_the_count_showed(scenario, tmp_path, at_a_terminal):
    told: list[int] = []

    def watch(done: int, total: int) -> None:
        told.append(done)
        if done >= 300 and len(told) == told.index(done) + 1 and not hasattr(watch, "sent"):
            watch.sent = True  # type: ignore[attr-defined]
            _ctrl_c()

    with pytest.raises(RunInterrupted) as stopped:
        simulate(
            scenario,
            runs=40_000,
            seed=4,
            execution=Execution(workers=2, chunk_size=200),
            storage=Storage(out=tmp_path / "run"),
            progress=watch,
        )
    kept = stopped.value.result
    assert max(told) <= kept.runs < 40_000  # the chunks under way finished and were kept
    assert stopped.value.dropped == 0
    table = pd.read_parquet(tmp_path / "run" / "outcomes.parquet")
    assert list(table["combat"]) == list(range(kept.runs))


def test_a_second_ctrl_c_stops_at_once_and_counts_what_it_dropped(scenario, at_a_terminal):
    def watch(done: int, total: int) -> None:
        if done >= 300 and not hasattr(watch, "sent"):
            watch.sent = True  # type: ignore[attr-defined]
            _ctrl_c()
            _ctrl_c()

    with pytest.raises(RunInterrupted) as stopped:
        simulate(
            scenario,
            runs=40_000,
            seed=4,
            execution=Execution(workers=2, chunk_size=2_000),
            progress=watch,
        )
    kept = stopped.value.result
    assert kept.runs % 2_000 == 0 and kept.runs < 40_000
    assert stopped.value.dropped >= 0
    if kept.runs:
        assert list(kept.outcomes["combat"]) == list(range(kept.runs))
