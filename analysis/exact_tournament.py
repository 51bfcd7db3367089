"""A tournament answered exactly: every pairing solved as a chain, the game solved in fractions.

``combatsim tournament --method exact|auto`` solves each pairing's fight
(:func:`analysis.exact_arms.all_exact`, the rule every exact study shares: under ``auto`` one
pairing without a chain makes the whole tournament sampled, saying which). The payoff matrix is
then exact (the row side's win rate, draws counted half under ``score``), and so is all that
follows from it: a strategy is dominated when another is no better off against no remaining
opponent strategy and better off against one (no test: the payoffs have no noise), and the
equilibrium is solved in fractions (:func:`analysis.game.solve_exact`), its value and mixes
exact. The summary has the keys of a sampled tournament's with ``"method": "exact"``, intervals
of zero width, what only combats give (counts, seeds, resamples) None, and the fractions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.exact_arms import ArmAnswer, all_exact
from analysis.game import ALPHA, Bootstrap, DominanceTests, ExactSolution, eliminate, solve_exact
from analysis.tournament import TournamentPlan
from analysis.tournament_plot import plot_tournament, save_figure
from analysis.tournament_result import PAYOFFS, Tournament
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.tables import save_frame

#: What the exact summary says of each step, in place of a sampled one's methods.
EXACT_METHODS = {
    "pairing": "every pairing solved as a Markov chain (docs/exact.md); no combat played",
    "interval": "none: the payoffs are exact",
    "dominance": "dominated: no better against any remaining opponent strategy and worse "
    "against one, on the exact payoffs (no test); iterated elimination",
    "game": "two-player zero-sum game on the exact payoff matrix, solved in fractions (the "
    "equalising pair of a square block, checked against every pure strategy)",
    "value_interval": "none: the value is exact",
}


@dataclass
class ExactTournament(Tournament):
    """A tournament whose payoffs and equilibrium are exact fractions."""

    exact_payoff: list[list[Fraction]] = field(default_factory=list)
    exact: ExactSolution | None = None
    states: int = 0

    def value_text(self) -> str:
        """The value of the game in words: exact."""
        return f"value: {self.sides[0]} scores {self.solution.value:.0%} (exact)"

    def matrix_frame(self) -> pd.DataFrame:
        """The sampled matrix's columns, counts None (no combat was played)."""
        frame = super().matrix_frame()
        for column in ("runs", f"{self.sides[0]}_wins", f"{self.sides[1]}_wins", "draws"):
            frame[column] = None
        frame["payoff_fraction"] = [str(p) for row in self.exact_payoff for p in row]
        return frame

    def to_dict(self) -> dict[str, Any]:
        """A sampled tournament's keys, with ``"method": "exact"`` and the fractions."""
        data = super().to_dict()
        data |= {"runs": None, "seed": None, "counts": None, "tests": 0, "resamples": None}
        data["methods"] = EXACT_METHODS
        for e in data["eliminated"]:
            e["p_holm"] = None
        exact = self.exact
        assert exact is not None
        data["method"] = "exact"
        data["states"] = self.states
        data["fractions"] = {
            "payoff": [[str(p) for p in row] for row in self.exact_payoff],
            "mix": {
                "rows": dict(zip(self.rows, map(str, exact.rows), strict=True)),
                "columns": dict(zip(self.columns, map(str, exact.columns), strict=True)),
            },
            "value": str(exact.value),
        }
        return data

    def save(self, directory: str | Path, scenario: Any = None) -> list[Path]:
        """Write ``matrix.parquet``/``.csv``, ``summary.json`` and the chart.

        No cells: none was played.
        """
        out = Path(directory)
        summary = self.to_dict()
        with FolderLock(out):
            written = save_frame(self.matrix_frame(), out, "matrix")
            written.append(write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n"))
            written += save_figure(plot_tournament(summary), out / "plots", "payoff")
        return written


def exact_tournament(
    plan: TournamentPlan, method: str, payoff: str = "score", alpha: float = ALPHA
) -> tuple[ExactTournament | None, str]:
    """The tournament answered exactly, or None and why it must be sampled.

    Raises:
        NotExact, TooManyStates: under ``exact``, a pairing no chain plays or over the cap.
    """
    if payoff not in PAYOFFS:
        raise ValueError(f"payoff is one of {', '.join(PAYOFFS)}, not {payoff!r}")
    cells = {
        f"{r.name}.vs.{c.name}": plan.cells[i][j]
        for i, r in enumerate(plan.rows)
        for j, c in enumerate(plan.columns)
    }
    answers, why = all_exact(cells, method, "pairing")
    if answers is None:
        return None, why
    width = len(plan.columns)
    win, draw, _ = (Fraction(points, 2) for points in PAYOFFS[payoff])
    exact = [
        [_payoff(answers[i * width + j], plan.sides[0], win, draw) for j in range(width)]
        for i in range(len(plan.rows))
    ]
    matrix = np.array([[float(p) for p in row] for row in exact], dtype=float)
    solution = solve_exact(exact)
    tests = _exact_tests(exact)
    result = ExactTournament(
        scenario=plan.scenario.name,
        file=plan.scenario.file,
        seed=plan.scenario.seed,
        runs=0,
        sides=plan.sides,
        rows=[s.name for s in plan.rows],
        columns=[s.name for s in plan.columns],
        payoff_kind=payoff,
        payoff=matrix,
        ci95=np.stack([matrix, matrix], axis=2),
        counts=np.zeros((*matrix.shape, 3), dtype=int),
        tests=tests,
        # Dominance read on the fractions themselves (two that round to one float still differ).
        eliminated=eliminate(np.array(exact, dtype=object), tests, alpha),
        solution=solution.floats(),
        spread=Bootstrap(
            (float(solution.value),) * 2,
            tuple((float(p), float(p)) for p in solution.rows),
            tuple((float(p), float(p)) for p in solution.columns),
            0,
        ),
        alpha=alpha,
        exact_payoff=exact,
        exact=solution,
        states=max(int(a.summary["states"]) for a in answers if a.summary),
    )
    return result, ""


def _payoff(answer: ArmAnswer, row_side: str, win: Fraction, draw: Fraction) -> Fraction:
    """The row side's exact payoff in a pairing: a win's worth times its chance, and a draw's."""
    assert answer.summary is not None
    drawn = Fraction(answer.summary["fractions"]["draw_rate"])
    return win * answer.win_rate(row_side) + draw * drawn


def _exact_tests(exact: list[list[Fraction]]) -> DominanceTests:
    """Dominance "tests" of exact payoffs: 0 where two payoffs differ (a fact), 1 where equal.

    With these, :func:`analysis.game.eliminate` at any alpha removes exactly the strategies
    no better anywhere and worse somewhere.
    """
    a = np.array(exact, dtype=object)
    rows = (a[:, None, :] == a[None, :, :]).astype(float)
    columns = (a.T[:, None, :] == a.T[None, :, :]).astype(float)
    return DominanceTests(rows, columns, 0)


__all__ = ["EXACT_METHODS", "ExactTournament", "exact_tournament"]
