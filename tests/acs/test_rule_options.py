"""ACS rule options with scripted dice: the excess over 100, the lost action, the "off" settings.

Each test scripts every roll in the order the rules make them (see ``test_clock_trace.py``); a
script that is not used up exactly fails the test.
"""

from __future__ import annotations

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.acs.clock import AcsClock
from sim.rules.acs.percentile import (
    PERCENTILE,
    PercentileRules,
    defense_chance,
    excess_damage,
    maneuver_defense,
    takes_more_effect,
)
from sim.rules.acs.resolution import on_guard
from sim.scenario.loader import scenario_from_dict
from tests.acs.test_clock_trace import NEVER_HITS, acts, d10, d12, d100, fighter
from tests.conftest import acs_scenario, scripted

# -- excess over 100 (ACS "To Hit": "decreases the defense, by that amount or increases the
#    events affectivity") ----------------------------------------------------------------------


def test_excess_damage_is_one_point_per_n_above_100():
    assert excess_damage(100, 10) == 0
    assert excess_damage(109, 10) == 0
    assert excess_damage(110, 10) == 1
    assert excess_damage(130, 10) == 3
    assert excess_damage(130, 7) == 4
    assert excess_damage(40, 1) == 0


def test_the_attacker_chooses_the_lower_defense_only_where_it_gains_something():
    assert not takes_more_effect("lower_defense", True, False, 30)
    assert takes_more_effect("more_effect", True, True, 30)
    assert not takes_more_effect("attacker_chooses", True, True, 30)
    assert takes_more_effect("attacker_chooses", True, False, 30)  # no defense to lower
    assert takes_more_effect("attacker_chooses", True, True, 0)  # nothing to lower
    assert takes_more_effect("attacker_chooses", False, True, 30)  # reduction off


def _excess_duel(options, defend="always"):
    """A (d100 + 50 against 100) attacks B (defense 30) with its free action and on segment 2."""
    a = fighter("A", ambition_bonus=10, to_hit=100, attack_bonus=50)
    b = fighter("B", defense=30, tactics={"defend": defend}, **NEVER_HITS)
    return acs_scenario([a], [b], options=options)


@pytest.mark.parametrize(
    ("options", "defense_roll", "chance", "hp"),
    [
        # lower_defense (default): total 130 takes B's 30% to 0; the roll of 10 fails.
        ({}, 10, 0, 9),
        # more_effect: the defense stays 30 (10 holds) ...
        ({"excess_over_100": "more_effect"}, 10, 30, 10),
        # ... and a failed defense takes 1 + 3 (30 points above 100, one per 10).
        ({"excess_over_100": "more_effect"}, 90, 30, 6),
        ({"excess_over_100": "more_effect", "excess_per_damage": 15}, 90, 30, 7),
        # attacker_chooses against a defender able to defend: the lower defense.
        ({"excess_over_100": "attacker_chooses"}, 10, 0, 9),
    ],
)
def test_excess_over_100_lowers_the_defense_or_adds_damage(options, defense_roll, chance, hp):
    combat, trace = scripted(
        _excess_duel(options),
        [
            d12(1),
            d12(1),  # A 11 wins
            d10(2),
            d10(10),  # A on 2, B on 10
            d100(80),  # A's free action: 80 + 50 = 130 hits
            d100(defense_roll),
            d100(1),  # A on 2: 51 misses
            d100(50),  # B on 10 never hits
        ],
    )
    defense = next(e for e in trace if e.kind == "defense")
    assert defense.data["chance"] == chance
    assert combat.fighters[1].hp == hp


def test_attacker_chooses_more_effect_on_a_defender_that_will_not_defend():
    combat, _ = scripted(
        _excess_duel({"excess_over_100": "attacker_chooses"}, defend="never"),
        [d12(1), d12(1), d10(2), d10(10), d100(80), d100(1), d100(50)],
    )
    assert combat.fighters[1].hp == 10 - 1 - 3


# -- the lost action (ACS "Defenses": "may be taken on the next free segment or by a defensive
#    maneuver that requires a free action remaining in the second") -----------------------------


def test_maneuver_defense_adds_the_bonus_up_to_100():
    assert maneuver_defense(30, 20) == 50
    assert maneuver_defense(90, 20) == 100
    assert defense_chance(maneuver_defense(30, 20), 110) == 40


def _maneuver_script(second_defense):
    return [
        d12(1),
        d12(1),  # A 11, B 1
        d10(3),
        d10(6),  # A on 3 and 6
        d10(3),
        d10(5),  # B on 3 and 5
        d100(10),  # A's free action misses
        d100(90),
        d100(10),  # segment 3: A hits, B defends: its segment-3 action is lost
        d100(50),  # B on 5
        d100(90),
        d100(second_defense),  # segment 6: A hits again, B defends
    ]


def test_a_lost_action_taken_as_a_defensive_maneuver_raises_the_defense_for_the_second():
    a = fighter("A", ambition_bonus=10, actions=2, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    data = acs_scenario([a], [b], options={"lost_action": "defensive_maneuver"})
    combat, trace = scripted(data, _maneuver_script(45))
    assert [(e.actor, e.data["segment"]) for e in trace if e.kind == "maneuver"] == [("B", 3)]
    assert not [e for e in trace if e.kind == "action_lost"]
    # The action is not slid to segment 4: B acts on 5 only.
    assert [(t, who) for t, _, who, _ in acts(trace) if who == "B"] == [(4, "B")]
    # 30 + maneuver_bonus 20: the roll of 45 holds.
    assert [(e.data["chance"], e.data["success"]) for e in trace if e.kind == "defense"] == [
        (30, True),
        (50, True),
    ]
    b_fighter = combat.fighters[1]
    assert b_fighter.hp == 10
    assert (b_fighter.actions_moved, b_fighter.actions_lost, b_fighter.actions_taken) == (0, 0, 2)

    slid = acs_scenario([a], [b])
    script = _maneuver_script(45)
    script.insert(9, d100(50))  # B's slid action on segment 4
    combat, trace = scripted(slid, script)
    assert [(e.data["chance"], e.data["success"]) for e in trace if e.kind == "defense"] == [
        (30, True),
        (30, False),
    ]
    assert combat.fighters[1].hp == 9


def test_the_maneuver_bonus_is_an_option_and_lasts_only_the_second():
    a = fighter("A", ambition_bonus=10, actions=2, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    data = acs_scenario(
        [a], [b], options={"lost_action": "defensive_maneuver", "maneuver_bonus": 5}
    )
    _, trace = scripted(data, _maneuver_script(35))
    assert [e.data["chance"] for e in trace if e.kind == "defense"] == [30, 35]

    two_seconds = acs_scenario([a], [b], options={"lost_action": "defensive_maneuver"})
    two_seconds["time_limit"] = 2
    script = [
        *_maneuver_script(45),
        d12(1),
        d12(1),
        d10(2),
        d10(7),
        d10(9),
        d10(10),  # second 2: A on 2 and 7, B on 9 and 10
        d100(10),  # A's free action misses
        d100(90),
        d100(45),  # A hits on 2; B's chance is 30 again: 45 fails
        d100(10),  # A on 7 misses
        d100(50),
        d100(50),  # B on 9 and 10
    ]
    combat, trace = scripted(two_seconds, script)
    assert [e.data["chance"] for e in trace if e.kind == "defense"] == [30, 50, 30]
    assert combat.fighters[1].hp == 9


def test_without_a_free_segment_left_there_is_no_maneuver_and_the_action_is_lost():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    data = acs_scenario([a], [b], options={"lost_action": "defensive_maneuver"})
    combat, trace = scripted(
        data,
        [
            d12(1),
            d12(1),
            d10(9),
            d10(9),
            d10(10),  # B on 9 and 10: nothing free after 9
            d100(10),
            d100(90),
            d100(10),  # segment 9: B defends and loses its segment-9 action
            d100(50),  # B acts on 10 only
        ],
    )
    assert not [e for e in trace if e.kind == "maneuver"]
    assert combat.fighters[1].actions_lost == 1


def test_the_default_maneuver_on_a_hybrid_is_its_own_defense_against_every_attack():
    # Target 10 on the ACS clock: B has one defensive action a segment. After its lost action
    # becomes a maneuver (clock default: on guard), the second attack of segment 3 meets its
    # Defend too; with slide it does not.
    def combatant(name, **stats):
        return {"name": name, "hp": 10, "hit_dice": 1, **stats}

    a1 = combatant("A1", ambition_bonus=10)
    a2 = combatant("A2", ambition_bonus=5)
    b = combatant("B")
    script = [
        d12(1),
        d12(1),
        d12(1),  # A1 11, A2 6, B 1
        d10(3),
        d10(3),
        d10(3),  # everyone on segment 3
        (1, 20),  # A1's free action misses
        (1, 20),  # segment 3: A1 misses; B defended (its action is lost)
        (1, 20),  # A2 misses
    ]
    defended = {}
    for lost_action in ("defensive_maneuver", "slide"):
        data = acs_scenario(
            [a1, a2], [b], options={"resolution": "target10", "lost_action": lost_action}
        )
        run = script if lost_action == "defensive_maneuver" else [*script, (1, 20)]
        _, trace = scripted(data, run)
        defended[lost_action] = [e.data["defend"] for e in trace if e.kind == "t10_attack"][:3]
    assert defended["defensive_maneuver"] == [True, True, True]
    assert defended["slide"] == [True, True, False]


# -- the "off" settings ---------------------------------------------------------------------------


def test_giant_dice_off_gives_a_giant_the_d10_of_everyone():
    giant = fighter("Giant", size="giant", **NEVER_HITS)
    man = fighter("Man", ambition_bonus=10, **NEVER_HITS)
    data = acs_scenario([giant], [man], options={"giant_dice": False})
    _, trace = scripted(
        data,
        [d12(1), d12(1), d10(2), d10(5), d100(50), d100(50), d100(50)],
    )
    # The giant's d10 shows 2: segment 2 (with giant_dice, a d4 could give 7..10 only).
    assert [(t, who) for t, _, who, _ in acts(trace)] == [(0, "Man"), (1, "Giant"), (4, "Man")]


def test_winner_free_action_off_means_no_extra_action_on_segment_1():
    data = acs_scenario(
        [fighter("A", ambition_bonus=10, **NEVER_HITS)],
        [fighter("B", **NEVER_HITS)],
        options={"winner_free_action": False},
    )
    combat, trace = scripted(data, [d12(1), d12(1), d10(4), d10(4), d100(50), d100(50)])
    assert acts(trace) == [(3, "act", "A", False), (3, "act", "B", False)]
    assert combat.fighters[0].actions_taken == 1


def test_defense_costs_action_off_keeps_the_defenders_action():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    data = acs_scenario([a], [b], options={"defense_costs_action": False})
    combat, trace = scripted(
        data,
        [
            d12(1),
            d12(1),
            d10(3),
            d10(3),
            d10(5),
            d100(10),
            d100(90),
            d100(10),  # segment 3: B defends and keeps its segment-3 action
            d100(50),
            d100(50),  # B on 3 and 5
        ],
    )
    assert not [e for e in trace if e.kind == "action_lost"]
    assert [(t, who) for t, _, who, _ in acts(trace) if who == "B"] == [(2, "B"), (4, "B")]
    assert combat.fighters[1].defenses == 1 and combat.fighters[1].actions_lost == 0


@pytest.mark.parametrize(("cap", "segments"), [(5, [3, 3]), (3, [3, 4])])
def test_simultaneous_concentration_caps_two_actions_on_one_segment(cap, segments):
    # Two actions of concentration 2 (4 in all) share segment 3 under the text's cap of 5, and
    # not under a cap of 3: the second die then slides to 4.
    b = fighter("B", actions=2, simultaneous_actions=True, concentration=2, **NEVER_HITS)
    data = acs_scenario(
        [fighter("A", ambition_bonus=10, **NEVER_HITS)],
        [b],
        options={"simultaneous_concentration": cap},
    )
    _, trace = scripted(data, [d12(1), d12(1), d10(9), d10(3), d10(3), *[d100(50)] * 4])
    ambition = {e.actor: e.data for e in trace if e.kind == "ambition"}
    assert ambition["B"]["segments"] == segments
    assert [t for t, _, who, _ in acts(trace) if who == "B"] == [s - 1 for s in segments]


# -- the ambition winner in the middle of a multi-segment action (RULINGS part A) ------------


def _busy_winner(begin_segment):
    a = fighter("A", ambition_bonus=10, **NEVER_HITS)
    b = fighter("B", actions=2, attack_segments=5, **NEVER_HITS)
    return acs_scenario([a], [b], time_limit=2), [
        d12(1),
        d12(1),  # second 1: A 11 wins
        d10(1),
        d10(begin_segment),
        d10(9),  # A on 1; B begins its 5-segment attack, its segment-9 slot spent on it
        d100(50),
        d100(50),  # A: free action and segment 1
        d12(1),
        d12(12),  # second 2: A 11; B 12 + 3 prepared = 15 wins
        d10(10),
        d10(1),
        d10(5),  # A on 10; B on 1 and 5
    ]


def test_a_busy_winner_spends_its_free_action_on_the_action_which_completes_a_segment_sooner():
    data, script = _busy_winner(8)  # begun at t=7: its last segment is segment 2 of second 2
    _, trace = scripted(data, [*script, d100(50), d100(50), d100(50)])
    assert [(e.actor, e.data["completes"]) for e in trace if e.kind == "hasten"] == [("B", False)]
    assert [(t, kind, who, free) for t, kind, who, free in acts(trace) if t >= 7] == [
        (7, "begin", "B", False),
        (10, "complete", "B", False),  # segment 1, not 2: the free action did one segment
        (14, "begin", "B", False),
        (18, "complete", "B", False),
        (19, "act", "A", False),
    ]


def test_a_busy_winner_whose_action_ends_on_segment_1_completes_it_as_the_free_action():
    data, script = _busy_winner(7)  # begun at t=6: its last segment is segment 1 of second 2
    _, trace = scripted(data, [*script, d100(50), d100(50), d100(50)])
    assert [(e.actor, e.data["completes"]) for e in trace if e.kind == "hasten"] == [("B", True)]
    assert [(t, kind, who, free) for t, kind, who, free in acts(trace) if t >= 6] == [
        (6, "begin", "B", False),
        (10, "complete", "B", True),  # before anyone, as the free action
        (10, "begin", "B", False),  # then its segment-1 action starts a new one
        (14, "complete", "B", False),
        (19, "act", "A", False),
    ]

    # Without the free action the old attack ends on segment 1 itself, the new one begins on 5.
    data["options"] = {"winner_free_action": False}
    _, trace = scripted(data, [*script[:5], d100(50), *script[7:], d100(50), d100(50), d100(50)])
    assert not [e for e in trace if e.kind == "hasten"]
    assert [(t, kind, who) for t, kind, who, _ in acts(trace) if t >= 6] == [
        (6, "begin", "B"),
        (10, "complete", "B"),
        (14, "begin", "B"),
        (18, "complete", "B"),
        (19, "act", "A"),
    ]


def test_percentile_stats_carry_the_scenarios_rules():
    data = acs_scenario(
        [fighter("A", attack_bonus=42)],
        [fighter("B")],
        options={"excess_over_100": "more_effect", "excess_per_damage": 4},
    )
    scenario = scenario_from_dict(data)
    model = scenario.combatants[0].stats
    stats = PERCENTILE.stats(model, scenario.options)
    assert stats.attack_bonus == 42
    assert stats.rules == PercentileRules(False, "more_effect", 4, 20)
    assert not stats.rules.reduction  # the excess goes to damage: the defense is not lowered


def test_the_prop3_hybrid_takes_the_default_maneuver_its_defense_against_every_attack():
    body = {"race": "rat", "vigor": 5, "agility": 5, "skills": {"bash": "average"}}
    data = acs_scenario(
        [{"name": "A", **body}],
        [{"name": "B", "actions": 2, **body}],
        options={"resolution": "prop3", "lost_action": "defensive_maneuver"},
    )
    scenario = scenario_from_dict(data)
    prepared = scenario.system.prepare(scenario)
    dice = Dice(1, 0)
    fighters = prepared.spawn(dice)
    combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s, None)
    clock = AcsClock(combat, prepared.options, prepared.resolution)
    b = fighters[1]
    assert clock.can_defend(b)
    clock.defended(b)
    assert clock.can_defend(b)
    clock.defended(b)  # both defensive actions of this segment used
    assert not clock.can_defend(b)
    assert clock._maneuver is on_guard  # Proposition Three brings no hook of its own
    clock._maneuver(clock, b)
    assert clock.can_defend(b)


def test_lost_action_gone_the_earlier_name_of_drop_still_reads_as_drop():
    for written, read in (("gone", "drop"), ("drop", "drop"), ("slide", "slide")):
        red, blue = [{"name": "a", "hp": 5}], [{"name": "b", "hp": 5}]
        data = acs_scenario(red, blue, options={"lost_action": written})
        assert scenario_from_dict(data).options.lost_action == read
