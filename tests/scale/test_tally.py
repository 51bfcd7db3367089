"""The summary counted chunk by chunk (flat memory) is the summary of the whole table."""

from __future__ import annotations

from sim import simulate
from sim.run.choices import Execution
from sim.run.summary import Tally, summarize
from sim.scenario.loader import scenario_from_dict
from tests.conftest import SCENARIOS, acs_scenario
from tests.scale.support import assert_close


def tally_of(result, chunk):
    tally = Tally(result.scenario.side_names)
    frame = result.outcomes
    # Counted out of order: the summary must not depend on the order chunks finish in.
    starts = list(range(0, len(frame), chunk))[::-1]
    for start in starts:
        tally.add(start, frame.iloc[start : start + chunk])
    return tally.summary(result.scenario.name, result.seed)


def test_tally_matches_summarize_on_a_bundled_scenario():
    result = simulate(
        SCENARIOS / "acs-goblin-ambush.yaml", runs=900, seed=2, execution=Execution(workers=1)
    )
    assert_close(tally_of(result, 128), result.summary)


def test_tally_matches_summarize_with_draws_and_three_sides():
    fighter = {"hp": 40, "to_hit": 60, "defense": 50, "damage": "1d4"}
    data = acs_scenario(
        [{"name": "a", **fighter}],
        [{"name": "b", **fighter}],
        [{"name": "c", **fighter}],
        time_limit=4,
    )
    result = simulate(scenario_from_dict(data), runs=600, seed=3, execution=Execution(workers=1))
    summary = tally_of(result, 50)
    assert summary["draws"] > 0 and set(summary["ends"]) >= {"time_limit"}
    assert_close(summary, result.summary)
    assert (
        summary.keys()
        == summarize(
            result.outcomes, result.scenario.side_names, result.scenario.name, result.seed
        ).keys()
    )
