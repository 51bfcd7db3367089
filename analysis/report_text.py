"""The summary of a run as a table on the terminal (rich), with its columns defined under it.

The columns are those of :data:`sim.run.summary.DEFINITIONS`; the footnote says the one thing a
reader cannot guess, that ``survivors`` and ``hp left`` are means over *all* combats.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sim.rules.wording import counted
from sim.run.summary import duration_text


def summary_table(
    summary: dict[str, Any], scenario: Any = None, console: Console | None = None
) -> None:
    """Print win rates with their 95% intervals, draws and the mean fight length."""
    console = console or Console()
    runs = summary["runs"]
    exact = summary.get("method") == "exact"
    if exact:  # solved, not sampled: no combat count, no seed (docs/exact.md)
        title = f"{escape(summary['scenario'])} — exact ({counted(summary['states'], 'state')})"
    else:
        title = f"{escape(summary['scenario'])} — {counted(runs, 'combat')}, seed {summary['seed']}"
    table = Table(title=title, title_justify="left")
    table.add_column("side")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    table.add_column("survivors", justify="right")
    table.add_column("hp left", justify="right")
    for name, side in summary["sides"].items():
        low, high = side["ci95"]
        table.add_row(
            name,
            "exact" if exact else str(side["wins"]),
            f"{side['win_rate']:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{side['mean_survivors']:.2f}",
            f"{side['mean_hp_left']:.1f}",
        )
    draws = "exact" if exact else str(summary["draws"])
    table.add_row("draw", draws, f"{summary['draw_rate']:.1%}", "", "", "")
    console.print(table)
    ends = ", ".join(
        f"{k}: {v:.2%}" if exact else f"{k}: {v}" for k, v in summary["ends"].items()
    )
    length = duration_text(
        summary["mean_duration_s"],
        summary.get("round_s"),
        rounds=summary.get("mean_duration_rounds"),
    )
    console.print(f"mean duration {length}; ends: {ends}")
    console.print(FOOTNOTE, highlight=False)


#: Under the table: what ``survivors`` and ``hp left`` are (see ``sim.run.summary.DEFINITIONS``).
FOOTNOTE = (
    "survivors: mean number standing at the end, over all combats (0 when lost)\n"
    "hp left: mean hit points of those standing, over all combats (0 when lost)"
)
