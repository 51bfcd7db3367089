"""The seven movements, each with scripted dice that a wrong reading would not survive."""

from __future__ import annotations

from tests.target10.t10_helpers import d6, d20, man, of, run, t10


def test_advance_moves_3_paces_and_stops_within_reach():
    data = t10([man("A", "advance")], [man("B", action="none")], options={"start_distance": 10})
    _, trace, f = run(data, d6(3, 1))
    assert f["A"].pos == 3 and f["B"].pos == 10
    assert not of(trace, "attack") and of(trace, "no_attack")[0].data["why"] == "out of reach"
    data = t10([man("A", "advance")], [man("B", action="none")], options={"start_distance": 2})
    _, trace, f = run(data, d6(3, 1) + d20(1))
    assert f["A"].pos == 1 and len(of(trace, "attack")) == 1


def test_charge_triple_speed_double_str_no_dex_to_defense():
    data = t10([man("A", "charge", strength=14, dexterity=14)], [man("B", dexterity=14)],
               options={"start_distance": 25})
    # A: init 6+2 first; charges 24 paces (stops within reach 1, not the full 30) and attacks
    # with FIGHT 1+2+2 = 5 against DEFENSE 3: +2. B hits back at the charger's DEFENSE 3-2 = 1.
    _, trace, _f = run(data, d6(6, 1) + d20(1, 1))
    moves = of(trace, "move", "A")
    assert (moves[0].data["start"], moves[0].data["end"]) == (0, 24)
    assert [(e.actor, e.data["modifier"]) for e in of(trace, "attack")] == [("A", 2), ("B", 0)]


def test_charge_covers_30_paces_at_most():
    data = t10([man("A", "charge")], [man("B", action="none")], options={"start_distance": 50})
    _, _, f = run(data, d6(6, 1))
    assert f["A"].pos == 30


def test_flee_back_turned_auto_hit_then_fled_when_out_of_reach():
    data = t10([man("A", "flee")], [man("B")], time_limit=600)
    # Round 1: B first; its attack on the fleeing A succeeds without a d20 (damage 3); A runs
    # 30 paces to -30, still within B's charge (30) + reach (1). Round 2: A runs to -60: fled.
    combat, trace, f = run(data, d6(1, 6) + d6(3) + d6(1, 6))
    attack = of(trace, "attack")[0]
    assert attack.data["auto"] and attack.data["hit"]
    assert f["A"].hp == 7 and f["A"].pos == -60 and f["A"].out == "fled"
    assert combat.side_names[combat.winner] == "blue" and combat.duration_s == 120


def test_flee_escape_options():
    data = t10([man("A", "flee")], [man("B")], options={"escape": "end_of_round"})
    combat, _, f = run(data, d6(6, 1))
    assert f["A"].out == "fled" and combat.duration_s == 60
    data = t10([man("A", "flee")], [man("B")], options={"escape": "on_move"})
    combat, trace, f = run(data, d6(6, 1))
    assert f["A"].out == "fled" and not of(trace, "attack")


def test_a_fled_fighter_never_acts_again():
    data = t10([man("A", "flee"), man("C", action="none", hp=50)], [man("B")],
               options={"escape": "end_of_round"}, time_limit=120)
    _combat, trace, f = run(data, d6(1, 2, 6) + d6(1) + d6(2, 6) + d20(1))
    assert f["A"].out == "fled"
    gone = next(i for i, e in enumerate(trace) if e.kind == "out" and e.actor == "A")
    assert not [e for e in trace[gone + 1:] if e.actor == "A"]
    assert of(trace, "attack")[-1].target == "C"


def test_hold_stays_put_and_maneuver_pushes_without_damage():
    data = t10([man("A", "maneuver")], [man("B", action="none")])
    _, trace, f = run(data, d6(6, 1) + d20(20))  # no damage die: a wrong reading runs out
    assert f["B"].hp == 10 and f["B"].pos == 4 and f["A"].pos == 0
    assert of(trace, "effect")[0].data["effect"] == "push"
    assert not of(trace, "move")


def test_maneuver_pushes_toward_and_gains_the_high_ground():
    data = t10([man("A", "maneuver", weapon={"reach": 5}, tactics={
        "declare": {"movement": "maneuver", "action": "kill"}, "push": "toward"})],
        [man("B", action="none")], options={"start_distance": 3, "maneuver_bonus": 1},
        time_limit=120)
    _, trace, f = run(data, d6(6, 1) + d20(20) + d6(6, 1) + d20(1))
    assert f["B"].pos == 0
    assert [e.data["modifier"] for e in of(trace, "attack")] == [0, 1]


def test_stand_fails_while_attacked():
    lying = man("A", "stand", "defend", on_ground=True)
    # B declared a Kill on A and is in reach: A stays down; B's attack: FIGHT 1 vs DEFENSE
    # 1 + Defend 1 = -1, +2 for a target on the ground.
    _, trace, f = run(t10([lying], [man("B")]), d6(6, 1) + d20(1))
    assert f["A"].on_ground and not of(trace, "stand")[0].data["success"]
    assert of(trace, "attack")[0].data["modifier"] == 1
    # Nobody in reach: A gets up.
    _, trace, f = run(t10([lying], [man("B")], options={"start_distance": 5}), d6(6, 1))
    assert not f["A"].on_ground and of(trace, "stand")[0].data["success"]


def test_stand_blocked_by_attacked_only():
    lying = man("A", "stand", "defend", on_ground=True)
    options = {"stand_blocked_by": "attacked"}
    _, trace, f = run(t10([lying], [man("B")], options=options), d6(6, 1) + d20(1))
    assert not f["A"].on_ground and of(trace, "attack")[0].data["modifier"] == -1
    _, trace, f = run(t10([lying], [man("B")], options=options), d6(1, 6) + d20(1))
    assert f["A"].on_ground


def test_withdraw_attacks_only_an_advancing_opponent_then_steps_back():
    _, trace, f = run(t10([man("A", "withdraw")], [man("B", action="none")]), d6(6, 1))
    assert f["A"].pos == -3 and not of(trace, "attack")
    # B advances (already in reach) and strikes first; A strikes back from where it stood,
    # then steps back 3 paces.
    _, trace, f = run(t10([man("A", "withdraw")], [man("B", "advance")]), d6(1, 6) + d20(1, 1))
    assert [e.actor for e in of(trace, "attack")] == ["B", "A"]
    assert f["A"].pos == -3
    _, trace, _ = run(t10([man("A", "withdraw")], [man("B", "hold")]), d6(1, 6) + d20(1))
    assert [e.actor for e in of(trace, "attack")] == ["B"]


def test_attacks_on_a_fleer_if_after_only_when_it_acts_later():
    # B shoots (range 100, SHOOT 1 vs DEFENSE 1): A flees 30 paces first (init 6 > 1), so under
    # if_after B's shot is rolled; under always it succeeds without a d20.
    b = man("B", ranged={"range": 100})
    data = t10([man("A", "flee", "none")], [b], options={"flee_auto_hit": "if_after"})
    _, trace, _ = run(data, d6(6, 1) + d20(1))
    assert not of(trace, "attack")[0].data["auto"] and not of(trace, "attack")[0].data["hit"]
    # A acts after B (init 1 < 6): automatic.
    _, trace, _ = run(data, d6(1, 6) + d6(2))
    assert of(trace, "attack")[0].data["auto"]
    # Equal initiative is simultaneous, not after: rolled.
    _, trace, _ = run(data, d6(3, 3) + d20(1))
    assert not of(trace, "attack")[0].data["auto"]
    data["options"]["flee_auto_hit"] = "always"
    _, trace, _ = run(data, d6(6, 1) + d6(2))
    assert of(trace, "attack")[0].data["auto"]
    data["options"]["flee_auto_hit"] = True  # the old yes/no spelling still reads
    _, trace, _ = run(data, d6(6, 1) + d6(2))
    assert of(trace, "attack")[0].data["auto"]


def test_a_fleer_may_act_unless_fleer_acts_is_false():
    # A flees 30 paces and shoots back at B (in range 100) with its declared Kill.
    a = man("A", "flee", "kill", ranged={"range": 100})
    data = t10([a], [man("B", action="none")])
    _, trace, _ = run(data, d6(6, 1) + d20(20) + d6(2))
    assert [e.actor for e in of(trace, "attack")] == ["A"]
    assert of(trace, "declare", "A")[0].data["action"] == "kill"
    data["options"]["fleer_acts"] = False
    _, trace, _ = run(data, d6(6, 1))
    assert not of(trace, "attack") and of(trace, "declare", "A")[0].data["action"] == "none"


def test_a_maneuvering_trip_pushes_and_knocks_down():
    # The text takes away only the damage: a maneuvering Trip still trips (the default).
    data = t10([man("A", "maneuver", "trip")], [man("B", action="none")])
    _, trace, f = run(data, d6(6, 1) + d20(20))
    assert f["B"].pos == 4 and f["B"].on_ground
    assert [e.data["effect"] for e in of(trace, "effect")] == ["trip", "push"]
    data["options"]["maneuver_keeps_action"] = False
    _, trace, f = run(data, d6(6, 1) + d20(20))
    assert f["B"].pos == 4 and not f["B"].on_ground
    assert [e.data["effect"] for e in of(trace, "effect")] == ["push"]


def test_a_maneuvering_grapple_pins_only_if_the_push_keeps_them_together():
    toward = {"declare": {"movement": "maneuver", "action": "grapple"}, "push": "toward"}
    data = t10([man("A", tactics=toward)], [man("B", action="none")],
               options={"start_distance": 1})
    _, _, f = run(data, d6(6, 1) + d20(20))
    assert f["B"].pos == 0 and f["B"].pinned_by is f["A"]
    away = {"declare": {"movement": "maneuver", "action": "grapple"}}
    _, _, f = run(t10([man("A", tactics=away)], [man("B", action="none")]), d6(6, 1) + d20(20))
    assert f["B"].pos == 4 and f["B"].pinned_by is None
