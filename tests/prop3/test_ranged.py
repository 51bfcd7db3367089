"""Range increments, aiming, size and missile defense (RULINGS part C: Ranged)."""

import pytest

from sim.rules.prop3.forms import Armor, AttackForm, DefenseForm, Pools, Rating, Weapon
from sim.rules.prop3.pool import Outcome, Result, resolve
from sim.rules.prop3.ranged import (
    AMMUNITION_FORM,
    MISSILE_DEFENSE,
    SizeEffect,
    armor_save_points,
    in_range,
    missile_defense,
    missile_defense_allowed,
    range_increments,
    ranged_pools,
    size_effect,
)
from sim.rules.prop3.wiggle import Response

D = DefenseForm
BOW = {"weapon_range": 5, "max_range": 25}


@pytest.mark.parametrize(
    ("distance", "increments"),
    [(0, 1), (3, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3), (16, 4), (25, 5), (5.5, 2)],
)
def test_the_bow_loses_a_die_per_increment_beyond_the_first(distance, increments):
    assert range_increments(distance, 5) == increments
    pools = ranged_pools(6, 4, D.DODGE, distance=distance, **BOW)
    assert pools.attack_dice == 6 - (increments - 1)
    assert pools.defense_wiggle == increments - 1


def test_no_shot_past_maximum_range():
    assert in_range(25, 25)
    assert not in_range(26, 25)
    with pytest.raises(ValueError, match="maximum range"):
        ranged_pools(6, 4, D.DODGE, distance=26, **BOW)
    with pytest.raises(ValueError):
        range_increments(-1, 5)


def test_aiming_gives_a_wiggle_point():
    plain = ranged_pools(6, 4, D.DODGE, distance=5, **BOW)
    aimed = ranged_pools(6, 4, D.DODGE, distance=5, aimed=True, **BOW)
    assert aimed.attack_wiggle == plain.attack_wiggle + 1 == 1


@pytest.mark.parametrize(
    ("attacker", "target", "effect"),
    [
        (0, 0, SizeEffect()),
        (0, 2, SizeEffect(attack_wiggle=2, defense_dice_lost=2)),
        (1, -1, SizeEffect(attack_dice_lost=2, defense_wiggle=2)),
        (-1, 0, SizeEffect(attack_wiggle=1, defense_dice_lost=1)),
    ],
)
def test_size_differences(attacker, target, effect):
    assert size_effect(attacker, target) == effect
    pools = ranged_pools(
        6, 4, D.DODGE, distance=0, attacker_size=attacker, target_size=target, **BOW
    )
    assert pools == Pools(
        6 - effect.attack_dice_lost,
        effect.attack_wiggle,
        4 - effect.defense_dice_lost,
        effect.defense_wiggle,
    )


@pytest.mark.parametrize(("defense", "dice"), [(D.DODGE, 4), (D.BLOCK, 3), (D.PARRY, 3)])
def test_missile_defense_table(defense, dice):
    pools = ranged_pools(6, 4, defense, distance=0, **BOW)
    assert pools.defense_dice == dice
    assert pools.defense_wiggle == 0
    assert MISSILE_DEFENSE[D.DODGE] == Rating.AVERAGE


@pytest.mark.parametrize(
    ("defense", "gear", "allowed"),
    [
        (D.DODGE, {}, True),
        (D.DODGE, {"armor": Armor(heavy=True)}, False),
        (D.BLOCK, {}, False),
        (D.BLOCK, {"shield": True}, True),
        (D.BLOCK, {"armor": Armor(heavy=True)}, True),
        (D.BLOCK, {"armor": Armor()}, False),
        (D.PARRY, {}, False),
        (D.PARRY, {"weapon": Weapon()}, True),
    ],
)
def test_missile_defense_requirements(defense, gear, allowed):
    assert missile_defense_allowed(defense, **gear) is allowed


def test_ammunition_forms():
    assert AMMUNITION_FORM["arrow"] == AMMUNITION_FORM["javelin"] == AttackForm.THRUST
    assert AMMUNITION_FORM["sling bullet"] == AttackForm.BASH
    assert AMMUNITION_FORM["boomerang"] == AttackForm.SLASH


def test_only_excellent_armor_saves_a_failed_missile_defense():
    assert armor_save_points(Rating.EXCELLENT) == 1
    assert armor_save_points(Rating.AVERAGE) == 0
    assert armor_save_points(Rating.POOR) == 0
    assert armor_save_points(None) == 0


def test_armor_points_are_used_only_when_the_defense_fails():
    triple = Result.triple(6)
    # 2, 4, 6 with one point cannot answer triple 6s; a second point (armor) cuts the critical.
    failed = missile_defense(triple, (2, 4, 6), 6, 1)
    assert not failed.armor_used
    assert resolve(triple, failed.defense.result) == Outcome.CRITICAL_HIT
    saved = missile_defense(triple, (2, 4, 6), 6, 1, save_points=1)
    assert saved.armor_used
    assert saved.defense.response == Response.REDUCE
    # A defense that already holds does not touch the armor.
    held = missile_defense(Result.pair(5, 6), (2, 3, 6), 6, 1, save_points=1)
    assert not held.armor_used
    assert held.defense.response == Response.DEFEND
