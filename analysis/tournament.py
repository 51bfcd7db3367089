"""Tournaments: every strategy of one side against every strategy of the other, on the same seeds.

A scenario's ``strategies:`` section (:mod:`sim.scenario.strategies`) names each side's
alternatives. :func:`run_tournament` plays every *cell* (a row strategy of the first side against
a column strategy of the second) with the same combat indices and seed, so combat *k* of every
cell draws from the stream ``(seed, k)``: common random numbers, as ``compare`` and ``sweep``
use. Each cell is an ordinary run (:func:`sim.api.simulate`): on every core, streamed chunk by
chunk into ``OUT/cells/ROW.vs.COLUMN/combats-FIRST-STOP/`` when an output folder is given, and
resumed from there (a cell whose combats are on disk is read back, not played again).

:func:`analyse` turns the outcomes into the payoff matrix (the row side's payoff: its win rate,
draws counted half unless ``payoff="wins"``) with 95% intervals, the dominated strategies
(iterated elimination with paired tests, Holm-corrected over the matrix) and the solution of
the two-player zero-sum game with a bootstrap interval of its value (:mod:`analysis.game`).

>>> from analysis.tournament import plan_tournament, run_tournament
>>> result = run_tournament(plan_tournament("scenarios/t10-tactics-tournament.yaml"), runs=500)
>>> result.verdict()
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.game import (
    ALPHA,
    RESAMPLES,
    Bootstrap,
    DominanceTests,
    Eliminated,
    GameSolution,
    bootstrap,
    dominance_tests,
    eliminate,
    score_interval,
    solve_zero_sum,
)
from analysis.precision import DEFAULT_BATCH, DEFAULT_MAX_RUNS, PreciseRun, run_until_precise
from analysis.results import run_meta
from analysis.tournament_plot import plot_tournament, save_figure
from sim.api import simulate
from sim.files import write_text
from sim.outdir import FolderLock
from sim.scenario.loader import load_scenario, scenario_from_dict
from sim.scenario.schema import Scenario
from sim.scenario.strategies import Strategy, cell_data, strategies_of
from sim.store import write_scenario
from sim.tables import save_frame

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


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament ready to play: the scenario, each side's strategies and every cell.

    Attributes:
        scenario: the scenario with its ``strategies:`` section.
        rows: the first side's strategies.
        columns: the second side's strategies.
        cells: ``cells[i][j]``: the scenario of row ``i`` against column ``j``.
        runs: combats per cell unless told otherwise.
    """

    scenario: Scenario
    rows: tuple[Strategy, ...]
    columns: tuple[Strategy, ...]
    cells: tuple[tuple[Scenario, ...], ...]
    runs: int

    @property
    def sides(self) -> tuple[str, str]:
        """The row side and the column side."""
        return (self.scenario.side_names[0], self.scenario.side_names[1])


def plan_tournament(scenario: Scenario | str | Path) -> TournamentPlan:
    """Build every cell of a scenario's tournament, checked before anything is played.

    Raises:
        ScenarioError: the scenario is not valid or has no ``strategies:`` section (a file with
            more than two sides and strategies is refused when it is loaded).
    """
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    rows, columns = strategies_of(scenario)
    cells = tuple(
        tuple(scenario_from_dict(cell_data(scenario.data, r, c), scenario.file) for c in columns)
        for r in rows
    )
    return TournamentPlan(scenario, tuple(rows), tuple(columns), cells, scenario.runs)


def cell_folder(out: Path, row: Strategy, column: Strategy, start: int, stop: int) -> Path:
    """Where one cell's combats ``start .. stop - 1`` are streamed (names never hold a dot)."""
    return out / "cells" / f"{row.name}.vs.{column.name}" / f"combats-{start}-{stop}"


#: Called before each cell is played: (cell number from 1, cells in all, row, column).
OnCell = Callable[[int, int, Strategy, Strategy], None]


def play_cells(
    plan: TournamentPlan,
    seed: int,
    start: int,
    stop: int,
    *,
    out: Path | None = None,
    progress: bool = False,
    on_cell: OnCell | None = None,
    **engine: Any,
) -> np.ndarray:
    """The outcome of combats ``start .. stop - 1`` in every cell, ``[row, column, combat]``.

    Each cell is a :func:`sim.api.simulate` of its scenario (``engine``: ``workers``,
    ``scheduler``, ``chunk_size``); with ``out``, streamed into its folder and resumed from it.

    Raises:
        sim.api.RunInterrupted: Ctrl-C; with ``out``, the chunks finished are on disk.
    """
    outcomes = np.empty((len(plan.rows), len(plan.columns), stop - start), dtype=np.int8)
    total = len(plan.rows) * len(plan.columns)
    for i, row in enumerate(plan.rows):
        for j, column in enumerate(plan.columns):
            if on_cell is not None:
                on_cell(i * len(plan.columns) + j + 1, total, row, column)
            folder = cell_folder(out, row, column, start, stop) if out is not None else None
            result = simulate(
                plan.cells[i][j],
                runs=stop - start,
                seed=seed,
                first=start,
                variant=f"{row.name}.vs.{column.name}",
                out=folder,
                resume=folder is not None,
                progress=progress,
                **engine,
            )
            table = result.outcomes.sort_values("combat")
            winner = table["winner"].to_numpy()
            codes = np.full(len(winner), DRAWN, dtype=np.int8)
            codes[winner == plan.sides[0]] = ROW_WON
            codes[winner == plan.sides[1]] = COLUMN_WON
            outcomes[i, j] = codes
    return outcomes


def half_points(outcomes: np.ndarray, payoff: str = "score") -> np.ndarray:
    """The row side's payoff of every combat in half points (2 a win; a draw per ``payoff``)."""
    win, draw, loss = PAYOFFS[payoff]
    return np.choose(outcomes, [win, loss, draw]).astype(np.int8)


# -- the result ---------------------------------------------------------------------------------


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
        """The answer in one line: a dominant strategy, or the optimal mixes.

        A side's strategy is *dominant* when it dominates every other strategy of its side in
        the first round; *dominance-solvable* when iterated elimination leaves it alone. With
        no such strategy, the optimal mixes are said (a saddle point as a pure pair).
        """
        red, blue = self.sides
        low, high = self.spread.value
        value = f"value: {red} scores {self.solution.value:.0%} (95% CI {low:.0%}–{high:.0%})"
        said, mixed = [], []
        for side, other, key in ((red, blue, "rows"), (blue, red, "columns")):
            left = self.survivors(key)
            if len(left) == 1 and len(left) < len(self.rows if key == "rows" else self.columns):
                how = (
                    f"the best {side} choice against every {other} strategy"
                    if self._plainly(key)
                    else "the one left by iterated elimination of dominated strategies"
                )
                said.append(f"{side}/{left[0]} ({how})")
            else:
                mixed.append((side, key))
        parts = [f"dominant strategy: {' and '.join(said)}" if said else "no dominant strategy"]
        pure = {key: max(self.mix(key).items(), key=lambda t: t[1]) for _, key in mixed}
        if len(mixed) == 2 and all(p == 1 for _, p in pure.values()):
            parts.append(
                f"a saddle point: {red}/{pure['rows'][0]} against {blue}/{pure['columns'][0]} "
                "(neither side gains by switching alone)"
            )
        else:
            parts += [f"optimal {side} mix: {_mix_text(self.mix(key))}" for side, key in mixed]
        return "; ".join([*parts, value])

    def _plainly(self, side: str) -> bool:
        """Whether the side's lone survivor dominated every other strategy in the first round."""
        return all(e.round == 1 for e in self.eliminated if e.side == side)

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
        return written


def _mix_text(mix: dict[str, float]) -> str:
    used = sorted(((p, n) for n, p in mix.items() if p >= 0.005), key=lambda t: -t[0])
    return ", ".join(f"{p:.0%} {n}" for p, n in used)


def analyse(
    plan: TournamentPlan,
    outcomes: np.ndarray,
    seed: int,
    *,
    payoff: str = "score",
    alpha: float = ALPHA,
    resamples: int = RESAMPLES,
) -> Tournament:
    """The payoff matrix, dominance, game solution and bootstrap of played outcomes.

    Args:
        plan: the tournament.
        outcomes: ``[row, column, combat]``, as :func:`play_cells` gives them.
        seed: the seed the cells played (also seeds the bootstrap's own stream).
        payoff: ``score`` (draws half) or ``wins``.
        alpha: family-wise error rate of the dominance verdicts.
        resamples: bootstrap resamples of the value's interval.
    """
    if payoff not in PAYOFFS:
        raise ValueError(f"payoff is one of {', '.join(PAYOFFS)}, not {payoff!r}")
    runs = outcomes.shape[2]
    scores = half_points(outcomes, payoff)
    matrix = scores.mean(axis=2, dtype=float) / 2
    ci95 = np.array(
        [[score_interval(float(m), runs) for m in row] for row in matrix], dtype=float
    ).reshape(*matrix.shape, 2)
    counts = np.stack(
        [(outcomes == code).sum(axis=2) for code in (ROW_WON, COLUMN_WON, DRAWN)], axis=2
    )
    tests = dominance_tests(scores)
    return Tournament(
        scenario=plan.scenario.name,
        file=plan.scenario.file,
        seed=seed,
        runs=runs,
        sides=plan.sides,
        rows=[s.name for s in plan.rows],
        columns=[s.name for s in plan.columns],
        payoff_kind=payoff,
        payoff=matrix,
        ci95=ci95,
        counts=counts,
        tests=tests,
        eliminated=eliminate(matrix, tests, alpha),
        solution=solve_zero_sum(matrix),
        spread=bootstrap(scores, seed, resamples),
        alpha=alpha,
    )


def run_tournament(
    plan: TournamentPlan,
    runs: int | None = None,
    seed: int | None = None,
    *,
    precision: float | None = None,
    max_runs: int = DEFAULT_MAX_RUNS,
    batch: int = DEFAULT_BATCH,
    payoff: str = "score",
    alpha: float = ALPHA,
    resamples: int = RESAMPLES,
    out: str | Path | None = None,
    progress: bool = False,
    on_cell: OnCell | None = None,
    on_batch: Callable[[int, float], None] | None = None,
    **engine: Any,
) -> Tournament:
    """Play every cell on the same seeds and analyse the matrix.

    Args:
        plan: from :func:`plan_tournament`.
        runs: combats per cell (default: the scenario's); not with ``precision``.
        seed: the seed of every cell (default: the scenario's).
        precision: play batches of ``batch`` combats per cell until every cell's interval has
            at most this half-width, or ``max_runs`` is reached.
        max_runs: the cap of a ``precision`` run.
        batch: combats per cell and batch of a ``precision`` run.
        payoff: ``score`` (draws half) or ``wins``.
        alpha: family-wise error rate of the dominance verdicts.
        resamples: bootstrap resamples of the value's interval.
        out: a folder to stream every cell into (and resume from); the tournament's own files
            are written by :meth:`Tournament.save`.
        progress: a progress bar per cell on a terminal's stderr.
        on_cell: called before each cell is played.
        on_batch: progress of a ``precision`` run (combats so far, widest half-width).
        **engine: how cells are played (``workers``, ``scheduler``, ``chunk_size``).

    Raises:
        sim.api.RunInterrupted: Ctrl-C; with ``out``, every chunk finished is on disk and the
            same call continues from there.
    """
    seed = plan.scenario.seed if seed is None else seed
    folder = Path(out) if out is not None else None
    if precision is None:
        played = play_cells(
            plan,
            seed,
            0,
            plan.runs if runs is None else runs,
            out=folder,
            progress=progress,
            on_cell=on_cell,
            **engine,
        )
        return analyse(plan, played, seed, payoff=payoff, alpha=alpha, resamples=resamples)
    if runs is not None:
        raise ValueError("give a number of runs or a target precision, not both")

    def run_range(start: int, stop: int) -> pd.DataFrame:
        played = play_cells(
            plan, seed, start, stop, out=folder, progress=progress, on_cell=on_cell, **engine
        )
        return pd.DataFrame({"start": [start], "outcomes": [played]})

    def intervals_of(table: pd.DataFrame) -> list[tuple[float, float]]:
        scores = half_points(np.concatenate(list(table["outcomes"]), axis=2), payoff)
        means = scores.mean(axis=2, dtype=float) / 2
        return [score_interval(float(m), scores.shape[2]) for m in means.ravel()]

    ran = run_until_precise(run_range, intervals_of, precision, max_runs, batch, on_batch)
    played = np.concatenate(list(ran.table["outcomes"]), axis=2)
    result = analyse(plan, played, seed, payoff=payoff, alpha=alpha, resamples=resamples)
    ran.table = ran.table.drop(columns="outcomes")
    result.precision = ran
    return result
