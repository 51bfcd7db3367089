"""Builders for Target 10 hybrid scenarios with distance, and the dice a clock script lists.

Dice order on the ACS clock (what a script must list): at the start of each second the ambition
d12 of every able combatant in scenario order, pure roll-offs on a tie, then each one's action
d10s; during the second each attack's d20 (none for an automatic hit on a fleer) followed at once
by its damage d6 on a hit. Moving, holding and reloading roll nothing.
"""

from __future__ import annotations

import copy

from sim.engine.combat import TraceEvent

#: Clock options that keep the scripts short: no free action for the ambition winner, and
#: DEFENSE alone (no ACS defenses, so no lost or disrupted actions) unless a test says otherwise.
QUIET = {"winner_free_action": False, "hybrid_defense": "passive"}


def clock(red: dict, blue: dict, options: dict | None = None, time_limit: float = 1) -> dict:
    """A one-against-one Target 10 hybrid scenario as data."""
    return {
        "name": "t10 on the clock",
        "rules": "acs",
        "time_limit": time_limit,
        "options": {"resolution": "target10", **QUIET, **(options or {})},
        "sides": [
            {"name": "red", "combatants": [copy.deepcopy(red)]},
            {"name": "blue", "combatants": [copy.deepcopy(blue)]},
        ],
    }


def fighter(name: str, **stats) -> dict:
    """A plain human on the clock: 1 Hit Die, abilities 10, 10 hp, one action a second."""
    return {"name": name, "hp": 10, "actions": 1, **stats}


def second(ambition: tuple[int, int], *segments: list[int]) -> list[tuple[int, int]]:
    """The start of a second: both ambition d12s (distinct: no roll-offs), then action d10s."""
    faces = [(ambition[0], 12), (ambition[1], 12)]
    for mine in segments:
        faces += [(s, 10) for s in mine]
    return faces


def d20(*faces: int) -> list[tuple[int, int]]:
    """Scripted d20 rolls."""
    return [(f, 20) for f in faces]


def d6(*faces: int) -> list[tuple[int, int]]:
    """Scripted d6 rolls."""
    return [(f, 6) for f in faces]


def of(trace: list[TraceEvent], kind: str, actor: str | None = None) -> list[TraceEvent]:
    """The events of one kind (by one actor)."""
    return [e for e in trace if e.kind == kind and (actor is None or e.actor == actor)]


def segment(e: TraceEvent) -> tuple[int, int]:
    """(second, segment) of an event, both from 1."""
    second_index, seg = divmod(int(e.t), 10)
    return second_index + 1, seg + 1
