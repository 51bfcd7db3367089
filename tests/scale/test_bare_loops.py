"""The bare SimPy ACS duel of the benchmarks plays the engine's duel, combat for combat."""

from __future__ import annotations

import importlib.util

import pytest

from sim import load_scenario
from sim.run.runner import run_chunk
from tests.conftest import ROOT, SCENARIOS


@pytest.fixture(scope="module")
def play_bare():
    spec = importlib.util.spec_from_file_location("bare_acs", ROOT / "benchmarks" / "bare_acs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play_bare


@pytest.mark.parametrize("seed", [1, 7])
def test_the_bare_acs_duel_gives_the_engines_winner_and_duration(play_bare, seed):
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    chunk = run_chunk(scenario, seed, 0, 1500)
    engine = [(record[2], record[4]) for record in chunk.records]
    bare = [play_bare(seed, k) for k in range(1500)]
    assert bare == engine
    assert {winner for winner, _ in bare} == {"red", "blue"}
