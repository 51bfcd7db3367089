"""A tournament's section of the HTML report (``combatsim report OUT`` of a tournament's folder).

A tournament's folder holds no single run (each pairing's combats are under ``cells/``); what a
reader needs is its summary: the verdict, the payoff matrix with intervals, the dominated
strategies, the optimal mixes and the value. :func:`analysis.report.build_report` puts this
section into the one report every kind of results gets (its heat map is drawn with the other
charts, by :func:`analysis.tournament_plot.plot_tournament`, the function the command draws it
with).
"""

from __future__ import annotations

import html
from typing import Any

from analysis.tournament_result import PAYOFF_TEXT
from sim.rules.wording import counted

#: What the report's style adds for a tournament: dominated strategies struck out.
STYLE = ".dominated { color: #888; text-decoration: line-through; }"


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def tournament_section(summary: dict[str, Any]) -> str:
    """The matrix, the dominated strategies and the value of a tournament's summary, as HTML."""
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
        f'<table id="table-payoff" class="data"><thead><tr><th>{_e(red)} \\ {_e(blue)}</th>'
        f"{header}<th>{_e(red)} mix</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
    exact = summary.get("method") == "exact"
    eliminated = "".join(
        f"<li>round {e['round']}: {_e(e['side'])}/{_e(e['strategy'])} is dominated by "
        f"{_e(e['side'])}/{_e(e['by'])} ({'' if exact else 'significantly '}worse against "
        f"{_e(blue if e['side'] == red else red)}/{_e(e['significantly_worse_against'])}"
        + ("" if exact else f", Holm-adjusted p = {e['p_holm']:.2g}")
        + ")</li>"
        for e in summary["eliminated"]
    )
    if exact:
        return _exact_parts(summary, red, blue, matrix, eliminated)
    low, high = summary["value_ci95"]
    parts = [
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
    ]
    return "".join(parts)


def _exact_parts(summary: dict[str, Any], red: str, blue: str, matrix: str, eliminated: str) -> str:
    """The section of a tournament answered exactly (``"method": "exact"``)."""
    parts = [
        f"<p>{_e(red)} (rows) against {_e(blue)} (columns), every pairing solved exactly as a "
        "Markov chain (no combat played).</p>",
        matrix,
        f'<p class="note">Payoff: {_e(red)}\'s {_e(PAYOFF_TEXT[summary["payoff_kind"]])}, '
        "exact. Struck out: dominated (no better against any remaining opponent strategy and "
        "worse against one, on the exact payoffs; iterated elimination).</p>",
        f"<ul>{eliminated}</ul>" if eliminated else "<p>No strategy is dominated.</p>",
        f"<p>Value of the zero-sum game: {summary['value']:.2%} for {_e(red)}, exact "
        f"({_e(summary['fractions']['value'])}).</p>",
    ]
    return "".join(parts)
