"""Resume verifies before it trusts: chunks that do not belong are set aside and replayed."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pyarrow.parquet as pq
import pytest

from sim import simulate
from sim.run.choices import Execution, Storage
from tests.reliability.support import (
    CHUNK,
    DUEL,
    RUNS,
    clean_table,
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
def finished(tmp_path_factory):
    """A complete streamed run (seed 1), copied afresh for each test that damages it."""
    out = tmp_path_factory.mktemp("finished") / "run"
    simulate(
        DUEL,
        runs=RUNS,
        seed=1,
        execution=Execution(workers=1, chunk_size=CHUNK),
        storage=Storage(out=out),
    )
    return out


@pytest.fixture
def out(finished, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(finished, copy)
    return copy


def resume_equals_clean(out, clean, *expected):
    """Resume; the table, the CSV copy and the summary equal an uninterrupted run's."""
    output = succeeded(run_args(out, "--resume"))
    table = streamed_table(out)
    assert list(table["combat"]) == list(range(RUNS))  # nothing lost, nothing twice
    pd.testing.assert_frame_equal(table, clean)
    assert len(pd.read_csv(out / "outcomes.csv")) == RUNS
    assert json.loads((out / "summary.json").read_text())["runs"] == RUNS
    for words in expected:
        assert words in output, (words, output)
    return output


def quarantined(out):
    folder = out / "quarantine" / "outcomes"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_chunk_of_another_seed_is_set_aside_and_replayed(out, tmp_path, clean):
    other = tmp_path / "other"
    simulate(
        DUEL,
        runs=RUNS,
        seed=2,
        execution=Execution(workers=1, chunk_size=CHUNK),
        storage=Storage(out=other),
    )
    shutil.copy(parts(other)[1], parts(out)[1])
    resume_equals_clean(out, clean, "warning: set aside", "belongs to another run")
    assert quarantined(out) == ["part-000000000100.parquet"]
    assert set(pd.read_parquet(out / "quarantine" / "outcomes")["seed"]) == {2}


def test_a_stray_copy_is_set_aside_not_counted_twice(out, clean):
    shutil.copy(parts(out)[2], out / "outcomes.parquet" / "part-00000000200.parquet")
    shutil.copy(parts(out)[2], out / "outcomes.parquet" / "copy of part-2.parquet")
    resume_equals_clean(out, clean, "stray copy")
    assert quarantined(out) == ["copy of part-2.parquet", "part-00000000200.parquet"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: b"\x00garbage" * 100, id="garbage"),
        pytest.param(lambda data: data[:4000] + b"\xff" * 64 + data[4064:], id="bit-rot"),
    ],
)
def test_a_damaged_chunk_is_set_aside_and_replayed(out, clean, damage):
    target = parts(out)[3]
    target.write_bytes(damage(target.read_bytes()))
    resume_equals_clean(out, clean, "warning: set aside", str(target))
    assert quarantined(out) == [target.name]


def test_a_chunk_moved_to_another_place_is_set_aside(out, clean):
    first, second = parts(out)[:2]
    shutil.copy(first, second)  # combats 0..99 under the name of 100..199
    resume_equals_clean(out, clean, "not this place")


def test_a_chunk_of_another_chunk_size_overlapping_two_is_set_aside(out, tmp_path, clean):
    finer = tmp_path / "finer"
    simulate(
        DUEL,
        runs=RUNS,
        seed=1,
        execution=Execution(workers=1, chunk_size=CHUNK // 2),
        storage=Storage(out=finer),
    )
    shutil.copy(finer / "outcomes.parquet" / "part-000000000050.parquet", out / "outcomes.parquet")
    resume_equals_clean(out, clean, "not a chunk of this run")


def test_a_chunk_edited_after_writing_fails_its_checksum(out, clean):
    target = parts(out)[0]
    table = pq.read_table(target)
    frame = table.to_pandas()
    frame.loc[0, "winner"] = "blue" if frame.loc[0, "winner"] != "blue" else "red"
    edited = table.from_pandas(frame, schema=table.schema, preserve_index=False)
    pq.write_table(edited, target)  # the same label, other rows
    resume_equals_clean(out, clean, "checksum")


def test_a_torn_journal_line_only_costs_a_full_read(out, clean):
    with open(out / "chunks.jsonl", "a", encoding="utf-8") as journal:
        journal.write('{"table": "outcomes", "part": "part-0000')
    output = resume_equals_clean(out, clean)
    assert "set aside" not in output and quarantined(out) == []


def test_a_run_killed_mid_journal_keeps_its_chunks(out, clean):
    (out / "chunks.jsonl").unlink()  # renamed into place, but never recorded
    output = resume_equals_clean(out, clean)
    assert "set aside" not in output
    assert len((out / "chunks.jsonl").read_text().splitlines()) == RUNS // CHUNK


@pytest.mark.parametrize(
    "content",
    [b"", b"\x89PNG\x00\xff\xfe", b"[1, 2]", b'{"format": "combatsim-run/1", "seed": '],
    ids=["empty", "binary", "not-an-object", "truncated"],
)
def test_a_damaged_run_json_is_a_clear_error(out, content):
    (out / "run.json").write_bytes(content)
    refused(run_args(out, "--resume"), "run.json is damaged", "without --resume")
    assert len(parts(out)) == RUNS // CHUNK  # nothing was deleted


def test_outcomes_parquet_as_a_file_is_a_clear_error(out):
    shutil.rmtree(out / "outcomes.parquet")
    clean_table().to_parquet(out / "outcomes.parquet")
    refused(run_args(out, "--resume"), "outcomes.parquet is a file", "without --resume")


def test_chunks_without_run_json_are_a_clear_error(out):
    (out / "run.json").unlink()
    refused(run_args(out, "--resume"), "no run.json")
