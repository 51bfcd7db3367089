"""Sentences for the events of the ACS clock and its percentile resolution (for ``replay``).

A resolution on the clock brings the sentences for its own events (``Resolution.narration``).
"""

from __future__ import annotations

from collections.abc import Callable

from sim.engine.combat import SEGMENTS_PER_SECOND, TraceEvent
from sim.rules.wording import possessive


def segment_label(t: float) -> str:
    """``second 2, segment 7`` for simulation time ``t`` (in segments): the replay's headings."""
    second, segment = divmod(int(t), SEGMENTS_PER_SECOND)
    return f"second {second + 1}, segment {segment + 1}"


#: The singular of each distance unit.
_ONE = {"paces": "pace", "feet": "foot"}


def distance_text(amount: float, unit: str) -> str:
    """``9 paces``, ``1 pace``, ``2.5 feet``: a distance as the replay writes it."""
    amount = round(amount, 1)
    number = f"{amount:g}"
    return f"{number} {_ONE.get(unit, unit) if amount == 1 else unit}"


def _ambition(e: TraceEvent) -> str:
    d = e.data
    bonus = f" {d['bonus']:+d}" if d["bonus"] else ""
    prepared = " +prepared" if d["prepared"] else ""
    rolloffs = f", roll-offs {d['rolloffs']}" if d["rolloffs"] else ""
    winner = " — wins ambition" if d["winner"] else ""
    moves = "".join(f", {how} {a}->{b}" for how, a, b in d["moves"])
    return (
        f"{e.actor}: ambition d12={d['roll']}{bonus}{prepared} = {d['total']}{rolloffs}"
        f" (order {d['rank']}){winner}; action dice {d['faces']}{moves}"
        f" -> segments {d['segments']}"
    )


def _effect(e: TraceEvent) -> str:
    """What a named action's effect did (``spells.perform``)."""
    d = e.data
    effect = d["effect"]
    if effect == "damage":
        return f"{d['amount']} damage to {', '.join(d['struck'])}"
    if effect == "heal":
        return f"heals {e.target} by {d['amount']} (now {d['hp']})"
    return (
        f"attack {d['attack_bonus']:+d}, defense {d['defense_bonus']:+d} for the rest of the "
        f"second: {', '.join(d['changed'])}"
    )


def _act(e: TraceEvent) -> str:
    d = e.data
    free = " (free action)" if d.get("free") else ""
    if "effect" in d:
        return f"{e.actor} uses {d['action']}{free}: {_effect(e)}"
    named = f" with {d['action']}" if "action" in d else ""
    if "shot" in d:
        at = distance_text(d["shot"], d["unit"])
        return f"{e.actor} shoots at {e.target} ({at} away){named}{free}"
    return f"{e.actor} attacks {e.target}{named}{free}"


def _complete(e: TraceEvent) -> str:
    d = e.data
    free = " (free action)" if d.get("free") else ""
    if "effect" in d:
        return f"{e.actor} completes {d['action']}{free}: {_effect(e)}"
    named = f" ({d['action']})" if "action" in d else ""
    return f"{e.actor} completes its attack on {e.target}{named}{free}"


def _begin(e: TraceEvent) -> str:
    d = e.data
    free = " (free action)" if d.get("free") else ""
    what = d.get("action", "attack")
    on = f" on {e.target}" if e.target else ""
    return f"{e.actor} begins a {d['segments']}-segment {what}{on}{free}"


def _hasten(e: TraceEvent) -> str:
    done = ", which completes it" if e.data["completes"] else ""
    return f"{e.actor} spends its free action on the action under way{done}"


def _attack(e: TraceEvent) -> str:
    d = e.data
    verdict = "hit" if d["hit"] else "miss"
    return f"  d100={d['roll']} total {d['total']} vs {d['need']}: {verdict}"


def _defense(e: TraceEvent) -> str:
    d = e.data
    verdict = "defends" if d["success"] else "fails to defend"
    return f"  {e.actor} d100={d['roll']} vs {d['chance']}%: {verdict}"


def _move(e: TraceEvent) -> str:
    d = e.data
    unit = d["unit"]
    verb = d["how"]
    went = distance_text(abs(d["end"] - d["start"]), unit)
    return (
        f"{e.actor} {verb} {went} (now at {round(d['end'], 1):g}): "
        f"{distance_text(d['distance'], unit)} from {e.target}"
    )


def _positions(e: TraceEvent) -> str:
    unit = e.data["unit"]
    where = "; ".join(f"{name} at {distance_text(pos, unit)}" for name, pos in e.data["at"].items())
    return f"positions: {where}"


def _lost(e: TraceEvent) -> str:
    to = e.data["moved_to"]
    where = f"moves to segment {to}" if to else "is lost"
    return f"  {possessive(e.actor)} action on segment {e.data['segment']} {where} (defended)"


#: Sentences for the clock's own events, whatever resolves the attacks.
CLOCK_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "ambition": _ambition,
    "act": _act,
    "begin": _begin,
    "complete": _complete,
    "hasten": _hasten,
    "maneuver": lambda e: (
        f"  {e.actor} takes its lost action of segment {e.data['segment']} as a defensive "
        "maneuver (the rest of the second)"
    ),
    "ready": lambda e: f"{e.actor} readies and aims (prepared ambition next second)",
    "action_lost": _lost,
    "positions": _positions,
    "move": _move,
    "hold": lambda e: (
        f"{e.actor} holds its ground, "
        f"{distance_text(e.data['distance'], e.data['unit'])} from {e.target}"
    ),
    "escaped": lambda e: (
        f"  {e.target} is out of {possessive(e.actor)} reach: the attack under way is lost"
    ),
    "disrupted": lambda e: (
        f"  {possessive(e.actor)} multi-segment action is disrupted: it starts over"
    ),
}

#: Sentences for the percentile resolution's events.
PERCENTILE_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "attack": _attack,
    "defense": _defense,
}
