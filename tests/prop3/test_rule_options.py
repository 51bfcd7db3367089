"""Rule options that change one attack: each shown changing what it should, with scripted dice.

The text's duel (Moonbelly against Kronzer, ``test_combat_examples.py``) is played through
``melee_attack`` under the default and under the option; the trace's pools and the damage track
show the difference. Issue 13 items 10 and 11.
"""

from __future__ import annotations

import copy

from sim.rules.prop3.declaring import matchup
from sim.rules.prop3.forms import EXAMPLE_WEAPONS, AttackForm, DefenseForm, defense_allowed
from sim.rules.prop3.melee import melee_attack
from tests.prop3.test_combat_examples import (
    KRONZER,
    MOONBELLY,
    d8,
    events,
    scenario,
    setup,
    with_tactics,
)

BASH, PARRY = 0, 2  # form indices (character.ATTACK_FORMS, DEFENSE_FORMS)


def kronzer_bashes(options: dict, moonbelly_faces: tuple[int, ...], moonbelly=MOONBELLY):
    """Kronzer bashes (1, 4, 5, 6, 6, 8), Moonbelly blocks with ``moonbelly_faces``."""
    data = scenario(
        with_tactics(moonbelly, defense="block"), with_tactics(KRONZER, attack="bash"), options
    )
    rounds, f, trace, dice = setup(data, d8(1, 4, 5, 6, 6, 8) + d8(*moonbelly_faces))
    rounds.set_order([f["Moonbelly"], f["Kronzer"]])
    melee_attack(rounds.fight, f["Kronzer"], f["Moonbelly"])
    assert not dice._buffer  # every scripted die was rolled, no more
    (x,) = events(trace, "exchange")
    return f, x


def moonbelly_bashes(options: dict, kronzer_faces: tuple[int, ...]):
    """Moonbelly bashes (2, 4, 5, 6, 6), Kronzer dodges with ``kronzer_faces``."""
    data = scenario(
        with_tactics(MOONBELLY, attack="bash"), with_tactics(KRONZER, defense="dodge"), options
    )
    rounds, f, trace, dice = setup(data, d8(2, 4, 5, 6, 6) + d8(*kronzer_faces))
    rounds.set_order([f["Moonbelly"], f["Kronzer"]])
    melee_attack(rounds.fight, f["Moonbelly"], f["Kronzer"])
    assert not dice._buffer
    (x,) = events(trace, "exchange")
    return f, x


def pools(x) -> tuple[int, int, int, int]:
    return x.data["dice"], x.data["wiggle"], x.data["d_dice"], x.data["d_wiggle"]


# -- size_in_melee --------------------------------------------------------------------------------


def test_size_in_melee_applies_the_ranged_size_rules_to_a_melee_attack():
    # Default: size counts in melee only as Kronzer's extra Vigor die (he dodges with Agility).
    _, x = moonbelly_bashes({}, (3, 5, 7))
    assert pools(x) == (5, 1, 3, 0)
    # With the option, the ranged passage's size rules: Moonbelly attacks a target one category
    # larger, +1 wiggle; Kronzer, larger than his attacker, loses a defense die.
    f, x = moonbelly_bashes({"size_in_melee": True}, (3, 5))
    assert pools(x) == (5, 2, 2, 0)
    assert x.data["outcome"] == "hit" and f["Kronzer"].state.nicks == 1


# -- hit_nicks and critical_wounds ----------------------------------------------------------------


def test_hit_nicks_sets_the_nicks_of_a_standard_hit():
    f, x = moonbelly_bashes({}, (3, 5, 7))
    assert x.data["outcome"] == "hit"
    assert (f["Kronzer"].state.nicks, f["Kronzer"].hp) == (1, 6)  # one nick, no wound yet
    f, x = moonbelly_bashes({"hit_nicks": 2}, (3, 5, 7))
    assert x.data["outcome"] == "hit"
    assert (f["Kronzer"].state.nicks, f["Kronzer"].hp) == (0, 5)  # two nicks: a wound


def test_critical_wounds_sets_the_wounds_of_a_critical_hit():
    # Under best_set Kronzer wiggles three 5s; Moonbelly's 1, 3, 5, 7 reach no pair with her one
    # point: a critical hit.
    f, x = kronzer_bashes({"keep": "best_set"}, (1, 3, 5, 7))
    assert x.data["outcome"] == "critical_hit"
    assert f["Moonbelly"].hp == 4  # Vigor 5, one wound
    f, x = kronzer_bashes({"keep": "best_set", "critical_wounds": 2}, (1, 3, 5, 7))
    assert x.data["outcome"] == "critical_hit"
    assert f["Moonbelly"].hp == 3


# -- the sub-stat options -------------------------------------------------------------------------


def test_block_substat_chooses_the_stat_of_the_block():
    # Default fortitude (Vigor 5): 5 - 1 (leather poor against bashes) = 4 dice.
    _, x = kronzer_bashes({}, (2, 3, 7, 8))
    assert pools(x)[2:] == (4, 1)
    # Speed (Agility 6): 6 - 1 = 5 dice.
    _, x = kronzer_bashes({"block_substat": "speed"}, (2, 3, 7, 8, 8))
    assert pools(x)[2:] == (5, 1)


def test_attack_substat_chooses_the_stat_of_a_melee_attack():
    # Default strength (Vigor 6, +1 die for his size, -1 bash against block): 6 dice.
    _, x = kronzer_bashes({}, (2, 3, 7, 8))
    assert pools(x)[:2] == (6, 2)
    # Dexterity (Agility 4; size only adds Vigor dice): 4 - 1 = 3 dice, rolled 1, 4, 8: no pair
    # within his two points, so Moonbelly never rolls.
    data = scenario(
        with_tactics(MOONBELLY, defense="block"),
        with_tactics(KRONZER, attack="bash"),
        {"attack_substat": "dexterity", "fumbles": False},
    )
    rounds, f, trace, dice = setup(data, d8(1, 4, 8))
    rounds.set_order([f["Moonbelly"], f["Kronzer"]])
    melee_attack(rounds.fight, f["Kronzer"], f["Moonbelly"])
    assert not dice._buffer
    (x,) = events(trace, "exchange")
    assert (x.data["dice"], x.data["wiggle"]) == (3, 2)
    assert x.data["outcome"] == "fumble"


def test_dodge_substat_moves_a_disadvantage_on_speed_off_the_dodge():
    # Egon's Portly: a disadvantage on Speed costs a die on dodges (dodge_substat: speed).
    portly = copy.deepcopy(KRONZER)
    portly["disadvantages"] = {"speed": 1}
    for option, dice in (({}, 2), ({"dodge_substat": "dexterity"}, 3)):
        data = scenario(
            with_tactics(MOONBELLY, attack="bash"), with_tactics(portly, defense="dodge"), option
        )
        kronzer_faces = (3, 5, 7)[:dice]
        rounds, f, trace, scripted = setup(data, d8(2, 4, 5, 6, 6) + d8(*kronzer_faces))
        rounds.set_order([f["Moonbelly"], f["Kronzer"]])
        melee_attack(rounds.fight, f["Moonbelly"], f["Kronzer"])
        assert not scripted._buffer
        (x,) = events(trace, "exchange")
        assert x.data["d_dice"] == dice


# -- parry_bash_needs_two_hands -------------------------------------------------------------------


def test_parry_bash_needs_two_hands_by_default_and_not_under_the_option():
    # "Parries require a weapon (usually a two-hander to parry a bash)."
    club = EXAMPLE_WEAPONS["club"]  # one-handed
    assert not defense_allowed(DefenseForm.PARRY, AttackForm.BASH, weapon=club)
    assert defense_allowed(
        DefenseForm.PARRY, AttackForm.BASH, weapon=club, bash_needs_two_hands=False
    )
    assert defense_allowed(DefenseForm.PARRY, AttackForm.SLASH, weapon=club)
    # In a fight: Moonbelly (polearm, two-handed) bashes Kronzer (one-handed club).
    for option, allowed in (({}, False), ({"parry_bash_needs_two_hands": False}, True)):
        data = scenario(MOONBELLY, KRONZER, option)
        rounds, f, _, _ = setup(data, [])
        pa, pd = f["Moonbelly"].state.profile, f["Kronzer"].state.profile
        m = matchup(pa, pd, True, rounds.fight.rules)
        assert m.allowed[BASH][PARRY] is allowed
        assert m.allowed[1][PARRY]  # a slash he parries either way


def test_parry_substat_chooses_the_stat_of_the_parry():
    # Moonbelly slashes (polearm average, slash poor against a parry: 5 - 1 = 4 dice); Kronzer
    # parries with his club (parry excellent against a slash: +1 wiggle).
    for option, kronzer_faces in (
        ({}, (3, 4, 6, 8)),
        ({"parry_substat": "strength"}, (3, 4, 6, 8, 1, 5, 7)),
    ):
        data = scenario(
            with_tactics(MOONBELLY, attack="slash"), with_tactics(KRONZER, defense="parry"), option
        )
        rounds, f, trace, dice = setup(data, d8(2, 2, 5, 7) + d8(*kronzer_faces))
        rounds.set_order([f["Moonbelly"], f["Kronzer"]])
        melee_attack(rounds.fight, f["Moonbelly"], f["Kronzer"])
        assert not dice._buffer
        (x,) = events(trace, "exchange")
        assert (x.data["attack"], x.data["defense"]) == ("slash", "parry")
        # Default dexterity: Agility 4 dice. Strength: Vigor 6, +1 for his size category.
        assert pools(x) == (4, 0, len(kronzer_faces), 1)
        assert x.data["outcome"] == "hit"
