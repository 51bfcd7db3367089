"""Sentences for the events of the ACS clock and its percentile resolution (for ``replay``).

A resolution on the clock brings the sentences for its own events (``Resolution.narration``).
"""

from __future__ import annotations

from collections.abc import Callable

from sim.engine import SEGMENTS_PER_SECOND, TraceEvent
from sim.rules.wording import possessive


def segment_label(t: float) -> str:
    """``second 2, segment 7`` for simulation time ``t`` (in segments): the replay's headings."""
    second, segment = divmod(int(t), SEGMENTS_PER_SECOND)
    return f"second {second + 1}, segment {segment + 1}"


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


def _act(e: TraceEvent) -> str:
    free = " (free action)" if e.data.get("free") else ""
    return f"{e.actor} attacks {e.target}{free}"


def _begin(e: TraceEvent) -> str:
    free = " (free action)" if e.data.get("free") else ""
    return f"{e.actor} begins a {e.data['segments']}-segment attack on {e.target}{free}"


def _attack(e: TraceEvent) -> str:
    d = e.data
    verdict = "hit" if d["hit"] else "miss"
    return f"  d100={d['roll']} total {d['total']} vs {d['need']}: {verdict}"


def _defense(e: TraceEvent) -> str:
    d = e.data
    verdict = "defends" if d["success"] else "fails to defend"
    return f"  {e.actor} d100={d['roll']} vs {d['chance']}%: {verdict}"


def _lost(e: TraceEvent) -> str:
    to = e.data["moved_to"]
    where = f"moves to segment {to}" if to else "is lost"
    return f"  {possessive(e.actor)} action on segment {e.data['segment']} {where} (defended)"


#: Sentences for the clock's own events, whatever resolves the attacks.
CLOCK_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "ambition": _ambition,
    "act": _act,
    "begin": _begin,
    "complete": lambda e: f"{e.actor} completes its attack on {e.target}",
    "ready": lambda e: f"{e.actor} readies and aims (prepared ambition next second)",
    "action_lost": _lost,
    "disrupted": lambda e: (
        f"  {possessive(e.actor)} multi-segment action is disrupted: it starts over"
    ),
}

#: Sentences for the percentile resolution's events.
PERCENTILE_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "attack": _attack,
    "defense": _defense,
}
