"""A balance point found exactly: the crossing bracketed by exact win rates, no fit, no noise.

``combatsim balance --method exact|auto`` solves the fight at every value it probes as a chain
(:func:`analysis.exact_arms.all_exact`, the rule every exact study shares): first the same
coarse grid as the sampled search, then, between the two neighbouring values whose exact win
rates straddle the target, by halving (to neighbouring whole numbers for a whole-number
parameter, to a 256th of the range otherwise). The answer is the bracket itself, ``ci95``: the
target is crossed between its ends, a fact when the win rate is monotone between them. The
``value`` inside it is the straight line through the two exact rates (for a whole-number
parameter, a convenience: the rate is defined only at whole numbers; the whole number whose
exact rate is nearest the target is said too). Under ``auto`` one probed value without a chain
makes the whole search sampled (:func:`analysis.balance.find_balance`), saying which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Any

from analysis.balance import (
    BalanceError,
    _grid,
    _search_range,
    _show,
    _swept_label,
    check_question,
)
from analysis.exact_arms import ArmAnswer, all_exact
from analysis.sweep import Parameter, plan_sweep
from sim.rules.wording import possessive
from sim.scenario.schema import Scenario

#: Halvings of a real-valued bracket: down to this share of the searched range.
REAL_RESOLUTION = Fraction(1, 256)


@dataclass(frozen=True)
class Probe:
    """A probed value and its exact win rate (``states``: the chain's live states)."""

    value: Any
    rate: Fraction
    states: int

    def row(self) -> dict[str, Any]:
        """A sampled grid row's keys, the exact rate as its own interval."""
        rate = float(self.rate)
        return {
            "value": self.value, "wins": None, "runs": None, "win_rate": rate,
            "ci_low": rate, "ci_high": rate, "fitted": rate,
        }  # fmt: skip


@dataclass
class ExactBalance:
    """A balance point bracketed by exact win rates (see the module docstring)."""

    scenario: str
    path: str
    label: str
    side: str
    target: float
    low: Probe
    high: Probe
    integer: bool
    current: Any
    search: tuple[float, float]
    locate: list[Probe]
    probes: list[Probe]
    asked: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def exact_value(self) -> Fraction:
        """The straight line through the bracket's two exact rates, where it meets the target."""
        a, b = Fraction(self.low.value), Fraction(self.high.value)
        if self.low.rate == self.high.rate:
            return a
        goal = Fraction(self.target).limit_denominator(10**9)
        return a + (goal - self.low.rate) * (b - a) / (self.high.rate - self.low.rate)

    @property
    def nearest_whole(self) -> Any:
        """The bracket's end whose exact rate is nearer the target (the lower on a tie)."""
        goal = Fraction(self.target).limit_denominator(10**9)
        ends = (self.low, self.high)
        return min(ends, key=lambda p: abs(p.rate - goal)).value

    def verdict(self) -> str:
        """The answer in one sentence."""
        who = possessive(self.side)
        if self.low.value == self.high.value:
            return f"Exact: {who} win rate is {self.target:.0%} at {_show(self.low.value)}."
        rates = f"{float(self.low.rate):.2%} at {_show(self.low.value)}"
        rates += f" and {float(self.high.rate):.2%} at {_show(self.high.value)}"
        text = f"Exact: {who} win rate is {rates}: {self.target:.0%} is crossed between them"
        if self.integer:
            return f"{text} ({self.nearest_whole} is nearer)."
        return f"{text} ({float(self.exact_value):.4g} on the straight line between them)."

    def to_dict(self) -> dict[str, Any]:
        """The keys of a sampled search (:meth:`analysis.balance.BalanceResult.to_dict`)."""
        slope = (self.high.rate - self.low.rate) / (
            Fraction(self.high.value) - Fraction(self.low.value) or 1
        )
        nearest = [
            {
                "value": p.value, "fitted": float(p.rate), "fitted_ci95": [float(p.rate)] * 2,
                "current": p.value == self.current, "observed": float(p.rate),
                "observed_ci95": [float(p.rate)] * 2,
            }
            for p in dict.fromkeys((self.low, self.high))
        ]  # fmt: skip
        return {
            "scenario": self.scenario,
            "parameter": self.path,
            "label": self.label,
            "side": self.side,
            "target": self.target,
            "value": float(self.exact_value),
            "ci95": [self.low.value, self.high.value],
            "se": 0.0,
            "integer": self.integer,
            "whole_numbers": [self.nearest_whole] if self.integer else None,
            "nearest": nearest if self.integer else [],
            "slope_per_unit": float(slope),
            "slope_z": None,
            "verdict": self.verdict(),
            "method": "exact",
            "runs_per_point": None,
            "seed": None,
            "search_range": list(self.search),
            "grid": [p.row() for p in self.probes],
            "locate_grid": [p.row() for p in self.locate],
            "fit": None,
            "asked": self.asked,
            "notes": self.notes,
            "states": max(p.states for p in self.probes),
            "fractions": {
                "value": str(self.exact_value),
                "win_rates": [[p.value, str(p.rate)] for p in self.probes],
            },
        }


def exact_balance(
    scenario: Scenario,
    path: str,
    target: float = 0.5,
    side: str | None = None,
    *,
    low: float | None = None,
    high: float | None = None,
    points: int = 9,
    label: str | None = None,
    method: str = "exact",
) -> tuple[ExactBalance | None, str]:
    """The balance point of ``path`` found from exact win rates, or None and why to sample.

    Raises:
        BalanceError: the question is wrong, or the target is not crossed in the range.
        ScenarioError: a value does not give a valid scenario.
        NotExact, TooManyStates: under ``exact``, a value no chain plays or over the cap.
    """
    side = check_question(scenario, target, side, points)
    label = label or _swept_label(scenario, path) or path
    asked = {
        "path": path, "target": target, "side": side, "low": low, "high": high,
        "points": points, "label": label, "method": method,
    }  # fmt: skip
    current, integer, low, high = _search_range(scenario, path, low, high)
    probes: dict[Any, Probe] = {}

    def probe(values: list[Any]) -> str:
        plan = plan_sweep(scenario, [Parameter(label, path, tuple(values))], runs=1)
        arms = {f"{label}={_show(v)}": p.scenario for v, p in zip(values, plan.points, strict=True)}
        answers, why = all_exact(arms, method, "value")
        if answers is None:
            return why
        for v, answer in zip(values, answers, strict=True):
            probes[v] = _probe(v, answer, side)
        return ""

    grid = _grid(low, high, points, integer)
    why = probe(grid)
    if why:
        return None, why
    locate = [probes[v] for v in grid]
    goal = Fraction(target).limit_denominator(10**9)
    bracket = _straddle(locate, goal)
    if bracket is None:
        rates = [float(p.rate) for p in locate]
        raise BalanceError(
            f"{possessive(side)} exact win rate stays between {min(rates):.1%} and "
            f"{max(rates):.1%} for {label} from {_show(low)} to {_show(high)}: the target "
            f"{target:.0%} is outside; widen the range (--range LOW HIGH)",
            bad_input=False,
        )
    a, b = bracket
    finest = 1 if integer else (Fraction(high) - Fraction(low)) * REAL_RESOLUTION
    while a.rate != goal and Fraction(b.value) - Fraction(a.value) > finest:
        middle = (a.value + b.value) // 2 if integer else (a.value + b.value) / 2
        why = probe([middle])
        if why:
            return None, why
        a, b = (a, probes[middle]) if _side_of(a, goal) != _side_of(probes[middle], goal) else (
            probes[middle], b)  # fmt: skip
    if a.rate == goal or b.rate == goal:  # a value hits the target exactly
        a = b = a if a.rate == goal else b
    ordered = [probes[v] for v in sorted(probes)]
    result = ExactBalance(
        scenario.name, path, label, side, target, a, b, integer, current, (low, high), locate,
        ordered, asked,
    )  # fmt: skip
    return result, ""


def _probe(value: Any, answer: ArmAnswer, side: str) -> Probe:
    states = int(answer.summary["states"]) if answer.summary else 0
    return Probe(value, answer.win_rate(side), states)


def _side_of(p: Probe, goal: Fraction) -> int:
    """-1 below the target, 0 on it, 1 above."""
    return (p.rate > goal) - (p.rate < goal)


def _straddle(probes: list[Probe], goal: Fraction) -> tuple[Probe, Probe] | None:
    """The first neighbours whose rates lie either side of the target (or one on it)."""
    for p in probes:
        if p.rate == goal:
            return p, p
    for a, b in pairwise(probes):
        if _side_of(a, goal) * _side_of(b, goal) < 0:
            return a, b
    return None


def render_exact_balance(result: ExactBalance, say: Any) -> None:
    """Print the exact balance point, its bracket and every value probed (``say``: a printer)."""
    label, side = result.label, result.side
    say(
        f"Balance point of {label} for {possessive(side)} win rate = {result.target:.0%} "
        f"({result.scenario}; exact)"
    )
    value = float(result.exact_value)
    shown = f"{_show(result.low.value)} – {_show(result.high.value)}"
    say(f"  value   {value:.4g}   crossed between {shown} (exact win rates)")
    say(f"  sure?   {result.verdict()}")
    states = max(p.states for p in result.probes)
    say(
        f"  method  exact: {len(result.probes)} values solved as Markov chains (up to "
        f"{states:,} states each), no combat played; a grid of {len(result.locate)} over "
        f"{_show(result.search[0])} .. {_show(result.search[1])}, then halving the bracket"
    )
    for note in result.notes:
        say(f"  note    {note}")
    for p in result.probes:
        current = " (the scenario's value)" if p.value == result.current else ""
        say(f"  {label} = {_show(p.value)}: {side} wins {float(p.rate):.3%}{current}")


__all__ = ["ExactBalance", "Probe", "exact_balance", "render_exact_balance"]
