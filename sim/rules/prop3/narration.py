"""Sentences for the events of Proposition Three rounds (for ``combatsim replay``).

The hybrid on the ACS clock emits the same attack events and brings these sentences with it
(``Prop3Resolution.narration``), except for moves and holds, which the clock narrates in its own
words (and feet), and aiming, which takes actions there, not a round.
"""

from __future__ import annotations

from collections.abc import Callable

from sim.engine.combat import SEGMENTS_PER_SECOND, TraceEvent
from sim.rules.acs.narration import distance_text
from sim.rules.wording import counted, possessive

_VERB = {"dodge": "dodges", "block": "blocks", "parry": "parries"}


def time_label(t: float) -> str:
    """``12 s into the fight`` for simulation time ``t`` (a round's events share its start)."""
    return f"{t / SEGMENTS_PER_SECOND:g} s into the fight"


def _initiative(e: TraceEvent) -> str:
    if not e.data["faces"]:
        return f"{e.actor}: no initiative dice (acts after everyone who rolls)"
    return f"{e.actor}: initiative roll {e.data['faces']} -> {e.data['result']}"


def _pool(dice: int, sides: int, wiggle: int, faces: list[int]) -> str:
    """``5d8 +1 wiggle: [2, 2, 4]``, saying which dice were kept when not all of them."""
    kept = "" if len(faces) == dice else f", lowest {len(faces)}"
    return f"{dice}d{sides} +{wiggle} wiggle{kept}: {faces}"


def _wiggled(faces: list[int], spent: int) -> str:
    """``[2, 2, 3] (1 spent)``: the dice as counted, and the wiggle points it took to get there."""
    return f"{faces} ({spent} spent)" if spent else f"{faces}"


def _declare(e: TraceEvent) -> str:
    d = e.data
    if not d["can_defend"]:
        return f"{e.actor} attacks {e.target} with a {d['attack']}; it cannot defend"
    first = f" ({d['first']} declares first)" if d["first"] else ""
    if d["defense"] is None:
        what = "no defense"
        if d["declared"] is not None:
            what = f"a {d['declared']} it cannot make against a {d['attack']}"
    else:
        what = f"a {d['defense']}"
    return f"{e.actor} attacks {e.target} with a {d['attack']} against {what}{first}"


def _exchange(e: TraceEvent) -> str:
    d = e.data
    line = (
        f"  {e.actor} rolls {_pool(d['dice'], d['sides'], d['wiggle'], d['faces'])}"
        f" -> {_wiggled(d['wiggled'], d['spent'])}: {d['result']}"
    )
    if d["automatic"]:
        return f"{line}; it hits automatically: {d['outcome'].replace('_', ' ')}"
    if d["d_faces"] is not None:
        verb = _VERB[d["defense"]]
        pool = _pool(d["d_dice"], d["d_sides"], d["d_wiggle"], d["d_faces"])
        wiggled = _wiggled(d["d_wiggled"], d["d_spent"])
        line += f"; {e.target} {verb} {pool} -> {wiggled}: {d['d_result']}"
    return f"{line} => {d['outcome'].replace('_', ' ')}"


def _shoot(e: TraceEvent) -> str:
    d = e.data
    aimed = ", aimed" if d["aimed"] else ""
    if d["defense"]:
        defense = f"; {e.target} {_VERB[d['defense']]}"
    else:
        defense = f"; {e.target} cannot defend"
    return (
        f"{e.actor} shoots {d['missile']} at {e.target}, {round(d['distance'], 1):g} ft away "
        f"({counted(d['increments'], 'increment')}{aimed}){defense}"
    )


def _harm(e: TraceEvent) -> str:
    d = e.data
    what = []
    if d["nicks"]:
        what.append(counted(d["nicks"], "nick"))
    if d["wounds"]:
        what.append(counted(d["wounds"], "wound"))
    by = f" from {e.actor}" if e.actor else " (self-inflicted)"
    taken = " and ".join(what) or "nothing"
    return f"  {e.target} takes {taken}{by}; {counted(d['track'], 'nick')} on its track"


def _damage(e: TraceEvent) -> str:
    return f"  {e.target} loses {e.data['amount']} Vigor ({e.data['hp']} left)"


def _counter(e: TraceEvent) -> str:
    d = e.data
    if d["mode"] is None:
        return f"  {e.actor} cannot reach {e.target} for a counter-attack"
    auto = " that hits automatically" if d["automatic"] else ""
    return f"  {e.actor} counter-attacks {e.target}{auto}"


def _move(e: TraceEvent) -> str:
    d = e.data
    return (
        f"{e.actor} moves from {d['start']:g} to {d['end']:g} ft "
        f"({d['distance']:g} ft from {e.target})"
    )


NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    "initiative": _initiative,
    "order": lambda e: f"Initiative order: {', '.join(e.data['order'])}",
    "round": lambda e: f"Round {e.data['number']}",
    "declare": _declare,
    "exchange": _exchange,
    "shoot": _shoot,
    "fumble": lambda e: f"  {e.actor} fumbles: d6={e.data['face']}, {e.data['effect']}",
    "critical_defense": lambda e: f"  {e.actor} makes a critical {e.data['form']}",
    "counter": _counter,
    "harm": _harm,
    "damage": _damage,
    "advantage": lambda e: f"  {e.actor} spends {counted(e.data['points'], 'advantage point')}",
    "armor_save": lambda e: (
        f"  {possessive(e.actor)} armor gives {counted(e.data['points'], 'more wiggle point')}"
    ),
    "pick_up": lambda e: f"{e.actor} picks up its weapon",
    "skip": lambda e: f"{e.actor} skips its turn to move up in the initiative order",
    "aim": lambda e: f"{e.actor} takes the round to aim at {e.target}",
    "move": _move,
    "hold": lambda e: f"{e.actor} holds ({e.data['distance']:g} ft from {e.target})",
}


def _shot_on_the_clock(e: TraceEvent) -> str:
    # The clock has said who shoots at whom and from how far ("act"); this is the shot itself.
    d = e.data
    aimed = ", aimed" if d["aimed"] else ""
    defense = _VERB[d["defense"]] if d["defense"] else "cannot defend"
    return (
        f"  {possessive(e.actor)} {d['missile']} at {distance_text(d['distance'], 'feet')}: "
        f"{counted(d['increments'], 'increment')}{aimed}; {e.target} {defense}"
    )


def _aim_on_the_clock(e: TraceEvent) -> str:
    d = e.data
    return f"{e.actor} aims at {e.target} (action {d['action']} of {d['of']} of a round of aim)"


#: The hybrid's sentences: the rounds' ones, but the clock says how combatants move and hold.
HYBRID_NARRATION: dict[str, Callable[[TraceEvent], str]] = {
    **{kind: say for kind, say in NARRATION.items() if kind not in ("move", "hold")},
    "aim": _aim_on_the_clock,
    "shoot": _shot_on_the_clock,
}
