"""The sub-stat options: every roll reads the stat of the sub-stat an option names.

Combat Proposition Three: "Vigor splits into Strength and Fortitude, Agility into Speed and
Dexterity, Mind into Intellect and Perception, Spirit into Charisma and Will"; which sub-stat each
roll uses is RULINGS part C's reading, each a named option (``docs/rules/prop3.md``). These tests
go through the whole table, the ranged and initiative options included, and check the pool the
engine rolls (:func:`~sim.rules.prop3.character.pool_dice`, which the melee, missile and
initiative paths call) and that a disadvantage on the named sub-stat costs that roll a die.
"""

from __future__ import annotations

import pytest

from sim.engine.dice import Dice
from sim.rules.prop3.character import (
    ARCHERY,
    BASH,
    BLOCK,
    DODGE,
    INITIATIVE,
    PARRY,
    SLASH,
    THROWN,
    THRUST,
    Profile,
    pool_dice,
    roll_substats,
)
from sim.rules.prop3.initiative import initiative_roll
from sim.rules.prop3.models import STAT_OF, SUBSTATS, Prop3Combatant, Prop3Options
from sim.rules.prop3.pool import pool_size
from tests.prop3.test_character import _Fighter

#: Each option and the rolls it moves.
OPTION_ROLLS = {
    "attack_substat": (BASH, SLASH, THRUST),
    "dodge_substat": (DODGE,),
    "block_substat": (BLOCK,),
    "parry_substat": (PARRY,),
    "archery_substat": (ARCHERY,),
    "thrown_substat": (THROWN,),
    "initiative_substat": (INITIATIVE,),
}

#: A different value for each stat, so that the stat a roll reads shows in its pool.
STATS = {"vigor": 2, "agility": 4, "mind": 6, "spirit": 8}


def profile(options: dict, **stats) -> Profile:
    model = Prop3Combatant.model_validate({**STATS, **stats})
    return Profile(model, Prop3Options.model_validate(options))


@pytest.mark.parametrize("option", OPTION_ROLLS)
@pytest.mark.parametrize("substat", SUBSTATS)
def test_each_roll_reads_the_stat_of_the_substat_its_option_names(option, substat):
    p = profile({option: substat})
    stat = STATS[STAT_OF[substat]]
    on_vigor = STAT_OF[substat] == "vigor"
    for roll in OPTION_ROLLS[option]:
        assert p.base[p.stat[roll]] == stat
        # The pool the engine rolls (Vigor is the fighter's hit points: 2 here as well).
        assert pool_dice(_Fighter(STATS["vigor"]), p, roll) == pool_size(stat, vigor=on_vigor)
        # Advantage points of that sub-stat are spent on this roll.
        assert p.points[roll][-1] == SUBSTATS.index(substat)


@pytest.mark.parametrize("option", OPTION_ROLLS)
@pytest.mark.parametrize("substat", SUBSTATS)
def test_a_disadvantage_costs_a_die_on_the_rolls_of_its_substat_only(option, substat):
    options = Prop3Options.model_validate({option: substat})
    plain = profile({option: substat})
    hampered = profile({option: substat}, disadvantages={substat: 1})
    for roll, reads in enumerate(roll_substats(options)):
        lost = 1 if reads == substat else 0
        assert hampered.offset[roll] == plain.offset[roll] - lost
    for roll in OPTION_ROLLS[option]:
        assert hampered.offset[roll] == plain.offset[roll] - 1


class _Body:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile


class _Roller(_Fighter):
    def __init__(self, profile: Profile) -> None:
        super().__init__(STATS["vigor"])
        self.state = _Body(profile)


def test_the_initiative_roll_rolls_the_pool_of_its_substat():
    # Initiative on Will (Spirit 8) instead of Speed (Agility 4): the engine's initiative roll
    # draws the pool of the stat the option names.
    rolled = {}
    for substat in ("speed", "will"):
        _, faces = initiative_roll(
            _Roller(profile({"initiative_substat": substat})), Dice(3, 0), "lowest_three"
        )
        rolled[substat] = len(faces)
    assert rolled == {"speed": pool_size(4), "will": pool_size(8)}
