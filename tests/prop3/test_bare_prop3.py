"""The bare SimPy loop of ``benchmarks/bare_prop3.py`` plays the engine's duel, combat by combat."""

from __future__ import annotations

import importlib.util

from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS


def _bare():
    path = ROOT / "benchmarks" / "bare_prop3.py"
    spec = importlib.util.spec_from_file_location("bare_prop3", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bare_loop_gives_the_engines_winner_and_duration_for_every_combat():
    bare = _bare()
    scenario = load_scenario(SCENARIOS / "p3-moonbelly-vs-kronzer.yaml")
    records = run_chunk(scenario, 3, 0, 400).records
    assert [(r[2], r[4]) for r in records] == [bare.play_bare(3, k) for k in range(400)]
    assert len({r[2] for r in records}) == 2  # both sides win some
