"""Exact laws as whole-number weights over one denominator: the chain's working form.

A :class:`~sim.engine.distribution.Distribution` keeps reduced fractions, which is right for an
answer and slow for the inner loop of a chain (every product and sum finds a greatest common
divisor). :class:`Weights` is the same law as integers over a common denominator: composing two
laws multiplies integers, merging equal outcomes adds them, and nothing is reduced until a
:class:`Distribution` is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from sim.engine.distribution import Distribution

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Weights(Generic[T]):
    """A finite law: each outcome's whole-number weight out of ``denominator``.

    The weights add up to ``denominator`` (each outcome once).
    """

    denominator: int
    pairs: tuple[tuple[T, int], ...]

    @classmethod
    def of(cls, law: Distribution[T]) -> Weights[T]:
        """The law of a distribution, over the least common multiple of its denominators."""
        d = math.lcm(*(p.denominator for _, p in law))
        return cls(d, tuple((o, p.numerator * (d // p.denominator)) for o, p in law))

    @classmethod
    def certain(cls, outcome: T) -> Weights[T]:
        """The outcome for sure."""
        return cls(1, ((outcome, 1),))

    @classmethod
    def merged(cls, denominator: int, weighted: Iterable[tuple[T, int]]) -> Weights[T]:
        """Equal outcomes' weights added (they must add up to ``denominator``); zeros dropped."""
        table: dict[T, int] = {}
        for outcome, weight in weighted:
            if weight:
                table[outcome] = table.get(outcome, 0) + weight
        return cls(denominator, tuple(table.items()))

    def map(self, f: Callable[[T], U]) -> Weights[U]:
        """The law of ``f(outcome)``."""
        return Weights.merged(self.denominator, ((f(o), w) for o, w in self.pairs))

    def bind(self, f: Callable[[T], Weights[U]]) -> Weights[U]:
        """The law of a second stage chosen by the first (each stage's own denominator)."""
        inner = [(w, f(o)) for o, w in self.pairs]
        common = math.lcm(*(law.denominator for _, law in inner))
        return Weights.merged(
            self.denominator * common,
            (
                (o, w * v * (common // law.denominator))
                for w, law in inner
                for o, v in law.pairs
            ),
        )

    def distribution(self) -> Distribution[T]:
        """The same law as reduced fractions."""
        return Distribution({o: Fraction(w, self.denominator) for o, w in self.pairs})
