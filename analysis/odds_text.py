"""The exact odds of a scenario's exchanges as tables on the terminal (rich): ``combatsim odds``.

Two tables per scenario (or variant): each combatant's derived values, then each matchup's odds of
one exchange (:mod:`sim.exact.odds`), as percentages of the exact fractions (``--json`` gives the
fractions themselves).
"""

from __future__ import annotations

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


def odds_tables(result: ScenarioOdds, console: Console | None = None) -> None:
    """Print the derived values and the odds of one exchange of every matchup."""
    console = console or Console()
    title = escape(result.scenario) + ("" if result.variant == "base" else f" [{result.variant}]")
    if not result.odds:
        console.print(f"{title} — {result.title}: {NO_PAIRS}", highlight=False)
        return
    values = Table(title=f"{title} — {result.title}: derived values", title_justify="left")
    values.add_column("combatant")
    names: dict[str, None] = {}
    for c in result.combatants:
        for name, _v in c.values:
            names.setdefault(name, None)
    for name in names:
        values.add_column(name, justify="right")
    for c in result.combatants:
        given = dict(c.values)
        values.add_row(escape(c.name), *(escape(given.get(n, "")) for n in names))
    console.print(values)
    outcomes = outcome_names(result)
    on_clock = any(o.lost_action is not None for o in result.odds)
    table = Table(title=f"{title}: one exchange, exactly", title_justify="left")
    for column in ("attacker", "defender", "way", "exchange"):
        table.add_column(column)
    for name in outcomes:
        table.add_column(name, justify="right")
    if on_clock:
        table.add_column("lost action", justify="right")
    unit = result.odds[0].damage_unit if result.odds else "hit points"
    table.add_column(f"damage ({unit})")
    table.add_column("mean", justify="right")
    table.add_column("out in 1", justify="right")
    table.add_column("exchanges", justify="right")
    for o in result.odds:
        m = o.matchup
        chances = dict(o.outcomes)
        row = [
            escape(m.attacker.name),
            escape(m.defender.name),
            escape(m.way),
            escape(", ".join(f"{k} {v}" for k, v in m.values)),
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
        table.add_row(*row)
    console.print(table)
    console.print(FOOTNOTE, highlight=False)
