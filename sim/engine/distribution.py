"""Exact laws of chance: each outcome of an exchange with its probability, as a fraction.

An exchange of a rule system (an attack, a defense, a pool against a pool) is a pure function
of its inputs and the dice. Applied to every face of the dice, each weighted by its chance, it
gives the exchange's exact distribution of outcomes: the table the exact engine sums over, and
that a sampler may draw from with one random number (icepool's ``Die`` is such a mapping of
outcomes to weights). Nothing here knows a rule: outcomes are any hashable values.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")

#: What a weight may be given as; probabilities are always kept as :class:`Fraction`.
Weight = int | Fraction


@dataclass(frozen=True, eq=False)
class Distribution(Generic[T]):
    """A finite law: every outcome once, in first-seen order, with a positive exact probability.

    Build one with :meth:`of` (weights, merged and normalized), :meth:`uniform`,
    :meth:`certain` or :func:`rolls`; read it by iterating ``(outcome, probability)`` pairs.
    """

    table: Mapping[T, Fraction]

    @classmethod
    def of(cls, weighted: Iterable[tuple[T, Weight]]) -> Distribution[T]:
        """The law of outcomes with these weights: equal outcomes merged, zeros dropped.

        Raises:
            ValueError: no positive weight, or a negative one.
        """
        merged: dict[T, Fraction] = {}
        for outcome, weight in weighted:
            if weight < 0:
                raise ValueError(f"negative weight {weight} for {outcome!r}")
            if weight:
                before = merged.get(outcome)
                merged[outcome] = Fraction(weight) if before is None else before + weight
        total = sum(merged.values(), Fraction(0))
        if not total:
            raise ValueError("a distribution needs at least one outcome of positive weight")
        if total == 1:  # already a law (a product of laws, say): nothing to divide
            return cls(merged)
        return cls({outcome: weight / total for outcome, weight in merged.items()})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Each outcome equally likely (a repeated outcome counts as often as it is listed)."""
        return cls.of((outcome, 1) for outcome in outcomes)

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        """The outcome for sure."""
        return cls({outcome: Fraction(1)})

    def __iter__(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self.table.items())

    def __len__(self) -> int:
        return len(self.table)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and dict(self.table) == dict(other.table)

    __hash__ = None  # type: ignore[assignment]  # a mapping: equal by value, not hashable

    def __repr__(self) -> str:
        shown = ", ".join(f"{outcome!r}: {p}" for outcome, p in self.table.items())
        return f"Distribution({{{shown}}})"

    @property
    def outcomes(self) -> tuple[T, ...]:
        """The outcomes, in order."""
        return tuple(self.table)

    def probability(self, which: T | Callable[[T], bool]) -> Fraction:
        """The chance of one outcome, or of every outcome a predicate accepts."""
        if callable(which):
            return sum((p for outcome, p in self.table.items() if which(outcome)), Fraction(0))
        return self.table.get(which, Fraction(0))

    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """The law of ``f(outcome)``: outcomes with equal images merged."""
        return Distribution.of((f(outcome), p) for outcome, p in self.table.items())

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """The law of a second stage chosen by the first: ``f(outcome)`` weighted by its chance."""
        return Distribution.of(
            (second, p * q) for outcome, p in self.table.items() for second, q in f(outcome)
        )

    def expectation(self, f: Callable[[T], Weight] | None = None) -> Fraction:
        """The exact mean of ``f(outcome)`` (of the outcome itself when ``f`` is None)."""
        value = f if f is not None else (lambda outcome: outcome)
        return sum((p * Fraction(value(o)) for o, p in self.table.items()), Fraction(0))

    def sampler(self) -> Sampler[T]:
        """A table to draw outcomes from with one uniform number each (:class:`Sampler`)."""
        return Sampler(self)


class Sampler(Generic[T]):
    """Draws an outcome of a distribution from one uniform number in [0, 1).

    The cumulative probabilities are worked out once (as floats: the draw is a float), so a
    draw is one binary search. Outcomes keep the distribution's order, so a draw is the same
    for the same number on every machine.
    """

    __slots__ = ("cumulative", "outcomes")

    def __init__(self, distribution: Distribution[T]) -> None:
        self.outcomes = distribution.outcomes
        running = Fraction(0)
        cumulative = []
        for _outcome, p in distribution:
            running += p
            cumulative.append(float(running))
        cumulative[-1] = 1.0  # the last outcome takes every number left, rounding included
        self.cumulative = tuple(cumulative)

    def draw(self, u: float) -> T:
        """The outcome whose slice of [0, 1) holds ``u``."""
        return self.outcomes[bisect.bisect_right(self.cumulative, u)]


def rolls(*sides: int) -> Distribution[tuple[int, ...]]:
    """The law of rolling dice of these sizes, as the tuple of their faces (each from 1)."""
    if any(s < 1 for s in sides):
        raise ValueError(f"a die has at least one side, not {sides}")
    return Distribution.uniform(itertools.product(*(range(1, s + 1) for s in sides)))
