"""Tournaments: every strategy of one side against every strategy of the other, on the same seeds.

A scenario's ``strategies:`` section (:mod:`sim.scenario.strategies`) names each side's
alternatives. :func:`run_tournament` plays every *cell* (a row strategy of the first side against
a column strategy of the second) with the same combat indices and seed, so combat *k* of every
cell draws from the stream ``(seed, k)``: common random numbers, as ``compare`` and ``sweep``
use. Each cell is an ordinary run (:func:`sim.run.api.simulate`): on every core, streamed chunk by
chunk into ``OUT/cells/ROW.vs.COLUMN/combats-FIRST-STOP/`` when an output folder is given, and
with ``resume`` continued from there (a cell whose combats are on disk is read back, not played
again), after the folder's manifest is checked (:mod:`analysis.job`).

:func:`analyse` turns the outcomes into the payoff matrix (the row side's payoff: its win rate,
draws counted half unless ``payoff="wins"``) with 95% intervals, the dominated strategies
(iterated elimination with paired tests, Holm-corrected over the matrix) and the solution of
the two-player zero-sum game with a bootstrap interval of its value (:mod:`analysis.game`).

>>> from analysis.tournament import plan_tournament, run_tournament
>>> result = run_tournament(plan_tournament("scenarios/t10-tactics-tournament.yaml"), runs=500)
>>> result.verdict()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.game import (
    ALPHA,
    RESAMPLES,
    bootstrap,
    dominance_tests,
    eliminate,
    score_interval,
    solve_zero_sum,
)
from analysis.job import digest, open_job
from analysis.precision import DEFAULT_BATCH, DEFAULT_MAX_RUNS, run_until_precise
from analysis.tournament_result import COLUMN_WON, DRAWN, PAYOFFS, ROW_WON, Tournament
from sim.run.api import Execution, Storage, simulate
from sim.scenario.loader import load_scenario, made_from, scenario_from_dict
from sim.scenario.schema import Scenario
from sim.scenario.strategies import Strategy, cell_data, strategies_of


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
    def cell(row: Strategy, column: Strategy) -> Scenario:
        built = scenario_from_dict(cell_data(scenario.data, row, column), scenario.file)
        return made_from(built, scenario, {**row.overrides, **column.overrides})

    cells = tuple(tuple(cell(r, c) for c in columns) for r in rows)
    return TournamentPlan(scenario, tuple(rows), tuple(columns), cells, scenario.runs)


def cell_folder(out: Path, row: Strategy, column: Strategy, start: int, stop: int) -> Path:
    """Where one cell's combats ``start .. stop - 1`` are streamed (names never hold a dot)."""
    return out / "cells" / f"{row.name}.vs.{column.name}" / f"combats-{start}-{stop}"


def tournament_job(
    plan: TournamentPlan, seed: int, runs: int | None, precision: dict[str, Any] | None
) -> dict[str, Any]:
    """What a tournament's folder holds (:func:`analysis.job.open_job` checks it on resume)."""
    return {
        "kind": "tournament",
        "scenario": digest(plan.scenario),
        "cells": {
            f"{r.name}.vs.{c.name}": digest(plan.cells[i][j])
            for i, r in enumerate(plan.rows)
            for j, c in enumerate(plan.columns)
        },
        "seed": seed,
        "runs": runs,
        "precision": precision,
    }


#: Called before each cell is played: (cell number from 1, cells in all, row, column).
OnCell = Callable[[int, int, Strategy, Strategy], None]


def play_cells(
    plan: TournamentPlan,
    seed: int,
    start: int,
    stop: int,
    *,
    out: Path | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool = False,
    on_cell: OnCell | None = None,
    execution: Execution | None = None,
) -> np.ndarray:
    """The outcome of combats ``start .. stop - 1`` in every cell, ``[row, column, combat]``.

    Each cell is a :func:`sim.run.api.simulate` of its scenario, played as ``execution``
    says; with ``out``, streamed into its folder (and with ``resume``, continued from what is
    there).

    Raises:
        sim.run.api.RunInterrupted: Ctrl-C; with ``out``, the chunks finished are on disk.
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
                execution=execution,
                storage=Storage(folder, resume=resume and folder is not None, force=force),
                progress=progress,
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
    resume: bool = False,
    force: bool = False,
    progress: bool = False,
    on_cell: OnCell | None = None,
    on_batch: Callable[[int, float], None] | None = None,
    execution: Execution | None = None,
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
        out: a folder to stream every cell into, as ``run --out`` streams a run; the
            tournament's own files are written by :meth:`Tournament.save`.
        resume: with ``out``, continue the tournament there: play only the chunks that are
            missing (the folder must hold this tournament: :func:`analysis.job.open_job`).
        force: with ``out``, start over a tournament there that kept more combats.
        progress: a progress bar per cell on a terminal's stderr.
        on_cell: called before each cell is played.
        on_batch: progress of a ``precision`` run (combats so far, widest half-width).
        execution: how cells are played (workers, scheduler, chunk size).

    Raises:
        sim.run.api.RunInterrupted: Ctrl-C; with ``out``, every chunk finished is on disk and the
            same call with ``resume`` continues from there.
        sim.run.store.StoreMismatch: ``resume`` of another tournament, or a fresh start over a
            larger one without ``force``.
    """
    seed = plan.scenario.seed if seed is None else seed
    folder = Path(out) if out is not None else None
    if folder is None and resume:
        raise ValueError("resume needs out: the folder of the tournament to finish")
    cells = len(plan.rows) * len(plan.columns)
    if folder is not None:
        fixed = None if precision is not None else (plan.runs if runs is None else runs)
        target = None
        if precision is not None:
            target = {"precision": precision, "max_runs": max_runs, "batch": batch}
        manifest = tournament_job(plan, seed, fixed, target)
        planned = (max_runs if precision is not None else fixed or 0) * cells
        open_job(folder, manifest, planned, resume, force)
    if precision is None:
        played = play_cells(
            plan,
            seed,
            0,
            plan.runs if runs is None else runs,
            out=folder,
            resume=resume,
            force=force,
            progress=progress,
            on_cell=on_cell,
            execution=execution,
        )
        return analyse(plan, played, seed, payoff=payoff, alpha=alpha, resamples=resamples)
    if runs is not None:
        raise ValueError("give a number of runs or a target precision, not both")

    def run_range(start: int, stop: int) -> pd.DataFrame:
        played = play_cells(
            plan,
            seed,
            start,
            stop,
            out=folder,
            resume=resume,
            force=force,
            progress=progress,
            on_cell=on_cell,
            execution=execution,
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
