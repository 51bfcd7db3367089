"""The bare SimPy loop of ``benchmarks/bare_prop3.py`` plays the engine's duel by the same law.

The loop rolls every die of a pool; the engine draws each pool's roll from its table with one
number (``sim.rules.prop3.kept``), so a seed gives them different dice. The law is the same: over
the same number of combats, the win rate and the mean length of the fight agree within four
standard errors of their difference (independent samples; a fixed seed, so never flaky).
"""

from __future__ import annotations

import importlib.util
import math
import statistics

from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS

COMBATS = 3000


def _bare():
    path = ROOT / "benchmarks" / "bare_prop3.py"
    spec = importlib.util.spec_from_file_location("bare_prop3", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bare_loop_and_the_engine_play_the_duel_by_the_same_law():
    bare = _bare()
    scenario = load_scenario(SCENARIOS / "p3-moonbelly-vs-kronzer.yaml")
    engine = [(r[2], r[4]) for r in run_chunk(scenario, 3, 0, COMBATS).records]
    loop = [bare.play_bare(3, k) for k in range(COMBATS)]
    assert len({w for w, _ in engine}) == 2  # both sides win some
    for side in ("gerbil", "rat"):
        p1 = sum(w == side for w, _ in engine) / COMBATS
        p2 = sum(w == side for w, _ in loop) / COMBATS
        p = (p1 + p2) / 2
        assert abs(p1 - p2) <= 4 * math.sqrt(2 * p * (1 - p) / COMBATS), (side, p1, p2)
    d1, d2 = [d for _, d in engine], [d for _, d in loop]
    se = math.sqrt((statistics.variance(d1) + statistics.variance(d2)) / COMBATS)
    assert abs(statistics.mean(d1) - statistics.mean(d2)) <= 4 * se
