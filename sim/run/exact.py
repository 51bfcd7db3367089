"""An exact run: the summary of a scenario's fight solved as a chain, in a run's shape.

``simulate(..., method="exact")`` answers with an :class:`ExactResult`: a
:class:`~sim.run.result.RunResult` whose summary has every key of a sampled run's
(:func:`~sim.run.summary.summary_from_counts`), the rates and means exact (intervals of zero
width), counts of combats ``None`` (no combat was played), ``"method": "exact"``, the exact
values as fractions (``"fractions"``) and the law of the fight's length (``"length"``). Its
outcome tables are empty, and :meth:`ExactResult.save` writes the summary and the scenario
only. ``method="auto"`` plays the chain where one applies and fits the cap, and samples
otherwise (:func:`choose_method`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from sim.exact.chain import STATE_CAP, Ending, TooManyStates
from sim.exact.errors import NotExact
from sim.exact.fight import ExactFight, exact_fight
from sim.exact.weights import Weights
from sim.run.files import write_text
from sim.run.meta import run_meta
from sim.run.outdir import FolderLock
from sim.run.result import RunResult
from sim.run.store import write_scenario
from sim.run.summary import round_length_s
from sim.run.tables import outcomes_frame
from sim.scenario.schema import Scenario

#: The ways a run may be answered.
METHODS = ("auto", "exact", "sample")


@dataclass
class ExactResult(RunResult):
    """A run answered exactly: the summary, the solved fight, and empty outcome tables."""

    fight: ExactFight | None = field(default=None, compare=False)
    method: str = "exact"

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Write ``summary.json`` and the scenario (``scenario.yaml``): no combat, no table.

        ``combatsim plot`` and ``combatsim report`` read the folder as an exact run's
        (``"method": "exact"`` in its summary); ``csv`` is ignored (there is no table).
        """
        out = Path(directory)
        with FolderLock(out):
            return [
                write_text(out / "summary.json", json.dumps(self.summary, indent=2) + "\n"),
                write_text(out / "meta.json", json.dumps(exact_meta(self.scenario), indent=2)),
                write_scenario(out, self.scenario),
            ]


def exact_meta(scenario: Scenario, kind: str = "run") -> dict[str, Any]:
    """How exact results were made (``meta.json``): the scenario, its rules, no seed or runs."""
    return run_meta(scenario, None, None, kind, method="exact")


@dataclass(frozen=True)
class MethodChoice:
    """What ``auto`` chose and why (``reason`` is empty for an exact run)."""

    method: str
    reason: str


#: The most states (by the chain's estimate, before solving) ``auto`` solves a fight with.
#: Solving takes longer than sampling well before the chain's own cap
#: (:data:`~sim.exact.chain.STATE_CAP`, which bounds memory): an ACS duel of 48 hit points
#: each (2,304 states) takes some 25 s of CPU, a Target 10 duel of 1,512 states under one.
#: Above it ``auto`` samples; ``exact`` solves up to the chain's cap.
AUTO_CAP = 2_000


def choose_method(scenario: Scenario, method: str, cap: int = STATE_CAP) -> tuple[
    MethodChoice, ExactFight | None
]:
    """The method a run uses, and the solved fight when it is exact.

    ``exact`` raises when the chain does not apply or is over ``cap``; ``auto`` samples then,
    and when the chain's estimate is over :data:`AUTO_CAP` (or ``cap``, if lower), saying why;
    ``sample`` samples. Nothing is solved before the estimate is checked.

    Raises:
        NotExact, TooManyStates: under ``exact``.
        ValueError: an unknown method.
    """
    if method not in METHODS:
        raise ValueError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    if method == "sample":
        return MethodChoice("sample", "asked for"), None
    limit = cap if method == "exact" else min(cap, AUTO_CAP)
    try:
        fight = exact_fight(scenario, limit)
    except (NotExact, TooManyStates) as why:
        if method == "exact":
            raise
        return MethodChoice("sample", auto_reason(why)), None
    return MethodChoice("exact", ""), fight


def auto_reason(why: NotExact | TooManyStates) -> str:
    """Why ``auto`` samples: the chain's refusal, or its estimate over ``auto``'s cap."""
    if isinstance(why, TooManyStates):
        if why.estimate > why.exact_cap:
            return f"about {why.estimate:,} states, over its chain's cap of {why.exact_cap:,}"
        return (
            f"about {why.estimate:,} states, over auto's cap of {why.cap:,}; --exact solves up "
            f"to {why.exact_cap:,}"
        )
    return str(why)


def exact_result(scenario: Scenario, fight: ExactFight, variant: str = "base") -> ExactResult:
    """The result of a run answered by ``fight``, the scenario's fight solved exactly."""
    outcomes = outcomes_frame([], scenario.side_names, scenario.name, variant)
    summary = exact_summary(scenario, fight)
    return ExactResult(scenario, scenario.seed, 0, outcomes, summary, fight=fight)


def exact_summary(scenario: Scenario, fight: ExactFight) -> dict[str, Any]:
    """A sampled run's summary keys, with the exact values (see the module's docstring)."""
    solution = fight.solution
    sides: dict[str, Any] = {}
    exact_sides: dict[str, Any] = {}
    for i, name in enumerate(scenario.side_names):
        win = solution.probability(partial(_won, i))
        survivors = solution.expectation(partial(_survivors, i))
        hp_left = solution.expectation(partial(_hp_left, i))
        sides[name] = {
            "wins": None,
            "win_rate": float(win),
            "ci95": [float(win), float(win)],
            "mean_survivors": float(survivors),
            "mean_hp_left": float(hp_left),
        }
        exact_sides[name] = {
            "win_rate": fraction_text(win),
            "mean_survivors": fraction_text(survivors),
            "mean_hp_left": fraction_text(hp_left),
        }
    draw = solution.probability(lambda e: e.winner is None)
    ended = fight.ends_and_durations_s()
    ends = {
        reason: Fraction(w, ended.denominator)
        for reason, w in ended.map(lambda where: where[0]).pairs
    }
    durations = ended.map(lambda where: where[1])
    duration = sum((s * w for s, w in durations.pairs), Fraction(0)) / durations.denominator
    summary: dict[str, Any] = {
        "kind": "run",
        "scenario": scenario.name,
        "runs": None,
        "seed": None,
        "sides": sides,
        "draws": None,
        "draw_rate": float(draw),
        "ends": {k: float(ends[k]) for k in sorted(ends)},
        "mean_duration_s": float(duration),
    }
    round_s = round_length_s(scenario)
    if round_s is not None:
        summary["round_s"] = round_s
        summary["mean_duration_rounds"] = float(duration / Fraction(round_s))
    summary["method"] = "exact"
    summary["states"] = solution.states
    summary["fractions"] = {
        "sides": exact_sides,
        "draw_rate": fraction_text(draw),
        "ends": {k: fraction_text(ends[k]) for k in sorted(ends)},
        "mean_duration_s": fraction_text(duration),
    }
    summary["length"] = length_law(durations, round_s)
    return summary


#: Decimal digits written at a time by :func:`fraction_text` (under Python's own limit).
_CHUNK_DIGITS = 1000


def fraction_text(value: Fraction) -> str:
    """``str(value)``, however many digits: ``numerator/denominator`` (or the whole number).

    Python's ``str`` of an integer stops at ``sys.get_int_max_str_digits()`` (4,300 digits by
    default), and an exact chance of a long fight has more: each part is written in chunks of
    :data:`_CHUNK_DIGITS` digits.
    """
    text = _decimal(value.numerator)
    return text if value.denominator == 1 else f"{text}/{_decimal(value.denominator)}"


def _decimal(n: int) -> str:
    """A whole number in decimal, chunk by chunk (see :func:`fraction_text`)."""
    if n < 0:
        return "-" + _decimal(-n)
    chunk = 10**_CHUNK_DIGITS
    parts: list[str] = []
    while n >= chunk:
        n, low = divmod(n, chunk)
        parts.append(f"{low:0{_CHUNK_DIGITS}d}")
    parts.append(str(n))
    return "".join(reversed(parts))


def _won(side: int, ending: Ending) -> bool:
    return ending.winner == side


def _survivors(side: int, ending: Ending) -> int:
    return ending.survivors[side]


def _hp_left(side: int, ending: Ending) -> int:
    return ending.hp_left[side]


def length_law(durations: Weights[Fraction], round_s: float | None) -> dict[str, Any]:
    """The law of the fight's length (in rounds, or seconds) from its law in seconds."""
    law: dict[Fraction, int] = {}
    for seconds, w in durations.pairs:
        length = seconds / Fraction(round_s) if round_s is not None else seconds
        law[length] = law.get(length, 0) + w
    unit = "rounds" if round_s is not None else "seconds"
    # A whole-number quotient is rounded as the fraction's float would be (correctly).
    return {
        "unit": unit,
        "law": [[float(length), w / durations.denominator] for length, w in sorted(law.items())],
    }


__all__ = [
    "AUTO_CAP",
    "METHODS",
    "Ending",
    "ExactResult",
    "MethodChoice",
    "auto_reason",
    "choose_method",
    "exact_meta",
    "exact_result",
    "exact_summary",
    "fraction_text",
]
