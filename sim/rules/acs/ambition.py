"""Ambition: who wins the second and the order of everyone inside each segment.

ACS text, "Ambition" and "Passing through a second": everyone rolls d12 plus their ambition bonus
at the start of each second; the highest wins and takes a free action on segment 1 before anyone
else. On any segment, those acting go in order of ambition; equal ambition is settled by "pure
ambition" roll-offs (a d12 with no bonuses), which change nobody's ambition total.

RULINGS part A: the roll-offs are made once, at the start of the second, and order every segment
of that second; the roll-off that picked the winner counts, so the winner goes first among its
equals. Both the winner and the order come from :func:`ambition_order`, which samples;
:func:`ambition_law` gives the exact law of the order from the same pure steps
(:func:`tied_groups`, :func:`split_ties`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial

from sim.engine.dice import Dice
from sim.engine.distribution import Distribution, rolls

AMBITION_DIE = 12


def ambition_bonus(bonus: int, ready: bool, prepared_bonus: int) -> int:
    """What a combatant adds to its d12 this second: its bonus, and prepared ambition's.

    ACS "Ambition": an attack ready and aimed as the second starts adds ``prepared_bonus``.
    """
    return bonus + prepared_bonus if ready else bonus


def tied_groups(totals: Sequence[int], keys: Sequence[int] | None = None) -> list[list[int]]:
    """The positions grouped by equal ambition, highest first (each group in position order).

    Args:
        totals: each combatant's ambition total (d12 + bonuses), by position.
        keys: an optional second key compared before any roll-off (higher first), e.g. the
            ambition bonus under ``tie_break: ambition_bonus``; only equal totals with equal
            keys are tied.
    """
    n = len(totals)
    second = keys if keys is not None else [0] * n
    ranked = sorted(range(n), key=lambda i: (-totals[i], -second[i], i))
    groups: list[list[int]] = []
    for position in ranked:
        if groups:
            head = groups[-1][0]
            if totals[head] == totals[position] and second[head] == second[position]:
                groups[-1].append(position)
                continue
        groups.append([position])
    return groups


def split_ties(group: Sequence[int], faces: Sequence[int]) -> list[list[int]]:
    """One round of pure roll-offs: ``group`` split by its ``faces`` (by member), highest first.

    Members who rolled the same face stay together, in group order, for the next round.
    """
    return [
        [member for member, face in zip(group, faces, strict=True) if face == value]
        for value in sorted(set(faces), reverse=True)
    ]


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
        # Nobody tied (most seconds): the totals alone give the order (what tied_groups gives:
        # a test holds the two together); no roll-off is rolled.
        return sorted(range(n), key=totals.__getitem__, reverse=True), [[]] * n
    rolloffs: list[list[int]] = [[] for _ in range(n)]
    order: list[int] = []
    for group in tied_groups(totals, keys):
        order.extend(group if len(group) == 1 else _roll_off(group, dice, rolloffs))
    return order, rolloffs


def _roll_off(group: list[int], dice: Dice, rolloffs: list[list[int]]) -> list[int]:
    """Order a tied group by pure ambition roll-offs, re-rolling sub-ties among themselves."""
    faces = [dice.roll(AMBITION_DIE) for _ in group]
    for member, face in zip(group, faces, strict=True):
        rolloffs[member].append(face)
    result: list[int] = []
    for tied in split_ties(group, faces):
        result.extend(tied if len(tied) == 1 else _roll_off(tied, dice, rolloffs))
    return result


@cache
def roll_off_law(size: int) -> Distribution[tuple[int, ...]]:
    """The exact law of the order a tied group of ``size`` leaves its roll-offs in.

    The order is of the group's members by their place in it (0 .. size - 1). One round is
    every face of ``size`` d12 through :func:`split_ties`; a round where all roll alike is
    rolled again, so the law is that of the other rounds (each sub-tie ordered by the same law
    again). It enumerates 12 ** size faces: exact, for the few combatants an exact answer takes.
    """
    if size == 1:
        return Distribution.certain((0,))
    members = tuple(range(size))
    splits = rolls(*(AMBITION_DIE,) * size).map(
        lambda faces: tuple(tuple(part) for part in split_ties(members, faces))
    )
    again = (members,)
    return Distribution.of(
        (order, p * q) for split, p in splits if split != again for order, q in _orders(split)
    )


def _orders(split: tuple[tuple[int, ...], ...]) -> Distribution[tuple[int, ...]]:
    """The law of the order of a split round: its parts in turn, each ordered by roll-offs."""
    law: Distribution[tuple[int, ...]] = Distribution.certain(())
    for part in split:
        law = law.bind(partial(_followed_by, part))
    return law


def _followed_by(part: tuple[int, ...], head: tuple[int, ...]) -> Distribution[tuple[int, ...]]:
    """``head``, then the members of a tied ``part`` in the order of their roll-offs."""
    return roll_off_law(len(part)).map(lambda order: (*head, *(part[i] for i in order)))


def ambition_law(
    bonuses: Sequence[int], keys: Sequence[int] | None = None
) -> Distribution[tuple[int, ...]]:
    """The exact law of the acting order (positions, winner first) of one second's ambition.

    Every face of each combatant's d12 (``bonuses``: what each adds, :func:`ambition_bonus`)
    goes through :func:`tied_groups`; each tied group is ordered by :func:`roll_off_law`.
    """
    n = len(bonuses)

    def order_of(faces: tuple[int, ...]) -> Distribution[tuple[int, ...]]:
        totals = [face + bonus for face, bonus in zip(faces, bonuses, strict=True)]
        return _orders(tuple(tuple(group) for group in tied_groups(totals, keys)))

    return rolls(*(AMBITION_DIE,) * n).bind(order_of)
