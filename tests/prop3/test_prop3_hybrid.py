"""Proposition Three resolution on the ACS clock (``rules: acs``, ``resolution: prop3``)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from sim import simulate
from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.acs.models import AcsTactics, AcsTiming
from sim.rules.prop3.hybrid import PROP3_RESOLUTION, HybridBody, HybridOptions
from sim.rules.prop3.models import HybridCombatant, HybridTactics
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.conftest import ROOT, SCENARIOS
from tests.prop3.scripted import d8, scripted

FIGHTER = {"vigor": 4, "agility": 4, "weapon": {"name": "sword"}, "armor": {"name": "jack"},
           "tactics": {"attack": "bash", "defense": "dodge"}}


def hybrid(a=None, b=None, options=None, time_limit=1):
    first = {**FIGHTER, "name": "A", **(a or {})}
    second = {**FIGHTER, "name": "B", **(b or {})}
    return {"name": "hybrid", "rules": "acs", "time_limit": time_limit,
            "options": {"resolution": "prop3", **(options or {})},
            "sides": [{"name": "red", "combatants": [first]},
                      {"name": "blue", "combatants": [second]}]}


# Ambition: A 12, B 1 (A wins, free action on segment 1); action dice: both on segment 5.
SECOND = [(12, 12), (1, 12), (5, 10), (5, 10)]
HIT = d8(1, 1, 3, 5) + d8(2, 4, 6, 8)


def test_registered_and_the_hybrid_scenario_runs():
    assert scenario_from_dict(hybrid()).options.resolution == "prop3"
    result = simulate(SCENARIOS / "p3-hybrid-duel.yaml", runs=100, seed=1)
    assert result.summary["runs"] == 100
    assert (result.outcomes["duration_s"] <= 60).all()


def test_attacks_are_prop3_exchanges_and_defenses_are_acs_defenses():
    # Free action: A's pair of 1s against B's dodge: a nick. Segment 5: A (first in ambition)
    # again: a second nick, a wound (Vigor 4 -> 3); the defense costs B its action on segment 5,
    # which slides to 6, where B attacks and fumbles (just a miss).
    faces = SECOND + HIT + HIT + d8(2, 4, 6) + [(6, 6)]
    combat, trace = scripted(hybrid(), faces)
    a, b = combat.fighters
    declares = [e for e in trace if e.kind == "declare"]
    # B is lower in ambition: it declares first whether it attacks or defends.
    assert [(e.actor, e.data["first"]) for e in declares] == [("A", "B"), ("A", "B"), ("B", "B")]
    assert [(e.actor, e.data["moved_to"]) for e in trace if e.kind == "action_lost"] == [("B", 6)]
    assert (b.hp, b.state.nicks, b.defenses, a.defenses) == (3, 0, 2, 0)
    assert [e.data["dice"] for e in trace if e.kind == "exchange"] == [4, 4, 3]  # B: Vigor 3


def test_a_target_without_a_defensive_action_is_undefended():
    faces = SECOND + d8(1, 1, 3, 5) + d8(1, 1, 3, 5) + d8(2, 4, 6) + [(6, 6)]
    combat, trace = scripted(hybrid(b={"tactics": {**FIGHTER["tactics"], "defend": "never"}}),
                             faces)
    _a, b = combat.fighters
    exchanges = [e for e in trace if e.kind == "exchange" and e.actor == "A"]
    assert all(e.data["d_faces"] is None for e in exchanges)
    assert b.defenses == 0 and b.hp == 3
    assert next(e.data["can_defend"] for e in trace if e.kind == "declare") is False


def test_a_counter_attack_defense_is_booked_on_the_clock():
    # A's free action fumbles (3): B counter-attacks at once; A's dodge is an ACS defense.
    faces = SECOND + d8(2, 4, 6, 8) + [(3, 6)] + HIT
    faces += [*d8(2, 4, 6, 8), (6, 6), *d8(2, 4, 6, 8), (6, 6)]  # segment 5: both just miss
    combat, trace = scripted(hybrid(), faces)
    a, b = combat.fighters
    assert [(e.actor, e.target) for e in trace if e.kind == "counter"] == [("B", "A")]
    assert a.defenses == 1 and a.state.nicks == 1 and b.attacks == 2


def test_hp_is_vigor_and_may_not_be_given():
    s = scenario_from_dict(hybrid(a={"vigor": 7}))
    assert s.combatants[0].stats.hp == 7
    with pytest.raises(ScenarioError, match="damage track is Vigor"):
        scenario_from_dict(hybrid(a={"hp": 20}))


def test_hybrid_options_come_with_the_clock_options():
    s = scenario_from_dict(hybrid(options={"keep": "best_set", "duplicates": "reroll"}))
    assert s.options.keep == "best_set" and s.options.duplicates == "reroll"
    # The range options of the round come too; the round's own (its length, initiative) do not:
    # the clock has round_seconds and ambition instead.
    s = scenario_from_dict(hybrid(options={"melee_range": 3, "start_distance": 10}))
    assert (s.options.melee_range, s.options.start_distance, s.options.aim_actions) == (3, 10, 1)
    for option in ("round_s", "initiative"):
        with pytest.raises(ScenarioError, match=option):
            scenario_from_dict(hybrid(options={option: "round" if option == "initiative" else 6}))


def test_begin_gives_every_fighter_its_body_in_one_fight_and_rolls_no_dice():
    scenario = scenario_from_dict(hybrid(a={"advantages": {"strength": 1}}))
    prepared = scenario.system.prepare(scenario)
    dice = Dice.from_faces([])  # any roll raises: the set-up must not draw from the stream
    combat = Combat(prepared.spawn(dice), scenario.side_names, dice, 60, None)
    # The hook reads only the combat and the merged options of the clock.
    clock = SimpleNamespace(combat=combat, resolution_options=scenario.options)
    PROP3_RESOLUTION.begin(clock)
    a, b = combat.fighters
    assert isinstance(a.state, HybridBody) and isinstance(b.state, HybridBody)
    assert a.state.fight is b.state.fight and a.state.fight.clock is clock
    assert a.state.profile is a.stats and a.state.points[0] == 2  # one Strength advantage
    assert (a.state.armed, a.state.nicks, b.state.exposed, b.state.shaken) == (True, 0, 0, 0)


def test_every_hybrid_option_and_its_own_stat_is_documented_with_its_default():
    # The ACS clock's options and timing fields are documented in acs.md; the hybrid's own (the
    # Proposition Three ones, aim_actions among them) in prop3.md, each default next to it.
    doc = (ROOT / "docs" / "rules" / "prop3.md").read_text(encoding="utf-8")
    for name, field in HybridOptions.model_fields.items():
        default = field.default
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert re.search(rf"`{name}`[^\n]*\(`?{re.escape(shown)}", doc), name
    own = set(HybridCombatant.model_fields) - set(AcsTiming.model_fields)
    own |= set(HybridTactics.model_fields) - set(AcsTactics.model_fields)
    assert {"missile", "speed", "aim", "min_shot_dice"} <= own
    assert not [name for name in sorted(own) if f"`{name}`" not in doc]
