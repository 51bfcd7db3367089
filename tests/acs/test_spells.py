"""Spells and maneuvers: named actions on the ACS clock, with scripted dice.

ACS "Action disruption": "If a subject is interrupted, attacked, amidst a maneuver, or while
invoking a spell-or similar type of action, that action can be disrupted, and may have to be
started again. Typically this only happens if the subject has to make a defense during the
process." The effects are combatsim's (``docs/rules/acs.md``, "Spells and maneuvers").
"""

from __future__ import annotations

import pytest

from sim.rules.acs.spells import UNLIMITED, Special, healed, usable, wounded
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.acs.test_clock_trace import NEVER_HITS, acts, d10, d12, d100, fighter
from tests.conftest import acs_scenario, scripted

FIREBALL = {
    "name": "fireball",
    "effect": "damage",
    "segments": 4,
    "targets": 3,
    "amount": "2d6",
    "min_enemies": 2,
}


def d6(face):
    return (face, 6)


def _special(**fields):
    base = {
        "index": 0,
        "name": "x",
        "effect": "damage",
        "segments": 1,
        "targets": 1,
        "amount": None,
        "to": "allies",
        "attack_bonus": 0,
        "defense_bonus": 0,
        "wounded_only": False,
        "min_enemies": 1,
        "uses": UNLIMITED,
        "aimed": True,
    }
    return Special(**{**base, **fields})


def test_usable_follows_uses_enemies_and_wounds():
    fireball = _special(min_enemies=2)
    assert usable(fireball, UNLIMITED, 2, False, False)
    assert not usable(fireball, UNLIMITED, 1, False, False)
    assert not usable(fireball, 0, 3, False, False)
    assert usable(fireball, 1, 3, False, False)
    heal = _special(effect="heal", wounded_only=True, aimed=False)
    assert not usable(heal, UNLIMITED, 1, True, False)  # hurt, but nobody at half
    assert usable(heal, UNLIMITED, 1, True, True)
    assert not usable(_special(effect="heal", aimed=False), UNLIMITED, 1, False, False)


def test_wounded_is_half_or_below_and_a_heal_never_passes_the_starting_hit_points():
    assert wounded(5, 10) and not wounded(6, 10) and wounded(0, 7)
    assert healed(2, 8, 6) == 6
    assert healed(5, 8, 6) == 3
    assert healed(8, 8, 4) == 0


def _raiders(**stats):
    return [fighter(f"E{i}", ambition_bonus=i - 1, **NEVER_HITS, **stats) for i in (1, 2, 3)]


def test_an_area_spell_takes_four_segments_and_strikes_three_enemies_with_one_roll():
    caster = fighter("C", ambition_bonus=10, special_actions=[FIREBALL], **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([caster], _raiders()),
        [
            d12(1),
            d12(1),
            d12(1),
            d12(1),  # C 11, E1 1, E2 2, E3 3
            d10(2),  # C on 2: inside its spell, spent on it
            d10(10),
            d10(10),
            d10(10),
            d6(3),
            d6(4),  # the fireball completes on segment 4: 7 damage to each
            d100(50),
            d100(50),
            d100(50),  # the raiders on 10
        ],
    )
    assert [(t, kind, who) for t, kind, who, _ in acts(trace) if who == "C"] == [
        (0, "begin", "C"),
        (3, "complete", "C"),
    ]
    done = next(e for e in trace if e.kind == "complete")
    assert done.data["action"] == "fireball" and done.data["struck"] == ["E1", "E2", "E3"]
    assert [f.hp for f in combat.fighters[1:]] == [3, 3, 3]
    assert combat.fighters[0].damage_dealt == 21


def test_a_defense_disrupts_a_spell_which_starts_over_and_is_not_spent():
    fireball = {**FIREBALL, "uses": 1}
    caster = fighter("C", ambition_bonus=10, actions=2, defense=30, special_actions=[fireball])
    caster.update(NEVER_HITS)
    raiders = _raiders()
    raiders[0]["to_hit"] = 50
    combat, trace = scripted(
        acs_scenario([caster], raiders),
        [
            d12(1),
            d12(1),
            d12(1),
            d12(1),
            d10(6),
            d10(8),  # C on 6 and 8
            d10(2),  # E1 on 2
            d10(10),
            d10(10),
            d100(90),
            d100(10),  # segment 2: E1 hits C mid-spell, C defends: disrupted
            # C begins again on 6 (its segment-8 slot is spent on it), completes on 9
            d6(1),
            d6(1),
            d100(50),
            d100(50),  # E3, E2 on 10
        ],
    )
    events = [(e.t, e.kind, e.actor) for e in trace if e.kind in ("begin", "disrupted", "complete")]
    assert events == [
        (0, "begin", "C"),
        (1, "disrupted", "C"),
        (5, "begin", "C"),
        (8, "complete", "C"),
    ]
    assert [f.hp for f in combat.fighters[1:]] == [8, 8, 8]
    assert combat.fighters[0].actions_disrupted == 1
    assert combat.fighters[0].uses_left == [0]


def test_an_area_spell_waits_for_enough_enemies_and_its_uses():
    # Two uses, at least two enemies: the caster's third action is its plain attack.
    fireball = {**FIREBALL, "segments": 1, "uses": 2}
    caster = fighter("C", ambition_bonus=10, actions=2, special_actions=[fireball], **NEVER_HITS)
    combat, trace = scripted(
        acs_scenario([caster], _raiders(hp=20)),
        [
            d12(1),
            d12(1),
            d12(1),
            d12(1),
            d10(2),
            d10(3),
            d10(10),
            d10(10),
            d10(10),
            d6(1),
            d6(1),  # free action: a fireball
            d6(1),
            d6(1),  # segment 2: the second
            d100(50),  # segment 3: the plain attack
            d100(50),
            d100(50),
            d100(50),
        ],
    )
    assert [e.data.get("action") for e in trace if e.kind == "act" and e.actor == "C"] == [
        "fireball",
        "fireball",
        None,
    ]
    assert [f.hp for f in combat.fighters[1:]] == [16, 16, 16]


def test_a_heal_goes_to_the_most_wounded_ally_when_one_is_at_half():
    healer = fighter(
        "H",
        ambition_bonus=5,
        actions=2,
        special_actions=[
            {"name": "mend", "effect": "heal", "amount": "1d6", "when": "wounded_ally"}
        ],
        **NEVER_HITS,
    )
    ward = fighter("W", hp=8, tactics={"defend": "never"}, **NEVER_HITS)
    enemy = fighter("E", ambition_bonus=10, to_hit=1, damage=6)
    combat, trace = scripted(
        acs_scenario([healer, ward], [enemy]),
        [
            d12(1),
            d12(1),
            d12(1),  # H 6, W 1, E 11
            d10(2),
            d10(5),
            d10(9),
            d10(10),
            d100(50),  # E's free action hits W: 8 - 6 = 2, at half or below
            d6(6),  # H on 2 mends W: +6, to 8 (never above its 8)
            d100(50),  # H on 5: nobody at half: its plain attack
            d100(50),  # W on 9
            d100(50),  # E on 10 hits W again: 2
        ],
    )
    heal = next(e for e in trace if e.kind == "act" and e.data.get("effect") == "heal")
    assert (heal.target, heal.data["amount"], heal.data["hp"]) == ("W", 6, 8)
    assert combat.fighters[1].hp == 2


def test_a_modifier_lasts_the_rest_of_the_second_for_allies_and_against_enemies():
    bless = {"name": "bless", "effect": "modifier", "to": "allies", "attack_bonus": 60, "uses": 1}
    curse = {"name": "curse", "effect": "modifier", "to": "enemies", "defense_bonus": -30}
    curse["uses"] = 1
    priest = fighter("P", ambition_bonus=10, special_actions=[bless, curse], **NEVER_HITS)
    archer = fighter("F", ambition_bonus=5, to_hit=100)
    enemy = fighter("E", defense=30, **NEVER_HITS)
    second = [d12(1), d12(1), d12(1), d10(2), d10(5), d10(10)]
    combat, trace = scripted(
        acs_scenario([priest, archer], [enemy], time_limit=2),
        [
            *second,
            # t=0 bless (free action), t=1 curse: no dice
            d100(50),  # t=4 F: 50 + 60 = 110 hits
            d100(5),  # E's chance 30 - 30, lowered by 10 more: 0; the 5 fails
            d100(50),  # t=9 E
            *second,
            d100(50),
            d100(50),  # second 2: P's free action and segment 2 are plain attacks now
            d100(50),  # t=14 F: 50, no bonus any more: a miss
            d100(50),  # t=19 E
        ],
    )
    attacks = [
        (e.t, e.data["total"], e.data["hit"])
        for e in trace
        if e.kind == "attack" and e.actor == "F"
    ]
    assert attacks == [(4, 110, True), (14, 50, False)]
    assert [e.data["chance"] for e in trace if e.kind == "defense"] == [0]
    assert combat.fighters[2].hp == 9
    casts = [
        (e.data["action"], e.data["changed"]) for e in trace if e.data.get("effect") == "modifier"
    ]
    assert casts == [("bless", ["P", "F"]), ("curse", ["E"])]


def test_a_named_attack_takes_its_own_segments():
    aimed = {"name": "aimed shot", "segments": 3, "uses": 1}
    archer = fighter("A", ambition_bonus=10, actions=2, special_actions=[aimed], **NEVER_HITS)
    _, trace = scripted(
        acs_scenario([archer], [fighter("B", **NEVER_HITS)]),
        [d12(1), d12(1), d10(2), d10(6), d10(10), d100(50), d100(50), d100(50)],
    )
    assert [(t, kind, who) for t, kind, who, _ in acts(trace)] == [
        (0, "begin", "A"),  # the aimed shot, segments 1..3 (its slot on 2 spent on it)
        (2, "complete", "A"),
        (5, "act", "A"),  # used up: the plain attack
        (9, "act", "B"),
    ]
    assert next(e for e in trace if e.kind == "complete").data["action"] == "aimed shot"


@pytest.mark.parametrize("resolution", ["target10", "prop3"])
def test_effects_other_than_attacks_need_the_percentile_resolution(resolution):
    body = {"hp": 8} if resolution == "target10" else {"race": "rat", "vigor": 5, "agility": 5}
    caster = {"name": "C", **body, "special_actions": [FIREBALL]}
    data = acs_scenario([caster], [{"name": "E", **body}], options={"resolution": resolution})
    with pytest.raises(ScenarioError) as error:
        scenario_from_dict(data)
    assert "special_actions" in str(error.value) and "percentile" in str(error.value)
