"""The per-combatant table of a run: each column's mean per combat, with its 95% interval.

Read from the ``combatants`` table that ``run --detail`` saves (one row per combatant per
combat); the report shows it under "Per combatant".
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

#: Per-combatant columns shown as means, with their headings.
COMBATANT_MEANS = (
    ("damage_dealt", "damage dealt"),
    ("damage_taken", "damage taken"),
    ("actions_taken", "actions taken"),
    ("actions_lost", "actions lost"),
    ("actions_disrupted", "actions disrupted"),
    ("hits", "hits"),
    ("criticals", "criticals"),
    ("time_out_s", "time out of the fight (s)"),
)

#: What the per-combatant table's columns mean, for the report's glossary.
COMBATANT_DEFINITIONS = {
    "means per combat": "each column's mean over every combat of the run, ± the half-width of "
    "its 95% interval (normal approximation)",
    "time out of the fight (s)": "game seconds from the moment the combatant was out to the end "
    "of the fight (0 when it was still standing)",
    "how it left": "the share of combats in which it ended out that way, or still standing",
}


def combatant_rows(
    frame: pd.DataFrame, leave_out_zeros: bool = False
) -> tuple[list[str], list[list[Any]], list[str]]:
    """Header and rows: per combatant, each mean ± its 95% half-width, and how it left.

    With ``leave_out_zeros``, a column that is 0 in every combat is left out and named in the
    third item: in rounds (Target 10 loses and disrupts no actions and has no criticals) it is a
    count the rule system does not keep, which would fill its column with 0.00 ± 0.00.
    """
    present = [c for c, _ in COMBATANT_MEANS if c in frame.columns]
    means = [c for c in present if not leave_out_zeros or frame[c].to_numpy().any()]
    never = [h for c, h in COMBATANT_MEANS if c in present and c not in means]
    grouped = frame.groupby(["side", "combatant"], sort=False)
    # The half-width of each mean's 95% interval (normal approximation: many combats).
    half = 1.96 * grouped[means].std(ddof=1) / grouped[means].count().pow(0.5)
    table = grouped[means].mean().join(half.add_suffix(" ±"))
    left = grouped["out"].agg(lambda s: _how_left(s)) if "out" in frame.columns else None
    header = ["combatant", "side", *(h for c, h in COMBATANT_MEANS if c in means)]
    if left is not None:
        header.append("how it left (share of combats)")
        table = table.join(left.rename("how it left"))
    rows = []
    for row in table.reset_index().to_dict("records"):
        cells = [row["combatant"], row["side"]]
        for c in means:
            shown = f"{row[c]:.2f}"
            cells.append(f"{shown} ± {row[c + ' ±']:.2f}" if np.isfinite(row[c + " ±"]) else shown)
        if left is not None:
            cells.append(row["how it left"])
        rows.append(cells)
    return header, rows, never


def _how_left(out: pd.Series) -> str:
    counts = out.fillna("").replace("", "still standing").value_counts(normalize=True)
    return ", ".join(f"{k} {v:.0%}" for k, v in counts.items())
