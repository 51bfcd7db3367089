"""Summaries of a run: win rate per side with a 95% confidence interval, draws, duration.

Intervals are Wilson score intervals (Newcombe 1998, the formula of SciPy's ``binomtest(...)
.proportion_ci(method="wilson")``, which gives the same floats); they behave well near 0 and 1,
where a designer's lopsided matchups live. The run layer builds the summary (``run --json``,
``summary.json``) whether the outcomes are a table in memory or streamed chunk by chunk; the
analysis package reads it. The interval needs only the normal quantile, known for the default
95%: a run does not import SciPy (``scipy.stats`` alone holds about 55 MB of a process).

Fight lengths are in each rule system's own unit as well as in game seconds: Target 10 and
Proposition Three count rounds (``round_s`` game seconds each, :func:`round_length_s`), so their
summaries also give ``mean_duration_rounds``; ACS, and everything on its clock, counts seconds.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sim.run.records import DRAW

if TYPE_CHECKING:
    import pandas as pd

    from sim.scenario.schema import Scenario

CONFIDENCE = 0.95

#: The standard normal quantile at 0.975, the z of a two-sided 95% interval: the float
#: ``scipy.special.ndtri(0.975)`` gives (a test checks it), so no run imports SciPy for it.
Z_95 = 1.959963984540054

#: What every column of a run's summary means: printed under the table by ``run``, shown in the
#: report, and what the charts draw. "Standing" is a combatant not out of the fight at its end.
DEFINITIONS = {
    "wins": "combats the side won (the last side with a combatant standing)",
    "win rate": "wins / combats",
    "95% CI (Wilson)": "the 95% Wilson score interval of the win rate",
    "survivors": "mean number of the side's combatants standing at the end, over all combats "
    "(a combat the side lost counts 0)",
    "hp left": "mean hit points of the side's standing combatants at the end, over all combats "
    "(a combat the side lost counts 0)",
    "mean duration": "mean fight length in game seconds, over all combats (a draw at the time "
    "limit counts the limit); in rounds too where the rules count rounds",
}


def round_length_s(scenario: Scenario) -> float | None:
    """Game seconds in one of the scenario's rounds; None when its rule system counts seconds."""
    return scenario.system.round_seconds(scenario.options)


def duration_text(
    seconds: float, round_s: float | None, decimals: int = 2, rounds: float | None = None
) -> str:
    """A fight length in its rules' unit, with the game time beside.

    ``4.70 rounds (282.00 s of game time)`` where the rules count rounds, ``4.84 s of game time``
    where they count seconds. ``rounds``: the summary's own ``mean_duration_rounds`` (the mean
    of the exact sum, rounded once), else ``seconds / round_s``.
    """
    if round_s is None:
        return f"{seconds:.{decimals}f} s of game time"
    if rounds is None:
        rounds = seconds / round_s
    unit = "round" if rounds == 1 else "rounds"
    return f"{rounds:.{decimals}f} {unit} ({seconds:.{decimals}f} s of game time)"


def wilson_interval(
    successes: int, trials: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval of a proportion (two-sided, no continuity correction).

    The operations are SciPy's, in its order (``scipy.stats._binomtest``), so the bounds are
    the very floats ``binomtest(successes, trials).proportion_ci(confidence, "wilson")`` gives
    (a test compares them). The quantile comes from SciPy only for a level other than 95%.

    Raises:
        ValueError: ``successes`` is not between 0 and ``trials``.
    """
    if not 0 <= successes <= max(trials, 0):
        raise ValueError(f"successes must be between 0 and trials ({trials}), got {successes}")
    if trials == 0:
        return (0.0, 1.0)
    z = Z_95 if confidence == CONFIDENCE else _normal_quantile(0.5 + 0.5 * confidence)
    p = successes / trials
    denom = 2 * (trials + z**2)
    center = (2 * trials * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * trials * p * (1 - p) + z**2)
    low = 0.0 if successes == 0 else center - delta
    high = 1.0 if successes == trials else center + delta
    return (float(low), float(high))


def _normal_quantile(probability: float) -> float:
    """The standard normal quantile, from SciPy (deferred: heavy, and rarely needed)."""
    from scipy.special import ndtri

    return float(ndtri(probability))


def summarize(
    outcomes: pd.DataFrame,
    side_names: tuple[str, ...],
    scenario: str,
    seed: int,
    confidence: float = CONFIDENCE,
    round_s: float | None = None,
) -> dict[str, Any]:
    """The summary of a run's outcome table (see :func:`summary_from_counts` for its keys).

    Counted by a :class:`Tally`, as a run streamed chunk by chunk is: the same rows give the
    same summary, to the last bit, whichever way they were counted.
    """
    tally = Tally(side_names)
    tally.add(0, outcomes)
    return tally.summary(scenario, seed, confidence, round_s)


class Tally:
    """The counts a run summary needs, kept chunk by chunk (flat memory).

    Every sum is exact (integers, and :func:`exact_sum` for the real-valued fight lengths), and
    each mean is rounded once, at the end. So the summary does not depend on how the rows were
    cut into chunks or in which order the chunks finished: ``run --json`` prints the same bytes
    with ``--out`` (streamed) as without (one table in memory).
    """

    def __init__(self, side_names: Sequence[str]) -> None:
        self.side_names = tuple(side_names)
        self.runs = 0
        self.winners: Counter[str] = Counter()
        self.ends: Counter[str] = Counter()
        self.survivors: dict[str, Fraction] = dict.fromkeys(self.side_names, Fraction(0))
        self.hp_left: dict[str, Fraction] = dict.fromkeys(self.side_names, Fraction(0))
        self.duration_s = Fraction(0)
        self._counted: set[int] = set()
        #: The outcome columns it reads.
        self.columns = ["winner", "end", "duration_s"] + [
            f"{c}_{side}" for side in self.side_names for c in ("survivors", "hp_left")
        ]

    def add(self, start: int, frame: pd.DataFrame) -> None:
        """Count one chunk's outcomes, a pandas table (``start``: its first combat).

        Raises:
            ValueError: the chunk starting at ``start`` was counted already.
        """
        self.add_columns(start, len(frame), lambda name: frame[name].tolist())

    def add_table(self, start: int, table: Any) -> None:
        """Count one chunk's outcomes, an Arrow table (a streamed run holds no pandas)."""
        self.add_columns(start, table.num_rows, lambda name: table.column(name).to_pylist())

    def add_columns(self, start: int, rows: int, column: Callable[[str], list]) -> None:
        """Count ``rows`` outcomes whose columns ``column(name)`` gives as lists of values.

        Raises:
            ValueError: the chunk starting at ``start`` was counted already.
        """
        if start in self._counted:
            raise ValueError(f"the chunk starting at combat {start} was counted twice")
        self._counted.add(start)
        self.runs += rows
        self.winners.update(str(w) for w in column("winner"))
        self.ends.update(str(e) for e in column("end"))
        for side in self.side_names:
            self.survivors[side] += exact_sum(column(f"survivors_{side}"))
            self.hp_left[side] += exact_sum(column(f"hp_left_{side}"))
        self.duration_s += exact_sum(column("duration_s"))

    def summary(
        self,
        scenario: str,
        seed: int,
        confidence: float = CONFIDENCE,
        round_s: float | None = None,
    ) -> dict[str, Any]:
        """The summary of the combats counted so far (see :func:`summary_from_counts`)."""
        runs = self.runs

        def mean(total: Fraction) -> float | None:
            # Fraction -> float rounds once, correctly: the mean of the exact sum.
            return float(total / runs) if runs else None

        rounds = None if round_s is None else mean(self.duration_s / Fraction(round_s))

        return summary_from_counts(
            scenario,
            seed,
            runs,
            self.side_names,
            self.winners,
            self.ends,
            mean(self.duration_s),
            {side: mean(total) for side, total in self.survivors.items()},
            {side: mean(total) for side, total in self.hp_left.items()},
            confidence,
            round_s,
            rounds,
        )


def exact_sum(values: Iterable[float]) -> Fraction:
    """The exact sum of integers and floats, with no rounding at all.

    A float is an integer times a power of two, so the sum is kept as one integer over the
    largest power of two seen. Unlike a float sum, it does not depend on the order of the
    values or on how they were split into parts.
    """
    numerator = 0
    shift = 0  # the sum is numerator / 2**shift
    for value in values:
        top, bottom = value.as_integer_ratio()
        power = bottom.bit_length() - 1
        if power > shift:
            numerator <<= power - shift
            shift = power
        numerator += top << (shift - power)
    return Fraction(numerator, 1 << shift)


def summary_from_counts(
    scenario: str,
    seed: int,
    runs: int,
    side_names: Sequence[str],
    winners: Mapping[str, int],
    ends: Mapping[str, int],
    mean_duration_s: float | None,
    mean_survivors: Mapping[str, float | None],
    mean_hp_left: Mapping[str, float | None],
    confidence: float = CONFIDENCE,
    round_s: float | None = None,
    mean_duration_rounds: float | None = None,
) -> dict[str, Any]:
    """The summary of a run as a JSON-ready mapping, from its counts and means.

    One place defines the shape that ``run --json`` prints, whether the counts come from a
    table in memory (:func:`summarize`) or are kept chunk by chunk (:class:`Tally`).

    Keys: ``kind`` (``"run"``: a results directory's ``summary.json`` says what it holds),
    ``scenario``, ``runs``, ``seed``, ``sides`` (per side ``wins``, ``win_rate``, ``ci95``,
    ``mean_survivors``, ``mean_hp_left``: see :data:`DEFINITIONS`), ``draws``, ``draw_rate``,
    ``ends`` (combats per end reason) and ``mean_duration_s``; where the rules count rounds
    (``round_s`` given) also ``round_s`` and ``mean_duration_rounds``. With no combat finished
    (a run stopped at once), every rate and mean is None (``null``): there is nothing to average.
    """
    sides = {}
    for side in side_names:
        wins = int(winners.get(side, 0))
        low, high = wilson_interval(wins, runs, confidence)
        sides[side] = {
            "wins": wins,
            "win_rate": wins / runs if runs else None,
            "ci95": [low, high],
            "mean_survivors": mean_survivors[side],
            "mean_hp_left": mean_hp_left[side],
        }
    draws = int(winners.get(DRAW, 0))
    summary: dict[str, Any] = {
        "kind": "run",
        "scenario": scenario,
        "runs": runs,
        "seed": seed,
        "sides": sides,
        "draws": draws,
        "draw_rate": draws / runs if runs else None,
        "ends": {k: int(ends[k]) for k in sorted(ends)},
        "mean_duration_s": mean_duration_s,
    }
    if round_s is not None:
        summary["round_s"] = round_s
        summary["mean_duration_rounds"] = (
            mean_duration_rounds
            if mean_duration_rounds is not None or mean_duration_s is None
            else mean_duration_s / round_s
        )
    return summary
