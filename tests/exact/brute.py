"""Brute force for the exact engine's tests: a whole fight of the engine over every die.

:func:`engine_law` plays the engine's own combat (the rule system's ``prepare``, ``spawn`` and
round process, as the runner plays it) on every sequence of faces it asks for
(``exchange.dice_law``), each weighted by its chance: the exact law of the outcome record, with
no chain at all. It is for tiny fights (a round or two, constant hit points): every face of
every die is one more play of the engine.
"""

from __future__ import annotations

from fractions import Fraction

from sim.engine.combat import Combat
from sim.engine.distribution import Distribution
from sim.exact.fight import ExactFight
from sim.rules.target10.exchange import dice_law
from sim.run.records import DRAW, combat_record
from sim.scenario.schema import Scenario

#: What a test compares: winner, end reason, duration (s), then survivors and hp left per side.
Record = tuple[object, ...]


def engine_law(scenario: Scenario) -> Distribution[Record]:
    """The exact law of the engine's outcome record, every die enumerated."""
    prepared = scenario.system.prepare(scenario)

    def play(dice) -> Record:
        fighters = prepared.spawn(dice)
        combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s)
        combat.run(prepared.start)
        return combat_record(combat, 0, 0)[2:5 + 2 * len(scenario.side_names)]

    return dice_law(play)


def chain_law(scenario: Scenario, fight: ExactFight) -> Distribution[Record]:
    """The same record's law from the exact engine's solution."""
    names = scenario.side_names
    weighted = []
    for (ending, step), p in fight.solution.endings.items():
        winner = DRAW if ending.winner is None else names[ending.winner]
        per_side = [v for pair in zip(ending.survivors, ending.hp_left, strict=True) for v in pair]
        seconds = round(float(fight.duration_s(ending, step)), 6)
        weighted.append(((winner, ending.reason, seconds, *per_side), p))
    return Distribution.of(weighted)


def as_floats(law: Distribution[Record]) -> dict[Record, Fraction]:
    """A law as a plain mapping (for a readable assertion message)."""
    return dict(law.table)
