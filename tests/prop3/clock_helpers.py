"""Scripted Proposition Three fights on the ACS clock at range (tests/prop3/test_clock_*.py).

The stat blocks are those of ``test_ranged_combat`` (the same rules in rounds), with the ACS
timing fields; one second of the clock unless a test says otherwise, no free action for the
ambition winner, so that every action is one the script places.
"""

from __future__ import annotations

import copy

from tests.prop3.scripted import d8

ARCHER = {"name": "A", "vigor": 4, "agility": 6, "skills": {"archery": "average"},
          "missile": {"name": "bow", "range": 5, "max_range": 25, "ammunition": "arrow"},
          "tactics": {"min_shot_dice": 0, "defend": "never"}}
TARGET = {"name": "T", "vigor": 6, "agility": 4, "armor": {"name": "jack"}, "speed": 0,
          "tactics": {"defense": "dodge", "movement": "hold"}}


def clock(a, t, distance, options=None, time_limit=1, more=()):
    """A duel (plus ``more`` combatants on A's side) ``distance`` feet apart on the ACS clock."""
    return {"name": "clock", "rules": "acs", "time_limit": time_limit,
            "options": {"resolution": "prop3", "start_distance": distance, "melee_range": 0,
                        "winner_free_action": False, **(options or {})},
            "sides": [{"name": "a", "combatants": [copy.deepcopy(a), *copy.deepcopy(list(more))]},
                      {"name": "t", "combatants": [copy.deepcopy(t)]}]}


def with_(base, **changes):
    """A copy of a stat block with top-level fields and ``tactics`` entries changed."""
    block = copy.deepcopy(base)
    tactics = changes.pop("tactics", {})
    block.update(changes)
    block["tactics"] = {**block.get("tactics", {}), **tactics}
    return block


def second(*plans):
    """One second's dice: each combatant's ambition (d12), then its action dice (d10 each).

    ``plans`` lists ``(ambition, [segments])`` per combatant, in scenario order.
    """
    return [(amb, 12) for amb, _ in plans] + [(s, 10) for _, segs in plans for s in segs]


def no_pair(n):
    """A pool of ``n`` d8 that makes no pair even with 2 wiggle points."""
    return d8(*([1, 4, 7, 8, 8, 8][:n] if n > 1 else [4] * n))


JUST_A_MISS = [(6, 6)]
"""The fumble d6 of a failed attack: 6, just a miss."""


def events(trace, kind):
    return [e for e in trace if e.kind == kind]


def kinds(trace):
    keep = ("shoot", "aim", "move", "hold", "declare", "pick_up", "escaped")
    return [e.kind for e in trace if e.kind in keep]
