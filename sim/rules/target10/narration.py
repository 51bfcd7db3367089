"""Sentences for the events of Target 10 rounds and tests (for ``combatsim replay``)."""

from __future__ import annotations

from collections.abc import Callable

from sim.engine.combat import TraceEvent
from sim.rules.target10.state import ROUND
from sim.rules.wording import counted, possessive


def time_label(t: float) -> str:
    """``round 3`` for simulation time ``t`` (a round is 600 units, 60 s)."""
    return f"round {int(t) // ROUND + 1}"


def _declare(e: TraceEvent) -> str:
    d = e.data
    held = " (cannot move: held where it is)" if d["held"] else ""
    against = f" against {e.target}" if e.target else ""
    return f"{e.actor} declares {d['movement']} and {d['action']}{against}{held}"


def _initiative(e: TraceEvent) -> str:
    d = e.data
    return f"{e.actor}: initiative d6={d['roll']} {d['bonus']:+d} = {d['total']}"


def _move(e: TraceEvent) -> str:
    d = e.data
    return f"  {e.actor} {d['movement']}s from {d['start']:g} to {d['end']:g} paces"


def _attack(e: TraceEvent) -> str:
    d = e.data
    how = "shoots at" if d["ranged"] else "attacks"
    what = f" ({d['action']}{', maneuvering' if d['maneuver'] else ''})"
    if d["auto"]:
        return f"  {e.actor} {how} {e.target}{what}: its back is turned, the attack succeeds"
    verdict = "success" if d["hit"] else "failure"
    if d.get("luck"):
        verdict = f"failure turned into a success with a luck point ({d['luck_left']} left)"
    return (
        f"  {e.actor} {how} {e.target}{what}: d20={d['roll']} {d['modifier']:+d} vs "
        f"{d['need']}: {verdict}"
    )


def _no_attack(e: TraceEvent) -> str:
    return f"  {e.actor} cannot attack {e.target}: {e.data['why']}"


def _effect(e: TraceEvent) -> str:
    d = e.data
    kind = d["effect"]
    if kind == "push":
        return f"  {e.actor} drives {e.target} from {d['start']:g} to {d['end']:g} paces"
    if kind == "trip":
        return f"  {e.target} is knocked to the ground"
    if kind == "grapple":
        return f"  {e.target} is pinned by {e.actor}"
    if kind == "break":
        return f"  {e.actor} breaks {possessive(e.target)} hold"
    if kind == "disarm":
        return f"  {possessive(e.target)} weapon flies to {d['weapon_at']:g} paces"
    return f"  {e.actor} -> {e.target}: {kind}"


def _negotiate(e: TraceEvent) -> str:
    d = e.data
    if d["spoiled"]:
        return f"  {e.actor} tries to negotiate, but has been attacked this round"
    verdict = "success" if d["success"] else "failure"
    luck = " (luck point)" if d["luck"] else ""
    held = f": {', '.join(d['held'])} will not attack" if d["success"] else ""
    return (
        f"  {e.actor} negotiates: d20={d['roll']} {d['modifier']:+d} (TV {d['tv']} vs "
        f"{d['against']}) vs {d['need']}: {verdict}{luck}{held}"
    )


def _test(e: TraceEvent) -> str:
    d = e.data
    verdict = "success" if d["success"] else "failure"
    luck = " (luck point)" if d["luck"] else ""
    return (
        f"{e.actor} tests: d20={d['roll']} {d['modifier']:+d} vs {d['need']}: {verdict}{luck}"
        f" ({d['successes']} successes, {d['failures']} failures)"
    )


def _shot(d: dict) -> str:
    """``musket (3 shots left): ``: what a hybrid's shot says first (the clock says how far)."""
    ammo = d["ammo"]
    left = "" if ammo is None else f" ({counted(ammo, 'shot')} left)"
    return f"{d['weapon']}{left}: "


def _hybrid_attack(e: TraceEvent) -> str:
    d = e.data
    how = _shot(d) if d.get("ranged") else ""
    if d.get("charge"):
        how += f"charging (FIGHT {d['charge']:+d}): "
    if d.get("auto"):
        return f"  {how}{possessive(e.target)} back is turned (fleeing): the attack succeeds"
    verdict = "success" if d["hit"] else "failure"
    defending = f" ({e.target} defending)" if d["defend"] else ""
    return (
        f"  {how}combat test d20={d['d20']} {d['modifier']:+d} = {d['total']} vs {d['need']}"
        f"{defending}: {verdict}"
    )


def _hybrid_reload(e: TraceEvent) -> str:
    seconds = round(e.data["seconds"], 1)
    return (
        f"{e.actor} reloads its {e.data['weapon']} instead of shooting at {e.target} "
        f"(loaded in {seconds:g} s)"
    )


#: Sentences for Target 10 resolution on the ACS clock (the hybrid).
HYBRID_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "t10_attack": _hybrid_attack,
    "t10_reload": _hybrid_reload,
    "t10_luck": lambda e: (
        f"  {e.actor} spends a luck point to ignore the hit ({e.data['left']} left)"
    ),
    "t10_luck_hit": lambda e: (
        f"  {e.actor} spends a luck point to succeed at its attack ({e.data['left']} left)"
    ),
}


NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "declare": _declare,
    "initiative": _initiative,
    "move": _move,
    "stand": lambda e: (
        f"  {e.actor} {'stands up' if e.data['success'] else 'cannot stand: attacked'}"
    ),
    "attack": _attack,
    "no_attack": _no_attack,
    "effect": _effect,
    "luck": lambda e: (
        f"  {e.actor} spends a luck point to ignore {possessive(e.target)} success "
        f"({e.data['left']} left)"
    ),
    "sleep": lambda e: f"  {e.actor} will wake after {counted(e.data['rounds'], 'round')}",
    "wake": lambda e: f"{e.actor} wakes up ({e.data['hp']} hp) and rejoins the fight",
    "recover": lambda e: (
        f"  {e.actor} {'recovers' if e.data['success'] else 'goes for'} its weapon"
    ),
    "reload": lambda e: f"  {e.actor} reloads{' (loaded)' if e.data['loaded'] else ''}",
    "negotiate": _negotiate,
    "parley_broken": lambda e: f"  {possessive(e.actor)} parley is broken",
    "test_order": lambda e: (
        f"Testers in order: {', '.join(e.data['order'])} "
        f"(TVs {e.data['tvs']}, against {e.data['against']})"
    ),
    "test": _test,
}
