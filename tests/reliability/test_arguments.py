"""Bad arguments and damaged side files are messages (exit 2), never tracebacks."""

from __future__ import annotations

import shutil

import pytest

from sim import simulate
from sim.run import parallel
from sim.run.choices import Execution, Storage
from tests.reliability.support import DUEL, invoke, refused, run_args

HP = "sides.red.combatants.0.hp"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["run", DUEL, "--precision", "nan"], ["'nan' is not a number"]),
        (["compare", DUEL, "--alpha", "nan"], ["'nan' is not a number"]),
        (["check", ".", "--min-change", "nan"], ["'nan' is not a number"]),
        (["run", DUEL, "--runs", "50", "--scheduler", "not-an-address"], ["not-an-address"]),
        (["balance", DUEL, "--param", "seed"], ["the run's own seed", HP]),
        (["balance", DUEL, "--param", HP, "--label", "winner"], ["--label winner"]),
        (["balance", DUEL, "--param", HP, "--range", "nan", "inf"], ["finite number, not nan"]),
        (["balance", DUEL, "--param", HP, "--range", "5", "2"], ["from low to high"]),
    ],
)
def test_a_bad_argument_is_a_message(args, words):
    refused(args, *words)


def test_workers_are_capped_by_the_chunks_and_it_is_said(tmp_path):
    result = invoke(run_args(tmp_path / "run", "--workers", "64", runs=200))
    assert result.exit_code == 0, result.output
    assert "warning: 64 workers for 2 chunks: 2 workers are started" in result.output


def test_workers_are_capped_by_the_free_memory_and_it_is_said(tmp_path, monkeypatch):
    free = 3 * parallel.WORKER_MEMORY_BYTES + 1
    monkeypatch.setattr(parallel, "available_memory", lambda: free)
    result = invoke(run_args(tmp_path / "run", "--workers", "8", "--chunk-size", "25", runs=200))
    assert result.exit_code == 0, result.output
    assert "8 workers would need about 1600 MB and 600 MB is free: 3 worker(s) are started" in (
        result.output
    )
    assert parallel.memory_cap(8, None) == 8  # a system that does not say caps nothing
    assert parallel.memory_cap(8, 0) == 1  # never fewer than this process


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    out = tmp_path_factory.mktemp("saved") / "run"
    simulate(
        DUEL,
        runs=200,
        seed=1,
        execution=Execution(workers=1, chunk_size=100),
        storage=Storage(out=out),
    )
    return out


@pytest.fixture
def results(saved, tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(saved, copy)
    return copy


def test_report_on_a_garbage_parquet_part(results):
    (results / "outcomes.parquet" / "part-000000000100.parquet").write_bytes(b"garbage")
    refused(
        ["report", results],
        "part-000000000100.parquet is not a chunk",
        "cannot be read",
        "--resume",
    )


@pytest.mark.parametrize("content", ["", "scenario,variant,combat,winner,duration_s\n"])
def test_report_on_an_empty_or_header_only_csv(tmp_path, content):
    (tmp_path / "outcomes.csv").write_text(content)
    refused(["report", tmp_path], "outcomes.csv" if not content else "holds no combats")


def test_report_on_a_damaged_summary(results):
    (results / "summary.json").write_text('{"sides": 3')
    refused(["report", results], "summary.json: not readable JSON")


def test_report_leaves_out_a_binary_scenario_with_a_warning(results):
    (results / "scenario.yaml").write_bytes(b"\x00\xff\xfe binary")
    result = invoke(["report", results])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "scenario.yaml is left out: not UTF-8" in result.output
    assert (results / "report.html").is_file()
