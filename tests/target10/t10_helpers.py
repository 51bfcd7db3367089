"""Builders for Target 10 test scenarios and a scripted-dice runner.

Dice order of a Target 10 round (what a script must list): hit point dice at spawn (tests use
plain numbers, so none); then each round the initiative d6 of every able combatant in scenario
order; then step by step (highest initiative first, scenario order inside a tied step) each
attacker's d20 (none when the target is fleeing) followed at once by its damage die on a
damaging hit; negotiations' d20 after the step's attacks; a disarm's landing (d2 side, then 1d6
paces); an unconscious combatant's 1d6 rounds when it goes out.
"""

from __future__ import annotations

import copy

from sim.engine.combat import TraceEvent
from tests.conftest import scripted

NAMES = ("red", "blue", "green")


def t10(*sides: list[dict], options: dict | None = None, time_limit: float = 60,
        names: tuple[str, ...] = NAMES) -> dict:
    """A Target 10 scenario as data; each positional argument is one side's combatants."""
    return {
        "name": "t10 test",
        "rules": "target10",
        "options": dict(options or {}),
        "time_limit": time_limit,
        "sides": [
            {"name": names[i], "combatants": copy.deepcopy(side)} for i, side in enumerate(sides)
        ],
    }


def man(name: str, movement: str = "hold", action: str = "kill", **stats) -> dict:
    """A plain human (all abilities 10, 1 Hit Die, 10 hp) with a fixed declaration."""
    entry = {"name": name, "hp": 10, "tactics": {"declare": {"movement": movement,
                                                             "action": action}}}
    tactics = stats.pop("tactics", None)
    entry.update(stats)
    if tactics is not None:
        entry["tactics"] = tactics
    return entry


def run(data: dict, faces: list[tuple[int, int]]):
    """Play one combat with these dice; the combat, its trace and its fighters by name."""
    combat, trace = scripted(data, faces)
    return combat, trace, {f.name: f for f in combat.fighters}


def of(trace: list[TraceEvent], kind: str, actor: str | None = None) -> list[TraceEvent]:
    """The events of one kind (by one actor)."""
    return [e for e in trace if e.kind == kind and (actor is None or e.actor == actor)]


def d6(*faces: int) -> list[tuple[int, int]]:
    """Scripted d6 rolls."""
    return [(f, 6) for f in faces]


def d20(*faces: int) -> list[tuple[int, int]]:
    """Scripted d20 rolls."""
    return [(f, 20) for f in faces]
