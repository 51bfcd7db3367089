"""Conditions a combatant is in: on the ground, pinned, held off, out of the fight, asleep.

Target 10 text, "Actions": a tripped combatant is "on the ground" and "suffers a -2 penalty to
attack and defend" (``ground_penalty``); one "locked in a pin suffers a -1 penalty to attack and
defend" (``pin_penalty``); Subdue leaves the target "unconscious for 1d6 turns"
(``unconscious_rounds``, ``wake_up``); Negotiate keeps opponents "from attacking for one round,
provided they are not themselves attacked". "Ending Combat": a combatant dead, unconscious or fled
is out of the fight. RULINGS part B: a combatant out is out at the end of the round it went out
in; a sleeper wakes at the start of a later round, and only while the fight lasts.
"""

from __future__ import annotations

from sim.rules.target10.actions import UNCONSCIOUS
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.state import ROUND, RoundState


def hamper(rs: RoundState, f: T10Fighter) -> None:
    """Recompute what lying on the ground and being pinned cost ``f`` to attack and defend."""
    rules = rs.rules
    f.hampered = (rules.ground_pen if f.on_ground else 0) + (
        rules.pin_pen if f.pinned_by is not None else 0
    )


def release(rs: RoundState, holder: T10Fighter) -> None:
    """``holder`` lets go of the combatant it pins, if any."""
    held = holder.pinning
    if held is not None:
        held.pinned_by = None
        holder.pinning = None
        hamper(rs, held)


def put_out(rs: RoundState, f: T10Fighter, how: str, r: int) -> None:
    """Take ``f`` out at the end of round ``r`` (the fight's end is checked after the step)."""
    f.out = how
    f.out_at = (r + 1) * ROUND
    rs.changed = True
    if f.pinning is not None:
        release(rs, f)
    if f.pinned_by is not None:
        release(rs, f.pinned_by)
    if f.holding is not None:
        end_holds(rs, f, r)
    if rs.tracing:
        rs.combat.emit("out", f, how=how)
    if how == UNCONSCIOUS:
        f.on_ground = True
        hamper(rs, f)
        rules = rs.rules
        if rules.wake_up:
            rounds = rules.unconscious_dice.roll(rs.dice)
            f.wake_round = r + 1 + rounds_asleep(rounds)
            rs.sleepers.append(f)
            if rs.tracing:
                rs.combat.emit("sleep", f, rounds=rounds)


def rounds_asleep(rolled: int) -> int:
    """The whole rounds a sleeper misses for a roll of ``unconscious_rounds``: never below 0.

    Out in round ``r``, it wakes at the start of round ``r + 1 + rounds_asleep(rolled)``.
    """
    return max(rolled, 0)


def wake(rs: RoundState, r: int) -> None:
    """At the start of round ``r``, sleepers whose rounds are over are back in the fight."""
    still = []
    for f in rs.sleepers:
        if f.out != UNCONSCIOUS:
            continue
        if f.wake_round <= r:
            f.out = None
            f.out_at = None
            f.target = None
            if rs.tracing:
                rs.combat.emit("wake", f, hp=f.hp)
        else:
            still.append(f)
    rs.sleepers = still


def end_holds(rs: RoundState, negotiator: T10Fighter, r: int, quiet: bool = False) -> None:
    """End the holds of a negotiator in round ``r``: broken by an attack, or run out."""
    held = negotiator.holding
    negotiator.holding = None
    if held:
        active = False
        for e in held:
            if e.held_until >= r:
                active = True
            e.held_until = -1
        if rs.tracing and active and not quiet:
            rs.combat.emit("parley_broken", negotiator)
