"""Leaving the fight without blows: Negotiate, and getting away by Flee.

Target 10 text, "Actions", Negotiate: "Only venturers have the ability to negotiate in combat.
With a successful skill roll, they keep their opponents from attacking for one round, provided
they are not themselves attacked." RULINGS part B: the test is the negotiator's TV (skill + CHA
modifier) against the best opposing TV, d20 against ``test_target``; whom it holds and for how
long are options (``negotiate_scope``, ``negotiate_hold``, ``negotiate_broken_by``); a luck point
may turn a failed negotiation (text, "Luck Points": "automatically succeed at any test"), by
``tactics.luck: always`` or by ``tactics.luck_to_succeed`` (``always``, ``{below_chance: P}``).

"Movements", Flee: "A fleeing character runs at full speed ... turning their back on their
enemy"; "Ending Combat": those who have fled are out. When a fleer has got away is the option
``escape``: out of every enemy's reach for the next round (default), at the end of its first
flight round, or as soon as it has moved.
"""

from __future__ import annotations

from sim.rules.target10.actions import FLED
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import end_holds, put_out
from sim.rules.target10.luck import spend_on_failed_test, spend_to_succeed
from sim.rules.target10.skill_tests import DIE, roll_test, success_faces, tv_of
from sim.rules.target10.state import RoundState
from sim.rules.target10.values import clamp


def negotiate(rs: RoundState, f: T10Fighter, r: int) -> None:
    """``f`` negotiates in round ``r``: a skill test that, won, holds opponents off."""
    combat = rs.combat
    rules = rs.rules
    if f.attacked == r:
        if rs.tracing:
            combat.emit("negotiate", f, spoiled=True)
        return
    side = f.side
    held: list[T10Fighter]
    if rules.neg_target:
        t = f.target
        held = [t] if t is not None and t.out is None else []
    else:
        held = [e for e in rs.fighters if e.out is None and e.side != side]
    if not held:
        return
    s = f.stats
    tv = tv_of(s.cha_mod, s.skill)
    against = max(e.stats.resist for e in held)
    modifier = tv - against + clamp(s.situational, rules.test.situational_clamp)
    roll = roll_test(rs.dice, modifier, rules.test_target)
    success = roll.success
    lucky = False
    if (
        not success
        and f.luck > 0
        and (
            spend_on_failed_test(s.luck_policy, False)
            or spend_to_succeed(s.succeed, success_faces(modifier, rules.test_target) / DIE)
        )
    ):
        f.luck -= 1
        success = lucky = True
    if success:
        # one_round: held into the next round, until the negotiator's turn ends the hold.
        until = r + 1 if rules.neg_next else r
        for e in held:
            if e.held_until < until:
                e.held_until = until
        f.holding = held
        f.hold_round = r
    if rs.tracing:
        combat.emit(
            "negotiate",
            f,
            spoiled=False,
            roll=roll.face,
            tv=tv,
            against=against,
            modifier=modifier,
            need=rules.test_target,
            success=success,
            luck=lucky,
            held=[e.name for e in held] if success else [],
        )


def break_parley(rs: RoundState, side: int, r: int) -> None:
    """An attack by ``side``: every negotiation holding someone of that side ends."""
    for f in rs.fighters:
        if f.holding is not None and any(e.side == side for e in f.holding):
            end_holds(rs, f, r)


def escape(rs: RoundState, able: list[T10Fighter], r: int) -> None:
    """At the end of a round, those who fled and got away are out of the fight."""
    rs.flight = False
    how = rs.rules.escape
    for f in able:
        if f.fled and f.out is None and (how == "end_of_round" or beyond_reach(rs, f)):
            put_out(rs, f, FLED, r)


def beyond_reach(rs: RoundState, f: T10Fighter) -> bool:
    """No able enemy could attack ``f`` next round: out of charge + reach and of range."""
    run = rs.rules.run_multiplier
    side = f.side
    for e in rs.fighters:
        if e.out is None and e.side != side:
            distance = abs(e.pos - f.pos)
            if distance <= e.stats.reach + e.stats.speed * run:
                return False
            if e.weapon_at is None and distance <= e.range:
                return False
    return True
