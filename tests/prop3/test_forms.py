"""The attack/defense form table, weapons, armor and requirements (RULINGS part C: Forms)."""

import pytest

from sim.rules.prop3.forms import (
    ATTACK_VS_DEFENSE,
    DEFENSE_VS_ATTACK,
    EXAMPLE_ARMORS,
    EXAMPLE_WEAPONS,
    Armor,
    AttackForm,
    DefenseForm,
    Pools,
    Rating,
    Weapon,
    attack_allowed,
    defense_allowed,
    melee_pools,
)

A, D, R = AttackForm, DefenseForm, Rating

# (attack, defense): (attack dice lost, attack wiggle, defense dice lost, defense wiggle),
# written out from the text, with an average weapon and average armor.
TABLE = {
    (A.BASH, D.BLOCK): (1, 0, 0, 1),
    (A.BASH, D.DODGE): (0, 0, 0, 0),
    (A.BASH, D.PARRY): (0, 1, 1, 0),
    (A.SLASH, D.PARRY): (1, 0, 0, 1),
    (A.SLASH, D.BLOCK): (0, 0, 0, 0),
    (A.SLASH, D.DODGE): (0, 1, 1, 0),
    (A.THRUST, D.DODGE): (1, 0, 0, 1),
    (A.THRUST, D.PARRY): (0, 0, 0, 0),
    (A.THRUST, D.BLOCK): (0, 1, 1, 0),
}


@pytest.mark.parametrize(("attack", "defense"), list(TABLE))
def test_form_table_for_all_nine_pairs(attack, defense):
    lost_a, wiggle_a, lost_d, wiggle_d = TABLE[attack, defense]
    pools = melee_pools(6, 5, attack, defense, R.AVERAGE, R.AVERAGE)
    assert pools == Pools(6 - lost_a, wiggle_a, 5 - lost_d, wiggle_d)


def test_table_both_ways_as_the_text_states_it():
    assert ATTACK_VS_DEFENSE[A.BASH, D.BLOCK] == R.POOR
    assert ATTACK_VS_DEFENSE[A.SLASH, D.DODGE] == R.EXCELLENT
    assert ATTACK_VS_DEFENSE[A.THRUST, D.PARRY] == R.AVERAGE
    assert DEFENSE_VS_ATTACK[D.DODGE, A.SLASH] == R.POOR
    assert DEFENSE_VS_ATTACK[D.PARRY, A.SLASH] == R.EXCELLENT
    assert DEFENSE_VS_ATTACK[D.BLOCK, A.SLASH] == R.AVERAGE
    assert len(ATTACK_VS_DEFENSE) == len(DEFENSE_VS_ATTACK) == 9
    # Each attack form is poor, average and excellent against one defense each, and vice versa.
    for attack in A:
        assert sorted(ATTACK_VS_DEFENSE[attack, d] for d in D) == sorted(R)
    for defense in D:
        assert sorted(DEFENSE_VS_ATTACK[defense, a] for a in A) == sorted(R)


@pytest.mark.parametrize(
    ("weapon", "dice", "wiggle"), [(R.POOR, 4, 0), (R.AVERAGE, 5, 0), (R.EXCELLENT, 5, 1)]
)
def test_weapon_rating(weapon, dice, wiggle):
    pools = melee_pools(5, 5, A.BASH, D.DODGE, weapon, R.AVERAGE)
    assert (pools.attack_dice, pools.attack_wiggle) == (dice, wiggle)


@pytest.mark.parametrize(
    ("armor", "defense", "attacker_wiggle"),
    [(R.POOR, (4, 0), 1), (R.AVERAGE, (5, 0), 0), (R.EXCELLENT, (5, 1), 0), (None, (4, 0), 0)],
)
def test_armor_rating_and_no_armor(armor, defense, attacker_wiggle):
    pools = melee_pools(5, 5, A.BASH, D.DODGE, R.AVERAGE, armor)
    assert (pools.defense_dice, pools.defense_wiggle) == defense
    assert pools.attack_wiggle == attacker_wiggle


def test_armor_also_helps_attacker_can_be_switched_off():
    on = melee_pools(5, 5, A.BASH, D.DODGE, R.AVERAGE, R.POOR)
    off = melee_pools(5, 5, A.BASH, D.DODGE, R.AVERAGE, R.POOR, armor_also_helps_attacker=False)
    assert on.attack_wiggle == 1
    assert off.attack_wiggle == 0
    assert on.defense_dice == off.defense_dice == 4


def test_effects_add_up_and_pools_stop_at_zero():
    # Slash against parry (poor, -1), poor weapon (-1): two dice lost; parry vs slash excellent
    # and excellent armor: two defense wiggle points, on top of those from elsewhere.
    pools = melee_pools(
        3, 2, A.SLASH, D.PARRY, R.POOR, R.EXCELLENT, attack_wiggle=1, defense_wiggle=2
    )
    assert pools == Pools(1, 1, 2, 4)
    assert melee_pools(1, 1, A.SLASH, D.DODGE, R.POOR, None).defense_dice == 0
    assert melee_pools(1, 1, A.SLASH, D.PARRY, R.POOR, R.AVERAGE).attack_dice == 0


def test_example_equipment_from_the_text():
    club = EXAMPLE_WEAPONS["club"]
    assert (club.bash, club.slash, club.thrust) == (R.EXCELLENT, R.AVERAGE, R.POOR)
    flail = EXAMPLE_WEAPONS["flail"]
    assert (flail.rating(A.BASH), flail.rating(A.SLASH)) == (R.EXCELLENT, R.EXCELLENT)
    chain = EXAMPLE_ARMORS["chain mail"]
    assert (chain.bash, chain.slash, chain.thrust) == (R.POOR, R.AVERAGE, R.EXCELLENT)
    beetle = EXAMPLE_ARMORS["beetle-shell"]
    assert (beetle.bash, beetle.slash, beetle.thrust) == (R.AVERAGE, R.EXCELLENT, R.POOR)
    plate = EXAMPLE_ARMORS["full plate"]
    assert (plate.bash, plate.slash, plate.thrust) == (R.EXCELLENT, R.EXCELLENT, R.AVERAGE)
    assert plate.heavy and not chain.heavy


def test_a_weapon_may_not_make_every_attack():
    no_thrust = Weapon(bash=R.EXCELLENT, slash=R.EXCELLENT, thrust=None)
    assert attack_allowed(A.BASH, no_thrust)
    assert not attack_allowed(A.THRUST, no_thrust)


SWORD = Weapon()
GREATSWORD = Weapon(two_handed=True)
LIGHT, HEAVY = Armor(), Armor(heavy=True)


@pytest.mark.parametrize(
    ("defense", "attack", "gear", "allowed"),
    [
        (D.DODGE, A.BASH, {}, True),
        (D.DODGE, A.BASH, {"armor": LIGHT}, True),
        (D.DODGE, A.BASH, {"armor": HEAVY}, False),
        (D.PARRY, A.SLASH, {}, False),
        (D.PARRY, A.SLASH, {"weapon": SWORD}, True),
        (D.PARRY, A.THRUST, {"weapon": SWORD}, True),
        (D.PARRY, A.BASH, {"weapon": SWORD}, False),
        (D.PARRY, A.BASH, {"weapon": GREATSWORD}, True),
        (D.BLOCK, A.BASH, {}, False),
        (D.BLOCK, A.BASH, {"weapon": SWORD}, False),
        (D.BLOCK, A.BASH, {"shield": True}, True),
        (D.BLOCK, A.THRUST, {"weapon": GREATSWORD}, True),
        (D.BLOCK, A.THRUST, {"armor": HEAVY}, False),
    ],
)
def test_defense_requirements(defense, attack, gear, allowed):
    assert defense_allowed(defense, attack, **gear) is allowed
