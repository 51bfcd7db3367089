"""Exact event traces of the ACS clock with scripted dice (ACS text; RULINGS part A).

Each test scripts every roll in the order the rules make them: at the start of each second the
ambition d12 of everyone in scenario order, pure roll-offs, then each one's action dice; during
the second the attack d100, the defense d100 and any damage dice. A script that is not used up
exactly fails the test, so the traces below are the whole story of each combat.
"""

from __future__ import annotations

from tests.conftest import acs_scenario, scripted

NEVER_HITS = {"to_hit": 101}


def d12(face):
    return (face, 12)


def d10(face):
    return (face, 10)


def d100(face):
    return (face, 100)


def acts(trace, kinds=("act", "begin", "ready", "complete")):
    return [(e.t, e.kind, e.actor, e.data.get("free", False)) for e in trace if e.kind in kinds]


def fighter(name, **stats):
    return {"name": name, "hp": 10, "damage": 1, **stats}


def test_winner_acts_free_on_segment_1_and_order_follows_rolloffs_not_scenario_order():
    data = acs_scenario([fighter("A", **NEVER_HITS)], [fighter("B", **NEVER_HITS)])
    combat, trace = scripted(
        data,
        [
            d12(5),
            d12(5),  # ambition: A 5, B 5: a tie
            d12(3),
            d12(9),  # pure roll-offs: B wins and goes first among equals
            d10(4),
            d10(4),  # action dice: both on segment 4
            d100(50),  # B's free action on segment 1
            d100(50),
            d100(50),  # segment 4: B, then A
        ],
    )
    assert acts(trace) == [
        (0, "act", "B", True),
        (3, "act", "B", False),
        (3, "act", "A", False),
    ]
    ambition = {e.actor: e.data for e in trace if e.kind == "ambition"}
    assert ambition["B"]["winner"] and not ambition["A"]["winner"]
    assert ambition["A"]["rolloffs"] == [3] and ambition["B"]["rolloffs"] == [9]
    assert combat.end_reason == "time_limit" and combat.winner is None


def test_higher_ambition_total_goes_first_in_a_shared_segment():
    data = acs_scenario([fighter("A", **NEVER_HITS)], [fighter("B", **NEVER_HITS)])
    _, trace = scripted(
        data,
        [
            d12(2),
            d12(11),  # B wins outright
            d10(7),
            d10(7),
            d100(1),  # B's free action
            d100(1),
            d100(1),  # segment 7: B then A
        ],
    )
    assert [(t, a) for t, _, a, _ in acts(trace)] == [(0, "B"), (6, "B"), (6, "A")]


def test_defense_costs_the_untaken_action_which_slides_to_the_next_free_segment():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
        [
            d12(1),
            d12(1),  # A 11, B 1
            d10(3),
            d10(3),
            d10(5),  # A: segment 3; B: segments 3 and 5
            d100(10),  # A's free action misses
            d100(90),
            d100(10),  # segment 3: A hits, B defends: B's segment-3 action is lost
            d100(50),
            d100(50),  # B acts on segments 4 (slid) and 5
        ],
    )
    lost = [e for e in trace if e.kind == "action_lost"]
    assert [(e.actor, e.data["segment"], e.data["moved_to"]) for e in lost] == [("B", 3, 4)]
    assert [(t, who) for t, _, who, _ in acts(trace)] == [(0, "A"), (2, "A"), (3, "B"), (4, "B")]
    b_fighter = combat.fighters[1]
    assert (b_fighter.actions_moved, b_fighter.actions_lost, b_fighter.defenses) == (1, 0, 1)


def test_lost_action_with_no_free_segment_left_is_gone():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
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
    assert [(t, who) for t, _, who, _ in acts(trace)] == [(0, "A"), (8, "A"), (9, "B")]
    assert combat.fighters[1].actions_lost == 1
    assert combat.fighters[1].actions_moved == 0


def test_lost_action_option_drop_drops_it_even_with_free_segments():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, defense=30, **NEVER_HITS)
    data = acs_scenario([a], [b], options={"lost_action": "drop"})
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
            d100(10),
            d100(50),  # B acts on segment 5 only
        ],
    )
    assert [(t, who) for t, _, who, _ in acts(trace)] == [(0, "A"), (2, "A"), (4, "B")]
    assert combat.fighters[1].actions_lost == 1


def test_defense_after_acting_in_the_segment_costs_nothing():
    a = fighter("A", to_hit=50)
    b = fighter("B", ambition_bonus=10, defense=30, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
        [
            d12(1),
            d12(1),  # B wins
            d10(4),
            d10(4),
            d100(50),  # B's free action
            d100(50),  # segment 4: B acts first
            d100(90),
            d100(10),  # then A hits and B defends: B's action was already taken
        ],
    )
    assert not [e for e in trace if e.kind == "action_lost"]
    assert combat.fighters[1].actions_taken == 2


def test_defense_during_a_multi_segment_action_disrupts_it_and_it_starts_over():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", actions=2, attack_segments=3, defense=30, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
        [
            d12(1),
            d12(1),
            d10(3),
            d10(2),
            d10(6),  # A on 3; B on 2 and 6
            d100(10),  # A's free action
            d100(90),
            d100(10),  # segment 3: A hits B mid-action, B defends: disrupted
            d100(50),  # B starts again on 6 and completes on 8: its attack roll
        ],
    )
    events = [
        (e.t, e.kind, e.actor) for e in trace if e.kind in ("begin", "disrupted", "act", "complete")
    ]
    assert events == [
        (0, "act", "A"),
        (1, "begin", "B"),
        (2, "act", "A"),
        (2, "disrupted", "B"),
        (5, "begin", "B"),
        (7, "complete", "B"),
    ]
    assert combat.fighters[1].actions_disrupted == 1


def test_long_action_spans_seconds_spends_its_slots_and_gives_prepared_ambition():
    a = fighter("A", ambition_bonus=10, **NEVER_HITS)
    b = fighter("B", actions=2, attack_segments=5, **NEVER_HITS)
    _combat, trace = scripted(
        acs_scenario([a], [b], time_limit=2),
        [
            d12(1),
            d12(1),
            d10(1),
            d10(8),
            d10(9),  # second 1: A on 1; B on 8 and 9
            d100(50),
            d100(50),  # A: free action, then segment 1
            # B begins on 8 (t=7), busy to t=11; its segment-9 slot is spent on it.
            d12(1),
            d12(1),  # second 2: A 11; B 1 + 3 prepared = 4
            d10(10),
            d10(1),
            d10(5),  # A on 10; B on 1 (spent: still busy) and 5
            d100(50),  # A's free action (t=10)
            d100(50),  # B's attack completes on segment 2 (t=11)
            # B begins again on 5 (t=14) and completes on 9 (t=18)
            d100(50),  # B's second attack
            d100(50),  # A on segment 10
        ],
    )
    assert [(t, kind, who) for t, kind, who, _ in acts(trace)] == [
        (0, "act", "A"),
        (0, "act", "A"),
        (7, "begin", "B"),
        (10, "act", "A"),
        (11, "complete", "B"),
        (14, "begin", "B"),
        (18, "complete", "B"),
        (19, "act", "A"),
    ]
    second_two = [e.data for e in trace if e.kind == "ambition" and e.data["second"] == 2]
    b_ambition = next(
        d for d in second_two if d["bonus"] == 0 and d["roll"] == 1 and d["total"] == 4
    )
    assert b_ambition["prepared"] is True
    assert b_ambition["segments"] == [5]


def test_ambition_winner_gets_an_extra_defense_each_segment():
    a1 = fighter("A1", to_hit=1)
    a2 = fighter("A2", to_hit=1)
    b = fighter("B", ambition_bonus=10, defense=100, **NEVER_HITS)
    script = [
        d12(1),
        d12(2),
        d12(1),  # A1 1, A2 2, B 11: order B, A2, A1
        d10(5),
        d10(5),
        d10(9),
        d100(50),  # B's free action (target: A1, first of equals)
        d100(50),
        d100(50),  # segment 5: A2 hits, B defends (1st defense)
        d100(50),
        d100(50),  # A1 hits, B defends (2nd: the winner's extra one)
        d100(50),  # B on segment 9
    ]
    combat, trace = scripted(acs_scenario([a1, a2], [b]), script)
    assert [e.actor for e in trace if e.kind == "defense"] == ["B", "B"]
    assert combat.fighters[2].hp == 10

    without = acs_scenario([a1, a2], [b], options={"winner_extra_defense": False})
    script_without = [*script[:9], d100(50), d100(50)]  # A1's hit: 1 damage; B on 9
    combat, trace = scripted(without, script_without)
    assert [e.actor for e in trace if e.kind == "defense"] == ["B"]
    assert combat.fighters[2].hp == 9


def test_defend_never_rolls_no_defense_and_keeps_its_action():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", tactics={"defend": "never"}, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
        [
            d12(1),
            d12(1),
            d10(3),
            d10(3),
            d100(10),
            d100(90),  # A hits; B does not defend: 1 damage
            d100(50),  # B still acts on segment 3
        ],
    )
    assert not [e for e in trace if e.kind == "defense"]
    assert combat.fighters[1].hp == 9
    assert [(t, who) for t, _, who, _ in acts(trace)] == [(0, "A"), (2, "A"), (2, "B")]


def test_keep_actions_defends_only_when_it_costs_no_action():
    a = fighter("A", ambition_bonus=10, to_hit=50)
    b = fighter("B", defense=30, tactics={"defend": "keep_actions"}, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b]),
        [
            d12(1),
            d12(1),
            d10(3),
            d10(3),
            d100(90),
            d100(10),  # free action on segment 1 hits: B has no action there: defends
            d100(90),  # segment 3: defending would cost B's action: it takes the hit
            d100(50),
        ],
    )
    assert [e.t for e in trace if e.kind == "defense"] == [0]
    assert combat.fighters[1].hp == 9


def test_prepared_at_the_start_gives_plus_three_and_ready_last_action_prepares_next_second():
    a = fighter("A", prepared=True, **NEVER_HITS)
    b = fighter("B", tactics={"ready_last_action": True}, **NEVER_HITS)
    _, trace = scripted(
        acs_scenario([a], [b], time_limit=2),
        [
            d12(5),
            d12(7),  # A 5 + 3 = 8 beats B 7
            d10(2),
            d10(6),
            d100(50),
            d100(50),  # A free, A on 2; B readies on 6 (its last action)
            d12(5),
            d12(7),  # second 2: A 5, B 7 + 3 = 10 wins
            d10(2),
            d10(6),
            d100(50),  # B's free action attacks
            d100(50),  # A on 2; B readies again on 6
        ],
    )
    totals = [
        (e.data["second"], e.actor, e.data["total"], e.data["winner"])
        for e in trace
        if e.kind == "ambition"
    ]
    assert totals == [(1, "A", 8, True), (1, "B", 7, False), (2, "A", 5, False), (2, "B", 10, True)]
    assert [(t, kind, who) for t, kind, who, _ in acts(trace)] == [
        (0, "act", "A"),
        (1, "act", "A"),
        (5, "ready", "B"),
        (10, "act", "B"),
        (11, "act", "A"),
        (15, "ready", "B"),
    ]


def test_giant_acts_late_but_wins_segment_1_with_ambition():
    giant = fighter("Giant", size="giant", ambition_bonus=10, **NEVER_HITS)
    man = fighter("Man", **NEVER_HITS)
    _, trace = scripted(
        acs_scenario([giant], [man]),
        [
            d12(1),
            d12(1),
            (2, 4),
            d10(1),  # giant's d4 shows 2: segment 8; the man on 1
            d100(50),  # the giant's free action on segment 1, before the man
            d100(50),  # the man on 1
            d100(50),  # the giant on 8
        ],
    )
    assert [(t, who, free) for t, _, who, free in acts(trace)] == [
        (0, "Giant", True),
        (0, "Man", False),
        (7, "Giant", False),
    ]


def test_a_kill_ends_the_fight_at_once():
    a = fighter("A", ambition_bonus=10, to_hit=1, damage=10)
    b = fighter("B", defense=0, **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([a], [b], time_limit=5),
        [
            d12(1),
            d12(1),
            d10(4),
            d10(2),
            d100(50),
            d100(100),  # free action hits; B's defense roll of 100 fails
        ],
    )
    assert combat.end_reason == "victory"
    assert combat.side_names[combat.winner] == "red"
    assert combat.duration_s == 0.1
    assert combat.fighters[1].out == "down"
    assert [e.kind for e in trace][-2:] == ["out", "end"]
