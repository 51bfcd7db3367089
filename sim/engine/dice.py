"""Dice: each combat's own random stream, and dice notation.

Every combat k of a run owns one stream, derived from the scenario seed and k alone with
``numpy.random.SeedSequence`` (spawn key ``(k,)``), so a combat is the same whatever the number
of workers or the chunking. Nothing here touches global random state.

The stream hands out uniform floats from a small buffer filled by NumPy's PCG64 generator; a die
of ``n`` sides reads one float ``u`` as ``int(u * n) + 1``. Float arithmetic is IEEE 754 on every
machine we run on, so the faces are the same everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

_BATCH = 64


def combat_stream(seed: int, combat: int) -> np.random.SeedSequence:
    """The seed sequence of combat ``combat`` of a run seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(combat,))


class Dice:
    """A combat's random stream: dice, percentile rolls and choices.

    Args:
        seed: the run's seed.
        combat: the combat's index in the run.
    """

    __slots__ = ("_buffer", "_generator")

    def __init__(self, seed: int, combat: int) -> None:
        self._generator: np.random.Generator | None = np.random.Generator(
            np.random.PCG64(combat_stream(seed, combat))
        )
        self._buffer: list[float] = []

    @classmethod
    def from_floats(cls, floats: list[float]) -> Dice:
        """A stream that hands out the given floats in order, then fails (for tests)."""
        dice = cls.__new__(cls)
        dice._generator = None
        dice._buffer = list(reversed(floats))
        return dice

    @classmethod
    def from_faces(cls, rolls: list[tuple[int, int]]) -> Dice:
        """A stream whose successive rolls give the listed ``(face, sides)`` pairs (for tests)."""
        return cls.from_floats([(face - 0.5) / sides for face, sides in rolls])

    def uniform(self) -> float:
        """A float in [0, 1)."""
        buffer = self._buffer
        if not buffer:
            if self._generator is None:
                raise RuntimeError("scripted dice stream is exhausted")
            buffer.extend(self._generator.random(_BATCH).tolist())
        return buffer.pop()

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces, 1..sides."""
        buffer = self._buffer
        if not buffer:
            if self._generator is None:
                raise RuntimeError("scripted dice stream is exhausted")
            buffer.extend(self._generator.random(_BATCH).tolist())
        return int(buffer.pop() * sides) + 1

    def rolls(self, count: int, sides: int) -> list[int]:
        """``count`` dice of ``sides`` faces, in the order rolled."""
        return [self.roll(sides) for _ in range(count)]

    def percentile(self) -> int:
        """A d100 roll, 1..100."""
        return self.roll(100)

    def index(self, n: int) -> int:
        """A uniformly chosen index in 0..n-1."""
        return self.roll(n) - 1


_NOTATION = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A roll in dice notation: ``count`` dice of ``sides`` faces plus ``modifier``.

    ``count == 0`` is a constant (``"7"``).
    """

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str | int) -> DiceExpr:
        """Read ``"2d6+3"``, ``"d8"``, ``"1d4-1"`` or a plain number.

        Raises:
            ValueError: with a sentence saying what was expected.
        """
        if isinstance(text, bool):
            raise ValueError("dice notation such as 2d6+3, or a whole number")
        if isinstance(text, int):
            return cls(0, 1, text)
        stripped = str(text).strip()
        if re.fullmatch(r"[+-]?\d+", stripped):
            return cls(0, 1, int(stripped))
        match = _NOTATION.match(stripped)
        if not match or not stripped:
            raise ValueError("dice notation such as 1d8, 2d6+3 or 7")
        count, sides, sign, mod = match.groups()
        modifier = int(mod) * (-1 if sign == "-" else 1) if mod else 0
        if sides is None:
            return cls(0, 1, modifier)
        n = int(count) if count else 1
        s = int(sides)
        if n < 1 or n > 100:
            raise ValueError("dice notation with 1 to 100 dice")
        if s < 2 or s > 1000:
            raise ValueError("dice notation with dice of 2 to 1000 sides")
        return cls(n, s, modifier)

    def roll(self, dice: Dice) -> int:
        """Roll it on a combat's stream."""
        if self.count == 1:
            return dice.roll(self.sides) + self.modifier
        total = self.modifier
        for _ in range(self.count):
            total += dice.roll(self.sides)
        return total

    @property
    def minimum(self) -> int:
        """The lowest possible total."""
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        """The highest possible total."""
        return self.count * self.sides + self.modifier

    @property
    def mean(self) -> float:
        """The expected total."""
        return self.count * (self.sides + 1) / 2 + self.modifier

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"
