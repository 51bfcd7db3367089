"""Every bundled scenario the exact engine accepts, sampled at a fixed seed, agrees with it.

For each ``scenarios/*.yaml`` that a chain plays (its base scenario, as ``run`` plays it), the
exact summary and a sampled run of :data:`RUNS` combats at a fixed seed are compared: each
side's win rate, the draw rate and each ending within four standard errors of the exact value
(the standard error of a proportion at the exact p), the mean length within four standard errors
of the exact law of the length. The scenarios the engine refuses say why in words
(:class:`~sim.exact.errors.NotExact`); the list of accepted ones is checked to hold the
reference duels, so the test cannot pass by accepting nothing.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sim.exact.chain import STATE_CAP
from sim.exact.errors import NotExact
from sim.exact.fight import chain_for
from sim.run.api import simulate
from sim.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
RUNS = 2000
SEED = 23


def accepted(path: Path) -> bool:
    """Whether a chain plays the scenario within the state cap."""
    try:
        return chain_for(load_scenario(path)).estimate() <= STATE_CAP
    except NotExact:
        return False


#: Accepted scenarios whose exact solve takes too long for a test, and where they are checked.
SLOW = {
    "p3-moonbelly-vs-kronzer": "its 100 rounds take many minutes exactly; "
    "tests/exact/test_prop3_chain.py samples it made small (Vigor 3, 10 rounds)",
    "p3-forms-tournament": "a 100-round Proposition Three duel (as p3-moonbelly-vs-kronzer)",
    "p3-sensitivity": "a 100-round Proposition Three duel (as p3-moonbelly-vs-kronzer)",
}

ACCEPTED = [path for path in SCENARIOS if accepted(path) and path.stem not in SLOW]


def test_the_accepted_scenarios_hold_the_reference_duels():
    names = {path.stem for path in ACCEPTED}
    assert {"t10-cole-vs-francois", "acs-duel"} <= names
    slow = [path for path in SCENARIOS if path.stem in SLOW]
    assert len(slow) == len(SLOW) and all(accepted(path) for path in slow), "SLOW is stale"
    refused = [path for path in SCENARIOS if path not in ACCEPTED and path not in slow]
    assert refused, "some bundled fights are beyond the chains (skirmishes, hybrids)"
    for path in refused:
        with pytest.raises(NotExact) as why:
            chain_for(load_scenario(path))
        assert len(str(why.value)) > 20, path.name  # a reason in words, not a bare refusal


def within(sampled: float, p: float, runs: int) -> bool:
    return abs(sampled - p) <= 4 * math.sqrt(p * (1 - p) / runs) + 1e-12


@pytest.mark.parametrize("path", ACCEPTED, ids=lambda p: p.stem)
def test_the_sampled_run_agrees_with_the_exact_one_within_four_standard_errors(path: Path):
    scenario = load_scenario(path)
    exact = simulate(scenario, method="exact").summary
    sampled = simulate(scenario, runs=RUNS, seed=SEED).summary
    assert exact["method"] == "exact"
    assert set(exact["sides"]) == set(sampled["sides"])
    for side, values in exact["sides"].items():
        assert within(sampled["sides"][side]["win_rate"], values["win_rate"], RUNS), side
    assert within(sampled["draw_rate"], exact["draw_rate"], RUNS), "draw"
    assert set(sampled["ends"]) <= set(exact["ends"]), "an ending the chain never reaches"
    for reason, p in exact["ends"].items():
        assert within(sampled["ends"].get(reason, 0) / RUNS, p, RUNS), reason
    length = exact["length"]
    mean = sum(value * p for value, p in length["law"])
    sd = math.sqrt(sum((value - mean) ** 2 * p for value, p in length["law"]))
    key = "mean_duration_rounds" if length["unit"] == "rounds" else "mean_duration_s"
    assert math.isclose(exact[key], mean, rel_tol=1e-9, abs_tol=1e-9)
    assert abs(sampled[key] - exact[key]) <= 4 * sd / math.sqrt(RUNS) + 1e-9
