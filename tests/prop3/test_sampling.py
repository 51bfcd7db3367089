"""Rolling with ``Dice`` and wiggling, against the exact calculator (fixed seeds, never flaky).

The tolerance is four standard errors plus 1/n: a fixed seed makes each test deterministic,
and four standard errors keep it from depending on a lucky seed, while a wrong rule that moves
a probability by a few percent still fails.
"""

import math
from collections import Counter

import pytest

from sim.engine.dice import Dice
from sim.rules.prop3.exact import attack_odds, class_probabilities
from sim.rules.prop3.pool import Kind, Outcome, read_roll, resolve, roll_pool
from sim.rules.prop3.ranged import missile_defense
from sim.rules.prop3.wiggle import best_response, best_roll

SEED = 20070817
SAMPLES = 5000


def _close(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1 / n


SINGLE = [
    (1, 8, 2, {}),
    (2, 6, 1, {}),
    (3, 6, 0, {}),
    (5, 8, 2, {}),
    (12, 12, 6, {}),
    (6, 4, 0, {"crit_allowed": False}),
    (4, 6, 1, {"only_ones": True}),
    (4, 4, 1, {"keep": "best_set"}),
    (6, 10, 3, {"keep": "best_set"}),
]


@pytest.mark.parametrize(("index", "case"), list(enumerate(SINGLE)))
def test_sampled_result_classes_match_exact(index, case):
    n, sides, points, options = case
    dice = Dice(SEED, index)
    counts = Counter(
        best_roll(roll_pool(dice, n, sides), sides, points, **options).result.kind
        for _ in range(SAMPLES)
    )
    exact = class_probabilities(n, sides, points, **options)
    for kind in Kind:
        assert _close(counts[kind], SAMPLES, exact[kind]), (case, kind, counts, exact)


OPPOSED = [
    ((5, 8, 2), (4, 8, 1), {}),
    ((5, 6, 2), (3, 6, 1), {}),
    ((3, 6, 0), (3, 6, 0), {}),
    ((8, 10, 3), (6, 10, 2), {}),
    ((5, 8, 1), (4, 8, 1), {"keep": "best_set"}),
    ((4, 6, 2), (3, 6, 1), {"save": 1}),
    ((4, 6, 2), (4, 6, 1), {"keep": "best_set", "save": 1}),
]


@pytest.mark.parametrize(("index", "case"), list(enumerate(OPPOSED)))
def test_sampled_attacks_match_exact(index, case):
    (na, sa, wa), (nd, sd, wd), options = case
    keep = options.get("keep", "lowest_three")
    save = options.get("save", 0)
    dice = Dice(SEED, 100 + index)
    counts: Counter[Outcome] = Counter()
    for _ in range(SAMPLES):
        attack = best_roll(roll_pool(dice, na, sa), sa, wa, keep=keep).result
        faces = roll_pool(dice, nd, sd)
        if save:
            defense = missile_defense(attack, faces, sd, wd, save_points=save, keep=keep).defense
        else:
            defense = best_response(attack, faces, sd, wd, keep=keep)
        counts[resolve(attack, defense.result)] += 1
    odds = attack_odds(na, sa, wa, nd, sd, wd, keep=keep, defense_save_points=save)
    assert _close(counts[Outcome.TIE], SAMPLES, odds.tie)
    resolved = SAMPLES - counts.pop(Outcome.TIE, 0)
    for outcome, p in odds.outcomes.items():
        assert _close(counts[outcome], resolved, p), (case, outcome, counts, odds)


def test_a_sampled_roll_is_read_as_rolled_without_points():
    dice = Dice(SEED, 999)
    for _ in range(200):
        faces = roll_pool(dice, 5, 8)
        assert best_roll(faces, 8, 0).result == read_roll(faces)
