"""Spending wiggle points in Combat Proposition Three.

Implements "you can wiggle your dice back and forth to make pairs or triples" (ADVANTAGES AND
DISADVANTAGES) and the combat wiggle points of ``rules/combat-proposition-three.txt``, with the
spending policy of RULINGS part C ("Wiggle points"): one point moves one die one face up or down,
faces stay in 1..sides, several points may go to one die; the attacker makes its best roll, and
the defender, seeing the attack, defends if it can, else cuts a critical to a standard hit.

The searches are exact, not greedy: they walk the results from best to worst and return the
first one whose cheapest wiggle fits the points. Under ``keep="lowest_three"`` the cheapest way to
make the lowest three dice read ``(x, y, z)`` matches the sorted roll to the sorted target: the
three lowest dice go to ``x, y, z`` and every other die below ``z`` is raised to ``z`` (moving a
die changes which three are the lowest, and this accounts for it). Under ``keep="best_set"``
the cheapest set is formed by neighbours in the sorted roll.

Policies are plain functions registered by name in :data:`ATTACKER_POLICIES` and
:data:`DEFENDER_POLICIES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from sim.rules.prop3.pool import (
    NO_SET,
    NOTHING,
    ONES,
    TRIPLE,
    Result,
    check_keep,
    cut_needs_read_pair,
    pair_third,
    read_roll,
    triple_third,
)

_FAR = 10**9
"""A cost no wiggle reaches (the read-pair search's "impossible")."""


@dataclass(frozen=True, slots=True)
class Wiggled:
    """A roll after spending wiggle points.

    Attributes:
        result: the result the roller counts.
        faces: the wiggled faces, die by die in the order rolled.
        spent: the wiggle points used.
    """

    result: Result
    faces: tuple[int, ...]
    spent: int


class Response(StrEnum):
    """What the defender's wiggling aims at."""

    DEFEND = "defend"
    """A result better than the attack is reachable: the defender counts its best one."""
    REDUCE = "reduce"
    """Against a triple it cannot beat, a pair lower than the triple's face."""
    TIE = "tie"
    """Nothing beats the attack but the best reachable result equals it: re-roll."""
    NONE = "none"
    """Nothing helps (or the attacker fumbled): the defender counts its best result."""


@dataclass(frozen=True, slots=True)
class Defense:
    """The defender's choice: its response and the wiggled roll it counts."""

    response: Response
    wiggled: Wiggled

    @property
    def result(self) -> Result:
        """The result the defender counts."""
        return self.wiggled.result


def _place(faces: Sequence[int], order: Sequence[int], targets: Sequence[int]) -> tuple[int, ...]:
    """Put ``targets`` (for the dice in ``order``, i.e. sorted) back in rolled order."""
    out = list(faces)
    for index, target in zip(order, targets, strict=True):
        out[index] = target
    return tuple(out)


def _wiggled(result: Result, faces: Sequence[int], new: tuple[int, ...]) -> Wiggled:
    spent = sum(abs(a - b) for a, b in zip(faces, new, strict=True))
    return Wiggled(result, new, spent)


def _sorted(faces: Sequence[int]) -> tuple[list[int], list[int]]:
    order = sorted(range(len(faces)), key=lambda i: faces[i])
    return order, [faces[i] for i in order]


def _two_dice_pair(s: Sequence[int], points: int) -> int | None:
    """The lowest pair face two sorted dice reach with ``points``, or None."""
    a, b = s
    if b - a > points:
        return None
    return max(1, -((points - a - b) // 2))


def _ones(faces: Sequence[int], points: int) -> Wiggled | None:
    """A single die or a stat at 1: the lowest die moved down to 1, if the points reach."""
    low = min(range(len(faces)), key=lambda i: faces[i])
    if faces[low] - 1 > points:
        return None
    new = list(faces)
    new[low] = 1
    return _wiggled(ONES, faces, tuple(new))


def _is_small(faces: Sequence[int], only_ones: bool) -> bool:
    """Whether the pool is read without keep rules: 0, 1 or 2 dice, or a stat at 1."""
    return len(faces) <= 2 or only_ones


def _small(faces: Sequence[int], points: int, only_ones: bool) -> Wiggled | None:
    """The best (and only) pair a pool read without keep rules reaches, or None."""
    n = len(faces)
    if n == 0:
        return None
    if n == 1 or only_ones:
        return _ones(faces, points)
    order, s = _sorted(faces)
    face = _two_dice_pair(s, points)
    if face is None:
        return None
    return _wiggled(Result.pair(face), faces, _place(faces, order, (face, face)))


class _LowestThree:
    """Costs of reading exactly a given result from a sorted roll under ``lowest_three``."""

    def __init__(self, s: list[int], sides: int, points: int) -> None:
        self.s = s
        self.rest = s[3:]
        self.sides = sides
        self.points = points

    def below(self, x: int) -> int:
        """Points to raise every die past the lowest three to at least ``x``."""
        return sum(x - v for v in self.rest if v < x)

    def triple_cost(self, t: int) -> int:
        a, b, c = self.s[:3]
        return abs(a - t) + abs(b - t) + abs(c - t) + self.below(t)

    def targets(self, low: tuple[int, int, int]) -> list[int]:
        floor = low[2]
        return [*low, *(max(v, floor) for v in self.rest)]

    def pair(self, p: int, crit_allowed: bool) -> tuple[Result, list[int]] | None:
        """The best pair of ``p`` reachable (best third die), with sorted targets, or None."""
        a, b, c = self.s[:3]
        w = self.points
        rem = w - abs(b - p) - abs(c - p) - self.below(p)
        if rem >= 0 and max(1, a - rem) < p:
            third = max(1, a - rem)
            return Result.pair(p, third), self.targets((third, p, p))
        if not crit_allowed and self.triple_cost(p) <= w:
            return Result.pair(p, p), self.targets((p, p, p))
        rem = w - abs(a - p) - abs(b - p)
        if rem < 0:
            return None
        if p + 1 <= c:
            third = max(p + 1, c - rem)
        elif p + 1 <= self.sides and (p + 1 - c) + self.below(p + 1) <= rem:
            third = p + 1
        else:
            return None
        return Result.pair(p, third), self.targets((p, p, third))

    def best(self, crit_allowed: bool) -> tuple[Result, list[int]] | None:
        if crit_allowed:
            for t in range(1, self.sides + 1):
                if self.triple_cost(t) <= self.points:
                    return Result.triple(t), self.targets((t, t, t))
        return self.lowest_pair(crit_allowed)

    def lowest_pair(self, crit_allowed: bool) -> tuple[Result, list[int]] | None:
        for p in range(1, self.sides + 1):
            found = self.pair(p, crit_allowed)
            if found is not None:
                return found
        return None


class _BestSet:
    """Cheapest sets in a sorted roll under ``best_set``: neighbours in sorted order."""

    def __init__(self, s: list[int], points: int) -> None:
        self.s = s
        self.points = points

    def triple(self) -> tuple[int, int] | None:
        """The lowest reachable triple face and the index of its first die, or None."""
        best = None
        w = self.points
        for j in range(len(self.s) - 2):
            a, b, c = self.s[j : j + 3]
            r = w - (c - a)
            if r < 0:
                continue
            # Cost to move a <= b <= c to t: c - a + (b - t) on [a, b], a + b + c - 3t below a.
            t = b - r if b - r >= a else -((w - a - b - c) // 3)
            t = max(1, t)
            if best is None or t < best[0]:
                best = (t, j)
        return best

    def triple_with_third(self, t: int) -> tuple[int | None, list[int]]:
        """The best tie-breaker of a triple of ``t`` (``triple_tiebreak: lowest_other``).

        Every set of three dice is tried (a pool has at most a few hundred): the set is moved to
        ``t`` and the points left move the lowest other die down. Returns the third die (None
        for a pool of three) and the sorted roll's targets.
        """
        best: tuple[int, list[int]] | None = None
        for chosen in combinations(range(len(self.s)), 3):
            rem = self.points - sum(abs(self.s[i] - t) for i in chosen)
            if rem < 0:
                continue
            targets = list(self.s)
            for i in chosen:
                targets[i] = t
            others = [i for i in range(len(self.s)) if i not in chosen]
            if not others:
                return None, targets
            low = min(others, key=lambda i: self.s[i])
            targets[low] = max(1, self.s[low] - rem)
            if best is None or targets[low] < best[0]:
                best = (targets[low], targets)
        assert best is not None, "the lowest reachable triple has a set that reaches it"
        return best

    def read_pair(self, sides: int) -> tuple[int, list[int]] | None:
        """The lowest pair face a wiggle makes the roll read as, and the targets, or None.

        For ``cut_critical_with: read_pair``: the wiggled roll must show two dice of the face
        and no triple anywhere. Sorted targets match the sorted roll (cheapest for any target
        multiset), so for each face ``p`` the dice below the pair go to faces under ``p`` and
        the dice above it to faces over ``p``, at most two on a face (a dynamic programme over
        those slots); the first ``p`` whose cheapest such roll fits the points wins.
        """
        s, n = self.s, len(self.s)
        for p in range(1, sides + 1):
            low = _slots(s, list(range(1, p)))
            high = _slots(s[::-1], list(range(sides, p, -1)))
            best = None
            for k in range(n - 1):
                cost = low[k][0] + abs(s[k] - p) + abs(s[k + 1] - p) + high[n - k - 2][0]
                if cost <= self.points and (best is None or cost < best[0]):
                    best = (cost, k)
            if best is not None:
                k = best[1]
                below = low[k][1]
                above = high[n - k - 2][1][::-1]
                return p, [*below, p, p, *above]
        return None

    def pair_face(self) -> int | None:
        """The lowest face two dice of the roll reach with the points, or None."""
        faces = [
            face
            for j in range(len(self.s) - 1)
            if (face := _two_dice_pair(self.s[j : j + 2], self.points)) is not None
        ]
        return min(faces) if faces else None

    def nearest_two(self, p: int, skip: int) -> tuple[int, tuple[int, int]]:
        """The cost and indices of the two dice nearest ``p``, leaving out index ``skip``."""
        near = sorted((abs(v - p), i) for i, v in enumerate(self.s) if i != skip)
        (d1, i1), (d2, i2) = near[:2]
        return d1 + d2, (i1, i2)

    def pair(self, p: int) -> tuple[int, list[int]]:
        """The best third die for a pair of ``p``, and the sorted roll's targets."""
        best = None
        for z in range(3):
            cost, (i1, i2) = self.nearest_two(p, z)
            rem = self.points - cost
            if rem < 0:
                continue
            third = max(1, self.s[z] - rem)
            if best is None or third < best[0]:
                best = (third, z, i1, i2)
        assert best is not None, "a reachable pair always leaves a third die"
        third, z, i1, i2 = best
        targets = list(self.s)
        targets[i1] = targets[i2] = p
        targets[z] = third
        return third, targets


def _slots(s: Sequence[int], faces: list[int]) -> list[tuple[int, list[int]]]:
    """Cheapest moves of the first ``k`` dice of ``s`` onto ``faces``, at most two dice a face.

    ``s`` and ``faces`` run the same way (both up, or both down). Returns, for every ``k``, the
    cost and the targets (``_FAR`` and [] if the slots are too few).
    """
    slots = [face for face in faces for _ in range(2)]
    # cost[j][i]: the first i dice on the first j slots, in order (a monotone matching).
    n, m = len(s), len(slots)
    cost = [[0] + [_FAR] * n]
    for j in range(1, m + 1):
        row = [0] * (n + 1)
        prev = cost[-1]
        for i in range(1, n + 1):
            row[i] = min(prev[i], prev[i - 1] + abs(s[i - 1] - slots[j - 1]))
        cost.append(row)
    out: list[tuple[int, list[int]]] = []
    for k in range(n + 1):
        if cost[m][k] >= _FAR:
            out.append((_FAR, []))
            continue
        targets: list[int] = []
        i, j = k, m
        while i > 0:
            if cost[j][i] == cost[j - 1][i]:
                j -= 1
            else:
                targets.append(slots[j - 1])
                i, j = i - 1, j - 1
        out.append((cost[m][k], targets[::-1]))
    return out


def best_roll(
    faces: Sequence[int],
    sides: int,
    points: int,
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
) -> Wiggled:
    """The attacker's best roll: the best result reachable with at most ``points`` wiggle points.

    Args:
        faces: the rolled faces.
        sides: the die size (faces stay in 1..sides).
        points: the wiggle points available (0 or more).
        keep: ``"lowest_three"`` or ``"best_set"``.
        crit_allowed: False for a stat at 2.
        only_ones: True for a stat at 1.

    Returns:
        The best result, with the wiggled faces (unchanged if nothing is reachable).
    """
    check_keep(keep)
    if points < 0:
        raise ValueError("wiggle points cannot be negative")
    if _is_small(faces, only_ones):
        return _small(faces, points, only_ones) or Wiggled(NOTHING, tuple(faces), 0)
    order, s = _sorted(faces)
    if keep == "lowest_three":
        found = _LowestThree(s, sides, points).best(crit_allowed)
        if found is None:
            return Wiggled(NOTHING, tuple(faces), 0)
        result, targets = found
        return _wiggled(result, faces, _place(faces, order, targets))
    search = _BestSet(s, points)
    if crit_allowed and (triple := search.triple()) is not None:
        t, j = triple
        if triple_third(keep):
            third, targets = search.triple_with_third(t)
            return _wiggled(Result.triple(t, third), faces, _place(faces, order, targets))
        targets = list(s)
        targets[j : j + 3] = [t, t, t]
        return _wiggled(Result.triple(t), faces, _place(faces, order, targets))
    p = search.pair_face()
    if p is None:
        return Wiggled(NOTHING, tuple(faces), 0)
    third, targets = search.pair(p)
    return _wiggled(Result.pair(p, third), faces, _place(faces, order, targets))


def lowest_pair(
    faces: Sequence[int],
    sides: int,
    points: int,
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
) -> Wiggled | None:
    """The pair with the lowest face the roller can count after wiggling, or None.

    This is what a defender needs to cut a critical to a standard hit. Under ``lowest_three``
    the wiggled roll must read as that pair. Under ``best_set`` the defender may count any pair
    its pool shows, even if the pool also shows a (losing) triple: a pool of 2, 2, 6, 6, 6
    against triple 5s cuts the critical with its pair of 2s, as it would under ``lowest_three``;
    with ``cut_critical_with: read_pair`` (``pool.reading``) it must wiggle its roll to read as
    the pair (here, break the triple of 6s).
    """
    check_keep(keep)
    if _is_small(faces, only_ones):
        return _small(faces, points, only_ones)
    order, s = _sorted(faces)
    if keep == "lowest_three":
        found = _LowestThree(s, sides, points).lowest_pair(crit_allowed)
        if found is None:
            return None
        result, targets = found
        return _wiggled(result, faces, _place(faces, order, targets))
    search = _BestSet(s, points)
    if crit_allowed and cut_needs_read_pair(keep):
        read = search.read_pair(sides)
        if read is None:
            return None
        new = _place(faces, order, read[1])
        return _wiggled(read_roll(new, keep=keep, crit_allowed=crit_allowed), faces, new)
    p = search.pair_face()
    if p is None:
        return None
    _, (i1, i2) = search.nearest_two(p, -1)
    targets = list(s)
    targets[i1] = targets[i2] = p
    new = _place(faces, order, targets)
    return _wiggled(Result.pair(p, pair_third(new, p)), faces, new)


def respond(attack: Result, best: Result, low_face: int, cuts: str = "cut") -> Response:
    """What the defender aims at, seeing the attack, from what its roll reaches.

    Defend if its best reachable result beats the attack; otherwise, against a triple, cut the
    critical to a standard hit if its lowest pair is lower than the triple's face; otherwise count
    its best result, which may tie (a re-roll). ``cuts`` (``pool.CUTS``): ``tie`` takes a
    reachable tie before a cut, ``never`` never cuts. Against a fumble nothing helps.

    Args:
        attack: the attacker's (wiggled) result.
        best: the best result the defender's roll reaches with its points.
        low_face: the face of the lowest pair it can count with them (0: none).
        cuts: ``cut``, ``tie`` or ``never``.
    """
    if attack.kind == NO_SET:
        return Response.NONE
    if best > attack:
        return Response.DEFEND
    if cuts == "tie" and best == attack:
        return Response.TIE
    if attack.kind == TRIPLE and cuts != "never" and 0 < low_face < attack.face:
        return Response.REDUCE
    if best == attack:
        return Response.TIE
    return Response.NONE


def best_response(
    attack: Result,
    faces: Sequence[int],
    sides: int,
    points: int,
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
    cuts: str = "cut",
) -> Defense:
    """The defender's best response to an attack result it has seen (:func:`respond`).

    Counting the best reachable result (so a triple makes a critical defense), or the lowest pair
    to cut a critical; against a fumble nothing is spent.

    Args:
        attack: the attacker's (wiggled) result.
        faces: the defender's rolled faces.
        sides: the defender's die size.
        points: the defender's wiggle points.
        keep: ``"lowest_three"`` or ``"best_set"``.
        crit_allowed: False for a defender's stat at 2.
        only_ones: True for a defender's stat at 1.
        cuts: ``cut``, ``tie`` or ``never`` (options ``cut_or_tie``, ``critical_always_wins``).
    """
    if attack.kind == NO_SET:
        read = read_roll(faces, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones)
        return Defense(Response.NONE, Wiggled(read, tuple(faces), 0))
    best = best_roll(
        faces, sides, points, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones
    )
    low = None
    if attack.kind == TRIPLE and cuts != "never":
        low = lowest_pair(
            faces, sides, points, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones
        )
    response = respond(attack, best.result, 0 if low is None else low.result.face, cuts)
    if response == Response.REDUCE:
        assert low is not None, "a cut needs a pair"
        return Defense(response, low)
    return Defense(response, best)


AttackerPolicy = Callable[..., Wiggled]
DefenderPolicy = Callable[..., Defense]

ATTACKER_POLICIES: dict[str, AttackerPolicy] = {"best": best_roll}
"""Attacker spending policies by name: ``policy(faces, sides, points, **reading) -> Wiggled``."""

DEFENDER_POLICIES: dict[str, DefenderPolicy] = {"best": best_response}
"""Defender policies by name: ``policy(attack, faces, sides, points, **reading) -> Defense``."""
