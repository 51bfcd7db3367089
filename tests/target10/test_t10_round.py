"""The round: initiative order, simultaneous steps, the end of the fight, tracing."""

from __future__ import annotations

import copy

from benchmarks.bare_target10 import play_bare
from sim.run.records import DRAW, combat_record, combatant_records
from sim.run.runner import play, run_chunk
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS
from tests.target10.t10_helpers import d6, d20, man, of, run, t10


def test_equal_initiative_is_simultaneous_mutual_kill():
    combat, trace, f = run(t10([man("A", hp=1)], [man("B", hp=1)]),
                           d6(3, 3) + d20(20) + d6(2) + d20(20) + d6(2))
    assert f["A"].out == f["B"].out == "dead"
    assert combat.end_reason == "mutual" and combat.winner is None and combat.duration_s == 60
    assert len(of(trace, "attack")) == 2


def test_higher_initiative_first_and_the_dead_do_not_strike_back():
    combat, trace, f = run(t10([man("A", hp=1)], [man("B", hp=1)]), d6(3, 4) + d20(20) + d6(2))
    assert [e.actor for e in of(trace, "attack")] == ["B"]
    assert f["A"].out == "dead" and f["B"].out is None
    assert combat.side_names[combat.winner] == "blue"


def test_dex_bonus_orders_the_round():
    _, trace, _ = run(t10([man("A", dexterity=18, hp=30)], [man("B", hp=30)]),
                      d6(1, 4) + d20(1, 1))
    assert [e.data["total"] for e in of(trace, "initiative")] == [5, 4]
    assert [e.actor for e in of(trace, "attack")] == ["A", "B"]


def test_simultaneous_attacks_read_the_state_before_the_step():
    # A trips B while B trips A at the same initiative: neither attack sees the other's trip.
    _, trace, f = run(t10([man("A", action="trip")], [man("B", action="trip")]),
                      d6(2, 2) + d20(20, 20))
    assert [e.data["modifier"] for e in of(trace, "attack")] == [0, 0]
    assert f["A"].on_ground and f["B"].on_ground


def test_mutual_kills_happen_in_the_reference_duel():
    scenario = load_scenario(SCENARIOS / "t10-cole-vs-francois.yaml")
    chunk = run_chunk(scenario, 1, 0, 2000)
    ends = [r[3] for r in chunk.records]
    assert ends.count("mutual") > 0
    assert all(r[2] == DRAW for r in chunk.records if r[3] == "mutual")
    assert all(r[4] % 60 == 0 for r in chunk.records)


def test_time_limit_is_a_draw_at_the_limit():
    data = t10([man("A")], [man("B")], options={"start_distance": 10}, time_limit=120)
    combat, _, _ = run(data, d6(1, 2, 3, 4))
    assert combat.end_reason == "time_limit" and combat.duration_s == 120


def test_out_at_is_the_end_of_the_round():
    combat, _, _ = run(t10([man("A")], [man("B", action="none", hp=1)], time_limit=600),
                       d6(1, 1) + d20(20) + d6(2))
    rows = combatant_records(combat, 0, 0)
    assert rows[1][6:8] == ("dead", 60.0)


def test_tracing_a_combat_does_not_change_its_results():
    base = load_scenario(SCENARIOS / "t10-cole-vs-francois.yaml").data
    variants = [base]
    lucky = copy.deepcopy(base)
    for side in lucky["sides"]:
        side["combatants"][0]["skill_level"] = "low"
    subdue = copy.deepcopy(base)
    subdue["sides"][0]["combatants"][0]["tactics"]["declare"]["action"] = "subdue"
    # Luck spent to hit (both readings of a finishing blow, and a chance threshold) and cover
    # counted in melee.
    to_hit = copy.deepcopy(lucky)
    for side, when in zip(to_hit["sides"], ("when_hit_may_take_out", {"below_chance": 0.5}),
                          strict=True):
        side["combatants"][0]["tactics"]["luck_to_succeed"] = when
    covered = copy.deepcopy(base)
    covered["options"] = {"cover_against": "all"}
    covered["sides"][1]["combatants"][0]["cover"] = 2
    variants += [lucky, subdue, to_hit, covered]
    for data in variants:
        scenario = scenario_from_dict(data)
        prepared = scenario.system.prepare(scenario)
        for k in range(300):
            untraced = play(scenario, prepared, 4, k)
            traced = play(scenario, prepared, 4, k, trace=[])
            assert combat_record(untraced, k, 4) == combat_record(traced, k, 4)
            assert combatant_records(untraced, k, 4) == combatant_records(traced, k, 4)
            assert [f.luck for f in untraced.fighters] == [f.luck for f in traced.fighters]
        if data is to_hit:
            spent = sum(3 - f.luck for k in range(300) for f in play(scenario, prepared, 4, k)
                        .fighters)
            assert spent > 100  # the luck-to-hit variant does spend its points


def test_the_bare_benchmark_plays_the_same_duel():
    scenario = load_scenario(SCENARIOS / "t10-cole-vs-francois.yaml")
    prepared = scenario.system.prepare(scenario)
    for k in range(500):
        combat = play(scenario, prepared, 1, k)
        winner = scenario.side_names[combat.winner] if combat.winner is not None else DRAW
        assert play_bare(1, k) == (winner, combat.duration_s)


def _all_subdue(n: int) -> dict:
    side = [man(f"x{i}", action="subdue", hp="1d6") for i in range(n)]
    other = [man(f"y{i}", action="subdue", hp="1d6", strength=16) for i in range(n)]
    return t10(side, other, time_limit=3600)


def test_subdue_never_takes_hit_points_below_zero():
    scenario = scenario_from_dict(_all_subdue(3))
    prepared = scenario.system.prepare(scenario)
    for k in range(300):
        combat = play(scenario, prepared, 2, k)
        assert all(f.hp >= 0 for f in combat.fighters)
        assert all(f.out in (None, "unconscious") for f in combat.fighters)


def test_in_the_skirmish_the_fled_never_act_and_nobody_acts_while_out():
    from sim.run.runner import trace_combat

    scenario = load_scenario(SCENARIOS / "t10-skirmish.yaml")
    fled = 0
    for k in range(150):
        _, trace = trace_combat(scenario, 1, k)
        out: dict[str, str] = {}
        for event in trace:
            if event.kind == "out":
                out[event.actor] = event.data["how"]
                fled += event.data["how"] == "fled"
            elif event.kind == "wake":
                out.pop(event.actor, None)
            elif event.kind in ("declare", "initiative", "attack", "move", "negotiate"):
                assert event.actor not in out, (k, event)
    assert fled > 0
