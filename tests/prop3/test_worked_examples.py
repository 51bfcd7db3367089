"""Every worked example of ``rules/combat-proposition-three.txt``, named after it.

Where an example contradicts the stated rule, the rule wins (RULINGS, principle 2): the test
checks the rule's outcome, says where the text differs, and checks the option (``best_set``)
under which the example comes out as printed, if there is one. The "facing multiple opponents"
example (wiggle points per ally who hit) is the engine's, not the dice maths'.
"""

from sim.rules.prop3.forms import (
    EXAMPLE_ARMORS,
    EXAMPLE_WEAPONS,
    Armor,
    AttackForm,
    DefenseForm,
    Pools,
    Rating,
    Weapon,
    defense_allowed,
    melee_pools,
)
from sim.rules.prop3.pool import NOTHING, Outcome, Result, die_for, pool_size, read_roll, resolve
from sim.rules.prop3.ranged import (
    armor_save_points,
    in_range,
    missile_defense,
    range_increments,
    ranged_pools,
)
from sim.rules.prop3.wiggle import Response, best_response, best_roll

P, T = Result.pair, Result.triple
A, D, R = AttackForm, DefenseForm, Rating
CLUB = EXAMPLE_WEAPONS["club"]
LEATHER = Armor(bash=R.POOR)  # the text only says Moonbelly's leather is poor against bashes
CHAIN_MAIL = EXAMPLE_ARMORS["chain mail"]  # Kronzer's crude chain mail: light, he dodges in it
POLEARM = Weapon(bash=R.AVERAGE, slash=R.AVERAGE, thrust=R.EXCELLENT, two_handed=True)


def test_goldtooth_spends_a_wiggle_point_to_ensure_success():
    # The text gives no faces; a roll one face short of a pair shows what one point does.
    roll = (2, 5, 3, 6)
    assert read_roll(roll) == NOTHING
    wiggled = best_roll(roll, 8, 1)
    assert wiggled.result == P(2, 5)
    assert wiggled.spent == 1


def test_egon_saltveins_portly_loses_a_die_on_speed_checks():
    assert pool_size(4, disadvantages=1) == 3  # out-running, catching someone, dodging
    assert pool_size(4) == 4  # once the disadvantage is bought off


def test_kronzer_bashes_moonbelly_pools():
    # "Kronzer has a Vigor score of 6 and an average bashing skill, so he rolls 6d8." Kronzer is
    # one size category larger than Moonbelly (the ranged example: "He's also one size category
    # larger than she is"; RULINGS part C: one reading, in every test of the example): +1 Vigor
    # die, and the form table's -1 for a bash against a block gives the printed 6d8.
    assert defense_allowed(D.BLOCK, A.BASH, armor=LEATHER, shield=True)
    assert die_for("average") == 8
    kronzer_dice = pool_size(6, size=1, vigor=True)
    assert kronzer_dice == 7
    pools = melee_pools(kronzer_dice, 5, A.BASH, D.BLOCK, CLUB.bash, LEATHER.bash)
    # Kronzer: 7 - 1 (bash poor vs block) = 6 dice, as printed; +1 club excellent at bashing, +1
    # leather poor against bashes (armor_also_helps_attacker): "two wiggle points". Moonbelly:
    # 5 - 1 (leather poor against bashes) = 4 dice, +1 (block excellent against bash).
    assert pools == Pools(attack_dice=6, attack_wiggle=2, defense_dice=4, defense_wiggle=1)
    alone = melee_pools(
        kronzer_dice, 5, A.BASH, D.BLOCK, CLUB.bash, LEATHER.bash, armor_also_helps_attacker=False
    )
    assert (alone.attack_dice, alone.attack_wiggle) == (6, 1)


def test_kronzer_bashes_moonbelly_roll_under_best_set():
    # 1, 4, 5, 6, 6, 8 (as printed: six dice) with 2 points: 4 -> 5 and a 6 -> 5.
    kronzer = best_roll((1, 4, 5, 6, 6, 8), 8, 2, keep="best_set")
    assert kronzer.result == T(5)
    assert kronzer.faces == (1, 5, 5, 5, 6, 8)


def test_kronzer_bashes_moonbelly_roll_under_lowest_three():
    # Keeping the lowest three, the 1 stays among them: no triple fits in 2 points; the best is
    # a pair of 4s (5 -> 4) over the 1.
    kronzer = best_roll((1, 4, 5, 6, 6, 8), 8, 2)
    assert kronzer.result == P(4, 1)
    # The text's wiggle (three 5s) keeps 1, 5, 5 here: a pair of 5s, worse than the 4s.
    assert read_roll((1, 5, 5, 5, 6, 8)) == P(5, 1) < kronzer.result
    # Moonbelly's 2, 3, 7, 8 with her point makes a pair of 2s: she blocks.
    moonbelly = best_response(kronzer.result, (2, 3, 7, 8), 8, 1)
    assert moonbelly.result == P(2, 7)
    assert resolve(kronzer.result, moonbelly.result) == Outcome.DEFENDED


def test_moonbelly_blocks_kronzer_triple_fives():
    # The text: "Not even wiggling will reduce it to a standard hit: it's a critical hit."
    # But with her one wiggle point Moonbelly moves the 3 to a 2: a pair of 2s, lower than the
    # triple's face, which by the rule (RULINGS part C, "Resolving an attack") cuts the critical
    # to a standard hit. The rule text wins over the example.
    for keep in ("lowest_three", "best_set"):
        moonbelly = best_response(T(5), (2, 3, 7, 8), 8, 1, keep=keep)
        assert moonbelly.response == Response.REDUCE
        assert moonbelly.result.face == 2
        assert resolve(T(5), moonbelly.result) == Outcome.CRIT_REDUCED
    # Without the point, her roll has no pair: the critical hit of the text.
    unwiggled = best_response(T(5), (2, 3, 7, 8), 8, 0)
    assert resolve(T(5), unwiggled.result) == Outcome.CRITICAL_HIT


def test_moonbelly_blocks_kronzer_triple_fives_under_critical_always_wins():
    # The reading that gives the example as printed: "the lowest roll is superior (though a
    # critical success always wins)" (THE CORE MECHANIC). With the option critical_always_wins
    # (pool.CUTS "never") no pair cuts a triple, so her wiggled pair of 2s cannot help: "Not even
    # wiggling will reduce it to a standard hit: it's a critical hit."
    kronzer = best_roll((1, 4, 5, 6, 6, 8), 8, 2, keep="best_set")
    moonbelly = best_response(kronzer.result, (2, 3, 7, 8), 8, 1, keep="best_set", cuts="never")
    assert moonbelly.response == Response.NONE
    assert resolve(kronzer.result, moonbelly.result, "never") == Outcome.CRITICAL_HIT
    # Her best is still a pair (of 2s), which the default rule would let cut the critical.
    assert moonbelly.result.kind == P(2).kind
    assert resolve(kronzer.result, moonbelly.result) == Outcome.CRIT_REDUCED


def test_cut_or_tie_a_defender_who_can_cut_or_tie_an_attacking_triple():
    # RULINGS part C: 2, 3, 5, 5, 6 with one point reaches triple 5s (6 -> 5: a tie with the
    # attack) or a pair of 2s (3 -> 2: a cut). Default cut_or_tie: cut; tie: the exchange is
    # re-rolled.
    roll = (2, 3, 5, 5, 6)
    cut = best_response(T(5), roll, 8, 1, keep="best_set")
    assert cut.response == Response.REDUCE
    assert resolve(T(5), cut.result) == Outcome.CRIT_REDUCED
    tie = best_response(T(5), roll, 8, 1, keep="best_set", cuts="tie")
    assert tie.response == Response.TIE
    assert resolve(T(5), tie.result, "tie") == Outcome.TIE


def test_moonbelly_bashes_kronzer_pools():
    assert defense_allowed(D.DODGE, A.BASH, armor=CHAIN_MAIL)
    pools = melee_pools(5, 4, A.BASH, D.DODGE, POLEARM.bash, CHAIN_MAIL.bash)
    # Moonbelly: 5d8, +1 for bashing chain mail (poor against bashes); the dodge changes nothing.
    # Kronzer: Agility 4, dodge average against bash, chain mail poor: 3d8, no wiggle.
    assert pools == Pools(attack_dice=5, attack_wiggle=1, defense_dice=3, defense_wiggle=0)


def test_moonbelly_bashes_kronzer_roll():
    moonbelly = best_roll((2, 4, 5, 6, 6), 8, 1)
    assert moonbelly.result == P(4, 2)
    assert moonbelly.faces == (2, 4, 4, 6, 6)  # "She wiggles the 5 down to a 4"
    # Under best_set the best roll would be triple 6s (5 -> 6) instead.
    assert best_roll((2, 4, 5, 6, 6), 8, 1, keep="best_set").result == T(6)


def test_moonbelly_bashes_kronzer_he_is_hit_on_3_5_7():
    kronzer = best_response(P(4, 2), (3, 5, 7), 8, 0)
    assert resolve(P(4, 2), kronzer.result) == Outcome.HIT


def test_moonbelly_bashes_kronzer_he_defends_on_3_3_7():
    kronzer = best_response(P(4, 2), (3, 3, 7), 8, 0)
    assert kronzer.result == P(3, 7)
    assert resolve(P(4, 2), kronzer.result) == Outcome.DEFENDED


def test_moonbelly_bashes_kronzer_he_defends_on_1_4_4_by_the_third_die():
    kronzer = best_response(P(4, 2), (1, 4, 4), 8, 0)
    assert kronzer.result == P(4, 1)  # equal pairs: his 1 beats her 2
    assert resolve(P(4, 2), kronzer.result) == Outcome.DEFENDED


def test_moonbelly_shoots_kronzer_pools():
    # Range 5 ft bow, maximum 25 ft; 15 ft at first, 10 ft when she fires.
    assert range_increments(15, 5) == 3
    assert range_increments(10, 5) == 2
    assert in_range(10, 25)
    pools = ranged_pools(
        6, 4, D.DODGE, distance=10, weapon_range=5, max_range=25, aimed=True, target_size=1
    )
    # Moonbelly: 6 - 1 (second increment) = 5d6, +1 aiming, +1 target a size larger.
    # Kronzer: 4 - 1 (a size larger) = 3d6, +1 for the increment; dodge is average.
    assert pools == Pools(attack_dice=5, attack_wiggle=2, defense_dice=3, defense_wiggle=1)
    assert die_for("good") == 6


def test_moonbelly_shoots_kronzer_triple_sixes_under_best_set():
    # Raising the 5 to a 6 (one point) makes triple 6s under best_set, not under lowest_three.
    wiggled = (1, 3, 6, 6, 6)
    assert read_roll(wiggled, keep="best_set") == T(6)
    assert read_roll(wiggled) == NOTHING
    # The best roll with both points is triple 5s (both 6s down): a lower triple is better.
    # The text's Moonbelly chose the sixes; the "best" policy does not.
    assert best_roll((1, 3, 5, 6, 6), 6, 2, keep="best_set").result == T(5)


def test_moonbelly_shoots_kronzer_almost_sure_success_under_lowest_three():
    # "She could wiggle a three down to a 1 and get an almost sure success": a pair of 1s.
    moonbelly = best_roll((1, 3, 5, 6, 6), 6, 2)
    assert moonbelly.result == P(1, 5)
    assert moonbelly.faces == (1, 1, 5, 6, 6)


def test_moonbelly_shoots_kronzer_critical_hit():
    for keep in ("lowest_three", "best_set"):
        kronzer = best_response(T(6), (2, 4, 6), 6, 1, keep=keep)
        assert kronzer.response == Response.NONE
        assert resolve(T(6), kronzer.result) == Outcome.CRITICAL_HIT
        # One more wiggle point would turn the critical hit into a standard hit.
        more = best_response(T(6), (2, 4, 6), 6, 2, keep=keep)
        assert resolve(T(6), more.result) == Outcome.CRIT_REDUCED


def test_moonbelly_shoots_kronzer_armor_average_against_thrusts_does_not_help():
    arrow = A.THRUST
    new_armor = Armor(thrust=R.AVERAGE)
    assert armor_save_points(new_armor.rating(arrow)) == 0
    shot = missile_defense(T(6), (2, 4, 6), 6, 1, save_points=0)
    assert resolve(T(6), shot.defense.result) == Outcome.CRITICAL_HIT
    # Armor excellent against thrusts would have given the point that saves him.
    better = armor_save_points(Armor(thrust=R.EXCELLENT).rating(arrow))
    saved = missile_defense(T(6), (2, 4, 6), 6, 1, save_points=better)
    assert saved.armor_used
    assert resolve(T(6), saved.defense.result) == Outcome.CRIT_REDUCED
