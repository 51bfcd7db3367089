"""Action dice: on which segments of a second each combatant acts.

ACS text, "Determining when a character/event takes action in a second" and "For larger
creatures": one die per action; the face is the segment. Normal-sized and smaller creatures roll
d10. Gigantic creatures (over 15 ft) roll d4 for one action (segments 7-10), d6 for two
(segments 5-10), d8 for three (segments 3-10) and d10 from four actions up.

Two dice on one segment: the later one is re-rolled or slid "to the next highest available open
segment", never lower. RULINGS part A makes this the option ``duplicates`` (default ``slide``:
slide within the die's range, re-roll if nothing is open above; ``reroll``: re-roll until open).
The skill "simultaneous actions" lets two actions share a segment when their combined
concentration is at most 5.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from sim.engine.distribution import Distribution, rolls

SEGMENTS = 10
MAX_CONCENTRATION = 5
DUPLICATES = ("slide", "reroll")


@dataclass(frozen=True, slots=True)
class ActionDie:
    """The die a combatant rolls for its actions and the segments its faces stand for."""

    sides: int
    offset: int

    @property
    def first_segment(self) -> int:
        """The earliest segment a face can give."""
        return self.offset + 1

    def segment(self, face: int) -> int:
        """The segment a face stands for (a giant's d4 face 2 is segment 8)."""
        return face + self.offset


def action_die(actions: int, giant: bool = False) -> ActionDie:
    """The action die for a combatant with ``actions`` actions per second.

    Args:
        actions: actions per second, 1 or more.
        giant: a gigantic creature (over 15 ft tall).
    """
    if not giant or actions >= 4:
        return ActionDie(10, 0)
    sides = {1: 4, 2: 6, 3: 8}[actions]
    return ActionDie(sides, SEGMENTS - sides)


def action_dice(die: ActionDie, actions: int) -> tuple[int, ...]:
    """The dice a combatant rolls each second: one ``die`` per action, by their sides."""
    return (die.sides,) * actions


def claim(
    faces: Sequence[int], die: ActionDie, per_segment: int = 1
) -> tuple[dict[int, int], list[int]]:
    """Every die takes the segment it shows while there is room (the text's first step).

    Returns:
        The actions held by each segment, and the segments of the dice left over (the
        duplicates), in the order rolled.
    """
    count: dict[int, int] = {}
    duplicates: list[int] = []
    for face in faces:
        segment = die.segment(face)
        if count.get(segment, 0) < per_segment:
            count[segment] = count.get(segment, 0) + 1
        else:
            duplicates.append(segment)
    return count, duplicates


def slide_to(
    count: Mapping[int, int], start: int, die: ActionDie, per_segment: int = 1
) -> int | None:
    """The next higher segment of the die's range with room, above ``start`` (None: none)."""
    for candidate in range(start + 1, die.offset + die.sides + 1):
        if count.get(candidate, 0) < per_segment:
            return candidate
    return None


def open_segments(count: Mapping[int, int], die: ActionDie, per_segment: int = 1) -> list[int]:
    """The segments of the die's range with room: where a re-rolled duplicate may land.

    A duplicate is re-rolled until it shows one of these, so each is equally likely.
    """
    segments = range(die.first_segment, die.offset + die.sides + 1)
    return [segment for segment in segments if count.get(segment, 0) < per_segment]


def place_actions(
    faces: list[int],
    die: ActionDie,
    roll: Callable[[int], int],
    duplicates: str = "slide",
    per_segment: int = 1,
) -> tuple[list[int], list[tuple[str, int, int]]]:
    """Turn action-die faces into segments, resolving duplicates.

    Every die first takes the segment it shows (:func:`claim`); then each die whose segment was
    already full is moved, in the order rolled: slid (:func:`slide_to`), or re-rolled until it
    lands on a segment with room (:func:`open_segments`).

    Args:
        faces: the faces rolled, in order.
        die: the action die they were rolled on.
        roll: rolls one face of a die with the given number of sides (``Dice.roll``; used
            only when a die must be re-rolled).
        duplicates: ``"slide"`` (next higher open segment in range, else re-roll) or
            ``"reroll"`` (re-roll until it lands on an open segment).
        per_segment: how many actions one segment may hold (2 with simultaneous actions).

    Returns:
        The segments, sorted, and a log of moves ``(how, from_segment, to_segment)``.

    Raises:
        ValueError: more actions than the die's segments can hold.
    """
    if len(faces) > die.sides * per_segment:
        raise ValueError(f"{len(faces)} actions do not fit on a d{die.sides}")
    # Every die first claims the segment it shows; only then do the duplicates move, so a
    # duplicate slides past segments other dice rolled (the text's 3, 3, 4, 8 -> 3, 4, 5, 8).
    count, waiting = claim(faces, die, per_segment)
    log: list[tuple[str, int, int]] = []
    for start in waiting:
        moved = slide_to(count, start, die, per_segment) if duplicates == "slide" else None
        if moved is not None:
            log.append(("slide", start, moved))
        else:
            moved = die.segment(roll(die.sides))
            while count.get(moved, 0) >= per_segment:
                moved = die.segment(roll(die.sides))
            log.append(("reroll", start, moved))
        count[moved] = count.get(moved, 0) + 1
    return _sorted_segments(count), log


def _sorted_segments(count: Mapping[int, int]) -> list[int]:
    """The segments of the actions placed, sorted (a segment twice if it holds two)."""
    return sorted(segment for segment, held in count.items() for _ in range(held))


def segments_law(
    die: ActionDie, actions: int, duplicates: str = "slide", per_segment: int = 1
) -> Distribution[tuple[int, ...]]:
    """The exact law of a combatant's segments in a second (sorted), as :func:`place_actions`.

    Every face of its ``actions`` dice goes through :func:`claim`; each duplicate in turn
    through :func:`slide_to`, or, re-rolled, to each of :func:`open_segments` alike.

    Raises:
        ValueError: more actions than the die's segments can hold.
    """
    if actions > die.sides * per_segment:
        raise ValueError(f"{actions} actions do not fit on a d{die.sides}")

    def placed(faces: tuple[int, ...]) -> Distribution[tuple[int, ...]]:
        count, waiting = claim(faces, die, per_segment)
        law = Distribution.certain(tuple(_sorted_segments(count)))
        for start in waiting:
            law = law.bind(partial(landed, start))
        return law

    def landed(start: int, taken: tuple[int, ...]) -> Distribution[tuple[int, ...]]:
        """Where the duplicate from ``start`` lands, the segments ``taken`` already placed."""
        count = Counter(taken)
        slid = slide_to(count, start, die, per_segment) if duplicates == "slide" else None
        landings = [slid] if slid is not None else open_segments(count, die, per_segment)
        return Distribution.uniform(tuple(sorted((*taken, landing))) for landing in landings)

    return rolls(*action_dice(die, actions)).bind(placed)


def roll_action_segments(
    die: ActionDie,
    dice: tuple[int, ...],
    roll: Callable[[int], int],
    duplicates: str = "slide",
    per_segment: int = 1,
) -> tuple[list[int], list[int], list[tuple[str, int, int]]]:
    """Roll a combatant's action dice for one second and place them (what the ACS clock calls).

    Args:
        die: the combatant's action die (:func:`action_die`).
        dice: the sides of each die rolled this second, one die per action, rolled in order
            (:func:`action_dice`: ``die.sides`` once per action, made once per combatant).
        roll: rolls one face of a die with the given number of sides on the combat's stream
            (``Dice.roll``, taken once by the caller); a duplicate's re-rolls come from it
            too, after all faces.
        duplicates: ``"slide"`` or ``"reroll"`` (see :func:`place_actions`).
        per_segment: how many actions one segment may hold.

    Returns:
        The segments (sorted), the faces first rolled, and the log of duplicate moves.
    """
    faces = list(map(roll, dice))
    actions = len(faces)
    if actions == 1 or len(set(faces)) == actions:
        # No two dice on one segment (most seconds): each die keeps the segment it shows, as
        # place_actions gives (a test holds the two together), and nothing more is rolled.
        offset = die.offset
        return sorted([face + offset for face in faces] if offset else faces), faces, []
    segments, log = place_actions(faces, die, roll, duplicates, per_segment)
    return segments, faces, log
