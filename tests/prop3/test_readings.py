"""The ``best_set`` readings of RULINGS part C as options (issue 13 item 9).

``triple_tiebreak``: "the third die of each set acts as a tie-breaker (re-roll if these are tied,
as well)" (THE CORE MECHANIC) read for triples too (``lowest_other``), or not (``reroll``, the
default). ``cut_critical_with``: which defender rolls cut an attacking triple, "any pair among the
kept dice" (``any_pair``, the default) or only a roll that reads as a pair (``read_pair``). Scripted
dice for each reading, through the pure functions and through the round's melee attack; the exact
calculator against brute force under every non-default setting.
"""

from __future__ import annotations

import math

import pytest

from sim.rules.prop3.exact import attack_odds, result_distribution
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.models import Prop3Options, Rules
from sim.rules.prop3.pool import Outcome, Result, read_roll, reading, resolve
from sim.rules.prop3.wiggle import Response, best_response, best_roll, lowest_pair
from tests.prop3.scripted import scripted
from tests.prop3.test_combat_examples import (
    KRONZER,
    MOONBELLY,
    d8,
    events,
    scenario,
    setup,
    with_tactics,
)
from tests.prop3.test_prop3_hybrid import HIT, SECOND, hybrid

T, P = Result.triple, Result.pair
OTHER = reading("best_set", triple_tiebreak="lowest_other")
READ = reading("best_set", cut_critical_with="read_pair")
BOTH = reading("best_set", "lowest_other", "read_pair")


def test_reading_names_the_options_and_lowest_three_ignores_them():
    assert reading("best_set") == "best_set"
    assert reading("lowest_three", "lowest_other", "read_pair") == "lowest_three"
    assert Rules(Prop3Options()).keep == "lowest_three"
    rules = Rules(
        Prop3Options(keep="best_set", triple_tiebreak="lowest_other", cut_critical_with="read_pair")
    )
    assert rules.keep == BOTH
    with pytest.raises(ValueError, match="triple_tiebreak"):
        reading("best_set", triple_tiebreak="coin")
    with pytest.raises(ValueError, match="cut_critical_with"):
        reading("best_set", cut_critical_with="pairs")


# -- triple_tiebreak -------------------------------------------------------------------------------


def test_lowest_other_reads_the_lowest_die_outside_the_triple():
    assert read_roll((7, 5, 2, 5, 5), keep="best_set") == T(5)
    assert read_roll((7, 5, 2, 5, 5), keep=OTHER) == T(5, 2)
    assert read_roll((5, 5, 5, 6), keep=OTHER) == T(5, 6)
    assert read_roll((5, 5, 5), keep=OTHER) == T(5)  # no die outside the set
    # A lower other die wins; a triple with no other die loses to an equal one that has one.
    assert T(5, 2) > T(5, 6) > T(5)
    assert T(4, 8) > T(5, 1)  # the face first, the tie-breaker second


def test_two_equal_triples_re_roll_by_default_and_split_by_the_other_die_under_lowest_other():
    attack = read_roll((1, 5, 5, 5, 8), keep="best_set")
    defense = read_roll((5, 5, 5, 3), keep="best_set")
    assert resolve(attack, defense) == Outcome.TIE
    attack = read_roll((1, 5, 5, 5, 8), keep=OTHER)
    defense = read_roll((5, 5, 5, 3), keep=OTHER)
    assert resolve(attack, defense) == Outcome.CRITICAL_HIT  # his 1 beats her 3
    assert resolve(defense, attack) == Outcome.CRITICAL_DEFENSE


def test_lowest_other_wiggles_for_the_best_tie_breaker():
    # 3, 5, 5, 6 with two points: triple 5s either by 3 -> 5 (the 6 left as third die) or by
    # 6 -> 5 with one point left to move the 3 to a 2: the second is the better triple.
    got = best_roll((3, 5, 5, 6), 8, 2, keep=OTHER)
    assert got.result == T(5, 2)
    assert sorted(got.faces) == [2, 5, 5, 5] and got.spent == 2
    assert best_roll((3, 5, 5, 6), 8, 2, keep="best_set").result == T(5)


# -- cut_critical_with -----------------------------------------------------------------------------


def test_read_pair_needs_the_roll_to_read_as_the_pair():
    # 2, 2, 6, 6, 6 against triple 5s: the pool shows a pair of 2s beside its losing triple 6s.
    roll = (6, 2, 6, 2, 6)
    assert lowest_pair(roll, 8, 0, keep="best_set").result.face == 2
    assert lowest_pair(roll, 8, 0, keep=READ) is None  # it reads as triple 6s
    cut = best_response(T(5), roll, 8, 0, keep="best_set")
    assert cut.response == Response.REDUCE
    assert resolve(T(5), cut.result) == Outcome.CRIT_REDUCED
    held = best_response(T(5), roll, 8, 0, keep=READ)
    assert held.response == Response.NONE
    assert resolve(T(5), held.result) == Outcome.CRITICAL_HIT
    # One point breaks the triple (a 6 moves off): the roll reads as the pair of 2s and cuts.
    broken = lowest_pair(roll, 8, 1, keep=READ)
    assert broken is not None and broken.spent == 1
    assert read_roll(broken.faces, keep=READ).face == 2
    assert best_response(T(5), roll, 8, 1, keep=READ).response == Response.REDUCE


def test_read_pair_breaks_four_of_a_kind_only_with_two_points():
    roll = (2, 2, 6, 6, 6, 6)
    assert lowest_pair(roll, 8, 1, keep=READ) is None
    two = lowest_pair(roll, 8, 2, keep=READ)
    assert two is not None and two.result.face == 2 and two.spent == 2


def test_read_pair_changes_nothing_where_the_pool_has_no_triple_or_cannot_crit():
    for roll, points in (((2, 3, 7, 8), 1), ((1, 4, 6, 7, 8), 2), ((3, 3, 6, 6, 6), 0)):
        for crit in (True, False):
            if crit and roll == (3, 3, 6, 6, 6):
                continue
            default = lowest_pair(roll, 8, points, keep="best_set", crit_allowed=crit)
            read = lowest_pair(roll, 8, points, keep=READ, crit_allowed=crit)
            assert (default and default.result.face) == (read and read.result.face)


# -- through the round's melee attack --------------------------------------------------------------


def kronzer_bashes(options: dict, faces: list, moonbelly=MOONBELLY):
    """Kronzer bashes Moonbelly, who blocks; the scripted dice, every one rolled."""
    data = scenario(
        with_tactics(moonbelly, defense="block"), with_tactics(KRONZER, attack="bash"), options
    )
    rounds, f, trace, dice = setup(data, faces)
    rounds.set_order([f["Moonbelly"], f["Kronzer"]])
    melee_attack(rounds.fight, f["Kronzer"], f["Moonbelly"])
    assert not dice._buffer
    return f, events(trace, "exchange")


KRONZER_ROLL = d8(1, 4, 5, 6, 6, 8)  # the text's roll: wiggled under best_set to three 5s


def test_the_fight_re_rolls_equal_triples_by_default():
    # Her 5, 5, 5, 8 ties his triple 5s: the exchange is re-rolled (then his triple beats
    # her 1, 3, 5, 7, which reaches no pair with her one point).
    _f, (tie, x) = kronzer_bashes(
        {"keep": "best_set"}, KRONZER_ROLL + d8(5, 5, 5, 8) + KRONZER_ROLL + d8(1, 3, 5, 7)
    )
    assert (tie.data["result"], tie.data["d_result"]) == ("triple 5s", "triple 5s")
    assert tie.data["outcome"] == "tie"
    assert x.data["outcome"] == "critical_hit"


def test_the_fight_splits_equal_triples_by_the_other_die_under_lowest_other():
    # The same first exchange: his triple keeps the 1 outside it, hers at best a 7 (8 -> 7).
    f, (x,) = kronzer_bashes(
        {"keep": "best_set", "triple_tiebreak": "lowest_other"}, KRONZER_ROLL + d8(5, 5, 5, 8)
    )
    assert x.data["result"] == "triple 5s, third die 1"
    assert x.data["d_result"] == "triple 5s, third die 7"
    assert x.data["outcome"] == "critical_hit"
    assert f["Moonbelly"].hp == 4


def test_the_fight_cuts_with_any_pair_by_default_and_only_a_read_pair_under_read_pair():
    # Moonbelly at Vigor 7 blocks with 6d8 and one point: 2, 2, 6, 6, 6, 6 shows a pair of 2s
    # beside four 6s, which one point cannot break into a roll that reads as the pair.
    strong = {**MOONBELLY, "vigor": 7}
    faces = KRONZER_ROLL + d8(2, 6, 2, 6, 6, 6)
    f, (x,) = kronzer_bashes({"keep": "best_set"}, faces, strong)
    assert (x.data["d_dice"], x.data["d_wiggle"]) == (6, 1)
    assert x.data["outcome"] == "crit_reduced"
    f, (x,) = kronzer_bashes({"keep": "best_set", "cut_critical_with": "read_pair"}, faces, strong)
    assert x.data["outcome"] == "critical_hit"
    assert f["Moonbelly"].hp == 6


# -- the exact calculator against brute force ------------------------------------------------------


@pytest.mark.parametrize("keep", [OTHER, READ, BOTH])
@pytest.mark.parametrize(("n", "sides"), [(3, 4), (4, 4), (5, 3), (4, 6)])
def test_result_distribution_matches_brute_force_under_each_reading(brute, keep, n, sides):
    for points in range(3):
        for crit in (True, False):
            got = result_distribution(n, sides, points, keep=keep, crit_allowed=crit)
            want = brute.distribution(n, sides, points, keep=keep, crit_allowed=crit)
            assert set(got) == {r for r, p in want.items() if p > 0}
            assert all(math.isclose(got[r], want[r], abs_tol=1e-12) for r in got)


@pytest.mark.parametrize("keep", [OTHER, READ, BOTH])
@pytest.mark.parametrize("attacker", [(3, 4, 1), (4, 6, 2), (4, 4, 0)])
@pytest.mark.parametrize("defender", [(5, 4, 1), (4, 4, 2), (5, 3, 0)])
@pytest.mark.parametrize("cuts", ["cut", "tie"])
def test_attack_odds_match_brute_force_under_each_reading(brute, keep, attacker, defender, cuts):
    want = brute.attack(attacker, defender, keep=keep, cuts=cuts)
    got = attack_odds(*attacker, *defender, keep=keep, cuts=cuts)
    tie = want.pop(Outcome.TIE, 0.0)
    assert math.isclose(got.tie, tie, abs_tol=1e-12)
    assert all(math.isclose(got.outcomes[o], p / (1 - tie), abs_tol=1e-12) for o, p in want.items())


def test_each_reading_changes_the_odds():
    default = attack_odds(4, 4, 1, 5, 4, 0, keep="best_set")
    other = attack_odds(4, 4, 1, 5, 4, 0, keep=OTHER)
    assert other.tie < default.tie  # equal triples no longer tie
    read = attack_odds(4, 4, 1, 5, 4, 0, keep=READ)
    assert read.outcomes[Outcome.CRIT_REDUCED] < default.outcomes[Outcome.CRIT_REDUCED]
    assert read.outcomes[Outcome.CRITICAL_HIT] > default.outcomes[Outcome.CRITICAL_HIT]


def test_the_hybrid_reads_the_same_options():
    # On the ACS clock (tests/prop3/test_prop3_hybrid.py's duel): A's free action, 1, 5, 5, 5
    # against B's dodge 3, 5, 5, 5: equal triples, split by A's 1 under lowest_other.
    options = {"keep": "best_set", "triple_tiebreak": "lowest_other"}
    faces = SECOND + d8(1, 5, 5, 5) + d8(3, 5, 5, 5) + HIT + d8(2, 4, 6) + [(6, 6)]
    combat, trace = scripted(hybrid(options=options), faces)
    first = next(e for e in trace if e.kind == "exchange")
    assert (first.data["result"], first.data["d_result"]) == (
        "triple 5s, third die 1",
        "triple 5s, third die 3",
    )
    assert first.data["outcome"] == "critical_hit"
    _a, b = combat.fighters
    assert (b.hp, b.state.nicks) == (3, 1)  # the wound, then segment 5's nick
