"""A played tournament: its payoff matrix, dominated strategies, solution, verdict and files.

:func:`analysis.tournament.analyse` builds a :class:`Tournament` from the outcomes of every
pairing; this module says it (the one-line verdict, the JSON summary, the matrix table) and saves
it (``matrix.parquet``/``.csv``, ``summary.json``, the heat map of
:mod:`analysis.tournament_plot`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.game import ALPHA, Bootstrap, DominanceTests, Eliminated, GameSolution
from analysis.job import finish_job
from analysis.precision import PreciseRun
from analysis.tournament_plot import plot_tournament, save_figure
from sim.run.files import write_text
from sim.run.meta import run_meta
from sim.run.outdir import FolderLock
from sim.run.store import write_scenario
from sim.run.tables import save_frame
from sim.scenario.schema import Scenario

#: What a combat of a cell is worth to the row side, in half points (win, draw, loss).
PAYOFFS: dict[str, tuple[int, int, int]] = {"score": (2, 1, 0), "wins": (2, 0, 0)}
#: What each payoff means, said under the table.
PAYOFF_TEXT = {
    "score": "win rate with draws counted half (a win scores 1, a draw 1/2, a loss 0)",
    "wins": "win rate (a draw counts as a loss for both sides)",
}
#: A combat's outcome in a cell, as stored: the row side won, the column side won, or a draw.
ROW_WON, COLUMN_WON, DRAWN = 0, 1, 2

METHODS = {
    "pairing": "common random numbers: combat k of every cell uses the dice stream (seed, k)",
    "interval": "Wilson score interval of the mean payoff (conservative with draws)",
    "dominance": "dominated: no better against any remaining opponent strategy and "
    "significantly worse against one; paired sign test (McNemar's exact test without draws), "
    "Holm step-down over every test of the matrix; iterated elimination",
    "game": "two-player zero-sum game on the payoff matrix, solved by linear programming "
    "(scipy.optimize.linprog, HiGHS)",
    "value_interval": "percentile bootstrap over resampled combat indices (the same in every cell)",
}


@dataclass
class Tournament:
    """A played tournament: the payoff matrix, its dominated strategies and the game's solution.

    Attributes:
        scenario: the scenario's name.
        file: its file.
        seed: the seed of every cell.
        runs: combats per cell.
        sides: the row side and the column side.
        rows: the row strategies' names.
        columns: the column strategies' names.
        payoff_kind: ``score`` (draws half) or ``wins``.
        payoff: the row side's mean payoff per cell.
        ci95: its 95% interval per cell, ``[row, column, (low, high)]``.
        counts: ``[row, column, (row wins, column wins, draws)]``.
        tests: the Holm-adjusted paired tests behind the dominance verdicts.
        eliminated: the dominated strategies, in the order they were removed.
        solution: the optimal mixes and the value of the game.
        spread: the bootstrap intervals of the value and the mixes.
        alpha: the family-wise error rate of the dominance verdicts.
        precision: how a ``--precision`` run ended (None for a fixed number of combats).
    """

    scenario: str
    file: str
    seed: int
    runs: int
    sides: tuple[str, str]
    rows: list[str]
    columns: list[str]
    payoff_kind: str
    payoff: np.ndarray
    ci95: np.ndarray
    counts: np.ndarray
    tests: DominanceTests = field(repr=False)
    eliminated: list[Eliminated]
    solution: GameSolution
    spread: Bootstrap
    alpha: float = ALPHA
    precision: PreciseRun | None = field(default=None, repr=False)

    def dominated(self, side: str) -> list[str]:
        """The eliminated strategies of ``"rows"`` or ``"columns"``, in the order removed."""
        names = self.rows if side == "rows" else self.columns
        return [names[e.index] for e in self.eliminated if e.side == side]

    def mix(self, side: str) -> dict[str, float]:
        """The optimal mix of ``"rows"`` or ``"columns"``, by strategy name."""
        names, mix = (
            (self.rows, self.solution.rows)
            if side == "rows"
            else (self.columns, self.solution.columns)
        )
        return {name: p for name, p in zip(names, mix, strict=True)}

    def survivors(self, side: str) -> list[str]:
        """The strategies iterated elimination leaves."""
        gone = set(self.dominated(side))
        return [n for n in (self.rows if side == "rows" else self.columns) if n not in gone]

    def verdict(self) -> str:
        """The answer in one line: a dominant strategy, a dominance-solvable game, or the mixes.

        A side's strategy is *dominant* when it dominates every other strategy of its side in
        the whole matrix (no worse against any opponent strategy, significantly better against
        one); the game is *dominance-solvable* for a side when iterated elimination leaves it one
        strategy without that strategy dominating all the others at once. The two words are
        kept apart: a strategy left by elimination may do worse than another against an
        opponent strategy that was itself eliminated. With neither, the optimal mixes are said
        (a saddle point as a pure pair).
        """
        red, blue = self.sides
        value = self.value_text()
        dominant, solvable, mixed = [], [], []
        for side, other, key in ((red, blue, "rows"), (blue, red, "columns")):
            left = self.survivors(key)
            if len(left) == 1 and len(left) < len(self.rows if key == "rows" else self.columns):
                if self._dominates_all(key, left[0]):
                    dominant.append(
                        f"{side}/{left[0]} (the best {side} choice against every {other} strategy)"
                    )
                else:
                    solvable.append(f"{side}/{left[0]}")
            else:
                mixed.append((side, key))
        parts = []
        if dominant:
            parts.append(f"dominant strategy: {' and '.join(dominant)}")
        if solvable:
            each = "each " if len(solvable) == 2 else ""
            parts.append(
                "dominance-solvable: iterated elimination of dominated strategies leaves "
                f"{' and '.join(solvable)} ({each}not dominant: not surely the best choice "
                "against every strategy of the other side)"
            )
        if not parts:
            parts.append("no dominant strategy")
        pure = {key: max(self.mix(key).items(), key=lambda t: t[1]) for _, key in mixed}
        if len(mixed) == 2 and all(p == 1 for _, p in pure.values()):
            parts.append(
                f"a saddle point: {red}/{pure['rows'][0]} against {blue}/{pure['columns'][0]} "
                "(neither side gains by switching alone)"
            )
        else:
            parts += [f"optimal {side} mix: {_mix_text(self.mix(key))}" for side, key in mixed]
        return "; ".join([*parts, value])

    def value_text(self) -> str:
        """The value of the game in words, with its interval."""
        low, high = self.spread.value
        return (
            f"value: {self.sides[0]} scores {self.solution.value:.0%} (95% CI {low:.0%}–{high:.0%})"
        )

    def _dominates_all(self, side: str, name: str) -> bool:
        """Whether ``name`` dominates every other strategy of its side in the whole matrix."""
        names = self.rows if side == "rows" else self.columns
        gains = self.payoff if side == "rows" else -self.payoff.T
        p = self.tests.rows if side == "rows" else self.tests.columns
        best = names.index(name)
        for other in range(len(names)):
            if other == best:
                continue
            if (gains[other] > gains[best]).any():
                return False
            if not any(
                gains[other, j] < gains[best, j] and p[best, other, j] < self.alpha
                for j in range(gains.shape[1])
            ):
                return False
        return True

    def matrix_frame(self) -> pd.DataFrame:
        """One row per cell: the strategies, counts, payoff, interval and dominance marks."""
        gone_rows, gone_columns = set(self.dominated("rows")), set(self.dominated("columns"))
        records = []
        for i, row in enumerate(self.rows):
            for j, column in enumerate(self.columns):
                wins, losses, draws = (int(c) for c in self.counts[i, j])
                records.append(
                    {
                        "row": row,
                        "column": column,
                        "runs": self.runs,
                        f"{self.sides[0]}_wins": wins,
                        f"{self.sides[1]}_wins": losses,
                        "draws": draws,
                        "payoff": float(self.payoff[i, j]),
                        "ci_low": float(self.ci95[i, j, 0]),
                        "ci_high": float(self.ci95[i, j, 1]),
                        "row_dominated": row in gone_rows,
                        "column_dominated": column in gone_columns,
                    }
                )
        return pd.DataFrame.from_records(records)

    def to_dict(self) -> dict[str, Any]:
        """The summary as one JSON-ready mapping (``summary.json`` and ``--json``)."""
        red, blue = self.sides
        low, high = self.spread.value
        return {
            "kind": "tournament",
            "scenario": self.scenario,
            "file": self.file,
            "runs": self.runs,
            "seed": self.seed,
            "sides": {"rows": red, "columns": blue},
            "payoff_kind": self.payoff_kind,
            "payoff_means": f"{red}'s {PAYOFF_TEXT[self.payoff_kind]}",
            "rows": list(self.rows),
            "columns": list(self.columns),
            "payoff": self.payoff.tolist(),
            "ci95": self.ci95.tolist(),
            "counts": {
                f"{red}_wins": self.counts[:, :, 0].tolist(),
                f"{blue}_wins": self.counts[:, :, 1].tolist(),
                "draws": self.counts[:, :, 2].tolist(),
            },
            "dominated": {"rows": self.dominated("rows"), "columns": self.dominated("columns")},
            "eliminated": [self._eliminated(e) for e in self.eliminated],
            "mix": {"rows": self.mix("rows"), "columns": self.mix("columns")},
            "mix_ci95": {
                "rows": dict(zip(self.rows, map(list, self.spread.rows), strict=True)),
                "columns": dict(zip(self.columns, map(list, self.spread.columns), strict=True)),
            },
            "value": self.solution.value,
            "value_ci95": [low, high],
            "verdict": self.verdict(),
            "alpha": self.alpha,
            "tests": self.tests.tests,
            "resamples": self.spread.resamples,
            "methods": METHODS,
            "precision": self.precision.to_dict() if self.precision else None,
        }

    def _eliminated(self, e: Eliminated) -> dict[str, Any]:
        mine, theirs = (self.rows, self.columns) if e.side == "rows" else (self.columns, self.rows)
        side = self.sides[0] if e.side == "rows" else self.sides[1]
        return {
            "side": side,
            "strategy": mine[e.index],
            "by": mine[e.by],
            "round": e.round,
            "significantly_worse_against": theirs[e.against],
            "p_holm": e.p_holm,
        }

    def save(self, directory: str | Path, scenario: Scenario | None = None) -> list[Path]:
        """Write ``matrix.parquet``/``.csv``, ``summary.json`` and the chart into ``directory``.

        The chart is ``plots/payoff.png`` and ``.svg``; the scenario, if given, is kept as
        ``scenario.yaml`` (for ``combatsim report``).
        """
        out = Path(directory)
        summary = self.to_dict()
        meta = None
        if scenario is not None:
            meta = run_meta(scenario, self.seed, self.runs, kind="tournament")
        with FolderLock(out):
            written = save_frame(self.matrix_frame(), out, "matrix")
            written.append(write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n"))
            if meta is not None and scenario is not None:
                written.append(write_text(out / "meta.json", json.dumps(meta, indent=2) + "\n"))
                written.append(write_scenario(out, scenario))
            written += save_figure(plot_tournament(summary), out / "plots", "payoff")
            finish_job(out)  # the cells streamed there are now whole
        return written


def _mix_text(mix: dict[str, float]) -> str:
    used = sorted(((p, n) for n, p in mix.items() if p >= 0.005), key=lambda t: -t[0])
    return ", ".join(f"{p:.0%} {n}" for p, n in used)
