"""Ambition: who wins the second and the order of everyone inside each segment.

ACS text, "Ambition" and "Passing through a second": everyone rolls d12 plus their ambition bonus
at the start of each second; the highest wins and takes a free action on segment 1 before anyone
else. On any segment, those acting go in order of ambition; equal ambition is settled by "pure
ambition" roll-offs (a d12 with no bonuses), which change nobody's ambition total.

RULINGS part A: the roll-offs are made once, at the start of the second, and order every segment
of that second; the roll-off that picked the winner counts, so the winner goes first among its
equals. Both the winner and the order come from :func:`ambition_order`.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.dice import Dice

AMBITION_DIE = 12


def ambition_order(
    totals: Sequence[int],
    dice: Dice,
    keys: Sequence[int] | None = None,
) -> tuple[list[int], list[list[int]]]:
    """Order combatants by ambition, highest first, breaking ties by pure d12 roll-offs.

    Args:
        totals: each combatant's ambition total (d12 + bonuses), by position.
        dice: the combat's stream; roll-offs are rolled in position order within each tied
            group, and a group tied again re-rolls among itself until no tie is left.
        keys: an optional second key compared before the roll-offs (higher first), e.g. the
            ambition bonus under ``tie_break: ambition_bonus``.

    Returns:
        The positions in acting order (the first is the ambition winner), and for each position
        the list of pure roll-off results it rolled (empty when it was never tied; read them,
        never append to them: without a tie every position shares one empty list).
    """
    n = len(totals)
    if len(set(totals)) == n:
        # Nobody tied (most seconds): the totals alone give the order; no roll-off is rolled.
        return sorted(range(n), key=totals.__getitem__, reverse=True), [[]] * n
    rolloffs: list[list[int]] = [[] for _ in range(n)]
    second = keys if keys is not None else [0] * n
    ranked = sorted(range(n), key=lambda i: (-totals[i], -second[i], i))
    order: list[int] = []
    start = 0
    while start < n:
        end = start + 1
        head = ranked[start]
        while (
            end < n and totals[ranked[end]] == totals[head] and second[ranked[end]] == second[head]
        ):
            end += 1
        group = ranked[start:end]
        order.extend(group if len(group) == 1 else _roll_off(group, dice, rolloffs))
        start = end
    return order, rolloffs


def _roll_off(group: list[int], dice: Dice, rolloffs: list[list[int]]) -> list[int]:
    """Order a tied group by pure ambition roll-offs, re-rolling sub-ties among themselves."""
    rolls = {}
    for member in group:
        rolls[member] = dice.roll(AMBITION_DIE)
        rolloffs[member].append(rolls[member])
    result: list[int] = []
    for face in sorted(set(rolls.values()), reverse=True):
        tied = [m for m in group if rolls[m] == face]
        result.extend(tied if len(tied) == 1 else _roll_off(tied, dice, rolloffs))
    return result
