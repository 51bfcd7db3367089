"""The reference duels under pytest-benchmark, engine and bare SimPy loop side by side.

Run on demand (CI never times anything): ``pytest benchmarks --benchmark-enable``. Group by
reference to read the two side by side: ``--benchmark-group-by=param:label``.
"""

from __future__ import annotations

import pytest
from driver import ROOT, load_bare, references

from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario

COMBATS = 500
REFERENCES = references()


@pytest.mark.parametrize("label", [ref.label for ref in REFERENCES])
def test_engine(benchmark, label):
    ref = next(r for r in REFERENCES if r.label == label)
    scenario = load_scenario(ROOT / ref.scenario)
    chunk = benchmark.pedantic(run_chunk, args=(scenario, 1, 0, COMBATS), rounds=5, iterations=1)
    assert len(chunk.records) == COMBATS


@pytest.mark.parametrize("label", [ref.label for ref in REFERENCES if ref.bare])
def test_bare_loop(benchmark, label):
    ref = next(r for r in REFERENCES if r.label == label)
    play_bare = load_bare(ROOT / ref.bare).play_bare

    def play() -> list:
        return [play_bare(1, k) for k in range(COMBATS)]

    outcomes = benchmark.pedantic(play, rounds=5, iterations=1)
    assert len(outcomes) == COMBATS
