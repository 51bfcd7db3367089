"""One self-contained HTML file of a results directory, to mail to a colleague.

Every kind of results gets one (a run, a comparison, a sweep, a balance search, a tournament, a
sensitivity study). It opens with a one-line verdict, says how the results were made (rules,
time limit, seed, runs), defines every column it shows, and shows a comparison arm by arm with
its paired differences (never its arms pooled into one run). Everything is inside the file: the
charts as SVG images in ``data:`` URIs (sharp at any zoom, and isolated from each other), drawn
by the functions the commands draw them with (:func:`analysis.charts.standard_plots`), the
summary tables, how the results were made, and the scenario file byte for byte as its author
wrote it, comments kept. A ``<script type="application/json" id="combatsim-run">`` block holds
what it takes to play the same combats again (:mod:`analysis.rerun`): ``combatsim run
REPORT.html`` does, and says whether the outcome table matches. No script or style is fetched
from anywhere; a small inline script only counts the charts that rendered, for the test that
opens the report in headless Chromium.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import yaml

from analysis.charts import standard_plots, sweep_labels, time_unit
from analysis.combatant_means import COMBATANT_DEFINITIONS, combatant_rows
from analysis.comparison_view import (
    COMPARISON_DEFINITIONS,
    arm_rows,
    comparison_of,
    comparison_verdict,
    difference_rows,
    effect_rows,
)
from analysis.exact_view import EXACT_DEFINITIONS, exact_made, exact_tables, exact_verdict
from analysis.odds_text import odds_html
from analysis.plots import Plot, figure_bytes
from analysis.rerun import report_block
from analysis.results import Results, read_results
from analysis.sensitivity_plots import report_section as sensitivity_section
from analysis.sweep import win_rates
from analysis.tournament_report import STYLE as TOURNAMENT_STYLE
from analysis.tournament_report import tournament_section
from analysis.verdict import run_verdict, sweep_verdict
from sim.exact.odds import NoExactOdds, scenario_odds
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.records import DRAW
from sim.run.summary import DEFINITIONS, duration_text, summarize
from sim.run.version import __version__
from sim.scenario.loader import load_scenario, parse_scenario
from sim.scenario.problems import ScenarioError

STYLE = (
    """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 1300px; padding: 0 1rem; color: #222; line-height: 1.4; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem;
       margin-top: 2.2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border: 1px solid #d0d0d0; padding: .25rem .55rem; text-align: right; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
table.meta td { text-align: left; }
figure { margin: 1.2rem 0; }
figure img { width: min(100%, 1000px); height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: .9rem; }
pre { background: #f7f7f7; padding: .8rem; overflow-x: auto; font-size: .85rem; }
.note { color: #666; font-size: .9rem; }
p.verdict { font-size: 1.25rem; font-weight: 600; margin: .6rem 0 1rem; }
dl.terms { font-size: .9rem; } dl.terms dt { font-weight: 600; }
dl.terms dd { margin: 0 0 .4rem 1.2rem; }
section.scenario-file h3 { font-size: 1rem; margin-bottom: .2rem; }
"""
    + TOURNAMENT_STYLE
    + "\n"
)

SCRIPT = """
window.addEventListener("load", function () {
  var images = document.querySelectorAll("figure img");
  var rendered = 0;
  images.forEach(function (img) { if (img.complete && img.naturalWidth > 0) rendered++; });
  document.body.setAttribute("data-charts", String(images.length));
  document.body.setAttribute("data-charts-rendered", String(rendered));
});
"""


def write_report(
    results: Results | str | Path,
    out: str | Path | None = None,
    scenario: str | Path | None = None,
) -> Path:
    """Write the report of a results directory (default: ``RESULTS/report.html``).

    It is written whole or not at all, under the folder's lock (:mod:`sim.run.outdir`).

    Raises:
        WriteError: the report cannot be written (the message names it and the cause).
    """
    results = results if isinstance(results, Results) else read_results(results)
    out = Path(out) if out is not None else results.directory / "report.html"
    text = build_report(results, scenario)
    with FolderLock(out.parent):
        return write_text(out, text)


def build_report(results: Results, scenario: str | Path | None = None) -> str:
    """The report as HTML text.

    Args:
        results: read with :func:`analysis.results.read_results`.
        scenario: a scenario file to show when the results did not record theirs.
    """
    plots = standard_plots(results)
    scenario_text, options, facts = _scenario_parts(results, scenario)
    name = results.scenario_name
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="combatsim {_e(_version())}">',
        f"<title>combatsim report — {_e(name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<header><h1>{_e(name)}</h1>",
        f'<p class="verdict" id="verdict">{_e(_verdict(results))}</p>',
    ]
    description = results.meta.get("description") or _description(scenario_text)
    if description:
        parts.append(f"<p>{_e(description)}</p>")
    parts.append("</header>")
    made = _table("run", _made(results, facts), meta=True)
    parts += _section("run", "How these results were made", made)
    if results.kind == "comparison":
        parts += _comparison_sections(results)
    elif results.kind == "tournament":
        parts += _section("tournament", "Tournament", tournament_section(results.summary))
    elif results.kind == "balance":
        parts += _section("balance", "Balance point", _balance_section(results))
    else:
        parts += _section("summary", "Results", _summary_tables(results))
    parts += _odds_section(scenario_text, scenario)
    combatants = _combatant_table(results)
    if combatants:
        parts += _section("combatants", "Per combatant (means per combat, ± 95% CI)", combatants)
    parts += _section("charts", "Charts", "".join(_figure(p) for p in plots))
    parts += sensitivity_section(results)
    parts += _section("terms", "What the columns mean", _terms(results))
    per_arm = results.summary.get("options") if results.kind == "comparison" else None
    if isinstance(per_arm, dict) and per_arm:
        arms = list(per_arm)
        keys = list(dict.fromkeys(k for arm in arms for k in per_arm[arm]))
        rows = [[k, *(_value(per_arm[arm].get(k, "")) for arm in arms)] for k in keys]
        parts += _section(
            "options", "Rule options per arm", _table("options", rows, ["option", *arms])
        )
    elif options:
        rows = [[k, _value(v)] for k, v in options.items()]
        parts += _section("options", "Rule options", _table("options", rows, ["option", "value"]))
    else:
        hint = f" (the run was of {results.meta['file']})" if results.meta.get("file") else ""
        parts += _section(
            "options",
            "Rule options",
            '<p class="note">Not recorded with these results; pass --scenario FILE to show them'
            f"{_e(hint)}.</p>",
        )
    if scenario_text:
        parts += _section("scenario", "Scenario", _scenario_section(results, scenario_text))
    parts.append(report_block(results))
    parts.append(
        '<footer><p class="note">Made with combatsim '
        f"{_e(_version())} on {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}. combatsim "
        "is built on The Ambition Combat System (Raven c.s. McCracken, 2007), with Target 10 "
        "and Combat Proposition Three. "
        + (
            "Every rate is exact (solved as a Markov chain)."
            if results.exact
            else "Win-rate intervals are 95% Wilson score intervals."
        )
        + "</p>"
        "</footer>"
    )
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


# -- pieces -------------------------------------------------------------------------------------


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _version() -> str:
    try:
        return version("combatsim")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return __version__


def _section(key: str, title: str, body: str) -> list[str]:
    return [f'<section id="{key}"><h2>{_e(title)}</h2>', body, "</section>"]


def _table(
    key: str, rows: Sequence[Sequence[Any]], header: Sequence[str] | None = None, meta=False
) -> str:
    out = [f'<table id="table-{key}" class="{"meta" if meta else "data"}">']
    if header:
        out.append("<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        cells = "".join(
            f"<th>{_e(c)}</th>" if meta and i == 0 else f"<td>{_e(c)}</td>"
            for i, c in enumerate(row)
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _figure(plot: Plot) -> str:
    data = base64.b64encode(figure_bytes(plot.figure, "svg")).decode("ascii")
    title = plot.figure.axes[0].get_title() if plot.figure.axes else plot.caption
    return (
        f'<figure id="chart-{_e(plot.stem)}">'
        f'<img src="data:image/svg+xml;base64,{data}" alt="{_e(title)}">'
        f"<figcaption>{_e(plot.caption)}</figcaption></figure>"
    )


def _verdict(results: Results) -> str:
    if results.exact:
        return exact_verdict(results)
    if results.kind == "comparison":
        return comparison_verdict(comparison_of(results))
    if results.kind == "tournament":
        return str(results.summary.get("verdict", ""))
    if results.kind == "balance":
        return str(results.balance.get("verdict", ""))
    sides = results.side_names
    if results.kind == "sensitivity":
        return str((results.summary.get("verdict") or {}).get("sentence", ""))
    if results.kind == "run":
        return run_verdict(results.outcomes, sides)
    labels = sweep_labels(results)
    rates = win_rates(results.outcomes, sides, ["point", *labels])
    return sweep_verdict(rates, labels, sides[0], len(sides))


def _made(results: Results, facts: dict[str, Any]) -> list[list[Any]]:
    meta = results.meta
    rows: list[list[Any]] = [["scenario", results.scenario_name]]
    solved = ", solved exactly (no combat played)" if results.exact else ""
    rows.append(["these results are", WHAT[results.kind] + solved])
    rows.append(["made by", f"combatsim {COMMAND[results.kind]}"])
    if meta.get("file"):
        rows.append(["file", meta["file"]])
    rules = meta.get("rules") or facts.get("rules")
    rows.append(["rules", rules or "not recorded"])
    rows += exact_made(results) if results.exact else _sampled_made(results)
    limit = meta.get("time_limit_s") or facts.get("time_limit_s")
    round_s = time_unit(results).round_s
    shown = f"{limit:g} game seconds (then a draw)" if limit else "not recorded"
    if limit and round_s:
        shown = f"{limit / round_s:g} rounds of {round_s:g} s: {shown}"
    rows.append(["time limit", shown])
    if results.kind not in ("balance", "tournament") and not results.exact:
        rows.append(["combats in the table", len(results.outcomes)])
    if meta.get("applied"):
        shown = "; ".join(f"{k} = {_value(v)}" for k, v in meta["applied"].items())
        rows.append(["set on top of the scenario file", shown])
    rows.append(["results made with", f"combatsim {meta.get('combatsim_version', 'unknown')}"])
    if meta.get("created"):
        rows.append(["results made on", meta["created"]])
    rows.append(["report made with", f"combatsim {_version()}"])
    rows.append(["results directory", str(results.directory)])
    return rows


def _sampled_made(results: Results) -> list[list[Any]]:
    """The rows of "How these results were made" that say how the combats were played."""
    rows: list[list[Any]] = []
    rows.append(["seed", results.seed if results.seed is not None else "not recorded"])
    if results.kind == "sweep":
        rows.append(["combats per point", results.runs])
        rows.append(["points", results.outcomes["point"].nunique()])
        for parameter in results.parameters:
            values = ", ".join(_value(v) for v in parameter["values"])
            rows.append([f"swept: {parameter['label']}", f"{parameter['path']} = {values}"])
        rows.append(
            ["common random numbers", "combat k has the same seed at every point of the sweep"]
        )
    elif results.kind == "comparison":
        rows.append(["arms", ", ".join(results.arms)])
        rows.append(["combats per arm", int(results.outcomes.groupby("variant").size().max())])
        rows.append(
            ["common random numbers", "combat k of every arm uses the dice stream of (seed, k)"]
        )
    elif results.kind == "tournament":
        summary = results.summary
        rows.append(["combats per pairing", summary.get("runs")])
        rows.append(["pairings", len(summary.get("rows", [])) * len(summary.get("columns", []))])
        rows.append(
            ["common random numbers", "combat k of every pairing uses the dice stream (seed, k)"]
        )
    elif results.kind == "balance":
        found = results.balance
        rows.append(["parameter", f"{found.get('label')} ({found.get('parameter')})"])
        rows.append(["target", f"{found.get('side')} wins {found.get('target', 0):.0%}"])
        rows.append(["combats per value (measuring grid)", found.get("runs_per_point")])
        rows.append(["common random numbers", "combat k has the same seed at every value searched"])
    elif results.kind == "sensitivity":
        summary = results.summary
        rows.append(["combats at the scenario's values", len(results.outcomes)])
        rows.append(["points played for the study", summary.get("points_played")])
        rows.append(["combats in the study", summary.get("combats")])
    else:
        rows.append(["combats", len(results.outcomes)])
    return rows


def _summary_tables(results: Results) -> str:
    sides = results.side_names
    outcomes = results.outcomes
    round_s = time_unit(results).round_s
    if results.exact:
        header, rows, note = exact_tables(results, round_s)
        return _table("summary", rows, header) + f'<p class="note">{_e(note)}</p>'
    if results.kind in ("run", "sensitivity"):
        summary = summarize(
            outcomes, sides, results.scenario_name, results.seed or 0, round_s=round_s
        )
        rows = summary_rows(summary)
        ends = ", ".join(f"{k}: {v}" for k, v in summary["ends"].items())
        length = duration_text(
            summary["mean_duration_s"], round_s, rounds=summary.get("mean_duration_rounds")
        )
        return _table("summary", rows, RUN_HEADER) + (
            f'<p class="note">Mean fight length {_e(length)}; '
            f"how fights ended: {_e(ends)}. Every column is defined under "
            '<a href="#terms">What the columns mean</a>.</p>'
        )
    labels = sweep_labels(results)
    rates = win_rates(outcomes, sides, ["point", *labels])
    header = ["point", *labels]
    header += [f"{side} win rate (95% CI)" for side in sides]
    header += ["draws", *(["mean length (rounds)"] if round_s else []), "mean length (s)"]
    rows = []
    for point, group in rates.groupby("point", sort=True):
        first = group.iloc[0]
        row: list[Any] = [point, *(_value(first[label]) for label in labels)]
        by_side = group.set_index("side")
        for side in sides:
            r = by_side.loc[side]
            row.append(f"{r['win_rate']:.1%} ({r['ci_low']:.1%} – {r['ci_high']:.1%})")
        row.append(by_side.loc[DRAW, "wins"])  # a count; the cell shows it as text
        if round_s:
            row.append(f"{first['mean_duration_s'] / round_s:.2f}")
        row.append(f"{first['mean_duration_s']:.2f}")
        rows.append(row)
    return _table("summary", rows, header)


#: What each kind of results is, in words.
WHAT = {
    "run": "one run",
    "sweep": "a sweep",
    "comparison": "a paired comparison",
    "balance": "a balance search",
    "tournament": "a tournament of strategies",
    "sensitivity": "a sensitivity study",
}
#: The command that makes each kind.
COMMAND = {
    "run": "run",
    "sweep": "sweep",
    "comparison": "compare",
    "balance": "balance",
    "tournament": "tournament",
    "sensitivity": "sensitivity",
}

#: The columns of a run's summary table (defined in :data:`sim.run.summary.DEFINITIONS`).
RUN_HEADER = ["side", "wins", "win rate", "95% CI (Wilson)", "survivors", "hp left"]

#: The columns of the sweep and per-combatant tables, defined for the report.
SWEEP_DEFINITIONS = {
    "point": "one combination of the swept values; every point plays the same combats",
    "win rate (95% CI)": "the side's wins / combats at that point, with the 95% Wilson interval",
    "draws": "combats no side won (everyone out, or the time limit)",
    "mean length (s)": "mean fight length in game seconds over the point's combats",
    "mean length (rounds)": "the same in the rules' rounds (Target 10, Proposition Three)",
}


#: The columns of a balance search's grid, defined for the report.
BALANCE_DEFINITIONS = {
    "value": "a value of the parameter on the measuring grid",
    "wins": "the side's wins in the combats played at that value",
    "win rate (95% CI)": "wins / combats, with the 95% Wilson interval",
    "logistic fit": "the fitted curve's win rate at that value",
}
#: The terms of a tournament's section.
TOURNAMENT_DEFINITIONS = {
    "payoff": "the row side's mean payoff in the pairing (win 1, draw 1/2 or 0, loss 0), "
    "with its 95% Wilson interval",
    "mix": "the strategy's weight in its side's optimal mix (the zero-sum game's solution)",
    "dominated": "no better against any remaining opponent strategy and significantly worse "
    "against one (paired tests, Holm-corrected)",
    "value": "the row side's payoff when both sides play their optimal mix",
}


def _terms(results: Results) -> str:
    if results.exact:
        terms = dict(EXACT_DEFINITIONS)
    elif results.kind == "comparison":
        terms = dict(COMPARISON_DEFINITIONS)
    elif results.kind == "sweep":
        terms = dict(SWEEP_DEFINITIONS)
        if time_unit(results).round_s is None:
            del terms["mean length (rounds)"]
    elif results.kind == "balance":
        terms = dict(BALANCE_DEFINITIONS)
    elif results.kind == "tournament":
        terms = dict(TOURNAMENT_DEFINITIONS)
    else:
        terms = {k: DEFINITIONS[k] for k in RUN_HEADER[1:]}
        terms["mean fight length"] = DEFINITIONS["mean duration"]
        if results.combatants is not None:
            terms |= COMBATANT_DEFINITIONS
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in terms.items())
    return f'<dl class="terms" id="terms-list">{items}</dl>'


def _comparison_sections(results: Results) -> list[str]:
    comparison = comparison_of(results)
    header, rows = arm_rows(results)
    parts = _section("summary", "Each arm on its own", _table("summary", rows, header))
    header, rows = difference_rows(comparison)
    parts += _section(
        "differences",
        "Paired differences from the base",
        _table("differences", rows, header)
        + f'<p class="note">Family-wise error rate α {comparison.alpha:g} (Holm).</p>',
    )
    header, rows = effect_rows(comparison)
    parts += _section(
        "effects", "Whole combats: outcomes and length", _table("effects", rows, header)
    )
    return parts


def _balance_section(results: Results) -> str:
    """The answer of a balance search and its measuring grid."""
    found = results.balance
    low, high = found.get("ci95") or [None, None]
    value = found.get("value")
    answer = "no crossing: the fitted curve is flat" if value is None else f"{value:.4g}"
    shown = "unbounded" if low is None or high is None else f"{low:.4g} – {high:.4g}"
    rows = [
        ["balance point", answer],
        ["95% interval (Fieller)", shown],
        ["sure?", found.get("verdict", "")],
    ]
    if found.get("whole_numbers"):
        rows.append(["whole numbers in the interval", ", ".join(map(str, found["whole_numbers"]))])
    grid = []
    for row in found.get("grid", []):
        fitted = row.get("fitted")
        grid.append(
            [
                _value(row["value"]),
                row["wins"],
                f"{row['win_rate']:.1%} ({row['ci_low']:.1%} – {row['ci_high']:.1%})",
                f"{fitted:.1%}" if isinstance(fitted, float) and math.isfinite(fitted) else "",
            ]
        )
    header = [str(found.get("label")), "wins", "win rate (95% CI)", "logistic fit"]
    notes = "".join(f'<p class="note">{_e(n)}</p>' for n in found.get("notes", []))
    return (
        _table("balance", rows, meta=True)
        + _table("summary", grid, header)
        + f'<p class="note">{_e(found.get("method", ""))}</p>'
        + notes
    )


def _scenario_section(results: Results, text: str) -> str:
    """The scenario file byte for byte (and, for a comparison of files, each other file)."""
    name = Path(str(results.scenario_file or "scenario.yaml")).name
    parts = [
        f'<section class="scenario-file"><h3>{_e(name)}</h3>'
        f'<pre id="scenario-text">{_e(text)}</pre></section>'
    ]
    for arm, other in results.arm_texts.items():
        parts.append(
            f'<section class="scenario-file"><h3>arm {_e(arm)}</h3>'
            f'<pre id="scenario-text-{_e(arm)}">{_e(other)}</pre></section>'
        )
    if results.meta.get("scenario_text") == "rebuilt from its data":
        parts.append(
            '<p class="note">These results were made from data, not from a file: the scenario '
            "is shown as YAML written from it (no comments).</p>"
        )
    return "".join(parts)


def _combatant_table(results: Results) -> str:
    frame = results.combatants
    if frame is None or not len(frame):
        return ""
    if results.kind != "run":
        return (
            '<p class="note">The per-combatant table is saved in combatants.parquet (one row '
            "per combatant and combat); it is not summarized here.</p>"
        )
    # On the ACS clock every column may happen, and a 0 there is a finding; in rounds a column
    # at 0 in every combat is one the rule system does not count (or that never happened).
    rules = results.meta.get("rules")
    header, rows, never = combatant_rows(frame, leave_out_zeros=rules not in (None, "acs"))
    note = (
        f'<p class="note">Left out, 0 in every combat ({_e(str(rules))} does not count them, '
        f"or none happened): {_e(', '.join(never))}.</p>"
        if never
        else ""
    )
    return _table("combatants", rows, header) + note


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)


def _scenario_parts(
    results: Results, scenario: str | Path | None
) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """The scenario's text, its rule options, and its rules and time limit.

    From the results' own records, else the scenario saved next to them, else a given file.
    """
    text = results.scenario_text
    options = dict(results.meta.get("options") or {})
    facts: dict[str, Any] = {}
    loaded = None
    if scenario is not None:
        loaded = load_scenario(scenario)
        text = loaded.text
    elif text:
        try:
            loaded = parse_scenario(text, "scenario.yaml")
        except ScenarioError:
            loaded = None  # a report still shows what it can
    if loaded is not None:
        options = options if scenario is None and options else loaded.option_values()
        facts = {"rules": loaded.rules, "time_limit_s": loaded.time_limit_s}
    if results.kind == "comparison":
        options = {}  # per arm: the options section shows each arm's
    if scenario is None and text is None and results.kind in ("balance", "tournament"):
        return None, options, facts
    return text, options, facts


def _odds_section(text: str | None, scenario: str | Path | None) -> list[str]:
    """The exact odds of one exchange per pair (``combatsim odds``), when the scenario has them."""
    try:
        loaded = load_scenario(scenario) if scenario is not None else None
        if loaded is None and text:
            loaded = parse_scenario(text, "scenario.yaml")
        if loaded is None:
            return []
        result = scenario_odds(loaded)
    except (ScenarioError, NoExactOdds):
        return []  # no scenario to read, or a rule system without exchange laws
    return _section("odds", "Exact odds of one exchange", odds_html(result))


def _description(text: str | None) -> str:
    if not text:
        return ""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return ""
    return str(data.get("description", "")) if isinstance(data, dict) else ""


def summary_rows(summary: dict[str, Any]) -> list[list[Any]]:
    """The run table's rows (per side, then the draws), as the report and the workbench show it."""
    rows: list[list[Any]] = []
    for side, s in summary["sides"].items():
        low, high = s["ci95"]
        rows.append(
            [
                side,
                s["wins"],
                f"{s['win_rate']:.1%}",
                f"{low:.1%} – {high:.1%}",
                f"{s['mean_survivors']:.2f}",
                f"{s['mean_hp_left']:.1f}",
            ]
        )
    rows.append(["draw", summary["draws"], f"{summary['draw_rate']:.1%}", "", "", ""])
    return rows
