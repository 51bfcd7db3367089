"""The exact calculator against brute force over every ordered roll and every wiggle."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.prop3 import roll_tables
from sim.rules.prop3.exact import attack_odds, class_probabilities, result_distribution
from sim.rules.prop3.pool import NOTHING, ONES, Kind, Outcome, Result

P, T = Result.pair, Result.triple
SMALL = [(n, sides) for sides in (4, 6) for n in range(0, 6)] + [(n, 8) for n in range(0, 5)]


def _same(a: dict, b: dict, tol: float = 1e-12) -> bool:
    keys = {k for k, v in a.items() if v > tol} | {k for k, v in b.items() if v > tol}
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= tol for k in keys)


@pytest.mark.parametrize(("n", "sides"), SMALL)
def test_result_distribution_matches_brute_force(brute, n, sides):
    for points in range(4):
        for options in brute.MODES:
            got = result_distribution(n, sides, points, **options)
            want = brute.distribution(n, sides, points, **options)
            assert _same(got, want), (n, sides, points, options)
            assert list(got) == sorted(got, reverse=True)  # best result first


def _joint(table):
    ranks, pairs, probs = table
    return {(tuple(ranks[:, u]), tuple(pairs[:, u])): probs[u] for u in range(len(probs))}


@pytest.mark.parametrize(
    ("n", "sides", "points"),
    [(6, 6, 1), (7, 6, 2), (9, 4, 1), (8, 8, 3), (6, 10, 4), (5, 12, 6)],
)
@pytest.mark.parametrize("keep", ["lowest_three", "best_set"])
@pytest.mark.parametrize("crit_allowed", [True, False])
def test_vectorised_tables_match_the_wiggle_searches(n, sides, points, keep, crit_allowed):
    # Larger pools than brute force allows, and the lowest_three prefix shortcut (n > points + 3):
    # the NumPy tables against the wiggle functions run on every sorted roll.
    levels = (points, points + 1)
    vector = roll_tables.table(n, sides, levels, keep, crit_allowed, False, "vector")
    scalar = roll_tables.table(n, sides, levels, keep, crit_allowed, False, "scalar")
    assert _same(_joint(vector), _joint(scalar))


def test_prefix_probabilities_count_every_roll():
    rows = roll_tables.sorted_tuples(6, 3)
    probs = roll_tables.prefix_probabilities(rows, 5, 6)
    assert math.isclose(probs.sum(), 1.0, abs_tol=1e-12)
    # The sorted 5d6 roll starts 1, 1, 1 in 1 - P(at most two 1s) of all rolls.
    first = np.flatnonzero((rows[0] == (1, 1, 1)).all(axis=1))[0]
    at_most_two = sum(math.comb(5, k) * 5 ** (5 - k) for k in range(3)) / 6**5
    assert math.isclose(probs[first], 1 - at_most_two)


def test_known_probabilities():
    three = class_probabilities(3, 6)
    assert math.isclose(three[Kind.TRIPLE], 6 / 216)
    assert math.isclose(three[Kind.PAIR], 90 / 216)
    assert math.isclose(class_probabilities(2, 6)[Kind.PAIR], 1 / 6)
    assert result_distribution(1, 8, 2) == pytest.approx({ONES: 3 / 8, NOTHING: 5 / 8})
    ones = class_probabilities(3, 6, 1, only_ones=True)
    assert math.isclose(ones[Kind.PAIR], 1 - (4 / 6) ** 3)
    assert result_distribution(0, 6, 6) == {NOTHING: 1.0}
    # A stat at 2 never crits: 3d6 triples become pairs with their face as third die.
    no_crit = result_distribution(3, 6, crit_allowed=False)
    assert math.isclose(no_crit[P(4, 4)], 1 / 216)
    assert class_probabilities(3, 6, crit_allowed=False)[Kind.TRIPLE] == 0


SIDES = [(1, 6, 0), (2, 6, 1), (3, 6, 0), (3, 4, 1), (4, 6, 2), (3, 8, 2), (4, 4, 0)]


@pytest.mark.parametrize("attacker", SIDES)
@pytest.mark.parametrize("defender", [(2, 6, 0), (3, 6, 1), (4, 4, 2), (3, 8, 0)])
@pytest.mark.parametrize("keep", ["lowest_three", "best_set"])
def test_attack_odds_match_brute_force(brute, attacker, defender, keep):
    want = brute.attack(attacker, defender, keep=keep)
    got = attack_odds(*attacker, *defender, keep=keep)
    tie = want.pop(Outcome.TIE, 0.0)
    assert math.isclose(got.tie, tie, abs_tol=1e-12)
    assert _same(got.outcomes, {o: p / (1 - tie) for o, p in want.items()})
    assert math.isclose(sum(got.outcomes.values()), 1.0)
    assert Outcome.TIE not in got.outcomes


@pytest.mark.parametrize("cuts", ["tie", "never"])
@pytest.mark.parametrize("attacker", [(3, 4, 1), (4, 6, 2), (3, 8, 2)])
@pytest.mark.parametrize("defender", [(3, 6, 1), (4, 4, 2)])
@pytest.mark.parametrize("keep", ["lowest_three", "best_set"])
def test_attack_odds_read_cut_or_tie_and_critical_always_wins(
    brute, attacker, defender, keep, cuts
):
    # The options cut_or_tie: tie and critical_always_wins (pool.CUTS), written straight from
    # RULINGS part C in the brute force, and read by the exact calculator.
    want = brute.attack(attacker, defender, keep=keep, cuts=cuts)
    got = attack_odds(*attacker, *defender, keep=keep, cuts=cuts)
    tie = want.pop(Outcome.TIE, 0.0)
    assert math.isclose(got.tie, tie, abs_tol=1e-12)
    assert _same(got.outcomes, {o: p / (1 - tie) for o, p in want.items()})
    default = attack_odds(*attacker, *defender, keep=keep)
    if cuts == "never":
        assert got.outcomes[Outcome.CRIT_REDUCED] == 0.0
        assert default.outcomes[Outcome.CRIT_REDUCED] > 0.0  # the option changes something
    else:
        assert got.tie >= default.tie


def test_cut_or_tie_changes_the_odds_where_both_are_reachable():
    cut = attack_odds(4, 6, 2, 4, 4, 2, keep="best_set")
    tie = attack_odds(4, 6, 2, 4, 4, 2, keep="best_set", cuts="tie")
    assert tie.tie > cut.tie
    assert tie.outcomes[Outcome.CRIT_REDUCED] < cut.outcomes[Outcome.CRIT_REDUCED]


def test_unknown_cuts_are_refused():
    with pytest.raises(ValueError, match="cuts"):
        attack_odds(3, 6, 0, 3, 6, 0, cuts="sometimes")


@pytest.mark.parametrize("keep", ["lowest_three", "best_set"])
@pytest.mark.parametrize("defender", [(3, 6, 0), (4, 6, 1), (3, 4, 1)])
def test_missile_armor_save_matches_brute_force(brute, keep, defender):
    want = brute.attack((4, 6, 2), defender, keep=keep, save=1)
    got = attack_odds(4, 6, 2, *defender, keep=keep, defense_save_points=1)
    tie = want.pop(Outcome.TIE, 0.0)
    assert math.isclose(got.tie, tie, abs_tol=1e-12)
    assert _same(got.outcomes, {o: p / (1 - tie) for o, p in want.items()})
    plain = attack_odds(4, 6, 2, *defender, keep=keep)
    landed = (Outcome.HIT, Outcome.CRITICAL_HIT, Outcome.CRIT_REDUCED)
    assert sum(got.outcomes[o] for o in landed) < sum(plain.outcomes[o] for o in landed)


def test_stat_flags_reach_the_attack_odds():
    plain = attack_odds(4, 6, 1, 3, 6, 0)
    no_crit = attack_odds(4, 6, 1, 3, 6, 0, attack_crit_allowed=False)
    assert plain.outcomes[Outcome.CRITICAL_HIT] > 0
    assert no_crit.outcomes[Outcome.CRITICAL_HIT] == 0
    stat_one = attack_odds(4, 6, 1, 3, 6, 0, defense_only_ones=True)
    assert plain.outcomes[Outcome.CRITICAL_DEFENSE] > 0
    assert stat_one.outcomes[Outcome.CRITICAL_DEFENSE] == 0


def test_large_pools_are_exact_and_cached():
    for keep in ("lowest_three", "best_set"):
        dist = result_distribution(12, 12, 6, keep=keep)
        assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-9)
        odds = attack_odds(12, 12, 6, 12, 12, 6, keep=keep)
        assert math.isclose(sum(odds.outcomes.values()), 1.0, abs_tol=1e-9)
    info = roll_tables.table.cache_info()
    result_distribution(12, 12, 6)
    assert roll_tables.table.cache_info().hits == info.hits + 1


def test_tables_too_large_are_refused():
    with pytest.raises(ValueError, match="sorted rolls"):
        result_distribution(20, 12, 0, keep="best_set")
    # lowest_three only needs the lowest points + 3 dice, so many dice stay cheap.
    assert math.isclose(sum(result_distribution(30, 12, 2).values()), 1.0, abs_tol=1e-9)


def test_every_exchange_tying_is_refused():
    with pytest.raises(ValueError, match="ties"):
        attack_odds(1, 2, 1, 1, 2, 1)


@pytest.mark.parametrize("args", [(-1, 6, 0), (3, 1, 0), (3, 6, -1), (3, 100, 0)])
def test_bad_pools_are_refused(args):
    with pytest.raises(ValueError):
        result_distribution(*args)


POOLS = st.tuples(
    st.integers(0, 7),
    st.sampled_from([4, 6, 8, 10, 12]),
    st.integers(0, 5),
    st.sampled_from(["lowest_three", "best_set"]),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(POOLS)
def test_probabilities_sum_to_one_and_more_points_dominate(case):
    n, sides, points, keep, crit, ones = case
    options = {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    low = result_distribution(n, sides, points, **options)
    high = result_distribution(n, sides, points + 1, **options)
    assert math.isclose(sum(low.values()), 1.0, abs_tol=1e-9)
    assert all(p >= 0 for p in low.values())
    # With one more point, every "at least this good" chance is at least as large.
    for threshold in low:
        at_least_low = sum(p for r, p in low.items() if r >= threshold)
        at_least_high = sum(p for r, p in high.items() if r >= threshold)
        assert at_least_high >= at_least_low - 1e-9
    if ones or not crit:
        assert all(result.kind != Kind.TRIPLE for result in low)
