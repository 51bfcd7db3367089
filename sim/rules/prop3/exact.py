"""Exact probabilities of Combat Proposition Three rolls and attacks, for tactics and tests.

Computes, without sampling, what ``pool`` and ``wiggle`` do to random rolls: the distribution of
the best result a pool reaches with its wiggle points (the attacker's policy "best"), and the
outcome of an attack against a defender using the policy "best" of RULINGS part C ("Wiggle
points", "Resolving an attack"), with full ties re-rolled (that is, conditioned away). Fast
enough to be called by a tactic at run time: tables are cached with ``functools.lru_cache``.
The tables of what each roll reaches are :mod:`~sim.rules.prop3.roll_tables`; the tests check
all of it against brute force over every ordered roll and every wiggle.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.rules.prop3.pool import (
    CUTS,
    FACE_BASE,
    FAILED_DEFENSES,
    KIND_BASE,
    Kind,
    Outcome,
    Result,
)
from sim.rules.prop3.roll_tables import check_pool, reading_options, table

_OUTCOMES = tuple(Outcome)
_CODE = {outcome: code for code, outcome in enumerate(_OUTCOMES)}


def result_distribution(
    dice: int,
    sides: int,
    points: int = 0,
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
) -> dict[Result, float]:
    """The exact distribution of the best result a pool reaches with its wiggle points.

    Args:
        dice: the number of dice (0 or more).
        sides: the die size.
        points: the wiggle points, spent by the attacker's policy "best".
        keep: ``"lowest_three"`` or ``"best_set"``.
        crit_allowed: False for a stat at 2.
        only_ones: True for a stat at 1.

    Returns:
        Result -> probability, best result first; results of probability 0 are left out.
    """
    check_pool(dice, sides, points)
    ranks, _, probs = table(dice, sides, (points,), *reading_options(keep, crit_allowed, only_ones))
    unique, inverse = np.unique(ranks[0], return_inverse=True)
    totals = np.bincount(inverse.ravel(), weights=probs, minlength=len(unique))
    return {
        Result.from_rank(int(rank)): float(p)
        for rank, p in zip(unique[::-1], totals[::-1], strict=True)
        if p > 0
    }


def class_probabilities(
    dice: int,
    sides: int,
    points: int = 0,
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
) -> dict[Kind, float]:
    """The exact chances of nothing, a pair and a triple (arguments as in result_distribution)."""
    totals = dict.fromkeys(Kind, 0.0)
    distribution = result_distribution(
        dice, sides, points, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones
    )
    for result, p in distribution.items():
        totals[result.kind] += p
    return totals


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact odds of an attack.

    Attributes:
        outcomes: chance of each outcome once full ties are re-rolled (sums to 1; no ``tie``).
        tie: chance that a single exchange of rolls ties (and is re-rolled).
    """

    outcomes: dict[Outcome, float]
    tie: float


def _outcome_codes(
    attack: np.ndarray, defense: np.ndarray, low_pair: np.ndarray, cuts: str = "cut"
) -> np.ndarray:
    """Outcome codes for every attack rank (rows) against every defense (columns).

    Against a triple, the defender's answer as ``wiggle.best_response`` gives it under ``cuts``
    (``pool.CUTS``): a cut before a tie (``cut``), a tie before a cut (``tie``), or no cut.
    """
    a = attack[:, None]
    d = defense[None, :]
    low = low_pair[None, :]
    a_kind = a // KIND_BASE
    a_face = 100 - (a % KIND_BASE) // FACE_BASE
    better = np.where(
        d // KIND_BASE == int(Kind.TRIPLE), _CODE[Outcome.CRITICAL_DEFENSE], _CODE[Outcome.DEFENDED]
    )
    on_pair = np.where(d == a, _CODE[Outcome.TIE], _CODE[Outcome.HIT])
    cut = (low > 0) & (low < a_face)
    if cuts == "never":
        on_triple = np.where(d == a, _CODE[Outcome.TIE], _CODE[Outcome.CRITICAL_HIT])
    elif cuts == "tie":
        on_triple = np.where(
            d == a,
            _CODE[Outcome.TIE],
            np.where(cut, _CODE[Outcome.CRIT_REDUCED], _CODE[Outcome.CRITICAL_HIT]),
        )
    else:
        on_triple = np.where(
            cut,
            _CODE[Outcome.CRIT_REDUCED],
            np.where(d == a, _CODE[Outcome.TIE], _CODE[Outcome.CRITICAL_HIT]),
        )
    landed = np.where(a_kind == int(Kind.TRIPLE), on_triple, on_pair)
    code = np.where(d > a, better, landed)
    return np.where(a_kind == int(Kind.NOTHING), _CODE[Outcome.FUMBLE], code)


@lru_cache(maxsize=1024)
def _attack_odds(
    attack: tuple[int, int, int, str, bool, bool],
    defense: tuple[int, int, int, bool, bool],
    save: int,
    cuts: str = "cut",
) -> tuple[tuple[float, ...], float]:
    a_dice, a_sides, a_points, keep, a_crit, a_ones = attack
    d_dice, d_sides, d_points, d_crit, d_ones = defense
    a_ranks, _, a_probs = table(a_dice, a_sides, (a_points,), keep, a_crit, a_ones)
    levels = (d_points, d_points + save) if save else (d_points,)
    d_ranks, d_pairs, d_probs = table(d_dice, d_sides, levels, keep, d_crit, d_ones)
    codes = _outcome_codes(a_ranks[0], d_ranks[0], d_pairs[0], cuts)
    if save:
        saved = _outcome_codes(a_ranks[0], d_ranks[1], d_pairs[1], cuts)
        failed = np.isin(codes, [_CODE[o] for o in FAILED_DEFENSES])
        codes = np.where(failed, saved, codes)
    weights = a_probs[:, None] * d_probs[None, :]
    totals = np.bincount(codes.ravel(), weights=weights.ravel(), minlength=len(_OUTCOMES))
    tie = float(totals[_CODE[Outcome.TIE]])
    if tie >= 1.0 - 1e-12:
        raise ValueError("every exchange of these pools ties; the attack never resolves")
    return tuple(float(t) / (1.0 - tie) for t in totals), tie


def attack_odds(
    attack_dice: int,
    attack_sides: int,
    attack_points: int,
    defense_dice: int,
    defense_sides: int,
    defense_points: int,
    *,
    keep: str = "lowest_three",
    attack_crit_allowed: bool = True,
    attack_only_ones: bool = False,
    defense_crit_allowed: bool = True,
    defense_only_ones: bool = False,
    defense_save_points: int = 0,
    cuts: str = "cut",
) -> AttackOdds:
    """The exact outcome chances of an attack, both sides playing the policy "best".

    The attacker counts its best reachable result; the defender, seeing it, defends if it can,
    else cuts a critical with a lower pair, else counts its best result (see
    ``wiggle.best_response``). Full ties are re-rolled, so ``outcomes`` is conditioned on no tie.

    Args:
        attack_dice: dice in the attack pool.
        attack_sides: the attacker's die size.
        attack_points: the attacker's wiggle points.
        defense_dice: dice in the defense pool.
        defense_sides: the defender's die size.
        defense_points: the defender's wiggle points.
        keep: ``"lowest_three"`` or ``"best_set"``, for both sides.
        attack_crit_allowed: False for an attacker's stat at 2.
        attack_only_ones: True for an attacker's stat at 1.
        defense_crit_allowed: False for a defender's stat at 2.
        defense_only_ones: True for a defender's stat at 1.
        defense_save_points: wiggle points the defender gets only if its defense fails (armor
            excellent against a missile's ammunition): it answers again with the same roll.
        cuts: how a defender pair meets an attacking triple (``pool.CUTS``: options
            ``cut_or_tie`` and ``critical_always_wins``).

    Raises:
        ValueError: for impossible pools, or if every exchange would tie.
    """
    check_pool(attack_dice, attack_sides, attack_points)
    check_pool(defense_dice, defense_sides, defense_points)
    if cuts not in CUTS:
        raise ValueError(f"unknown cuts {cuts!r}; expected one of {', '.join(CUTS)}")
    if defense_save_points < 0:
        raise ValueError(f"save points cannot be negative ({defense_save_points})")
    keep, a_crit, a_ones = reading_options(keep, attack_crit_allowed, attack_only_ones)
    _, d_crit, d_ones = reading_options(keep, defense_crit_allowed, defense_only_ones)
    probs, tie = _attack_odds(
        (attack_dice, attack_sides, attack_points, keep, a_crit, a_ones),
        (defense_dice, defense_sides, defense_points, d_crit, d_ones),
        defense_save_points,
        cuts,
    )
    outcomes: dict[Outcome, float] = {
        o: p for o, p in zip(_OUTCOMES, probs, strict=True) if o != Outcome.TIE
    }
    return AttackOdds(outcomes, tie)
