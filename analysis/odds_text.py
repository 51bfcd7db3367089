"""The exact odds of a scenario's exchanges as tables: on the terminal (rich) and in the report.

Two tables per scenario (or variant): each combatant's derived values, then each matchup's odds of
one exchange (:mod:`sim.exact.odds`), as percentages of the exact fractions (``--json`` gives the
fractions themselves). :func:`odds_tables` prints them for ``combatsim odds``; :func:`odds_html`
is the report's section (:mod:`analysis.report`).
"""

from __future__ import annotations

import html
from fractions import Fraction

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sim.exact.odds import Odds, ScenarioOdds

#: What a scenario without attacks says (a Target 10 test outside combat).
NO_PAIRS = "no attacker and defender pairs (a test outside combat): no exchange to give odds of"

#: Under the tables: what the columns the reader cannot guess mean.
FOOTNOTE = (
    "out in 1: the first exchange takes the defender out; exchanges: the expected number of "
    "this attacker's exchanges until the defender is out (hit points rolled by their dice, luck "
    "and damage track followed; never: it cannot); lost action: on the ACS clock, the defender "
    "rolls a defense, which costs it its action"
)


def percent(p: Fraction) -> str:
    """An exact probability as a percentage, three significant digits (``65%``, ``0.0134%``)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.3g}%"


def exchanges_text(mean: Fraction | None) -> str:
    """The expected number of exchanges, or ``never``."""
    return "never" if mean is None else f"{float(mean):.2f}"


def damage_text(o: Odds) -> str:
    """The damage law of one exchange: ``0 50%, 4 8.33%, ...`` (in the odds' unit)."""
    return ", ".join(f"{amount} {percent(p)}" for amount, p in o.damage)


def outcome_names(result: ScenarioOdds) -> list[str]:
    """Every outcome word met in the scenario's matchups, in first-seen order."""
    names: dict[str, None] = {}
    for o in result.odds:
        for name, _p in o.outcomes:
            names.setdefault(name, None)
    return list(names)


def value_rows(result: ScenarioOdds) -> tuple[list[str], list[list[str]]]:
    """The derived values' table: its header and one row per combatant."""
    names: dict[str, None] = {}
    for c in result.combatants:
        for name, _v in c.values:
            names.setdefault(name, None)
    rows = []
    for c in result.combatants:
        given = dict(c.values)
        rows.append([c.name, *(given.get(n, "") for n in names)])
    return ["combatant", *names], rows


def odds_rows(result: ScenarioOdds) -> tuple[list[str], list[list[str]]]:
    """The odds' table: its header and one row per matchup (percentages, means, ``never``)."""
    outcomes = outcome_names(result)
    on_clock = any(o.lost_action is not None for o in result.odds)
    unit = result.odds[0].damage_unit if result.odds else "hit points"
    header = ["attacker", "defender", "way", "exchange", *outcomes]
    header += ["lost action"] * on_clock
    header += [f"damage ({unit})", "mean", "out in 1", "exchanges"]
    rows = []
    for o in result.odds:
        m = o.matchup
        chances = dict(o.outcomes)
        row = [
            m.attacker.name,
            m.defender.name,
            m.way,
            ", ".join(f"{k} {v}" for k, v in m.values),
            *(percent(chances[n]) if n in chances else "" for n in outcomes),
        ]
        if on_clock:
            row.append("" if o.lost_action is None else percent(o.lost_action))
        row += [
            damage_text(o),
            f"{float(o.mean_damage):.2f}",
            percent(o.takes_out),
            exchanges_text(o.exchanges),
        ]
        rows.append(row)
    return header, rows


def _html_table(key: str, header: list[str], rows: list[list[str]]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (  # wide tables scroll inside the page rather than run off it
        f'<div style="overflow-x: auto"><table id="table-{key}" class="data">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def odds_html(result: ScenarioOdds) -> str:
    """The report's section body: the derived values, the odds of one exchange, the footnote."""
    e = html.escape
    if not result.odds:
        return f'<p class="note">{e(result.title)}: {e(NO_PAIRS)}.</p>'
    intro = (
        f"<p>{e(result.title)}, from the rule system's own exchange laws: exact fractions, "
        "shown as percentages (<code>combatsim odds SCENARIO --json</code> gives the "
        "fractions).</p>"
    )
    values = _html_table("odds-values", *value_rows(result))
    table = _html_table("odds", *odds_rows(result))
    return f'{intro}{values}{table}<p class="note">{e(FOOTNOTE)}.</p>'


def odds_tables(result: ScenarioOdds, console: Console | None = None) -> None:
    """Print the derived values and the odds of one exchange of every matchup."""
    console = console or Console()
    title = escape(result.scenario) + ("" if result.variant == "base" else f" [{result.variant}]")
    if not result.odds:
        console.print(f"{title} — {result.title}: {NO_PAIRS}", highlight=False)
        return
    header, rows = value_rows(result)
    values = Table(title=f"{title} — {result.title}: derived values", title_justify="left")
    for i, name in enumerate(header):
        values.add_column(escape(name), justify="left" if i == 0 else "right")
    for row in rows:
        values.add_row(*(escape(c) for c in row))
    console.print(values)
    header, rows = odds_rows(result)
    table = Table(title=f"{title}: one exchange, exactly", title_justify="left")
    for i, name in enumerate(header):
        words = i < 4 or name.startswith("damage")
        table.add_column(escape(name), justify="left" if words else "right")
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    console.print(table)
    console.print(FOOTNOTE, highlight=False)
