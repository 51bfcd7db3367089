"""Pool sizing, reading a roll and resolving an attack in Combat Proposition Three.

Implements "THE CORE MECHANIC", the stat passages on stats at 2 and 1, "ADVANTAGES AND
DISADVANTAGES" (a disadvantage takes a die) and "CRITICAL HITS, DODGES, AND FAILURES" of
``rules/combat-proposition-three.txt``, as read in RULINGS part C ("Pool", "Reading a roll",
"Resolving an attack"). A roll is read into a :class:`Result` with a total order (higher is
better for the roller), so that wiggling, the exact calculator and the engine all compare rolls
the same way; :func:`resolve` turns an attack result and a defense result into an
:class:`Outcome`.

Options (RULINGS part C): ``keep`` is ``"lowest_three"`` (default: the text's "keep the lowest
three dice") or ``"best_set"`` (the best triple or lowest pair anywhere in the pool counts, which
is how the combat examples come out as printed). The stat rules are the flags ``crit_allowed``
(False for a stat at 2) and ``only_ones`` (True for a stat at 1); :func:`can_crit` and
:func:`only_ones` derive them from the stat.

Two more readings apply under ``best_set`` only (RULINGS part C), and travel with it in the
``keep`` argument of every pure function, named by :func:`reading` (so that the fight's caches and
the exact tables key on them with no extra argument): ``triple_tiebreak: lowest_other`` gives a
triple the lowest die outside the set as a tie-breaker (``reroll``, the default: two equal triples
tie and re-roll), and ``cut_critical_with: read_pair`` lets a defender cut an attacking triple
only with a roll that reads as a pair (``any_pair``, the default: any pair its pool shows, even
beside a losing triple). Under ``lowest_three`` both are moot: only the three kept dice are read,
so a triple has no other die and a kept pair is what the roll reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from sim.engine.dice import Dice

KEEP_MODES = ("lowest_three", "best_set")
"""The values of the ``keep`` option; the first is the default."""

TRIPLE_TIEBREAKS = ("reroll", "lowest_other")
"""The values of the ``triple_tiebreak`` option (under ``best_set``); the first is the default."""

CUT_CRITICAL_WITH = ("any_pair", "read_pair")
"""The values of the ``cut_critical_with`` option (under ``best_set``); the first is the default."""

LOWEST_OTHER = "+lowest_other"
READ_PAIR = "+read_pair"
READINGS = (
    "lowest_three",
    "best_set",
    "best_set" + LOWEST_OTHER,
    "best_set" + READ_PAIR,
    "best_set" + LOWEST_OTHER + READ_PAIR,
)
"""Every reading a ``keep`` argument may name: a keep mode with the ``best_set`` options."""


def reading(keep: str, triple_tiebreak: str = "reroll", cut_critical_with: str = "any_pair") -> str:
    """The ``keep`` argument of the pure functions for the three reading options.

    Under ``lowest_three`` the ``best_set`` options change nothing (module docstring), so the
    reading is ``lowest_three`` whatever they say.

    Raises:
        ValueError: for an unknown value of any of the three.
    """
    check_keep(keep)
    if triple_tiebreak not in TRIPLE_TIEBREAKS:
        raise ValueError(f"unknown triple_tiebreak {triple_tiebreak!r}")
    if cut_critical_with not in CUT_CRITICAL_WITH:
        raise ValueError(f"unknown cut_critical_with {cut_critical_with!r}")
    if keep == "lowest_three":
        return keep
    tiebreak = LOWEST_OTHER if triple_tiebreak == "lowest_other" else ""
    cut = READ_PAIR if cut_critical_with == "read_pair" else ""
    return keep + tiebreak + cut


PROFICIENCY_DIE = {"excellent": 4, "good": 6, "average": 8, "fair": 10, "poor": 12}
"""Die size by proficiency (the text: "Poor at d12 to Excellent at d4")."""

MAX_FACE = 99
"""The largest face a :class:`Result` can name (its rank packs faces in two digits)."""


def die_for(proficiency: str) -> int:
    """The number of sides of the die rolled with a proficiency.

    Args:
        proficiency: ``"excellent"``, ``"good"``, ``"average"``, ``"fair"`` or ``"poor"``.

    Raises:
        ValueError: for any other word.
    """
    try:
        return PROFICIENCY_DIE[proficiency]
    except KeyError:
        names = ", ".join(PROFICIENCY_DIE)
        raise ValueError(f"unknown proficiency {proficiency!r}; expected one of {names}") from None


def pool_size(
    stat: int, *, size: int = 0, vigor: bool = False, disadvantages: int = 0, lost: int = 0
) -> int:
    """The number of dice rolled for a check: the stat, adjusted, never below zero.

    A stat of 0 (or less) rolls nothing: the text makes it death, paralysis or a coma.

    Args:
        stat: the stat used (Vigor, Agility, Mind or Spirit), usually 1..12.
        size: the roller's size category (0 = hamster-sized); only counts for Vigor checks,
            one die per category above 0, minus one per category below.
        vigor: whether the check is a Vigor check.
        disadvantages: disadvantages on the sub-stat used, one die each.
        lost: dice lost to anything else (poor forms, weapons or armor, range, size...).
    """
    return stat_dice(stat, dice_offset(size=size, vigor=vigor, disadvantages=disadvantages) - lost)


def dice_offset(*, size: int, vigor: bool, disadvantages: int) -> int:
    """Dice a check gets on top of its stat: size on Vigor checks, minus the disadvantages.

    The fight sums it once per roll of a combatant (``character.Profile.offset``).
    """
    return (size if vigor else 0) - disadvantages


def stat_dice(stat: int, offset: int) -> int:
    """The dice of a check: the stat plus ``offset`` (size, disadvantages, losses), at least 0.

    The one copy of :func:`pool_size` that the fight calls, with the stat's offsets summed
    ahead (``character.Profile.offset``).
    """
    if stat <= 0:
        return 0
    count = stat + offset
    return count if count > 0 else 0


def can_crit(stat: int) -> bool:
    """Whether a check tied to ``stat`` may be a critical (not with the stat at 2 or below)."""
    return stat > 2


def only_ones(stat: int) -> bool:
    """Whether a check tied to ``stat`` succeeds only on rolling a 1 (the stat at 1)."""
    return stat <= 1


class Pool(NamedTuple):
    """One side's pool, ready to roll (immutable and hashable: the exact tables key on it).

    Attributes:
        roll: the roll index (``character.BASH`` ... ``character.INITIATIVE``: which skill,
            which stat, which persistent points may help).
        dice: how many dice, after forms, weapon, armor, range, size and effects.
        sides: the die.
        wiggle: the fresh combat wiggle points of this roll.
        crit_allowed: the roll's stat allows a critical (not at 2 or below).
        only_ones: the roll's stat is at 1: a success only on a 1.
    """

    roll: int
    dice: int
    sides: int
    wiggle: int
    crit_allowed: bool
    only_ones: bool


class Kind(IntEnum):
    """The class of a read roll, worst first."""

    NOTHING = 0
    PAIR = 1
    TRIPLE = 2


#: The kinds under the short names the rule functions use (``NO_SET``: no pair or triple).
NO_SET, PAIR, TRIPLE = Kind.NOTHING, Kind.PAIR, Kind.TRIPLE

KIND_BASE = 1_000_000
"""A result's rank: ``kind * KIND_BASE + (100 - face) * FACE_BASE + third part``."""
FACE_BASE = 1_000


@dataclass(frozen=True, slots=True)
class Result:
    """A read roll. Results are totally ordered: ``a < b`` means ``a`` is worse for its roller.

    Any triple beats any pair beats nothing; a lower triple beats a higher one; a lower pair beats
    a higher one, then the lower third die wins, and a pair without a third die (a pool of two
    dice, a single die, a stat at 1) loses to an equal pair that has one. Equal results are a
    full tie, which the caller re-rolls. A triple has a third die only under ``best_set`` with
    ``triple_tiebreak: lowest_other`` (the lowest die outside the set), ordered the same way.

    Attributes:
        kind: nothing, pair or triple.
        face: the face of the pair or triple (0 for nothing).
        third: the tie-breaking die, or None if there is none.
        rank: an integer with the same order as the results (higher is better), worked out
            once when the result is made; the exact tables hold results as ranks.
    """

    kind: Kind
    face: int = 0
    third: int | None = None
    rank: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind == NO_SET:
            if self.face != 0 or self.third is not None:
                raise ValueError("a result of nothing has no face and no third die")
            rank = 0
        elif not 1 <= self.face <= MAX_FACE:
            raise ValueError(f"face {self.face} out of range 1..{MAX_FACE}")
        else:
            third = 0 if self.third is None else 100 - self.third
            rank = int(self.kind) * KIND_BASE + (100 - self.face) * FACE_BASE + third
        if self.third is not None and not 1 <= self.third <= MAX_FACE:
            raise ValueError(f"third die {self.third} out of range 1..{MAX_FACE}")
        object.__setattr__(self, "rank", rank)

    @classmethod
    def pair(cls, face: int, third: int | None = None) -> Result:
        """A pair of ``face`` with ``third`` as tie-breaker."""
        return cls(PAIR, face, third)

    @classmethod
    def triple(cls, face: int, third: int | None = None) -> Result:
        """A triple of ``face`` (with ``third`` as tie-breaker under ``lowest_other``)."""
        return cls(TRIPLE, face, third)

    @classmethod
    def from_rank(cls, rank: int) -> Result:
        """The result whose :attr:`rank` is ``rank``."""
        kind = Kind(rank // KIND_BASE)
        if kind == NO_SET:
            return NOTHING
        face = 100 - (rank % KIND_BASE) // FACE_BASE
        third = rank % FACE_BASE
        return cls(kind, face, None if third == 0 else 100 - third)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.rank >= other.rank

    def __str__(self) -> str:
        if self.kind == NO_SET:
            return "nothing"
        if self.kind == TRIPLE:
            return f"triple {self.face}s" + (
                "" if self.third is None else f", third die {self.third}"
            )
        third = "no third die" if self.third is None else f"third die {self.third}"
        return f"pair of {self.face}s, {third}"


NOTHING = Result(NO_SET)
"""The result of a roll with no pair: a failure."""

ONES = Result.pair(1)
"""The only success of a single die or of a stat at 1: the lowest pair, with no third die."""


def check_keep(keep: str) -> None:
    """Raise ValueError unless ``keep`` is one of :data:`READINGS`.

    That is a keep mode, or ``best_set`` with its options (see :func:`reading`).
    """
    if keep not in READINGS:
        raise ValueError(f"unknown keep mode {keep!r}; expected one of {', '.join(KEEP_MODES)}")


def triple_third(keep: str) -> bool:
    """Whether a triple read under ``keep`` has a tie-breaker (``triple_tiebreak``)."""
    return LOWEST_OTHER in keep


def cut_needs_read_pair(keep: str) -> bool:
    """Whether only a roll that reads as a pair cuts a critical (``cut_critical_with``)."""
    return READ_PAIR in keep


def read_roll(
    faces: Sequence[int],
    *,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
) -> Result:
    """Read a rolled (or wiggled) pool into a :class:`Result`.

    Args:
        faces: the faces of the pool, in any order.
        keep: ``"lowest_three"``, ``"best_set"`` or a ``best_set`` reading (:func:`reading`).
        crit_allowed: False for a stat at 2: a triple counts as a pair of its face, with that
            face as third die (under ``best_set``: the lowest pair, the lowest other die third).
        only_ones: True for a stat at 1: the roll succeeds, as :data:`ONES`, only if a die
            shows 1. A single die is always read this way; no dice read as nothing.
    """
    check_keep(keep)
    n = len(faces)
    if n == 0:
        return NOTHING
    if n == 1 or only_ones:
        return ONES if min(faces) == 1 else NOTHING
    if n == 2:
        a, b = faces
        return Result.pair(a) if a == b else NOTHING
    if keep == "lowest_three":
        a, b, c = sorted(faces)[:3]
        if a == c:
            return Result.triple(a) if crit_allowed else Result.pair(a, a)
        if a == b:
            return Result.pair(a, c)
        if b == c:
            return Result.pair(b, a)
        return NOTHING
    counts = Counter(faces)
    if crit_allowed:
        triples = [face for face, count in counts.items() if count >= 3]
        if triples:
            face = min(triples)
            if not triple_third(keep):
                return Result.triple(face)
            return Result.triple(face, set_third(faces, face, 3))
    pairs = [face for face, count in counts.items() if count >= 2]
    if not pairs:
        return NOTHING
    face = min(pairs)
    return Result.pair(face, pair_third(faces, face))


def pair_third(faces: Sequence[int], face: int) -> int | None:
    """The lowest die of ``faces`` other than two dice showing ``face`` (None if there is none)."""
    return set_third(faces, face, 2)


def set_third(faces: Sequence[int], face: int, size: int) -> int | None:
    """The lowest die of ``faces`` outside a set of ``size`` dice showing ``face`` (or None)."""
    rest = sorted(faces)
    for _ in range(size):
        rest.remove(face)
    return rest[0] if rest else None


def roll_pool(dice: Dice, count: int, sides: int) -> tuple[int, ...]:
    """Roll a pool of ``count`` dice of ``sides`` faces on a combat's stream."""
    return tuple(dice.rolls(count, sides))


class Outcome(StrEnum):
    """What an attack comes to (RULINGS part C, "Resolving an attack")."""

    FUMBLE = "fumble"
    """The attacker has no pair: a critical failure; the caller rolls the fumble d6."""
    DEFENDED = "defended"
    CRITICAL_DEFENSE = "critical_defense"
    """The defender's triple beats the attack (its effect depends on the defense form)."""
    HIT = "hit"
    CRITICAL_HIT = "critical_hit"
    CRIT_REDUCED = "crit_reduced"
    """An attacker triple cut to a standard hit by a defender pair lower than its face."""
    TIE = "tie"
    """A full tie: the caller re-rolls both sides."""


#: The outcomes under short names (as :data:`NO_SET`).
FUMBLE, DEFENDED, CRITICAL_DEFENSE = Outcome.FUMBLE, Outcome.DEFENDED, Outcome.CRITICAL_DEFENSE
HIT, CRITICAL_HIT, CRIT_REDUCED, TIE = (
    Outcome.HIT,
    Outcome.CRITICAL_HIT,
    Outcome.CRIT_REDUCED,
    Outcome.TIE,
)

CUTS = ("cut", "tie", "never")
"""How a defender pair meets an attacking triple (options ``critical_always_wins`` and
``cut_or_tie``): a pair lower than the triple's face cuts it to a standard hit, and a defender who
could cut it or tie it cuts (``cut``, the default) or ties (``tie``); or no pair ever cuts it
(``never``: "a critical success always wins")."""


FAILED_DEFENSES = frozenset({Outcome.HIT, Outcome.CRITICAL_HIT, Outcome.CRIT_REDUCED})
"""The outcomes in which the attack lands (a missile defense may still be saved by armor)."""


def resolve(attack: Result, defense: Result, cuts: str = "cut") -> Outcome:
    """Resolve an attack result against the defense result the defender chose.

    Attacker with no pair: fumble. Attacker pair: the defender is hit unless its result is
    better (a triple is a critical defense). Attacker triple: a lower triple is a critical
    defense; a pair lower than the triple's face cuts it to a standard hit (unless ``cuts`` is
    ``never``, see :data:`CUTS`); anything else takes a critical hit. Equal results are a tie,
    re-rolled by the caller.
    """
    if attack.kind == NO_SET:
        return FUMBLE
    if defense > attack:
        return CRITICAL_DEFENSE if defense.kind == TRIPLE else DEFENDED
    if defense == attack:
        return TIE
    if attack.kind == PAIR:
        return HIT
    if defense.kind == PAIR and defense.face < attack.face and cuts != "never":
        return CRIT_REDUCED
    return CRITICAL_HIT
