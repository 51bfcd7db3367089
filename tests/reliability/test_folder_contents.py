"""Everything a results folder holds is checked for what it is before it is trusted, on every path.

Not only ``--resume``: a fresh ``run --out``, ``plot`` and ``report`` look at each entry of a
table's folder (a file or a folder, whose run) before they count or read it, and a fresh run
never replaces a larger one without ``--force``.
"""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from analysis.results import ResultsError, read_results
from sim import Execution, Storage, simulate
from tests.reliability.support import (
    CHUNK,
    DUEL,
    RUNS,
    clean_table,
    invoke,
    parts,
    refused,
    run_args,
    streamed_table,
    succeeded,
)


@pytest.fixture(scope="module")
def clean():
    return clean_table()


@pytest.fixture(scope="module")
def other_seed(tmp_path_factory):
    """A finished streamed run of seed 4: its chunks are another run's."""
    out = tmp_path_factory.mktemp("seed4") / "run"
    execution = Execution(workers=1, chunk_size=CHUNK)
    simulate(DUEL, runs=RUNS, seed=4, execution=execution, storage=Storage(out))
    return out


@pytest.fixture
def finished(tmp_path):
    out = tmp_path / "run"
    succeeded(run_args(out))
    return out


def _planted_folder(out, other_seed, with_table: bool):
    """A folder named like chunk 100 inside outcomes.parquet, holding seed 4's chunk or nothing."""
    target = out / "outcomes.parquet" / "part-000000000100.parquet"
    target.unlink()
    target.mkdir()
    if with_table:
        shutil.copy(parts(other_seed)[1], target / "x.parquet")
    return target


@pytest.mark.parametrize("with_table", [True, False], ids=["other-seed-inside", "empty"])
def test_a_fresh_run_sets_aside_a_folder_named_like_a_chunk(
    finished, other_seed, clean, with_table
):
    # On main the folder survived a fresh run and counted as chunk 100: combats 100..199 of
    # seed 4 under a summary saying seed 1 (exit 0), or a traceback when it was empty.
    planted = _planted_folder(finished, other_seed, with_table)
    output = succeeded(run_args(finished))
    assert "Traceback" not in output
    assert "set aside" in output and str(planted) in output
    table = streamed_table(finished)
    pd.testing.assert_frame_equal(table, clean)
    assert set(table["seed"]) == {1}
    summary = json.loads((finished / "summary.json").read_text())
    assert summary["sides"]["red"]["wins"] == int((clean["winner"] == "red").sum())
    kept = finished / "quarantine" / "outcomes" / planted.name
    assert kept.is_dir()  # moved, never deleted


def test_report_and_plot_refuse_a_chunk_of_another_run(finished, other_seed):
    shutil.copy(parts(other_seed)[2], parts(finished)[2])
    with pytest.raises(ResultsError, match="belongs to another run"):
        read_results(finished)
    for command in ("report", "plot"):
        refused([command, finished], "not a chunk of the run", "--resume")


def test_report_and_plot_refuse_a_folder_named_like_a_chunk(finished, other_seed):
    _planted_folder(finished, other_seed, with_table=True)
    for command in ("report", "plot"):
        refused([command, finished], "part-000000000100.parquet", "not a chunk")


def test_a_fresh_run_over_a_larger_finished_run_asks_for_force(finished):
    # On main a plain run --out of 100 combats replaced the finished run of 400, exit 0.
    refused(run_args(finished, runs=100), "finished run of 400 combats", "--force")
    assert len(streamed_table(finished)) == RUNS  # nothing replaced
    succeeded(run_args(finished, "--force", runs=100))
    assert len(streamed_table(finished)) == 100


def test_a_fresh_run_over_a_larger_unfinished_run_offers_resume(finished):
    (finished / "summary.json").unlink()
    parts(finished)[-1].unlink()  # killed before its last chunk: 300 combats kept
    refused(run_args(finished, runs=200), "unfinished run of 300 combats", "--resume", "--force")
    # The same run, fresh, replays its 400 combats: nothing larger is lost.
    succeeded(run_args(finished))
    assert len(streamed_table(finished)) == RUNS


def test_a_run_into_a_sweep_folder_asks_for_force(tmp_path):
    out = tmp_path / "sweep"
    sweep = ["sweep", DUEL.with_name("acs-duel-hp-sweep.yaml"), "--runs", 20, "--out", out]
    succeeded([*sweep, "--workers", 1, "--quiet", "--no-plots", "--json"])
    refused(run_args(out, runs=20), "holds the results of a sweep", "--force")
    assert invoke([*sweep, "--workers", 1, "--quiet", "--no-plots"]).exit_code == 0
