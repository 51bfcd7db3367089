"""A small footprint (issue 26): a streamed run holds no pandas or SciPy, and writes the same bytes.

``run --out`` builds each chunk's Arrow table straight from its records, counts it from Arrow
columns, writes the CSV copy with the ``csv`` module, and computes Wilson intervals without
``scipy.stats``. These tests pin that each of those gives what the pandas and SciPy versions
gave, value for value and byte for byte, and that a folder written the old way still resumes.
The peak memory itself is measured by ``combatsim bench``, not here.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys

import pandas as pd
import pyarrow as pa
import pytest
from scipy.special import ndtri
from scipy.stats import binomtest

from sim import Execution, Storage, load_scenario, simulate
from sim.run.chunks import Label, write_chunk
from sim.run.records import COMBATANT_COLUMNS, combat_columns
from sim.run.runner import run_chunk
from sim.run.store import OUTCOMES, RunStore, _arrow_table, _schema
from sim.run.summary import CONFIDENCE, Z_95, wilson_interval
from sim.run.tables import combatants_frame, csv_rows, outcomes_frame
from tests.conftest import ROOT, SCENARIOS

BUNDLED = sorted(SCENARIOS.glob("*.yaml"))


def test_the_95_percent_quantile_is_scipys():
    assert float(ndtri(0.5 + 0.5 * CONFIDENCE)) == Z_95


@pytest.mark.parametrize("confidence", [0.95, 0.9, 0.99])
def test_wilson_interval_gives_scipys_floats(confidence):
    rng = random.Random(26)
    cases = [(k, n) for n in range(1, 40) for k in range(n + 1)]
    for _ in range(500):
        n = rng.randrange(1, 10**7)
        cases.append((rng.randrange(n + 1), n))
    for k, n in cases:
        ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        assert wilson_interval(k, n, confidence) == (float(ci.low), float(ci.high)), (k, n)


def test_wilson_interval_refuses_more_successes_than_trials():
    with pytest.raises(ValueError, match="between 0 and trials"):
        wilson_interval(5, 4)


def _old_table(frame: pd.DataFrame) -> pa.Table:
    """A chunk's table as the writer built it before (pandas, then Arrow)."""
    return pa.Table.from_pandas(frame, schema=_schema(list(frame.columns)), preserve_index=False)


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_chunk_tables_and_csv_are_the_pandas_ones(path):
    scenario = load_scenario(path)
    chunk = run_chunk(scenario, 11, 0, 60, detail=True)
    made = (
        (chunk.records, combat_columns(scenario.side_names), outcomes_frame),
        (chunk.combatants, COMBATANT_COLUMNS, combatants_frame),
    )
    for records, columns, build in made:
        if build is outcomes_frame:
            frame = outcomes_frame(records, scenario.side_names, scenario.name, 'a, "b"')
        else:
            frame = combatants_frame(records, scenario.name, 'a, "b"')
        table = _arrow_table(records, list(columns), scenario.name, 'a, "b"')
        assert table.equals(_old_table(frame))
        read_back = table.to_pandas()
        pd.testing.assert_frame_equal(read_back, _old_table(frame).to_pandas())
        ours, theirs = io.StringIO(), io.StringIO()
        csv_rows(ours, table)
        frame.to_csv(theirs, index=False)
        assert ours.getvalue() == theirs.getvalue()


def test_csv_rows_write_awkward_values_as_pandas_does():
    floats = [1e16, 1.5e-5, 0.1 + 0.2, -0.0, 123456789012.25, 2.0, None, float("inf")]
    texts = ["plain", "a,b", 'say "hi"', "two\nlines", None, "", " lead", "é"]
    frame = pd.DataFrame({"duration_s": floats, "winner": texts, "rounds": list(range(8))})
    table = _old_table(frame)
    for header in (True, False):
        ours, theirs = io.StringIO(), io.StringIO()
        csv_rows(ours, table, header=header)
        table.to_pandas().to_csv(theirs, index=False, header=header)
        assert ours.getvalue() == theirs.getvalue()


_IMPORTS = """
import json, sys
from sim import Execution, Storage, simulate
simulate(sys.argv[1], runs=300, seed=1, execution=Execution(workers=1, chunk_size=100),
         storage=Storage(out=sys.argv[2]), progress=False)
print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))
"""


def test_a_streamed_run_imports_neither_pandas_nor_scipy(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, str(SCENARIOS / "t10-cole-vs-francois.yaml"), tmp_path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    imported = set(json.loads(done.stdout.splitlines()[-1]))
    assert "pyarrow" in imported  # it did write its chunks
    assert not imported & {"pandas", "scipy", "matplotlib"}


_POOL = """
import atexit, os, sys
def said():
    import pyarrow as pa
    named = os.environ.get("ARROW_DEFAULT_MEMORY_POOL")
    print("pool", pa.default_memory_pool().backend_name, named)
atexit.register(said)
sys.argv = ["combatsim", "run", sys.argv[1], "--runs", "40", "--out", sys.argv[2], "--quiet"]
from sim.cli.app import main
main()
"""


def test_the_command_line_gives_arrow_the_c_librarys_allocator(tmp_path):
    # mimalloc, Arrow's default here, keeps freed pages in the process that writes the chunks.
    scenario = str(SCENARIOS / "t10-cole-vs-francois.yaml")
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run(
        [sys.executable, "-c", _POOL, scenario, str(tmp_path / "run")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.stdout.splitlines()[-1] == "pool system system"
    # A pool the environment names is kept.
    env["ARROW_DEFAULT_MEMORY_POOL"] = "jemalloc"
    done = subprocess.run(
        [sys.executable, "-c", _POOL, scenario, str(tmp_path / "again")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.stdout.splitlines()[-1].endswith(" jemalloc")


def test_a_streamed_run_builds_no_pandas_table(tmp_path, monkeypatch):
    made = []
    real = pd.DataFrame.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "__init__", counted)
    result = simulate(
        SCENARIOS / "t10-cole-vs-francois.yaml",
        runs=300,
        seed=1,
        execution=Execution(workers=1, chunk_size=100),
        storage=Storage(out=tmp_path / "run"),
        progress=False,
    )
    assert result.summary["runs"] == 300 and (tmp_path / "run" / "outcomes.csv").is_file()
    assert made == []


def test_import_sim_stays_light():
    code = "import sys, sim; print(sorted({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    for heavy in ("pandas", "pyarrow", "scipy", "matplotlib"):
        assert f"'{heavy}'" not in done.stdout


def test_a_folder_written_by_the_pandas_writer_resumes(tmp_path):
    """A chunk written the old way (pandas metadata in the file) is kept and counted."""
    duel = SCENARIOS / "t10-cole-vs-francois.yaml"
    scenario = load_scenario(duel)
    out = tmp_path / "run"
    store = RunStore.open(out, scenario, seed=4, first=0, runs=600, chunk_size=200)
    try:
        chunk = run_chunk(scenario, 4, 0, 200)
        frame = outcomes_frame(chunk.records, scenario.side_names, scenario.name)
        label = Label(store.key, OUTCOMES, 0, 200)
        path = out / "outcomes.parquet" / "part-000000000000.parquet"
        store.journal.append([write_chunk(path, _old_table(frame), label)])
    finally:
        store.close()
    execution = Execution(workers=1, chunk_size=200)
    resumed = simulate(
        duel, runs=600, seed=4, execution=execution, storage=Storage(out=out, resume=True)
    )
    whole = simulate(duel, runs=600, seed=4, execution=execution)
    assert not (out / "quarantine").exists()
    assert json.dumps(resumed.summary) == json.dumps(whole.summary)
    with io.StringIO() as text:
        whole.outcomes.to_csv(text, index=False)
        assert (out / "outcomes.csv").read_text(encoding="utf-8") == text.getvalue()
