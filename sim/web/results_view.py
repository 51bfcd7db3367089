"""What the page shows of a results folder, from the same functions ``report`` and ``plot`` use.

Every number is the library's: a run's table is :func:`sim.run.summary.summarize` of its outcome
table, with the column definitions of :data:`sim.run.summary.DEFINITIONS`; a comparison's tables
are :mod:`analysis.comparison_view`'s rows; the charts are :func:`analysis.charts.standard_plots`
(the charts ``combatsim plot`` draws) drawn as SVG, or, for the kinds that draw their own (a
balance, a tournament, a study), the SVG files their command wrote; the replay is
:func:`sim.run.api.replay`; the report is :func:`analysis.report.write_report`. This module only
arranges them for the page's template.
"""

from __future__ import annotations

import base64
import math
import threading
from pathlib import Path
from typing import Any

from analysis.charts import standard_plots, sweep_labels, time_unit
from analysis.comparison_view import (
    COMPARISON_DEFINITIONS,
    arm_rows,
    comparison_of,
    comparison_verdict,
    difference_rows,
    effect_rows,
)
from analysis.exact_view import EXACT_DEFINITIONS, exact_tables, exact_verdict
from analysis.plots import figure_bytes
from analysis.report import RUN_HEADER, summary_rows, write_report
from analysis.results import Results, ResultsError, read_results
from analysis.sweep import win_rates
from analysis.verdict import run_verdict, sweep_verdict
from sim.run.api import replay
from sim.run.summary import DEFINITIONS, summarize
from sim.scenario.loader import parse_scenario
from sim.web.workspace import Workspace, results_kind

#: Charts are drawn one at a time (Matplotlib's font cache and text layout are shared).
_DRAWING = threading.Lock()
#: Kinds whose page shows the charts read by :func:`read_results`.
READABLE = ("run", "sweep", "comparison", "sensitivity")
#: The most stats offered for "change this stat".
MAX_STATS = 60


def view(workspace: Workspace, name: str) -> dict[str, Any]:
    """Everything the results page shows of the folder ``name``."""
    folder = workspace.path(name, must_exist=True)
    kind, scenario = results_kind(folder)
    if not kind:
        raise ResultsError(
            f"{name}: not a results folder (a folder that a run, comparison, sweep, balance, "
            "tournament or study wrote)"
        )
    page: dict[str, Any] = {"path": name, "kind": kind, "scenario": scenario, "charts": []}
    if kind not in READABLE:
        page["charts"] = saved_charts(workspace, folder)
        page["verdict"] = ""
        return page
    results = read_results(folder)
    page["scenario"] = results.scenario_name
    page["seed"] = results.seed
    page["runs"] = results.runs
    page["kind"] = results.kind
    if results.exact:
        page.update(_exact(results))
    elif results.kind == "comparison":
        page.update(_comparison(results))
    elif results.kind == "run":
        page.update(_run(results))
    else:
        labels = sweep_labels(results)
        sides = results.side_names
        rates = win_rates(results.outcomes, sides, ["point", *labels])
        page["verdict"] = sweep_verdict(rates, labels, sides[0], len(sides))
    with _DRAWING:
        page["charts"] = [
            {"stem": p.stem, "caption": p.caption, "src": _svg(figure_bytes(p.figure, "svg"))}
            for p in standard_plots(results)
        ]
    page["charts"] += saved_charts(workspace, folder, exclude={c["stem"] for c in page["charts"]})
    return page


def _run(results: Results) -> dict[str, Any]:
    summary = summarize(
        results.outcomes, results.side_names, results.scenario_name, results.seed or 0
    )
    rows = summary_rows(summary)
    terms = {k: DEFINITIONS[k] for k in RUN_HEADER[1:]}
    terms["mean fight length"] = DEFINITIONS["mean duration"]
    ends = ", ".join(f"{k}: {v}" for k, v in summary["ends"].items())
    return {
        "verdict": run_verdict(results.outcomes, results.side_names),
        "tables": [{"id": "summary", "title": "Win rates", "header": RUN_HEADER, "rows": rows}],
        "note": f"Mean fight length {summary['mean_duration_s']:.2f} game seconds; how fights "
        f"ended: {ends}.",
        "terms": terms,
        "combats": len(results.outcomes),
        "replay": bool(results.scenario_text),
        "stats": stats(results.scenario_text) if results.scenario_text else [],
    }


def _exact(results: Results) -> dict[str, Any]:
    """An exact run, sweep or study: the exact verdict and table (no combats to replay)."""
    header, rows, note = exact_tables(results, time_unit(results).round_s)
    return {
        "verdict": exact_verdict(results),
        "tables": [{"id": "summary", "title": "Exact win rates", "header": header, "rows": rows}],
        "note": note,
        "terms": dict(EXACT_DEFINITIONS),
        "combats": 0,
        "replay": False,
        "stats": [],
    }


def _comparison(results: Results) -> dict[str, Any]:
    comparison = comparison_of(results)
    tables = []
    for key, title, (header, rows) in (
        ("arms", "Each arm on its own", arm_rows(results)),
        ("differences", "Paired differences from the base", difference_rows(comparison)),
        ("effects", "Whole combats: outcomes and length", effect_rows(comparison)),
    ):
        tables.append({"id": key, "title": title, "header": header, "rows": rows})
    return {
        "verdict": comparison_verdict(comparison),
        "tables": tables,
        "note": f"Every arm played the same {results.runs:,} combats (combat k of every arm uses "
        f"the dice of seed {results.seed}, combat k); family-wise error rate α "
        f"{comparison.alpha:g} (Holm).",
        "terms": dict(COMPARISON_DEFINITIONS),
        "arms": results.arms,
    }


def saved_charts(
    workspace: Workspace, folder: Path, exclude: set[str] | None = None
) -> list[dict[str, Any]]:
    """The SVG charts a command wrote into the folder (``plots/*.svg``, ``balance.svg``)."""
    charts = []
    for svg in sorted([*folder.glob("*.svg"), *(folder / "plots").glob("*.svg")]):
        if svg.stem in (exclude or set()) or svg.is_symlink():
            continue
        try:
            data = workspace.path(workspace.relative(svg)).read_bytes()
        except OSError:
            continue
        charts.append(
            {"stem": svg.stem, "caption": f"{svg.name}, as the command drew it.", "src": _svg(data)}
        )
    return charts


def _svg(data: bytes) -> str:
    """An SVG as a ``data:`` URI (shown as an image: its scripts, if any, never run)."""
    return "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")


def stats(text: str) -> list[dict[str, Any]]:
    """The numbers of a scenario a designer may change and run again: stats and options.

    Each is a dotted path of :mod:`sim.scenario.overrides` with its value as written.
    """
    try:
        scenario = parse_scenario(text, "scenario.yaml")
    except Exception:  # a scenario that no longer loads offers nothing to change
        return []
    data = scenario.data
    found: list[dict[str, Any]] = []
    for i, side in enumerate(data.get("sides") or []):
        for j, entry in enumerate(side.get("combatants") or []):
            for key, value in entry.items():
                if _number(value) and key != "count":
                    path = f"sides.{side.get('name', i)}.combatants.{j}.{key}"
                    found.append(
                        {"path": path, "who": entry.get("name", ""), "stat": key, "value": value}
                    )
    for name, template in (data.get("templates") or {}).items():
        for key, value in (template or {}).items():
            if _number(value):
                found.append(
                    {
                        "path": f"templates.{name}.{key}",
                        "who": f"template {name}",
                        "stat": key,
                        "value": value,
                    }
                )
    for key, value in (data.get("options") or {}).items():
        if _number(value):
            found.append({"path": f"options.{key}", "who": "option", "stat": key, "value": value})
    return found[:MAX_STATS]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def replay_text(workspace: Workspace, name: str, combat: int) -> str:
    """The narration of combat ``combat`` of the run in folder ``name`` (``combatsim replay``)."""
    results = read_results(workspace.path(name, must_exist=True))
    if not results.scenario_text:
        raise ResultsError(f"{name} keeps no scenario.yaml: there is nothing to replay")
    scenario = parse_scenario(results.scenario_text, str(results.meta.get("file") or name))
    return replay(scenario, combat, results.seed)


def report(workspace: Workspace, name: str) -> str:
    """Write the folder's ``report.html`` as ``combatsim report`` does; its path for the page."""
    folder = workspace.path(name, must_exist=True)
    written = write_report(folder)
    return workspace.relative(Path(written))
