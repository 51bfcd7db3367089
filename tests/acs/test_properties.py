"""Invariants of the ACS clock over random scenarios (Hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.rules.acs.action_dice import action_die
from sim.run.runner import trace_combat
from sim.scenario.loader import scenario_from_dict

combatant = st.fixed_dictionaries(
    {
        "hp": st.integers(1, 30),
        "actions": st.integers(1, 6),
        "ambition_bonus": st.integers(-3, 6),
        "size": st.sampled_from(["normal", "giant"]),
        "attack_segments": st.integers(1, 4),
        "to_hit": st.integers(1, 150),
        "attack_bonus": st.integers(0, 40),
        "defense": st.integers(0, 100),
        "damage": st.sampled_from(["1d4", "1d6+1", "2d6", "1"]),
        "simultaneous_actions": st.booleans(),
        "special_actions": st.lists(
            st.fixed_dictionaries(
                {
                    "name": st.sampled_from(["bolt", "mend", "bless"]),
                    "effect": st.sampled_from(["attack", "damage", "heal", "modifier"]),
                    "segments": st.integers(1, 4),
                    "targets": st.integers(1, 3),
                    "amount": st.sampled_from(["1d4", "2d6", "3"]),
                    "to": st.sampled_from(["self", "allies", "enemies"]),
                    "attack_bonus": st.integers(-30, 60),
                    "defense_bonus": st.integers(-40, 40),
                    "when": st.sampled_from(["always", "wounded_ally"]),
                    "min_enemies": st.integers(1, 3),
                    "uses": st.one_of(st.none(), st.integers(1, 3)),
                }
            ),
            max_size=2,
        ),
        "tactics": st.fixed_dictionaries(
            {
                "target": st.sampled_from(["random", "weakest", "strongest", "focus"]),
                "defend": st.sampled_from(["always", "never", "keep_actions"]),
                "ready_last_action": st.booleans(),
            }
        ),
    }
)

options = st.fixed_dictionaries(
    {
        "duplicates": st.sampled_from(["slide", "reroll"]),
        "lost_action": st.sampled_from(["slide", "defensive_maneuver", "drop"]),
        "tie_break": st.sampled_from(["pure_ambition", "ambition_bonus"]),
        "disruption": st.booleans(),
        "excess_over_100": st.sampled_from(["lower_defense", "more_effect", "attacker_chooses"]),
        "excess_per_damage": st.integers(1, 20),
        "maneuver_bonus": st.integers(0, 50),
    }
)


@st.composite
def scenarios(draw):
    n_sides = draw(st.integers(2, 3))
    sides = []
    for s in range(n_sides):
        members = draw(st.lists(combatant, min_size=1, max_size=3))
        sides.append(
            {
                "name": f"side{s}",
                "combatants": [{"name": f"c{s}_{i}", **m} for i, m in enumerate(members)],
            }
        )
    return {
        "name": "property",
        "rules": "acs",
        "options": draw(options),
        "time_limit": draw(st.sampled_from([3, 10, 30])),
        "sides": sides,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=scenarios(), seed=st.integers(0, 2**32), combat=st.integers(0, 1000))
def test_clock_invariants(data, seed, combat):
    scenario = scenario_from_dict(data)
    stats = {spec.name: spec.stats for spec in scenario.combatants}
    result, trace = trace_combat(scenario, seed, combat)

    # A combat always ends, within its time limit.
    assert result.end_reason in ("victory", "mutual", "time_limit")
    assert 0 < result.duration_s <= scenario.time_limit_s + 1e-9

    # Action segments stay in 1..10 and in the range of the combatant's die.
    for event in trace:
        if event.kind == "ambition":
            s = stats[event.actor]
            die = action_die(s.actions, s.size == "giant")
            assert all(die.first_segment <= seg <= 10 for seg in event.data["segments"])
            assert all(1 <= face <= die.sides for face in event.data["faces"])

    # One action per segment per combatant, unless it has simultaneous actions (then two).
    per_segment = Counter(
        (int(e.t), e.actor)
        for e in trace
        if e.kind in ("act", "begin", "ready") and not e.data.get("free")
    )
    for (_, who), count in per_segment.items():
        assert count <= (2 if stats[who].simultaneous_actions else 1)

    # Hit points rise only by a heal, and never above the start.
    last_hp = {}
    for event in trace:
        if event.data.get("effect") == "heal":
            assert event.data["amount"] >= 0
            assert event.data["hp"] <= stats[event.target].hp  # hit points are numbers here
            last_hp[event.target] = event.data["hp"]
        if event.kind == "damage":
            assert event.data["amount"] > 0
            assert event.data["hp"] < last_hp.get(event.target, 10**9)
            last_hp[event.target] = event.data["hp"]
    for fighter in result.fighters:
        assert fighter.hp <= fighter.max_hp
        assert (fighter.out is None) == (fighter.hp > 0)

    # A winner, if any, is the only side with anyone standing.
    standing = {f.side for f in result.fighters if f.out is None}
    if result.end_reason == "victory":
        assert standing == {result.winner}
    elif result.end_reason == "mutual":
        assert standing == set()
    else:
        assert len(standing) >= 2
