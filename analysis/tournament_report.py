"""The HTML report of a tournament's results folder (``combatsim report OUT``).

A tournament's folder holds no single outcome table (each pairing's combats are under
``cells/``); what a reader needs is its summary: the verdict, the payoff matrix with intervals,
the dominated strategies, the optimal mixes and the value, the heat map, and the scenario.
:func:`analysis.report.write_report` hands a tournament's folder to :func:`write_tournament_report`.
Like the other reports, the file is self-contained: the chart is an SVG in a ``data:`` URI.
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

from analysis.plots import figure_bytes
from analysis.tournament_plot import plot_tournament
from analysis.tournament_result import PAYOFF_TEXT
from sim.rules.wording import counted
from sim.run.files import write_text
from sim.run.outdir import FolderLock

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 1100px; padding: 0 1rem; color: #222; line-height: 1.4; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border: 1px solid #d0d0d0; padding: .25rem .55rem; text-align: right; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
.dominated { color: #888; text-decoration: line-through; }
figure img { max-width: 100%; height: auto; } pre { background: #f7f7f7; padding: .8rem; }
.verdict { font-size: 1.1rem; font-weight: 600; } .note { color: #666; font-size: .9rem; }
"""


def is_tournament(directory: str | Path) -> bool:
    """Whether a folder holds a tournament's results (its summary says ``kind: tournament``)."""
    path = Path(directory) / "summary.json"
    if not path.is_file():
        return False
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(summary, dict) and summary.get("kind") == "tournament"


def write_tournament_report(directory: str | Path, out: str | Path | None = None) -> Path:
    """Write the report of a tournament's folder (default: ``OUT/report.html``)."""
    directory = Path(directory)
    summary = json.loads((directory / "summary.json").read_text(encoding="utf-8"))
    scenario = directory / "scenario.yaml"
    text = tournament_html(
        summary, scenario.read_text(encoding="utf-8") if scenario.is_file() else None
    )
    target = Path(out) if out is not None else directory / "report.html"
    with FolderLock(target.parent):
        return write_text(target, text)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def tournament_html(summary: dict[str, Any], scenario_text: str | None = None) -> str:
    """The report as HTML text, from a tournament's summary."""
    red, blue = summary["sides"]["rows"], summary["sides"]["columns"]
    gone = {(e["side"], e["strategy"]) for e in summary["eliminated"]}
    header = "".join(
        f'<th class="{"dominated" if (blue, c) in gone else ""}">{_e(c)}</th>'
        for c in summary["columns"]
    )
    body = []
    for i, row in enumerate(summary["rows"]):
        cells = "".join(
            f"<td>{p:.1%} ({lo:.1%}–{hi:.1%})</td>"
            for p, (lo, hi) in zip(summary["payoff"][i], summary["ci95"][i], strict=True)
        )
        mark = ' class="dominated"' if (red, row) in gone else ""
        body.append(
            f"<tr><th{mark}>{_e(row)}</th>{cells}<td>{summary['mix']['rows'][row]:.0%}</td></tr>"
        )
    mixes = "".join(f"<td>{summary['mix']['columns'][c]:.0%}</td>" for c in summary["columns"])
    body.append(f"<tr><th>{_e(blue)} mix</th>{mixes}<td></td></tr>")
    matrix = (
        f'<table id="table-payoff"><thead><tr><th>{_e(red)} \\ {_e(blue)}</th>{header}'
        f"<th>{_e(red)} mix</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
    eliminated = "".join(
        f"<li>round {e['round']}: {_e(e['side'])}/{_e(e['strategy'])} is dominated by "
        f"{_e(e['side'])}/{_e(e['by'])} (significantly worse against "
        f"{_e(blue if e['side'] == red else red)}/{_e(e['significantly_worse_against'])}, "
        f"Holm-adjusted p = {e['p_holm']:.2g})</li>"
        for e in summary["eliminated"]
    )
    chart = base64.b64encode(figure_bytes(plot_tournament(summary), "svg")).decode("ascii")
    low, high = summary["value_ci95"]
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>combatsim tournament — '
        f"{_e(summary['scenario'])}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{_e(summary['scenario'])}</h1></header>",
        '<section id="tournament"><h2>Tournament</h2>',
        f'<p class="verdict">{_e(summary["verdict"])}</p>',
        f"<p>{_e(red)} (rows) against {_e(blue)} (columns), "
        f"{counted(summary['runs'], 'combat')} per pairing, seed {summary['seed']}; every "
        "pairing played the same combats.</p>",
        matrix,
        f'<p class="note">Payoff: {_e(red)}\'s {_e(PAYOFF_TEXT[summary["payoff_kind"]])}, with '
        "its 95% interval (Wilson). Struck out: dominated (no better against any remaining "
        "opponent strategy and significantly worse against one; paired sign tests, Holm "
        f"over the {summary['tests']} tests of the matrix, α = {summary['alpha']:g}; "
        "iterated elimination).</p>",
        f"<ul>{eliminated}</ul>" if eliminated else "<p>No strategy is dominated.</p>",
        f"<p>Value of the zero-sum game: {summary['value']:.1%} for {_e(red)} (95% CI "
        f"{low:.1%}–{high:.1%}, bootstrap of {summary['resamples']} resamples of the "
        "combats).</p>",
        f'<figure id="chart-payoff"><img src="data:image/svg+xml;base64,{chart}" alt="payoff '
        'matrix"><figcaption>The payoff matrix; hatched: dominated.</figcaption></figure>',
        "</section>",
    ]
    if scenario_text:
        parts.append(f'<section id="scenario"><h2>Scenario</h2><pre>{_e(scenario_text)}</pre>')
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
