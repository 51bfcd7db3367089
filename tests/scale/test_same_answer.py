"""Same answer everywhere: 1 worker, 2 workers, any chunk size, Dask, streamed to disk (issue 7)."""

from __future__ import annotations

import dataclasses
import logging

import pandas as pd
import pytest

from sim import load_scenario, simulate
from sim.run.choices import Execution, Storage
from tests.conftest import SCENARIOS
from tests.scale.support import assert_close

GIANT = SCENARIOS / "acs-giant-vs-party.yaml"
RUNS = 3000
SEED = 4


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(GIANT)


@pytest.fixture(scope="module")
def serial(scenario):
    """The reference: one chunk, played in this process."""
    return simulate(
        scenario, runs=RUNS, seed=SEED, detail=True, execution=Execution(workers=1, chunk_size=RUNS)
    )


def same(result, reference):
    pd.testing.assert_frame_equal(result.outcomes, reference.outcomes)
    pd.testing.assert_frame_equal(result.combatants, reference.combatants)
    assert result.summary == reference.summary


@pytest.mark.parametrize(
    ("workers", "chunk_size"),
    # None: chosen by the run from its first, timed combats (the default).
    [(1, 250), (2, 250), (2, 1000), (2, 7), (None, None), (2, None), (None, 250), (1, None)],
)
def test_workers_and_chunk_sizes_give_the_same_tables(scenario, serial, workers, chunk_size):
    result = simulate(
        scenario,
        runs=RUNS,
        seed=SEED,
        detail=True,
        execution=Execution(workers=workers, chunk_size=chunk_size),
    )
    same(result, serial)
    assert list(result.outcomes["combat"]) == list(range(RUNS))


def test_a_dask_cluster_gives_the_same_tables(scenario, serial):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        result = simulate(
            scenario,
            runs=RUNS,
            seed=SEED,
            detail=True,
            execution=Execution(chunk_size=400, scheduler=cluster.scheduler_address),
        )
    same(result, serial)


def test_scheduler_local_starts_a_local_cluster_with_the_same_answer(scenario, serial):
    result = simulate(
        scenario,
        runs=1200,
        seed=SEED,
        detail=True,
        execution=Execution(chunk_size=300, scheduler="local", workers=2),
    )
    pd.testing.assert_frame_equal(result.outcomes, serial.outcomes.iloc[:1200])


def test_a_run_streamed_to_disk_reads_back_the_same(scenario, serial, tmp_path):
    out = tmp_path / "run"
    result = simulate(
        scenario,
        runs=RUNS,
        seed=SEED,
        detail=True,
        execution=Execution(workers=2, chunk_size=500),
        storage=Storage(out=out),
    )
    on_disk = pd.read_parquet(out / "outcomes.parquet")
    pd.testing.assert_frame_equal(on_disk, serial.outcomes)
    pd.testing.assert_frame_equal(result.outcomes, serial.outcomes)
    assert len(pd.read_parquet(out / "combatants.parquet")) == len(serial.combatants)
    csv = pd.read_csv(out / "outcomes.csv")
    assert list(csv["combat"]) == list(range(RUNS))
    assert (out / "summary.json").is_file() and (out / "combatants.csv").is_file()
    # Counted chunk by chunk, the summary is the one of the whole table.
    assert_close(result.summary, serial.summary)


def test_a_run_can_start_at_any_combat(scenario, serial):
    part = simulate(
        scenario, runs=1000, seed=SEED, first=1500, execution=Execution(workers=2, chunk_size=300)
    )
    expected = serial.outcomes.iloc[1500:2500].reset_index(drop=True)
    pd.testing.assert_frame_equal(part.outcomes, expected)


def test_a_scenario_changed_after_loading_is_refused_by_workers(scenario):
    changed = dataclasses.replace(scenario, time_limit_s=5.0)
    with pytest.raises(ValueError, match="changed after it was loaded"):
        simulate(changed, runs=400, seed=1, execution=Execution(workers=2, chunk_size=100))
    # In this process it is played as it is.
    assert (
        simulate(changed, runs=400, seed=1, execution=Execution(workers=1, chunk_size=100)).runs
        == 400
    )
