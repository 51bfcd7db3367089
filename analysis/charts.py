"""Which charts fit a results directory, each with a caption that says what it shows.

A run gets its win rates, fight lengths, survival curve and hit points left; a sweep its curves
or heat maps; a comparison its arms side by side and the paired differences
(:mod:`analysis.comparison_view`), never its arms pooled into one run; a balance search its
fitted curve and answer; a tournament its payoff matrix; a sensitivity study the charts of the
scenario's own run, its tornado and its Sobol indices; an exact run or sweep its exact values,
with no interval (:mod:`analysis.exact_view`). Each is drawn by the one function the
command that made the results draws it with. ``combatsim plot`` draws them into files;
``combatsim report`` puts them in the HTML report with the same captions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from analysis.balance import BalanceResult
from analysis.comparison_view import comparison_of, plot_arm_win_rates, plot_paired_differences
from analysis.exact_view import exact_plots
from analysis.plots import (
    FORMATS,
    Plot,
    TimeUnit,
    plot_balance,
    plot_duration_curve,
    plot_fight_length,
    plot_hp_left,
    plot_survival,
    plot_win_rate_curve,
    plot_win_rate_heatmap,
    plot_win_rate_lines,
    plot_win_rates,
    save_figure,
)
from analysis.results import Results, ResultsError
from analysis.sensitivity_plots import study_plots
from analysis.sweep import win_rates
from analysis.tournament_plot import plot_tournament
from sim.run.summary import DEFINITIONS


def standard_plots(results: Results) -> list[Plot]:
    """Every chart that fits a results directory (of any kind: :data:`analysis.results.KINDS`)."""
    if results.exact:
        return exact_plots(results, time_unit(results))
    if results.kind == "comparison":
        return _comparison_plots(results)
    if results.kind == "run":
        return _run_plots(results)
    if results.kind == "sensitivity":
        return [*_run_plots(results), *study_plots(results.directory, results.summary)]
    if results.kind == "balance":
        return _balance_plots(results)
    if results.kind == "tournament":
        return [
            Plot(
                "payoff",
                "The payoff matrix: the row side's payoff in each pairing and the ± of its 95% "
                "interval (Wilson); hatched: dominated; each label with its weight in the "
                "optimal mix.",
                plot_tournament(results.summary),
            )
        ]
    return _sweep_plots(results)


def time_unit(results: Results) -> TimeUnit:
    """The unit fight lengths are counted in: the rules' rounds, or game seconds.

    Read from the summary (``round_s``, written by runs of Target 10 and Proposition Three);
    a sweep's points share it unless the sweep changes the length of a round itself, which is
    then drawn in game seconds.
    """
    summary = results.summary
    found = {summary.get("round_s")} if "round_s" in summary else set()
    for point in summary.get("points", []) if isinstance(summary.get("points"), list) else []:
        found.add((point.get("summary") or {}).get("round_s"))
    lengths = {r for r in found if r is not None}
    return TimeUnit(float(lengths.pop())) if len(lengths) == 1 and None not in found else TimeUnit()


def _balance_plots(results: Results) -> list[Plot]:
    try:
        found = BalanceResult.from_dict(results.balance)
    except (KeyError, TypeError, ValueError, IndexError):
        raise ResultsError(
            f"{results.directory / 'balance.json'} is not a whole balance result (written by an "
            "older combatsim, or damaged): run `combatsim balance ... --out` again to draw it"
        ) from None
    return [
        Plot(
            "balance",
            f"The balance search: {found.side}'s observed win rate at each value of the "
            "measuring grid (95% Wilson intervals), the fitted logistic curve with its 95% "
            "band, the target and the balance point with its 95% interval.",
            plot_balance(found),
        )
    ]


def _run_plots(results: Results) -> list[Plot]:
    outcomes, sides, name = results.outcomes, results.side_names, results.scenario_name
    limit = results.meta.get("time_limit_s")
    unit = time_unit(results)
    length = "t rounds" if unit.round_s is not None else "t seconds"
    return [
        Plot(
            "win_rates",
            "Win rate per side (wins / combats), with its 95% Wilson interval.",
            plot_win_rates(outcomes, sides, name),
        ),
        Plot(
            "fight_length",
            "Fight length: the distribution of single fights, stacked by winner (no interval: "
            "it is not an estimate); the dotted line is the mean, the band its 95% interval "
            "(Student's t).",
            plot_fight_length(outcomes, sides, name, unit),
        ),
        Plot(
            "survival",
            f"Share of fights still running after {length} (empirical survival curve), with "
            "its 95% Dvoretzky-Kiefer-Wolfowitz band, which covers the whole curve at once.",
            plot_survival(outcomes, scenario=name, time_limit_s=limit, unit=unit),
        ),
        Plot(
            "hp_left",
            f"Hit points left: the distribution over all fights of the summary's hp left "
            f"({DEFINITIONS['hp left']}); the dashed line is its mean, the number in the "
            "table, and the band the mean's 95% interval (Student's t).",
            plot_hp_left(outcomes, sides, name),
        ),
    ]


def _sweep_plots(results: Results) -> list[Plot]:
    outcomes, sides, name = results.outcomes, results.side_names, results.scenario_name
    limit = results.meta.get("time_limit_s")
    unit = time_unit(results)
    length = "t rounds" if unit.round_s is not None else "t seconds"
    labels = sweep_labels(results)
    rates = win_rates(outcomes, sides, ["point", *labels])
    if len(labels) == 1:
        (x,) = labels
        return [
            Plot(
                "win_rate_curve",
                f"Win rate against {x}, with 95% Wilson intervals (a band between numeric "
                "values, error bars for categories).",
                plot_win_rate_curve(rates, x, sides, name),
            ),
            Plot(
                "duration_curve",
                f"Mean fight length against {x}, with its 95% interval (Student's t).",
                plot_duration_curve(outcomes, x, name, unit),
            ),
            Plot(
                "survival",
                f"Share of fights still running after {length}, per {x}; the 95% "
                "Dvoretzky-Kiefer-Wolfowitz band is drawn for up to three curves, and its "
                "half-width given for more.",
                plot_survival(outcomes, by=x, scenario=name, time_limit_s=limit, unit=unit),
            ),
        ]
    x, y = labels
    plots = [
        Plot(
            f"heatmap_{i}_{_slug(side)}",
            f"{side} win rate over {x} and {y}; each cell gives the rate and the ± of its 95% "
            "Wilson interval.",
            plot_win_rate_heatmap(rates, x, y, side, name),
        )
        for i, side in enumerate(sides)
    ]
    plots.append(
        Plot(
            "win_rate_lines",
            f"{sides[0]} win rate against {x}, one series per {y}, with 95% Wilson intervals.",
            plot_win_rate_lines(rates, x, y, sides[0], name),
        )
    )
    return plots


def _comparison_plots(results: Results) -> list[Plot]:
    comparison = comparison_of(results)
    plots = [
        Plot(
            "arm_win_rates",
            "Win rate per arm and side (each arm on its own, never pooled), with 95% Wilson "
            "intervals.",
            plot_arm_win_rates(results),
        )
    ]
    if comparison.wins:
        plots.append(
            Plot(
                "paired_differences",
                "Each variant's win rate minus the base's, paired combat by combat, with "
                "Tango's 95% interval; filled markers are significant after Holm's correction.",
                plot_paired_differences(comparison),
            )
        )
    return plots


def sweep_labels(results: Results) -> list[str]:
    """The swept parameters' columns of a sweep's results."""
    labels = [p["label"] for p in results.parameters]
    if labels:
        return labels
    columns = list(results.outcomes.columns)
    after = columns[columns.index("point") + 1 :]
    return [c for c in after if c not in ("combat", "seed")][:2] if "combat" in after else after[:1]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def draw_results(
    results: Results, directory: str | Path | None = None, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Draw every chart of a results directory into ``directory`` (default: ``RESULTS/plots``)."""
    directory = Path(directory) if directory is not None else results.directory / "plots"
    written: list[Path] = []
    for plot in standard_plots(results):
        written += save_figure(plot.figure, directory, plot.stem, formats)
    return written
