"""One summary whatever the path: a run in memory and one streamed to --out print the same bytes."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from sim.run.summary import Tally, exact_sum, summarize
from tests.conftest import SCENARIOS

MELEE = SCENARIOS / "acs-melee-5v5.yaml"


def _run_json(*extra: str) -> str:
    args = ["run", str(MELEE), "--runs", "2000", "--seed", "3", "--json", "--workers", "1"]
    result = CliRunner().invoke(cli, [*args, *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_run_json_prints_the_same_bytes_with_and_without_out(tmp_path):
    # Issue 10: 5.489700000000001 in memory, 5.4897 streamed in chunks.
    in_memory = _run_json()
    streamed = _run_json("--out", str(tmp_path / "out"), "--chunk-size", "128", "-q")
    assert in_memory == streamed
    saved = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert json.dumps(saved) + "\n" == in_memory
    # The mean is the exact mean of the rows, rounded once.
    table = pd.read_parquet(tmp_path / "out" / "outcomes.parquet")
    exact = sum(map(Fraction, table["duration_s"].tolist()), Fraction(0)) / len(table)
    assert json.loads(in_memory)["mean_duration_s"] == float(exact)


def test_exact_sum_does_not_depend_on_order_or_parts():
    rng = random.Random(5)
    values = [rng.choice([0.1, 0.7, 1e16, -1e16, 3.3, 2.0**-40]) for _ in range(500)]
    exact = sum(map(Fraction, values), Fraction(0))
    assert exact_sum(values) == exact
    shuffled = values[:]
    rng.shuffle(shuffled)
    assert exact_sum(shuffled) == exact
    assert exact_sum(values[:123]) + exact_sum(values[123:]) == exact
    # A float sum of these values depends on their order, so a float tally would fail here.
    assert sum(values) != sum(shuffled)
    assert exact_sum([3, 4, 2**70]) == 7 + 2**70


def test_a_tally_in_any_chunks_and_order_equals_the_table_summary():
    rng = random.Random(8)
    rows = 1000
    table = pd.DataFrame(
        {
            "winner": [rng.choice(["red", "blue", "draw"]) for _ in range(rows)],
            "end": [rng.choice(["victory", "time_limit"]) for _ in range(rows)],
            "duration_s": [rng.randrange(1, 200) / 10 for _ in range(rows)],
            "survivors_red": [rng.randrange(0, 5) for _ in range(rows)],
            "hp_left_red": [rng.randrange(0, 90) for _ in range(rows)],
            "survivors_blue": [rng.randrange(0, 5) for _ in range(rows)],
            "hp_left_blue": [rng.randrange(0, 90) for _ in range(rows)],
        }
    )
    whole = json.dumps(summarize(table, ("red", "blue"), "s", 1))
    starts = list(range(0, rows, 77))
    rng.shuffle(starts)
    tally = Tally(("red", "blue"))
    for start in starts:
        tally.add(start, table.iloc[start : start + 77])
    assert json.dumps(tally.summary("s", 1)) == whole


def test_a_chunk_counted_twice_is_refused():
    table = pd.DataFrame(
        {"winner": ["red"], "end": ["victory"], "duration_s": [1.0]}
        | {f"{c}_{s}": [1] for s in ("red", "blue") for c in ("survivors", "hp_left")}
    )
    tally = Tally(("red", "blue"))
    tally.add(0, table)
    with pytest.raises(ValueError, match="counted twice"):
        tally.add(0, table)
