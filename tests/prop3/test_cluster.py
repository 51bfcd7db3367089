"""Facing multiple opponents: ally wiggle in a melee cluster, and focused fire with its reset."""

from __future__ import annotations

import copy

from sim.engine.combat import Combat
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.missiles import missile_attack
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import dice as scripted_dice
from tests.prop3.scripted import pools

HAMSTER = {"vigor": 4, "agility": 4, "weapon": {"name": "spear"}, "armor": {"name": "jack"},
           "tactics": {"attack": "bash", "defense": "dodge"}}
TARGET = {"vigor": 12, "agility": 4, "armor": {"name": "hide"},
          "tactics": {"attack": "bash", "defense": "dodge"}}


def setup(sides, faces, options=None):
    data = {"name": "cluster", "rules": "prop3", "options": options or {},
            "sides": [{"name": name, "combatants": members} for name, members in sides]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(pools(8, 4, faces))  # every pool here has four dice
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    rounds.set_order(combat.fighters)
    return rounds, {f.name: f for f in combat.fighters}, trace, dice


def member(block, name):
    block = copy.deepcopy(block)
    block["name"] = name
    return block


HIT = [1, 1, 3, 5, 2, 4, 6, 8]  # a pair of 1s against a dodge without a pair
MISS = [3, 3, 5, 7, 1, 1, 2, 8]  # a pair of 3s against a pair of 1s


def wiggles(trace):
    return [(e.actor, e.data["wiggle"], e.data["outcome"]) for e in trace if e.kind == "exchange"]


def test_each_ally_who_hit_this_round_gives_one_wiggle_point():
    hamsters = [member(HAMSTER, f"H{i}") for i in range(1, 5)]
    faces = HIT + MISS + [4, 4, 6, 8] + [2, 4, 6, 8] + [6, 6, 7, 8] + [2, 4, 6, 8]
    faces += HIT  # next round
    rounds, f, trace, dice = setup([("h", hamsters), ("t", [member(TARGET, "T")])], faces)
    fight = rounds.fight
    for name in ("H1", "H2", "H3", "H4"):
        melee_attack(fight, f[name], f["T"])
    fight.cluster.new_round()
    melee_attack(fight, f["H1"], f["T"])
    got = [(actor, wiggle) for actor, wiggle, _ in wiggles(trace)]
    # H1 hits (0); H2 (+1) is defended; H3 gets +1 (only H1 hit) and hits; H4 gets +2; next
    # round the count starts again.
    assert got == [("H1", 0), ("H2", 1), ("H3", 1), ("H4", 2), ("H1", 0)]
    assert [o for _, _, o in wiggles(trace)][1] == "defended"
    assert not dice._buffer


def test_cluster_scope_target_counts_only_hits_on_the_same_target():
    hamsters = [member(HAMSTER, "H1"), member(HAMSTER, "H2")]
    targets = [member(TARGET, "T1"), member(TARGET, "T2")]
    for scope, expected in (("side", 1), ("target", 0)):
        rounds, f, trace, _dice = setup([("h", hamsters), ("t", targets)], HIT + HIT,
                                       {"cluster_scope": scope})
        melee_attack(rounds.fight, f["H1"], f["T1"])
        melee_attack(rounds.fight, f["H2"], f["T2"])
        assert wiggles(trace)[1][1] == expected


def test_cluster_wiggle_can_be_switched_off():
    hamsters = [member(HAMSTER, "H1"), member(HAMSTER, "H2")]
    rounds, f, trace, _dice = setup([("h", hamsters), ("t", [member(TARGET, "T")])], HIT + HIT,
                                   {"cluster_wiggle": False})
    melee_attack(rounds.fight, f["H1"], f["T"])
    melee_attack(rounds.fight, f["H2"], f["T"])
    assert wiggles(trace)[1][1] == 0


ARCHER = {"vigor": 4, "agility": 4, "armor": {"name": "jack"}, "tactics": {"defense": "dodge"},
          "missile": {"name": "bow", "range": 10, "max_range": 50, "ammunition": "arrow"}}
RAT = {"vigor": 6, "agility": 4, "armor": {"name": "hide"}, "tactics": {"defense": "dodge"},
       "missile": {"name": "javelins", "skill": "thrown", "range": 10, "max_range": 40,
                   "ammunition": "javelin"}}
# A successful attack roll that no wiggle point (up to 3) turns into a pair of 2s or a triple,
SUCCESS = [4, 4, 8, 8]
# against a dodge that beats it (a pair of 1s), or one that fails (no pair).
DODGED, STRUCK = [1, 1, 2, 8], [3, 5, 7, 8]


def test_focused_fire_the_texts_example():
    # "The hamsters make successful attack rolls twice, dodge a javelin, and then fire two more
    # arrows. The second, third, and fourth arrow shots would receive one, two, and three wiggle
    # points ... Then a hamster is struck by a javelin, and they lose their cover fire bonuses.
    # Now each rat will earn a cumulative wiggle point for as long they continue to successfully
    # attack and successfully dodge the hamsters' arrows."
    hamsters = [member(ARCHER, f"H{i}") for i in range(1, 5)]
    rats = [member(RAT, "R1"), member(RAT, "R2")]
    shots = [("H1", "R1", DODGED), ("H2", "R1", DODGED), ("R1", "H1", DODGED),
             ("H3", "R2", DODGED), ("H4", "R1", DODGED), ("R2", "H2", STRUCK),
             ("H1", "R1", DODGED), ("R1", "H3", DODGED), ("H2", "R2", STRUCK),
             ("R2", "H1", DODGED)]
    faces = [face for _, _, defense in shots for face in SUCCESS + defense]
    rounds, f, trace, dice = setup([("h", hamsters), ("r", rats)], faces,
                                   {"start_distance": 5})
    for shooter, target, _ in shots:
        missile_attack(rounds.fight, f[shooter], f[target])
    assert not dice._buffer
    assert wiggles(trace) == [
        ("H1", 0, "defended"), ("H2", 1, "defended"),
        ("R1", 0, "defended"),  # dodged: the hamsters keep their bonus
        ("H3", 2, "defended"), ("H4", 3, "defended"),
        ("R2", 1, "hit"),  # a hamster is struck: the hamsters' count starts again
        ("H1", 0, "defended"), ("R1", 2, "defended"),
        ("H2", 1, "hit"),  # a rat is struck: the rats lose theirs
        ("R2", 0, "defended"),
    ]


def test_focused_fire_can_be_switched_off():
    hamsters = [member(ARCHER, "H1"), member(ARCHER, "H2")]
    faces = SUCCESS + DODGED + SUCCESS + DODGED
    rounds, f, trace, _dice = setup([("h", hamsters), ("r", [member(RAT, "R1")])], faces,
                                   {"start_distance": 5, "focused_fire": False})
    missile_attack(rounds.fight, f["H1"], f["R1"])
    missile_attack(rounds.fight, f["H2"], f["R1"])
    assert [w for _, w, _ in wiggles(trace)] == [0, 0]


def test_focused_fire_lasts_the_round_or_with_focused_fire_span_fight_the_fight():
    hamsters = [member(ARCHER, "H1"), member(ARCHER, "H2")]
    faces = SUCCESS + DODGED + SUCCESS + DODGED
    for span, expected in (("round", [0, 0]), ("fight", [0, 1])):
        rounds, f, trace, dice = setup([("h", hamsters), ("r", [member(RAT, "R1")])], faces,
                                       {"start_distance": 5, "focused_fire_span": span})
        missile_attack(rounds.fight, f["H1"], f["R1"])
        rounds.fight.cluster.new_round(rounds.fight.rules.volley_round)
        missile_attack(rounds.fight, f["H2"], f["R1"])
        assert [w for _, w, _ in wiggles(trace)] == expected
        assert not dice._buffer
