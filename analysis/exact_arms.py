"""Studies answered exactly: each arm's fight solved as a chain where one plays it.

:func:`arm_answer` gives an arm's (a variant's, a study point's) result exactly or says why it
must be sampled, through the one entry point that knows which chains exist
(:func:`sim.run.exact.choose_method`): a chain written for a new rule system plugs in without a
change here. An exact arm's summary has every key of a sampled run's
(:func:`sim.run.exact.exact_summary`), with ``"method": "exact"`` and the exact fractions.

:func:`all_exact` is the rule every study shares (``compare``, ``sweep``, ``balance``,
``tournament``): a study is exact when every one of its arms is, and under ``auto`` one arm
without a chain makes the whole study sampled, the reason naming that arm. It asks every arm
whether a chain plays it and fits the cap before it solves any, so a study that must sample
does not solve its other arms first.

:func:`exact_comparison` is ``compare`` answered exactly: the difference of each side's win
rate between the base and each variant as an exact fraction, so a variant *moved* the rate or
*did not*, as a fact. It needs every arm exact: the sampled comparison pairs combat k of every
arm on the same dice, and an exact arm has no combats to pair with, so under ``auto`` one arm
without a chain makes the whole comparison sampled (the reason names that arm).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sim.exact.chain import STATE_CAP, TooManyStates
from sim.exact.errors import NotExact
from sim.exact.fight import chain_for, check_cap
from sim.run.exact import AUTO_CAP, METHODS, auto_reason, choose_method, exact_summary
from sim.scenario.schema import Scenario

if TYPE_CHECKING:
    from analysis.sweep import SweepPlan


@dataclass(frozen=True)
class ArmAnswer:
    """How one arm is answered.

    Attributes:
        name: the arm's name (``base``, a variant's, a file's).
        method: ``"exact"`` or ``"sample"``.
        reason: why it is sampled (empty when exact).
        summary: the exact summary (a run's keys), or None when sampled.
    """

    name: str
    method: str
    reason: str
    summary: dict[str, Any] | None

    def win_rate(self, side: str) -> Fraction:
        """The exact win rate of ``side`` (an exact arm only)."""
        if self.summary is None:
            raise ValueError(f"arm {self.name} was not answered exactly")
        return Fraction(self.summary["fractions"]["sides"][side]["win_rate"])


def arm_answer(name: str, scenario: Scenario, method: str) -> ArmAnswer:
    """One arm answered by ``method`` (``auto``, ``exact`` or ``sample``).

    Raises:
        NotExact, TooManyStates: under ``exact``, an arm no chain plays or over the cap.
    """
    choice, fight = choose_method(scenario, method)
    if fight is None:
        return ArmAnswer(name, "sample", choice.reason, None)
    return ArmAnswer(name, "exact", "", exact_summary(scenario, fight))


def arm_answers(arms: Mapping[str, Scenario], method: str) -> list[ArmAnswer]:
    """Every arm answered by ``method``, each decided on its own."""
    return [arm_answer(name, arm, method) for name, arm in arms.items()]


def refusal(scenario: Scenario, cap: int = STATE_CAP) -> str:
    """Why no chain answers ``scenario`` (its one sentence), or "" when one does within the cap.

    Builds the chain and estimates its states, without solving it.
    """
    try:
        check_cap(scenario, chain_for(scenario), cap)
    except NotExact as why:
        return str(why)
    except TooManyStates as why:
        return str(why) if cap == STATE_CAP else auto_reason(why)
    return ""


def all_exact(
    arms: Mapping[str, Scenario], method: str, each: str = "arm"
) -> tuple[list[ArmAnswer] | None, str]:
    """Every arm answered exactly, or None and why the study samples (all or nothing).

    ``each`` names an arm in the reason (``arm``, ``point``, ``pairing``). Under ``sample`` the
    study samples; under ``auto`` it samples when one arm has no chain or is over ``auto``'s cap
    (:data:`sim.run.exact.AUTO_CAP`).

    Raises:
        NotExact, TooManyStates: under ``exact``, an arm no chain plays or over the cap.
        ValueError: an unknown method.
    """
    if method not in METHODS:
        raise ValueError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    if method == "sample":
        return None, "asked for"
    cap = STATE_CAP if method == "exact" else AUTO_CAP
    for name, arm in arms.items():
        why = refusal(arm, cap)
        if why and method == "exact":
            raise NotExact(f"{each} {name}: {why}")
        if why:
            return None, f"{each} {name}: {why}"
    return [arm_answer(name, arm, "exact") for name, arm in arms.items()], ""


@dataclass(frozen=True)
class ExactDifference:
    """A side's exact win rate in the base and in a variant."""

    variant: str
    side: str
    base_rate: Fraction
    variant_rate: Fraction

    @property
    def difference(self) -> Fraction:
        """Variant minus base, exact."""
        return self.variant_rate - self.base_rate

    @property
    def moved(self) -> bool:
        """Whether the variant changed the win rate at all (a fact, not a test)."""
        return self.difference != 0

    def to_dict(self) -> dict[str, Any]:
        """Floats for reading, fractions for checking."""
        return {
            "variant": self.variant,
            "side": self.side,
            "base_rate": float(self.base_rate),
            "variant_rate": float(self.variant_rate),
            "difference": float(self.difference),
            "moved": self.moved,
            "fractions": {
                "base_rate": str(self.base_rate),
                "variant_rate": str(self.variant_rate),
                "difference": str(self.difference),
            },
        }


@dataclass(frozen=True)
class ExactComparison:
    """A comparison answered exactly: every arm's exact summary and each variant's differences."""

    title: str
    arms: list[ArmAnswer]
    wins: list[ExactDifference]

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready values, with ``"method": "exact"``."""
        return {
            "kind": "comparison",
            "method": "exact",
            "scenario": self.title,
            "arms": {a.name: a.summary for a in self.arms},
            "wins": [w.to_dict() for w in self.wins],
        }


def exact_comparison(
    arms: Mapping[str, Scenario], method: str, title: str | None = None
) -> tuple[ExactComparison | None, str]:
    """The comparison of ``arms`` (base first) answered exactly, or None and why it is sampled.

    Raises:
        NotExact, TooManyStates: under ``exact``, an arm no chain plays or over the cap.
    """
    answers, why = all_exact(arms, method)
    if answers is None:
        return None, f"{why}; a paired comparison samples every arm"
    base, *variants = answers
    sides = list(arms[base.name].side_names)
    wins = [
        ExactDifference(v.name, side, base.win_rate(side), v.win_rate(side))
        for v in variants
        for side in sides
    ]
    name = title if title is not None else arms[base.name].name
    return ExactComparison(name, answers, wins), ""


def exact_sweep(plan: SweepPlan, method: str) -> tuple[dict[str, Any] | None, str]:
    """A sweep answered exactly (every point solved as a chain), or None and why it samples.

    The summary has a sampled sweep's keys (:attr:`analysis.sweep.SweepResult.summary`), each
    point's summary an exact run's, with ``"method": "exact"`` and no seed, runs or first combat.

    Raises:
        NotExact, TooManyStates: under ``exact``, a point no chain plays or over the cap.
    """
    labels = plan.labels
    named = {
        ", ".join(f"{label}={v}" for label, v in zip(labels, point.settings, strict=True)): point
        for point in plan.points
    }
    answers, why = all_exact({name: p.scenario for name, p in named.items()}, method, "point")
    if answers is None:
        return None, why
    points = [
        {
            "point": point.index,
            "values": {
                p.label: p.column_value(v)
                for p, v in zip(plan.parameters, point.settings, strict=True)
            },
            "summary": answer.summary,
        }
        for point, answer in zip(named.values(), answers, strict=True)
    ]
    summary = {
        "kind": "sweep",
        "scenario": plan.scenario.name,
        "seed": None,
        "runs": None,
        "first_combat": None,
        "parameters": [p.to_dict() for p in plan.parameters],
        "points": points,
        "method": "exact",
    }
    return summary, ""


def render_exact_sweep(summary: dict[str, Any], console: Console | None = None) -> None:
    """Print each point's exact win rates, draw rate and mean length."""
    console = console or Console()
    labels = [p["label"] for p in summary["parameters"]]
    points = summary["points"]
    sides = list(points[0]["summary"]["sides"]) if points else []
    title = f"{summary['scenario']} — sweep of {len(points)} points, exact"
    table = Table(title=escape(title), title_justify="left")
    for name in ["point", *labels, *(f"{side} win rate" for side in sides), "draws", "mean s"]:
        table.add_column(escape(name), justify="right")
    for point in points:
        run = point["summary"]
        table.add_row(
            str(point["point"]),
            *(escape(str(point["values"][label])) for label in labels),
            *(f"{run['sides'][side]['win_rate']:.2%}" for side in sides),
            f"{run['draw_rate']:.2%}",
            f"{run['mean_duration_s']:.2f}",
        )
    console.print(table)
    states = max((p["summary"]["states"] for p in points), default=0)
    console.print(
        f"method: exact (every point solved as a chain, up to {states:,} states; no combat played)",
        highlight=False,
        markup=False,
    )


def render_exact_comparison(comparison: ExactComparison, console: Console | None = None) -> None:
    """Print each variant's exact difference in win rate, and whether it moved."""
    console = console or Console()
    table = Table(title=escape(f"{comparison.title} — exact"), title_justify="left")
    for name in ("variant", "side", "base", "variant rate", "Δ points", ""):
        table.add_column(name, justify="left" if name in ("variant", "side", "") else "right")
    for w in comparison.wins:
        table.add_row(
            escape(w.variant),
            escape(w.side),
            f"{float(w.base_rate):.2%}",
            f"{float(w.variant_rate):.2%}",
            f"{float(w.difference) * 100:+.2f}",
            "moved" if w.moved else "did not move",
        )
    console.print(table)
    states = ", ".join(f"{a.name} {a.summary['states']}" for a in comparison.arms if a.summary)
    console.print(
        f"method: exact (every arm solved as a chain; states: {states})",
        highlight=False,
        markup=False,
    )


__all__ = [
    "ArmAnswer",
    "ExactComparison",
    "ExactDifference",
    "all_exact",
    "arm_answer",
    "arm_answers",
    "exact_comparison",
    "exact_sweep",
    "refusal",
    "render_exact_comparison",
    "render_exact_sweep",
]
