"""The damage track (RULINGS part C): nicks, wounds, Vigor loss, out, and the end of the fight."""

from __future__ import annotations

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.damage import out, track
from sim.rules.prop3.melee import melee_attack
from sim.run.records import combat_record
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice


@pytest.mark.parametrize(
    ("nicks", "new_nicks", "new_wounds", "per_wound", "expected"),
    [
        (0, 1, 0, 2, (1, 0)),  # a hit: a nick
        (1, 1, 0, 2, (0, 1)),  # the second nick makes a wound
        (1, 0, 1, 2, (1, 1)),  # a critical: a wound, the nick stays
        (2, 1, 0, 3, (0, 1)),
        (0, 5, 0, 2, (1, 2)),
    ],
)
def test_track(nicks, new_nicks, new_wounds, per_wound, expected):
    assert track(nicks, new_nicks, new_wounds, per_wound) == expected


def test_out_at_vigor_zero():
    assert out(0) and out(-1) and not out(1)
    with pytest.raises(ValueError):
        track(0, 1, 0, 0)


def duel(attacker: dict, defender: dict, script, options=None, time_limit=600):
    data = {"name": "damage", "rules": "prop3", "options": options or {},
            "time_limit": time_limit,
            "sides": [{"name": "a", "combatants": [attacker]},
                      {"name": "d", "combatants": [defender]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(script)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    return prepared.rounds(combat), combat, trace, dice


ATTACKER = {"name": "A", "vigor": 5, "weapon": {"name": "axe"},
            "tactics": {"attack": "bash", "defense": "dodge"}}
DEFENDER = {"name": "D", "vigor": 2, "agility": 3, "armor": {"name": "jack"},
            "tactics": {"attack": "bash", "defense": "dodge"}}


def test_two_hits_make_a_wound_and_a_critical_is_a_wound():
    # Two hits (pairs against nothing), then a critical: Vigor 2 -> 1 -> 0, out.
    hit = d8(1, 1, 3, 5, 7) + d8(2, 4, 6)  # A's 5d8 against D's 3d8 dodge
    script = hit + hit + d8(4, 4, 4, 6, 8) + d8(2, 4, 6)
    rounds, combat, _trace, _dice = duel(ATTACKER, DEFENDER, script)
    a, d = combat.fighters
    rounds.set_order([a, d])
    fight = rounds.fight
    melee_attack(fight, a, d)
    assert (d.state.nicks, d.hp) == (1, 2)
    melee_attack(fight, a, d)
    assert (d.state.nicks, d.hp) == (0, 1)
    assert d.defenses == 2 and d.defenses_won == 0
    melee_attack(fight, a, d)
    assert (d.hp, d.out) == (0, "down")
    assert a.damage_dealt == d.damage_taken == 2 and a.criticals == 1 and a.hits == 3
    assert combat.end_reason == "victory" and combat.winner == 0


def test_a_lower_vigor_shrinks_the_vigor_pools():
    # D's block (a Vigor roll) after a wound: Vigor 3 -> 2, so 2 dice instead of 3.
    defender = {**DEFENDER, "vigor": 3, "shield": True, "tactics": {"defense": "block"}}
    attacker = {**ATTACKER, "tactics": {"attack": "slash"}}
    script = d8(4, 4, 4, 6, 8) + d8(2, 5, 7) + d8(1, 1, 3, 5, 7) + d8(2, 5)
    rounds, combat, trace, dice = duel(attacker, defender, script)
    a, d = combat.fighters
    rounds.set_order([a, d])
    melee_attack(rounds.fight, a, d)
    melee_attack(rounds.fight, a, d)
    blocks = [e.data["d_dice"] for e in trace if e.kind == "exchange"]
    assert blocks == [3, 2]
    assert not dice._buffer


def test_at_vigor_2_a_triple_is_only_a_pair_and_at_1_only_ones_succeed():
    weak = {**ATTACKER, "vigor": 2}
    rounds, combat, trace, _ = duel(weak, DEFENDER, d8(3, 3) + d8(2, 4, 6))
    a, d = combat.fighters
    rounds.set_order([a, d])
    # The attack pool is Vigor 2: 2 dice, two 3s: a pair, never a critical.
    melee_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["result"].startswith("pair of 3s") and x.data["outcome"] == "hit"
    feeble = {**ATTACKER, "vigor": 1, "size_category": 2}  # three dice, but Vigor 1
    rounds, combat, trace, _dice = duel(feeble, DEFENDER, d8(2, 2, 2))
    a, d = combat.fighters
    rounds.set_order([a, d])
    rounds.fight.dice._buffer.insert(0, (6 - 0.5) / 6)  # the fumble d6 (rolled last)
    melee_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["outcome"] == "fumble"  # three 2s but no 1: a stat at 1 fails


def test_the_fight_ends_at_the_end_of_the_round_in_which_a_side_is_out():
    # Round 1: A is first and misses (just a miss); D misses too. Round 2: A's critical takes D
    # (Vigor 1) out: the fight lasted two rounds of 6 s.
    defender = {**DEFENDER, "vigor": 1}
    script = d8(1, 1, 3, 5) + d8(2, 4, 6, 8, 8)  # initiative: A's pair, D's nothing
    script += [*d8(2, 4, 6, 8, 8), (6, 6)]  # A fumbles: just a miss
    script += [*d8(2), (6, 6)]  # D (Vigor 1: one die, and no 1) fumbles: just a miss
    script += d8(4, 4, 4, 6, 8) + d8(2, 4, 6, 8, 8)  # A: triple 4s; D's dodge: no pair
    data = {"name": "end", "rules": "prop3", "time_limit": 600,
            "sides": [{"name": "a", "combatants": [{**ATTACKER, "agility": 4}]},
                      {"name": "d", "combatants": [{**defender, "agility": 5}]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(script)
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, [])
    combat.run(prepared.start)
    assert not dice._buffer
    assert (combat.end_reason, combat.winner, combat.duration_s) == ("victory", 0, 12.0)
    record = combat_record(combat, 0, 0)
    assert record[2] == "a" and record[4] == 12.0
    d = combat.fighters[1]
    assert d.out == "down" and d.out_at == 120  # the end of round 2, in clock units


def test_round_length_option_sets_the_duration():
    data = {"name": "len", "rules": "prop3", "options": {"round_s": 3}, "time_limit": 30,
            "sides": [{"name": "a", "combatants": [{"name": "A", "vigor": 2}]},
                      {"name": "d", "combatants": [{"name": "D", "vigor": 2}]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    for k in range(20):
        dice = Dice(1, k)
        trace: list = []
        combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
        combat.run(prepared.start)
        rounds = sum(e.kind == "round" for e in trace)
        assert combat.duration_s == 3.0 * rounds
        last = [e for e in trace if e.kind != "end"][-1]
        assert last.t == 3 * 10 * (rounds - 1)  # every event of round r at its start
