"""Brute-force references for the Combat Proposition Three tests.

Everything here is deliberately naive: every wiggle of a roll is tried (every vector of faces
within ``points`` moves), every ordered roll is enumerated, and the defender's choice is written
straight from RULINGS part C, without the searches of ``wiggle`` or the tables of ``exact``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from types import SimpleNamespace

import pytest

from sim.rules.prop3.pool import Kind, Outcome, Result, read_roll

MODES = [
    {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    for keep in ("lowest_three", "best_set")
    for crit, ones in ((True, False), (False, False), (True, True))
]


@cache
def wiggles(roll: tuple[int, ...], sides: int, points: int) -> tuple[tuple[int, ...], ...]:
    """Every vector of faces reachable from ``roll`` with at most ``points`` moves."""
    ranges = [range(max(1, f - points), min(sides, f + points) + 1) for f in roll]
    return tuple(
        faces
        for faces in itertools.product(*ranges)
        if sum(abs(a - b) for a, b in zip(faces, roll, strict=True)) <= points
    )


@cache
def reach(
    roll: tuple[int, ...], sides: int, points: int, keep: str, crit_allowed: bool, only_ones: bool
) -> tuple[Result, int]:
    """The best reachable result and the lowest pair face the roller can count (0: none).

    Under ``best_set`` a defender may count any pair its pool shows (two dice of a face);
    otherwise (``lowest_three``, or ``best_set`` with ``cut_critical_with: read_pair``) it
    counts only a roll that reads as a pair.
    """
    options = {"keep": keep, "crit_allowed": crit_allowed, "only_ones": only_ones}
    reads = [read_roll(faces, **options) for faces in wiggles(roll, sides, points)]
    any_pair = keep.startswith("best_set") and not keep.endswith("+read_pair")
    if any_pair and len(roll) >= 3 and not only_ones:
        shown = [
            min((f for f, k in Counter(faces).items() if k >= 2), default=0)
            for faces in wiggles(roll, sides, points)
        ]
        pair_faces = [f for f in shown if f]
    else:
        pair_faces = [r.face for r in reads if r.kind == Kind.PAIR]
    return max(reads), min(pair_faces, default=0)


def outcome(attack: Result, defender: tuple[Result, int], cuts: str = "cut") -> Outcome:
    """The outcome of an attack against a defender's (best result, lowest pair face).

    ``cuts``: ``cut`` (a lower pair cuts a triple, taken before a tie), ``tie`` (a tie taken
    before a cut) or ``never`` (no pair cuts a triple: "a critical success always wins").
    """
    best, low = defender
    if attack.kind == Kind.NOTHING:
        return Outcome.FUMBLE
    if best > attack:
        return Outcome.CRITICAL_DEFENSE if best.kind == Kind.TRIPLE else Outcome.DEFENDED
    if cuts == "tie" and best == attack:
        return Outcome.TIE
    if cuts != "never" and attack.kind == Kind.TRIPLE and 0 < low < attack.face:
        return Outcome.CRIT_REDUCED
    if best == attack:
        return Outcome.TIE
    return Outcome.CRITICAL_HIT if attack.kind == Kind.TRIPLE else Outcome.HIT


@cache
def sorted_rolls(dice: int, sides: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted roll with its probability, counted over all ordered rolls."""
    counts = Counter(
        tuple(sorted(roll)) for roll in itertools.product(range(1, sides + 1), repeat=dice)
    )
    total = sides**dice
    return tuple((roll, n / total) for roll, n in sorted(counts.items()))


def distribution(dice: int, sides: int, points: int, **options) -> dict[Result, float]:
    """The distribution of the best reachable result, by brute force."""
    totals: Counter[Result] = Counter()
    for roll, p in sorted_rolls(dice, sides):
        totals[reach(roll, sides, points, **_flat(options))[0]] += p
    return dict(totals)


def _flat(options: dict) -> dict:
    return {
        "keep": options.get("keep", "lowest_three"),
        "crit_allowed": options.get("crit_allowed", True),
        "only_ones": options.get("only_ones", False),
    }


def attack(
    attacker: tuple[int, int, int],
    defender: tuple[int, int, int],
    keep: str = "lowest_three",
    save: int = 0,
    cuts: str = "cut",
) -> dict[Outcome, float]:
    """Unconditioned outcome chances (ties included) of an attack, by brute force."""
    a_dice, a_sides, a_points = attacker
    d_dice, d_sides, d_points = defender
    options = {"keep": keep, "crit_allowed": True, "only_ones": False}
    totals: Counter[Outcome] = Counter()
    for a_roll, pa in sorted_rolls(a_dice, a_sides):
        result = reach(a_roll, a_sides, a_points, **options)[0]
        for d_roll, pd in sorted_rolls(d_dice, d_sides):
            got = outcome(result, reach(d_roll, d_sides, d_points, **options), cuts)
            if save and got in (Outcome.HIT, Outcome.CRITICAL_HIT, Outcome.CRIT_REDUCED):
                got = outcome(result, reach(d_roll, d_sides, d_points + save, **options), cuts)
            totals[got] += pa * pd
    return dict(totals)


@pytest.fixture(scope="session")
def brute() -> SimpleNamespace:
    """The brute-force references, as one namespace."""
    return SimpleNamespace(
        MODES=MODES,
        wiggles=wiggles,
        reach=reach,
        outcome=outcome,
        sorted_rolls=sorted_rolls,
        distribution=distribution,
        attack=attack,
    )
