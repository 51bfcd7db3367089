"""Baselines recorded exactly: an arm's exact win rates, and ``check`` saying moved as a fact.

``combatsim baseline --method auto|exact`` records an arm that a chain plays (see
:func:`analysis.exact_arms.arm_answer`) by its exact summary instead of its combats: the arm's
entry has ``"method": "exact"``, the summary of an exact run (floats for reading, the exact
fractions as strings under ``"fractions"``) and no winners. ``check`` solves such an arm again:
when it is still exact, each side's win rate *moved* or *did not move*, a fact with no test and
no false alarm (:class:`ExactCheckRow`). When no chain plays the arm any more (the scenario now
moves, say), the arm is sampled at the baseline's seed and its win rate is tested against the
recorded exact one (a two-sided exact binomial test), Holm-corrected with the sampled arms'
tests. An arm recorded by its combats is checked as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from scipy.stats import binomtest

from analysis.exact_arms import ArmAnswer
from sim.rules.wording import counted

#: The method an exactly recorded arm says it was recorded with.
EXACT = "exact"


def is_exact(recorded: dict[str, Any]) -> bool:
    """Whether a baseline's arm was recorded exactly (its fractions, no combats)."""
    return recorded.get("method") == EXACT


def exact_record(answer: ArmAnswer) -> dict[str, Any]:
    """An arm's entry in a baseline, from its exact answer (without the run's own keys)."""
    if answer.summary is None:
        raise ValueError(f"arm {answer.name} was not answered exactly")
    summary = {
        k: v
        for k, v in answer.summary.items()
        if k not in ("kind", "scenario", "seed", "runs", "length")
    }
    return {"method": EXACT, "summary": summary}


def recorded_rates(recorded: dict[str, Any], sides: tuple[str, ...]) -> dict[str, Fraction]:
    """Each side's exact win rate in an exactly recorded arm.

    Raises:
        KeyError, TypeError, ValueError: the arm's fractions are missing or not fractions.
    """
    fractions = recorded["summary"]["fractions"]["sides"]
    return {side: Fraction(str(fractions[side]["win_rate"])) for side in sides}


@dataclass(frozen=True)
class ExactCheckRow:
    """One side of an arm recorded exactly: its exact win rate then, and now.

    ``current`` is the exact win rate now; None when no chain plays the arm any more, and then
    ``wins`` of ``runs`` sampled combats were tested against the recorded rate (``p_value``,
    ``p_holm`` after Holm's correction with the other tests of its family).
    """

    scenario: str
    file: str
    variant: str
    side: str
    baseline: Fraction
    current: Fraction | None
    family: str
    wins: int | None = None
    runs: int | None = None
    p_value: float | None = None
    p_holm: float | None = None
    moved: bool = False
    reason: str = ""

    @property
    def method(self) -> str:
        """``exact`` when both values are exact, ``sample`` when the rate now was sampled."""
        return EXACT if self.current is not None else "sample"

    @property
    def current_rate(self) -> float:
        """The win rate now (exact, or the sampled combats' share)."""
        if self.current is not None:
            return float(self.current)
        return (self.wins or 0) / (self.runs or 1)

    @property
    def difference(self) -> float:
        """Now minus the baseline (exact when both are)."""
        if self.current is not None:
            return float(self.current - self.baseline)
        return self.current_rate - float(self.baseline)

    def judged(self, alpha: float, min_change: float) -> ExactCheckRow:
        """The row with its verdict (``moved``).

        An exact row moved when the rate differs at all (and by at least ``min_change``); a
        sampled one when its Holm-corrected test rejects at ``alpha``.
        """
        if self.current is not None:
            moved = self.current != self.baseline
        else:
            moved = self.p_holm is not None and self.p_holm < alpha
        return replace(self, moved=moved and abs(self.difference) >= min_change)

    def sentence(self) -> str:
        """What moved, in words."""
        then, now = float(self.baseline), self.current_rate
        where = f"{self.scenario} ({self.file}), variant {self.variant}, side {self.side}"
        if self.current is not None:
            return (
                f"{where}: exact win rate {then:.1%} → {now:.1%} "
                f"({self.difference * 100:+.2f} points; {self.baseline} → {self.current})"
            )
        return (
            f"{where}: exact win rate {then:.1%} recorded, {now:.1%} now over "
            f"{counted(self.runs or 0, 'sampled combat')} ({self.reason}; exact binomial test "
            f"p={self.p_value:.4g}, Holm p={self.p_holm:.4g})"
        )

    def to_dict(self) -> dict[str, Any]:
        """A sampled row's keys, the method and the fractions.

        The keys of :meth:`analysis.baseline.CheckRow.to_dict`; what has no meaning without
        combats is None.
        """
        exact = self.current is not None
        change = None if self.current is None else str(self.current - self.baseline)
        d = self.difference
        return {
            "scenario": self.scenario,
            "file": self.file,
            "variant": self.variant,
            "side": self.side,
            "runs": self.runs,
            "difference": d,
            "ci95": [d, d] if exact else None,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": None if exact else self.moved,
            "baseline_win_rate": float(self.baseline),
            "current_win_rate": self.current_rate,
            "baseline_only": None,
            "current_only": None,
            "family": self.family,
            "moved": self.moved,
            "method": self.method,
            "fractions": {
                "baseline_win_rate": str(self.baseline),
                "current_win_rate": str(self.current) if exact else None,
                "difference": change,
            },
        }


def exact_rows(
    where: tuple[str, str],
    name: str,
    family: str,
    recorded: dict[str, Fraction],
    now: ArmAnswer,
) -> list[ExactCheckRow]:
    """The rows of an exactly recorded arm that is exact now too (``where``: scenario, file)."""
    return [
        ExactCheckRow(*where, name, side, then, now.win_rate(side), family)
        for side, then in recorded.items()
    ]


def tested_rows(
    where: tuple[str, str],
    name: str,
    family: str,
    recorded: dict[str, Fraction],
    winners: list[str],
    reason: str,
) -> list[ExactCheckRow]:
    """The rows of an exactly recorded arm sampled now.

    Each side's wins are tested against its recorded rate (p-values not yet corrected).
    """
    runs = len(winners)
    rows = []
    for side, then in recorded.items():
        wins = sum(w == side for w in winners)
        if 0 < then < 1:
            p = float(binomtest(wins, runs, float(then)).pvalue)
        else:  # a sure win or loss then: any other outcome now is a move
            p = float(wins == (runs if then == 1 else 0))
        rows.append(ExactCheckRow(*where, name, side, then, None, family, wins, runs, p, None,
                                  reason=reason))  # fmt: skip
    return rows


__all__ = [
    "EXACT",
    "ExactCheckRow",
    "exact_record",
    "exact_rows",
    "is_exact",
    "recorded_rates",
    "tested_rows",
]
