"""Balance points: the value of a parameter where a side's win rate crosses a target.

The method, in two stages, both with common random numbers (combat *k* has the same seed at
every value, so the values differ only by the parameter):

1. **Locate.** Play a coarse grid over the search range and fit a logistic curve
   ``P(win) = 1 / (1 + exp(-(a + b x)))`` to the win/loss of every combat. If the target lies
   outside the range of the observed rates, stop and say so.
2. **Measure.** Play a finer grid around the crossing (where a logistic curve is a good local
   description of any smooth monotone win rate) with more combats, fit again, and solve
   ``a + b x = logit(target)``.

The fit is maximum likelihood; its covariance is the cluster-robust (sandwich) estimate with one
cluster per combat index, because with common random numbers the results of one combat index at
different values are correlated, and a fit that took them as independent would misstate its own
precision. The 95% interval of the balance point is Fieller's interval for the ratio
``(logit(target) - a) / b`` (the classical interval for a dose at which a response crosses a
level): it is asymmetric where it should be, and unbounded when the slope is not clearly nonzero,
which is reported as "not sure". For a whole-number parameter (hit points, counts) the answer is
also given as the whole numbers in the interval and the fitted win rate at the nearest ones.

Assumptions: the win rate is monotone in the parameter near the crossing and smooth enough to be
logistic over the measuring window (checked: a point far from the fit is reported); draws count
as not winning.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.special import expit, logit
from scipy.stats import norm

from analysis.results import write_results
from analysis.sweep import Parameter, plan_sweep, run_sweep
from sim.engine.errors import EXIT_BAD_INPUT, CommandError
from sim.rules.wording import possessive
from sim.run.choices import Execution
from sim.run.files import write_text
from sim.run.meta import run_meta
from sim.run.outdir import FolderLock
from sim.run.records import combat_columns
from sim.run.summary import wilson_interval
from sim.scenario.loader import load_scenario
from sim.scenario.overrides import get_value
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.sweep_section import SweepModel

CONFIDENCE = 0.95
METHOD = (
    "logistic GLM (logit quadratic in the parameter over the measuring window), "
    "cluster-robust covariance by combat index, Wald-test-inversion interval (Fieller's for a "
    "straight logit)"
)
#: Largest |standardized residual| of a grid point before the fit is called poor.
LACK_OF_FIT_Z = 3.5


#: Exit code when the question is fine but has no answer in the range searched.
EXIT_NO_ANSWER = 1


class BalanceError(CommandError):
    """No balance point can be given (the message says why and what to try).

    ``bad_input`` is true when the question itself is wrong (not a number, an unknown side;
    exit code 2), false when it has no answer in the range searched (exit code 1).
    """

    def __init__(self, message: str, bad_input: bool = True) -> None:
        super().__init__(message)
        self.bad_input = bad_input
        self.exit_code = EXIT_BAD_INPUT if bad_input else EXIT_NO_ANSWER


# -- the logistic fit ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LogisticFit:
    """A logistic curve ``P = expit(eta(x))`` with its cluster-robust covariance.

    ``eta`` is a polynomial (degree 1: a line; degree 2: a line with some curvature) in
    ``u = (x - centre) / scale``, which keeps the fit well conditioned.

    Attributes:
        coefficients: of ``1, u, u**2 ...``.
        covariance: of the coefficients, robust to correlation within a combat index.
        centre: the ``x`` at ``u = 0``.
        scale: the ``x`` distance of one unit of ``u``.
        clusters: number of combat indices.
        converged: whether Newton's method converged.
    """

    coefficients: np.ndarray
    covariance: np.ndarray
    centre: float
    scale: float
    clusters: int
    converged: bool = True

    @property
    def degree(self) -> int:
        """1 for a straight logit, 2 with a curvature term."""
        return len(self.coefficients) - 1

    def _u(self, x: Any) -> np.ndarray:
        return (np.asarray(x, dtype=float) - self.centre) / self.scale

    def _design(self, x: Any) -> np.ndarray:
        u = self._u(x)
        return np.stack([u**k for k in range(self.degree + 1)], axis=-1)

    def eta(self, x: Any) -> np.ndarray:
        """The fitted logit of the win rate at ``x``."""
        return self._design(x) @ self.coefficients

    def eta_se(self, x: Any) -> np.ndarray:
        """Standard error of :meth:`eta` (delta method)."""
        d = self._design(x)
        return np.sqrt(np.maximum(np.einsum("...i,ij,...j->...", d, self.covariance, d), 0))

    def predict(self, x: Any) -> np.ndarray:
        """Fitted win probability at ``x``."""
        return expit(self.eta(x))

    def band(self, x: Any, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
        """Pointwise interval of the fitted probability (delta method on the logit scale)."""
        z = norm.ppf(0.5 + confidence / 2)
        eta, se = self.eta(x), self.eta_se(x)
        return expit(eta - z * se), expit(eta + z * se)

    def slope(self, x: Any) -> tuple[float, float]:
        """``d eta / dx`` at ``x`` and its standard error."""
        u = float(self._u(x))
        d = np.array([0.0, *(k * u ** (k - 1) for k in range(1, self.degree + 1))]) / self.scale
        return float(d @ self.coefficients), math.sqrt(max(d @ self.covariance @ d, 0))

    def crossing(self, target: float) -> float | None:
        """The ``x`` where the fitted curve equals ``target`` (nearest the fit's centre)."""
        shifted = self.coefficients.copy()
        shifted[0] -= logit(target)
        roots = np.roots(shifted[::-1]) if np.any(shifted[1:] != 0) else np.array([])
        real = [r.real for r in np.atleast_1d(roots) if abs(r.imag) < 1e-12]
        if not real:
            return None
        u = min(real, key=abs)
        return float(self.centre + self.scale * u)

    def crossing_se(self, target: float) -> float:
        """Delta-method standard error of :meth:`crossing`."""
        x = self.crossing(target)
        if x is None:
            return math.inf
        slope, _ = self.slope(x)
        return float(self.eta_se(x)) / abs(slope) if slope else math.inf

    def interval(self, target: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
        """The 95% interval of the crossing, by inverting a Wald test.

        It holds every ``x`` where ``eta(x) = logit(target)`` is not rejected by a Wald test at
        that ``x``. For a straight logit this is Fieller's interval, in closed form; with
        curvature it is found numerically. An end that does not close inside a wide search is
        infinite: the slope is not clearly nonzero there.
        """
        z2 = norm.ppf(0.5 + confidence / 2) ** 2
        goal = logit(target)
        if self.degree == 1:
            (a, b), v = self.coefficients - [goal, 0], self.covariance
            quad = b * b - z2 * v[1, 1]
            if quad <= 0:
                return (-math.inf, math.inf)
            lin = 2 * (a * b - z2 * v[0, 1])
            root = math.sqrt(max(lin * lin - 4 * quad * (a * a - z2 * v[0, 0]), 0.0))
            ends = ((-lin - root) / (2 * quad), (-lin + root) / (2 * quad))
            return (self.centre + self.scale * ends[0], self.centre + self.scale * ends[1])
        middle = self.crossing(target)
        if middle is None:
            return (-math.inf, math.inf)

        def excess(x: Any) -> Any:
            return (self.eta(x) - goal) ** 2 - z2 * self.eta_se(x) ** 2

        reach = 4 * self.scale * 3
        limits: list[float] = []
        for direction in (-1, 1):
            grid = middle + direction * np.linspace(0, reach, 4001)
            out = np.flatnonzero(excess(grid) > 0)
            if not len(out):
                limits.append(direction * math.inf)
                continue
            i = int(out[0])
            limits.append(
                brentq(lambda x: float(excess(x)), grid[i - 1], grid[i]) if i else float(grid[0])
            )
        return (min(limits), max(limits))


def fit_logistic(
    values: Sequence[float] | np.ndarray,
    wins: np.ndarray,
    degree: int = 1,
    iterations: int = 100,
) -> LogisticFit:
    """Fit ``P(win) = expit(polynomial(x))`` to a combats x values matrix of 0/1 outcomes.

    ``wins[k, j]`` is 1 when combat index ``k`` was won at ``values[j]``. Each row is a cluster
    (the same combat seed at every value): the covariance is the sandwich estimate summed over
    rows, with the small-sample factor ``K / (K - 1)``.
    """
    x = np.asarray(values, dtype=float)
    y = np.asarray(wins, dtype=float)
    clusters, points = y.shape
    if points < degree + 1 or clusters < 2:
        raise BalanceError(
            f"a curve of degree {degree} needs {degree + 1} values and two combats at each"
        )
    centre, scale = float(x.mean()), float(x.std()) or 1.0
    u = (x - centre) / scale
    design = np.column_stack([u**k for k in range(degree + 1)])
    rate = y.mean(axis=0)

    def loglik(beta: np.ndarray) -> float:
        eta = design @ beta
        return float(clusters * np.sum(rate * eta - np.logaddexp(0, eta)))

    beta = np.zeros(degree + 1)
    converged = False
    for _ in range(iterations):
        p = expit(design @ beta)
        info = design.T @ (design * (clusters * p * (1 - p))[:, None])
        score = design.T @ (clusters * (rate - p))
        try:
            step = np.linalg.solve(info, score)
        except np.linalg.LinAlgError:
            break
        before = loglik(beta)
        for _halving in range(30):
            if loglik(beta + step) >= before - 1e-12:
                break
            step = step / 2
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            converged = True
            break
    p = expit(design @ beta)
    info = design.T @ (design * (clusters * p * (1 - p))[:, None])
    per_cluster = (y - p[None, :]) @ design
    meat = per_cluster.T @ per_cluster * clusters / (clusters - 1)
    try:
        bread = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        bread = np.full(info.shape, np.inf)
    covariance = bread @ meat @ bread
    ok = converged and bool(np.all(np.isfinite(covariance)))
    return LogisticFit(beta, covariance, centre, scale, clusters, ok)


# -- the search ---------------------------------------------------------------------------------


@dataclass
class BalanceResult:
    """A balance point with its interval, the grid it was measured on, and how sure it is."""

    scenario: str
    path: str
    label: str
    side: str
    target: float
    value: float | None
    interval: tuple[float, float]
    se: float
    integer: bool
    fit: LogisticFit
    grid: pd.DataFrame
    runs: int
    seed: int
    search: tuple[float, float]
    locate_grid: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    nearest: list[dict[str, Any]] = field(default_factory=list)
    #: The measuring grid's combats (a sweep's table: ``point`` and the parameter's column).
    outcomes: pd.DataFrame | None = field(default=None, repr=False)
    #: What :func:`find_balance` was asked (its arguments as given), to play it again.
    asked: dict[str, Any] = field(default_factory=dict, repr=False)
    #: The scenario searched (its file is kept with the saved results).
    source: Scenario | None = field(default=None, repr=False, compare=False)

    @property
    def bounded(self) -> bool:
        """Whether the interval is finite (the slope is clearly nonzero)."""
        return all(math.isfinite(v) for v in self.interval)

    @property
    def slope_per_unit(self) -> float:
        """Change in win rate per unit of the parameter at the balance point."""
        if self.value is None:
            return 0.0
        return self.fit.slope(self.value)[0] * self.target * (1 - self.target)

    @property
    def slope_z(self) -> float:
        """The logit's slope at the balance point over its standard error."""
        if self.value is None:
            return 0.0
        slope, se = self.fit.slope(self.value)
        return slope / se if se > 0 else math.inf

    @property
    def whole_numbers(self) -> list[int]:
        """The whole numbers inside the interval (for a whole-number parameter)."""
        lo, hi = self.interval
        if not self.bounded:
            return []
        return list(range(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1))

    def curve(self, xs: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fitted win rate at ``xs`` and its pointwise 95% band."""
        low, high = self.fit.band(xs)
        return self.fit.predict(xs), low, high

    def verdict(self) -> str:
        """How sure the answer is, in one sentence."""
        if self.value is None or not self.bounded:
            return (
                "Not sure: over this range the win rate does not move clearly with the "
                "parameter, so the crossing cannot be pinned down; widen the range or add runs."
            )
        lo, hi = self.interval
        if self.integer:
            whole = self.whole_numbers
            if len(whole) <= 1:
                best = whole[0] if whole else round(self.value)
                return f"Sure to the whole number: {best} (the interval holds no other)."
            return (
                f"Within noise, any of {', '.join(map(str, whole))} gives {self.target:.0%}: "
                "the interval spans "
                f"{len(whole)} whole numbers; more runs narrow it (it shrinks as 1/sqrt(runs))."
            )
        return f"95% confident the balance point is between {lo:.4g} and {hi:.4g}."

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        lo, hi = self.interval
        return {
            "scenario": self.scenario,
            "parameter": self.path,
            "label": self.label,
            "side": self.side,
            "target": self.target,
            "value": self.value,
            "ci95": [None if math.isinf(lo) else lo, None if math.isinf(hi) else hi],
            "se": self.se,
            "integer": self.integer,
            "whole_numbers": self.whole_numbers if self.integer else None,
            "nearest": self.nearest,
            "slope_per_unit": self.slope_per_unit,
            "slope_z": self.slope_z,
            "verdict": self.verdict(),
            "method": METHOD,
            "runs_per_point": self.runs,
            "seed": self.seed,
            "search_range": list(self.search),
            "grid": self.grid.to_dict(orient="records"),
            "locate_grid": self.locate_grid.to_dict(orient="records"),
            "fit": {
                "coefficients": self.fit.coefficients.tolist(),
                "covariance": self.fit.covariance.tolist(),
                "centre": self.fit.centre,
                "scale": self.fit.scale,
                "clusters": self.fit.clusters,
                "converged": self.fit.converged,
            },
            "asked": self.asked,
            "notes": self.notes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BalanceResult:
        """The result saved as ``balance.json`` (:meth:`to_dict`), to draw and report it again.

        Raises:
            KeyError, TypeError, ValueError: the file is not a whole balance result.
        """
        fit = data["fit"]
        low, high = data["ci95"]
        return cls(
            scenario=str(data["scenario"]),
            path=str(data["parameter"]),
            label=str(data["label"]),
            side=str(data["side"]),
            target=float(data["target"]),
            value=None if data["value"] is None else float(data["value"]),
            interval=(-math.inf if low is None else low, math.inf if high is None else high),
            se=float(data["se"]),
            integer=bool(data["integer"]),
            fit=LogisticFit(
                np.asarray(fit["coefficients"], dtype=float),
                np.asarray(fit["covariance"], dtype=float),
                float(fit["centre"]),
                float(fit["scale"]),
                int(fit["clusters"]),
                bool(fit["converged"]),
            ),
            grid=pd.DataFrame(data["grid"]),
            runs=int(data["runs_per_point"]),
            seed=int(data["seed"]),
            search=(data["search_range"][0], data["search_range"][1]),
            locate_grid=pd.DataFrame(data.get("locate_grid") or []),
            notes=list(data.get("notes") or []),
            nearest=list(data.get("nearest") or []),
            asked=dict(data.get("asked") or {}),
        )

    def save(self, directory: str | Path) -> list[Path]:
        """Write the search's results folder (kind ``balance``), for ``plot`` and ``report``.

        It holds ``balance.json`` (the answer, the grids and the fit), the measuring grid's
        combats (``outcomes.parquet``), ``meta.json`` and the scenario file as written.
        """
        directory = Path(directory)
        if self.source is None or self.outcomes is None:
            with FolderLock(directory):
                text = json.dumps(self.to_dict(), indent=2) + "\n"
                return [write_text(directory / "balance.json", text)]
        meta = run_meta(self.source, self.seed, self.runs, kind="balance", asked=self.asked)
        return write_results(
            directory, self.outcomes, self.to_dict(), meta=meta, scenario=self.source,
            summary_name="balance.json",
        )  # fmt: skip


def find_balance(
    scenario: Scenario | str | Path,
    path: str,
    target: float = 0.5,
    side: str | None = None,
    *,
    low: float | None = None,
    high: float | None = None,
    points: int = 9,
    runs: int = 400,
    refine_runs: int | None = None,
    seed: int | None = None,
    label: str | None = None,
    execution: Execution | None = None,
) -> BalanceResult:
    """Find the value of ``path`` where ``side``'s win rate equals ``target``.

    Args:
        scenario: a scenario or its file.
        path: the parameter, as a dotted path (``sides.red.combatants.0.hp``).
        target: the win rate to reach (0.5: an even fight).
        side: whose win rate (default: the first side).
        low: lower end of the search range (default: from the scenario's sweep of this path,
            else half the current value).
        high: upper end (default: likewise, else twice the current value).
        points: values per grid.
        runs: combats per value while locating.
        refine_runs: combats per value while measuring (default: four times ``runs``).
        seed: the seed (default: the scenario's); the same at every value.
        label: the parameter's name in tables and plots (default: the ``label`` the
            scenario's sweep gives this path, else the path).
        execution: how each value's combats are played (workers, scheduler, chunk size).

    Raises:
        ScenarioError: the path or a value in the range does not give a valid scenario.
        BalanceError: the target is not crossed in the range, or the parameter is not a number.
    """
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    side = check_question(scenario, target, side, points)
    seed = scenario.seed if seed is None else seed
    refine_runs = refine_runs or 4 * runs
    label = label or _swept_label(scenario, path) or path
    taken = {"scenario", "variant", "point", *combat_columns(scenario.side_names)}
    if label in taken and label == path:
        raise BalanceError(
            f"--param {path}: {path!r} is the run's own {path} (a column of the outcome table, "
            "the same at every value), not a rule parameter; name a value of the scenario "
            "such as sides.red.combatants.0.hp"
        )
    if label in taken:
        raise BalanceError(f"--label {label}: a column of the outcome table; choose another")
    for name, end in (("low", low), ("high", high)):
        if end is not None and not math.isfinite(end):
            raise BalanceError(f"the search range's {name} end must be a finite number, not {end}")
    if low is not None and high is not None and not low < high:
        raise BalanceError(f"the search range must go from low to high, not {low} to {high}")
    asked = {
        "path": path, "target": target, "side": side, "low": low, "high": high, "points": points,
        "runs": runs, "refine_runs": refine_runs, "seed": seed, "label": label,
    }  # fmt: skip
    current, integer, low, high = _search_range(scenario, path, low, high)
    notes: list[str] = []

    def play(values: list[Any], combats: int) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame]:
        return _play(scenario, path, label, values, combats, seed, side, execution)

    locate, locate_wins, _ = play(_grid(low, high, points, integer), runs)
    rates = locate["win_rate"]
    if (locate["ci_high"] < target).all() or (locate["ci_low"] > target).all():
        raise BalanceError(
            f"{possessive(side)} win rate stays between {rates.min():.1%} and "
            f"{rates.max():.1%} for "
            f"{label} from {_show(low)} to {_show(high)}: the target {target:.0%} is outside; "
            "widen the range (--range LOW HIGH)",
            bad_input=False,
        )
    centre, half = _window(locate, locate_wins, target, low, high, points, integer)
    grid_values = _measuring_grid(centre, half, low, high, points, integer)
    grid, wins, outcomes = play(grid_values, refine_runs)
    fit = fit_logistic(grid["value"].to_numpy(), wins, degree=_degree(grid_values))
    value = fit.crossing(target)
    if value is not None and not grid["value"].min() <= value <= grid["value"].max():
        # The locating fit was off: measure again around the new estimate.
        centre = min(max(value, low), high)
        notes.append(f"re-measured around {_show(centre)} (the first window missed the crossing)")
        grid_values = _measuring_grid(centre, half, low, high, points, integer)
        grid, wins, outcomes = play(grid_values, refine_runs)
        fit = fit_logistic(grid["value"].to_numpy(), wins, degree=_degree(grid_values))
        value = fit.crossing(target)
    interval = fit.interval(target) if value is not None else (-math.inf, math.inf)
    se = fit.crossing_se(target) if value is not None else math.inf
    grid["fitted"] = fit.predict(grid["value"])
    residual = (grid["win_rate"] - grid["fitted"]) / np.sqrt(
        grid["fitted"] * (1 - grid["fitted"]) / refine_runs
    )
    if np.nanmax(np.abs(residual)) > LACK_OF_FIT_Z:
        notes.append(
            "the logistic curve fits some grid points poorly (a standardized residual of "
            f"{np.nanmax(np.abs(residual)):.1f}); the win rate may not be monotone here"
        )
    if not fit.converged:
        notes.append("the fit did not converge; treat the answer with suspicion")
    if value is not None and not low <= value <= high:
        raise BalanceError(
            f"the fitted crossing is near {value:.4g}, outside the range searched "
            f"({_show(low)} .. {_show(high)}); widen the range (--range LOW HIGH)",
            bad_input=False,
        )
    result = BalanceResult(
        scenario=scenario.name,
        path=path,
        label=label,
        side=side,
        target=target,
        value=None if value is None else float(value),
        interval=(float(interval[0]), float(interval[1])),
        se=float(se),
        integer=integer,
        fit=fit,
        grid=grid,
        runs=refine_runs,
        seed=seed,
        search=(low, high),
        locate_grid=locate,
        notes=notes,
        outcomes=outcomes,
        asked=asked,
        source=scenario,
    )
    if value is not None and integer:
        result.nearest = _nearest(result, grid, current)
    return result


def check_question(scenario: Scenario, target: float, side: str | None, points: int) -> str:
    """The side whose win rate is asked about (default: the first), once the question is checked.

    Raises:
        BalanceError: a target that is no win rate, an unknown side, a grid under 3 points.
    """
    if not 0 < target < 1:
        raise BalanceError(f"the target is a win rate strictly between 0 and 1, not {target}")
    side = side or scenario.side_names[0]
    if side not in scenario.side_names:
        raise BalanceError(f"no side {side!r} (sides: {', '.join(scenario.side_names)})")
    if points < 3:
        raise BalanceError("at least 3 points per grid")
    return side


def _search_range(
    scenario: Scenario, path: str, low: float | None, high: float | None
) -> tuple[Any, bool, float, float]:
    """The current value (None if unset), whether it is a whole number, and the range."""
    given = low is not None and high is not None
    try:
        current = get_value(scenario.data, path)
    except (KeyError, ValueError, IndexError) as exc:
        if not given:
            raise ScenarioError(
                [
                    Problem(
                        scenario.file,
                        ("--param",),
                        None,
                        f"{path!r}: {exc.args[0] if exc.args else exc}",
                        "a path to a number set in the scenario, like sides.red.combatants.0.hp "
                        "(or give --range LOW HIGH for a value left at its default)",
                    )
                ]
            ) from None
        current = None
    if current is not None and (isinstance(current, bool) or not isinstance(current, (int, float))):
        raise BalanceError(
            f"{path} is {current!r}; a balance point needs a number (hit points, a bonus, a count)"
        )
    swept = _swept_values(scenario, path)
    if low is None or high is None:
        if swept:
            around = (min(swept), max(swept))
        elif current is not None:
            around = (current / 2, current * 2)
        else:
            raise BalanceError(f"{path} has no value to search around; give --range LOW HIGH")
        low = around[0] if low is None else low
        high = around[1] if high is None else high
    if current is None:
        integer = all(isinstance(v, int) or float(v).is_integer() for v in (low, high))
    else:
        integer = isinstance(current, int)
    if integer:
        low, high = math.floor(low), math.ceil(high)
    if not high > low:
        raise BalanceError(
            f"no range to search from {_show(low)} to {_show(high)}; give one with --range LOW HIGH"
        )
    return current, integer, low, high


def _swept_label(scenario: Scenario, path: str) -> str | None:
    """The ``label`` the scenario's sweep gives the parameter at ``path``, if any."""
    raw = scenario.data.get("sweep")
    if not raw:
        return None
    for parameter in SweepModel.model_validate(raw).parameters:
        if parameter.path == path and parameter.label:
            return parameter.label
    return None


def _swept_values(scenario: Scenario, path: str) -> list[float]:

    raw = scenario.data.get("sweep")
    if not raw:
        return []
    for parameter in SweepModel.model_validate(raw).parameters:
        values = parameter.points()
        if parameter.path == path and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
        ):
            return values
    return []


def _grid(low: float, high: float, points: int, integer: bool) -> list[Any]:
    if not integer:
        return [float(v) for v in np.linspace(low, high, points)]
    if high - low + 1 <= points:
        return list(range(int(low), int(high) + 1))
    return sorted({round(float(v)) for v in np.linspace(low, high, points)})


def _degree(values: Sequence[Any]) -> int:
    """A curvature term when the grid has enough values to estimate it and check the fit."""
    return 2 if len(values) >= 5 else 1


def _measuring_grid(
    centre: float, half: float, low: float, high: float, points: int, integer: bool
) -> list[Any]:
    """A grid centred on ``centre`` (symmetric, so curvature biases the crossing least)."""
    room = min(centre - low, high - centre)
    if room >= half / 2:
        half = min(half, room)
    if integer:
        middle = min(max(round(centre), math.ceil(low)), math.floor(high))
        step = max(1, round(2 * half / (points - 1)))
        k = (points - 1) // 2
        values = [middle + step * i for i in range(-k, k + 1) if low <= middle + step * i <= high]
        if len(values) >= min(5, points):
            return values
    return _grid(max(low, centre - half), min(high, centre + half), points, integer)


def _window(
    locate: pd.DataFrame,
    wins: np.ndarray,
    target: float,
    low: float,
    high: float,
    points: int,
    integer: bool,
) -> tuple[float, float]:
    """Centre and half-width of the measuring grid, from the locating grid."""
    values = locate["value"].to_numpy(dtype=float)
    rates = locate["win_rate"].to_numpy()
    slope = None
    try:
        fit = fit_logistic(values, wins)
        centre = fit.crossing(target)
        centre = math.nan if centre is None else centre
        slope = abs(fit.slope(centre if math.isfinite(centre) else fit.centre)[0])
    except BalanceError:
        centre = math.nan
    if not math.isfinite(centre) or not low <= centre <= high:
        # Fall back on the first observed crossing of the target.
        above = rates >= target
        flips = np.flatnonzero(above[1:] != above[:-1])
        j = int(flips[0]) if len(flips) else int(np.argmin(np.abs(rates - target)))
        centre = float(values[min(j + 1, len(values) - 1)] + values[j]) / 2
    step = (high - low) / (points - 1)
    # Where the fitted curve runs from about 30% to 70% around an even target: narrow enough
    # that a logistic curve describes any smooth win rate there, wide enough to see its slope.
    half = 0.85 / slope if slope else (high - low) / 2
    half = min(max(half, step), (high - low) / 2)
    if integer:
        half = max(half, (points - 1) / 2)
    return centre, half


def _play(
    scenario: Scenario,
    path: str,
    label: str,
    values: list[Any],
    runs: int,
    seed: int,
    side: str,
    execution: Execution | None,
) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame]:
    """Play ``runs`` combats at each value (common random numbers).

    The win-rate table, each combat's win (combats x values) and the combats' outcome table.
    """
    plan = plan_sweep(scenario, [Parameter(label, path, tuple(values))], runs=runs)
    result = run_sweep(plan, runs=runs, seed=seed, execution=execution)
    table = result.outcomes.pivot(index="combat", columns="point", values="winner")
    wins = (table.to_numpy() == side).astype(float)
    rows = []
    for j, value in enumerate(values):
        won = int(wins[:, j].sum())
        lo, hi = wilson_interval(won, runs)
        rows.append(
            {
                "value": value,
                "wins": won,
                "runs": runs,
                "win_rate": won / runs,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return pd.DataFrame(rows), wins, result.outcomes


def _nearest(result: BalanceResult, grid: pd.DataFrame, current: Any) -> list[dict[str, Any]]:
    """The fitted (and, where played, observed) win rate at the whole numbers around the point."""
    value = result.value
    if value is None:
        return []
    candidates = sorted({math.floor(value), math.ceil(value), *result.whole_numbers})
    rows = []
    for n in candidates:
        fitted = float(result.fit.predict(n))
        lo, hi = result.fit.band(n)
        row: dict[str, Any] = {
            "value": n,
            "fitted": fitted,
            "fitted_ci95": [float(lo), float(hi)],
            "current": n == current,
        }
        played = grid[grid["value"] == n]
        if len(played):
            row["observed"] = float(played["win_rate"].iloc[0])
            row["observed_ci95"] = [
                float(played["ci_low"].iloc[0]),
                float(played["ci_high"].iloc[0]),
            ]
        rows.append(row)
    return rows


def _show(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
