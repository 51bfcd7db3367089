"""The one Target 10 exchange: what it resolves, the dice it draws, and its exact law.

:func:`~sim.rules.target10.exchange.resolve_attack` is the attack of the round and of the ACS
hybrid alike (the first tests here spy on it while the bundled scenarios play); its exact law is
checked against a brute-force enumeration of the dice and against a sampled run.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections import Counter
from fractions import Fraction

import pytest

import sim.rules.target10.attacks as attacks
from sim.engine.dice import Dice, DiceExpr
from sim.engine.distribution import Distribution
from sim.rules.target10.actions import BREAK, DISARM, GRAPPLE, KILL, NONE, SUBDUE, TRIP
from sim.rules.target10.combat_rolls import CombatTest
from sim.rules.target10.exchange import (
    AttackInput,
    AttackOutcome,
    ExchangeRules,
    Weapon,
    blow_lands,
    dice_law,
    distribution,
    resolve_attack,
)
from sim.rules.target10.luck import SucceedPolicy
from sim.run.runner import play, run_chunk, trace_combat
from sim.scenario.loader import load_scenario
from tests.conftest import SCENARIOS

RULES = ExchangeRules()  # the defaults: 12 to hit, +/-10 and +/-3, at least 1 damage
D6 = DiceExpr.parse("1d6")
SABER = Weapon(11, D6, 3)  # Captain Cole: FIGHT 6 + 3 + 2, damage 1d6 + STR 3
KNIFE = Weapon(10, D6, 2)  # Francois: FIGHT 7 + 2 + 1, damage 1d6 + STR 2


class _Spy:
    """Counts the calls of one function while installed as the profiler (however it is named
    where it is called)."""

    def __init__(self, function) -> None:
        self.code = function.__code__
        self.calls = 0

    def __call__(self, frame, event, arg) -> None:
        if event == "call" and frame.f_code is self.code:
            self.calls += 1

    def __enter__(self) -> _Spy:
        sys.setprofile(self)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)


def test_every_attack_of_the_round_and_the_hybrid_is_the_one_exchange():
    events = 0
    with _Spy(resolve_attack) as spy:
        for path in sorted(SCENARIOS.glob("t10-*.yaml")):
            scenario = load_scenario(path)
            for k in range(3):
                _, trace = trace_combat(scenario, 11, k)
                events += sum(1 for e in trace if e.kind in ("attack", "t10_attack"))
    assert events > 100  # the round's scenarios and the hybrid's all attack
    assert spy.calls == events  # every attack event is one call, and no call goes unreported


@pytest.mark.parametrize(
    "name", ["t10-cole-vs-francois.yaml", "t10-hybrid-acs-duel.yaml", "t10-skirmish.yaml"]
)
def test_untraced_combats_resolve_every_counted_attack_with_the_exchange(name):
    scenario = load_scenario(SCENARIOS / name)
    prepared = scenario.system.prepare(scenario)
    made = 0
    with _Spy(resolve_attack) as spy:
        for k in range(20):
            made += sum(f.attacks for f in play(scenario, prepared, 11, k).fighters)
    assert made > 20 and spy.calls == made


def test_the_round_reuses_only_inputs_it_would_make_afresh(monkeypatch):
    made = attacks.exchange_for
    checked = 0

    def check(rs, f, t, origin, r):
        nonlocal checked
        kept = made(rs, f, t, origin, r)
        if kept is not None:
            assert kept == attacks.attack_input(rs, f, t, kept.weapon, r)
            checked += 1
        return kept

    monkeypatch.setattr(attacks, "exchange_for", check)
    for path in sorted(SCENARIOS.glob("t10-*.yaml")):
        scenario = load_scenario(path)
        if scenario.system.name == "target10":
            run_chunk(scenario, 11, 0, 20)
    assert checked > 500


# -- the worked example and the rules of one exchange ---------------------------------------------


def test_cole_attacks_francois_at_plus_1_and_francois_cole_at_plus_3():
    # Target 10 text, "Combat Tests": "When Cole attacks Francois ... +1 bonus"; "When Francois
    # attacks Cole ... +3" (DEFENSE: Cole 6 + 1 + 0 = 7, Francois 7 + 3 + 0 = 10).
    cole = AttackInput(RULES, SABER, defense=10)
    francois = AttackInput(RULES, KNIFE, defense=7)
    assert cole.rolls[1].modifier == 1 and francois.rolls[1].modifier == 3
    assert not resolve_attack(cole, Dice.from_faces([(10, 20)])).hit  # 10 + 1 < 12
    hit = resolve_attack(cole, Dice.from_faces([(11, 20), (4, 6)]))
    assert hit.hit and hit.effect == KILL and hit.damage == 4 + 3


def _exhausted(dice: Dice) -> bool:
    with pytest.raises(RuntimeError, match="exhausted"):
        dice.roll(2)
    return True


def test_the_dice_drawn_are_the_d20_then_a_damaging_hits_damage_and_only_those():
    cole = AttackInput(RULES, SABER, defense=10)
    dice = Dice.from_faces([(20, 20), (1, 6)])
    assert resolve_attack(cole, dice).damage == 4 and _exhausted(dice)
    dice = Dice.from_faces([(3, 20)])
    assert not resolve_attack(cole, dice).hit and _exhausted(dice)  # a miss rolls no damage
    fleeing = AttackInput(RULES, SABER, defense=10, automatic=True)
    dice = Dice.from_faces([(6, 6)])
    out = resolve_attack(fleeing, dice)  # no d20 on a fleer ("automatically successful")
    assert out.hit and out.roll.automatic and out.roll.face == 0 and out.damage == 9
    assert _exhausted(dice)
    trip = AttackInput(RULES, SABER, action=TRIP, defense=10)
    dice = Dice.from_faces([(20, 20)])
    assert resolve_attack(trip, dice).effect == TRIP and _exhausted(dice)  # Trip: no damage


def test_damage_is_the_weapons_roll_plus_the_modifier_never_below_min_damage():
    weak = Weapon(5, D6, -3)
    assert resolve_attack(AttackInput(RULES, weak), Dice.from_faces([(20, 20), (1, 6)])).damage == 1
    zero = ExchangeRules(CombatTest(min_damage=0))
    assert resolve_attack(AttackInput(zero, weak), Dice.from_faces([(20, 20), (1, 6)])).damage == 0
    two = Weapon(5, DiceExpr.parse("2d6+1"), 2)
    dice = Dice.from_faces([(20, 20), (3, 6), (4, 6)])
    assert resolve_attack(AttackInput(RULES, two), dice).damage == 10


def _modifier(**situation) -> int:
    rules = situation.pop("rules", RULES)
    weapon = situation.pop("weapon", Weapon(10, D6, 0, charge=2))
    return AttackInput(rules, weapon, defense=10, **situation).rolls[0].modifier


def test_the_situation_counts_as_the_text_and_the_rulings_say():
    assert _modifier() == 0
    assert _modifier(charging=True) == 2  # "adds double their strength bonus"
    assert _modifier(weapon=Weapon(10, D6, 0, ranged=True), charging=True) == 0  # not on SHOOT
    assert _modifier(target_hampered=2) == 2 and _modifier(hampered=3) == -3  # ground, pin
    assert _modifier(target_hampered=5) == 3  # situational: within +/-3
    values = ExchangeRules(penalties_on_values=True)
    assert _modifier(rules=values, target_hampered=5) == 5  # on the values: within +/-10
    assert _modifier(edge=True) == 0
    assert _modifier(rules=ExchangeRules(maneuver_bonus=2), edge=True) == 2
    assert _modifier(cover=2) == 0  # cover counts against shots ...
    assert _modifier(weapon=Weapon(10, D6, 0, ranged=True), cover=2) == -2
    assert _modifier(rules=ExchangeRules(cover_all=True), cover=2) == -2  # ... or every attack
    assert _modifier(situational=2, defend=3) == -1


def test_a_miss_that_defend_made_is_parried():
    defended = AttackInput(RULES, Weapon(10, D6, 0), defense=10, defend=2)
    assert resolve_attack(defended, Dice.from_faces([(13, 20)])).parried  # 13 - 2 < 12 <= 13
    assert not resolve_attack(defended, Dice.from_faces([(11, 20)])).parried  # a miss anyway
    assert not resolve_attack(AttackInput(RULES, Weapon(10, D6, 0), defense=12),
                              Dice.from_faces([(13, 20)])).parried


def test_a_maneuvering_hit_pushes_and_keeps_the_actions_effect_by_option():
    kill = AttackInput(RULES, SABER, maneuver=True)
    dice = Dice.from_faces([(20, 20)])
    out = resolve_attack(kill, dice)  # "they score no damage, but do move their opponent"
    assert out.push and out.effect == NONE and out.damage == 0 and _exhausted(dice)
    trip = AttackInput(RULES, SABER, action=TRIP, maneuver=True)
    assert resolve_attack(trip, Dice.from_faces([(20, 20)])).effect == TRIP
    plain = AttackInput(ExchangeRules(keeps_action=False), SABER, action=TRIP, maneuver=True)
    assert resolve_attack(plain, Dice.from_faces([(20, 20)])).effect == NONE


def test_a_pinned_grapplers_grapple_on_its_holder_breaks_the_pin():
    # "must make a grapple attack of their own to break the hold"
    breaking = AttackInput(RULES, SABER, action=GRAPPLE, pinned_by_target=True)
    assert resolve_attack(breaking, Dice.from_faces([(20, 20)])).effect == BREAK
    grapple = AttackInput(RULES, SABER, action=GRAPPLE)
    assert resolve_attack(grapple, Dice.from_faces([(20, 20)])).effect == GRAPPLE
    subdue = AttackInput(RULES, SABER, action=SUBDUE)
    out = resolve_attack(subdue, Dice.from_faces([(20, 20), (2, 6)]))
    assert out.effect == SUBDUE and out.damage == 5


def test_a_luck_point_turns_a_failed_attack_by_the_tactic():
    # "A Luck Point can be spent to automatically succeed at any test"
    always = AttackInput(RULES, SABER, defense=10, succeed=SucceedPolicy("always"))
    out = resolve_attack(always, Dice.from_faces([(1, 20), (2, 6)]), luck=1, target_hp=20)
    assert out.hit and out.lucky and out.damage == 5
    assert not resolve_attack(always, Dice.from_faces([(1, 20)]), luck=0, target_hp=20).hit
    finish = AttackInput(RULES, SABER, defense=10, succeed=SucceedPolicy("when_hit_takes_out"))
    # The least damage, 1 + 3, takes out 4 hit points, not 5.
    assert resolve_attack(finish, Dice.from_faces([(1, 20), (1, 6)]), luck=2, target_hp=4).lucky
    assert not resolve_attack(finish, Dice.from_faces([(1, 20)]), luck=2, target_hp=5).hit
    trip = AttackInput(RULES, SABER, action=TRIP, succeed=SucceedPolicy("when_hit_takes_out"))
    assert not resolve_attack(trip, Dice.from_faces([(1, 20)]), luck=2, target_hp=1).hit


def test_a_blow_lands_by_the_targets_luck_kill_or_subdue():
    test = CombatTest()
    assert blow_lands(KILL, 5, 5, 1, "save", test.zero_hp).ignored  # it would take it out
    kept = blow_lands(KILL, 4, 5, 1, "save", test.zero_hp)
    assert (kept.ignored, kept.hp, kept.out, kept.dealt) == (False, 1, None, 4)
    dead = blow_lands(KILL, 7, 5, 0, "save", test.zero_hp)
    assert (dead.hp, dead.out, dead.dealt) == (-2, "dead", 7)
    sleep = blow_lands(SUBDUE, 7, 5, 0, "save", test.zero_hp)  # Subdue stops at 0
    assert (sleep.hp, sleep.out, sleep.dealt) == (0, "unconscious", 5)
    assert blow_lands(KILL, 5, 5, 0, "save", "unconscious").out == "unconscious"
    assert blow_lands(KILL, 5, 5, 0, "save", "dead").out == "dead"
    assert blow_lands(KILL, 1, 5, 3, "always", test.zero_hp).ignored  # every hit
    assert not blow_lands(KILL, 5, 5, 3, "never", test.zero_hp).ignored


# -- the exact law ---------------------------------------------------------------------------------


def test_dice_law_enumerates_the_dice_a_function_asks_for():
    assert dice_law(lambda d: d.roll(6) + d.roll(6)) == Distribution.of(
        (a + b, 1) for a in range(1, 7) for b in range(1, 7)
    )
    # A second die only on a 6: the law weighs each branch by its own faces.
    law = dice_law(lambda d: (6, d.roll(4)) if d.roll(6) == 6 else (0, 0))
    assert law.probability((0, 0)) == Fraction(5, 6)
    assert law.probability((6, 3)) == Fraction(1, 24)


def _brute_force(attack: AttackInput, luck: int, target_hp: int) -> Distribution[AttackOutcome]:
    """Every face of a d20 and of every damage die, each combination once, whether used or not."""
    damage = attack.weapon.damage
    sides = [DIE_SIDES] * (not attack.automatic) + [damage.sides] * damage.count
    counted: Counter[AttackOutcome] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        dice = Dice.from_faces(list(zip(faces, sides, strict=True)))
        counted[resolve_attack(attack, dice, luck, target_hp)] += 1
    return Distribution.of(counted.items())


DIE_SIDES = 20
GRID = [
    (AttackInput(RULES, SABER, defense=10), 0, 10),
    (AttackInput(RULES, KNIFE, defense=7, action=SUBDUE), 0, 3),
    (AttackInput(RULES, Weapon(3, DiceExpr.parse("2d4+1"), 1), defense=9, charging=True), 0, 9),
    (AttackInput(RULES, Weapon(8, DiceExpr.parse("3"), 0, ranged=True), cover=2), 0, 2),
    (AttackInput(RULES, SABER, defense=30), 0, 1),  # never hits on the roll
    (AttackInput(RULES, SABER, automatic=True), 0, 5),
    (AttackInput(RULES, SABER, action=TRIP, maneuver=True), 0, 5),
    (AttackInput(ExchangeRules(keeps_action=False), SABER, action=DISARM, maneuver=True), 0, 5),
    (AttackInput(RULES, SABER, action=GRAPPLE, pinned_by_target=True, hampered=1), 0, 5),
    (AttackInput(RULES, Weapon(10, D6, 0), defense=10, defend=3), 0, 5),
    (AttackInput(RULES, SABER, defense=14, succeed=SucceedPolicy("always")), 2, 8),
    (AttackInput(RULES, SABER, defense=14, succeed=SucceedPolicy("when_hit_takes_out")), 1, 4),
    (AttackInput(RULES, SABER, defense=14, succeed=SucceedPolicy("when_hit_may_take_out")), 1, 8),
    (AttackInput(RULES, SABER, defense=14, succeed=SucceedPolicy("below_chance", 0.4)), 1, 8),
]


@pytest.mark.parametrize(("attack", "luck", "target_hp"), GRID)
def test_the_exact_law_is_the_brute_force_enumeration_of_the_dice(attack, luck, target_hp):
    law = distribution(attack, luck, target_hp)
    assert law == _brute_force(attack, luck, target_hp)
    assert sum(p for _, p in law) == 1


def test_the_exact_law_of_coles_attack():
    law = distribution(AttackInput(RULES, SABER, defense=10))
    assert law.probability(lambda o: o.hit) == Fraction(10, 20)  # faces 11..20
    assert law.expectation(lambda o: o.damage) == Fraction(1, 2) * Fraction(4 + 9, 2)
    assert law.probability(lambda o: o.damage == 9) == Fraction(1, 2) * Fraction(1, 6)


def test_a_sampled_run_agrees_with_the_exact_law():
    # Francois's knife on Cole (+3, damage 1d6 + 2), 20,000 attacks from one fixed stream; each
    # outcome's frequency within four standard errors of its exact probability.
    attack = AttackInput(RULES, KNIFE, defense=7)
    law = distribution(attack)
    n = 20_000
    dice = Dice(2024, 0)
    seen = Counter(resolve_attack(attack, dice) for _ in range(n))
    assert set(seen) <= set(law.outcomes)
    for outcome, p in law:
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen[outcome] / n - float(p)) <= 4 * se, outcome
    hits = sum(c for o, c in seen.items() if o.hit) / n
    assert abs(hits - 0.6) <= 4 * math.sqrt(0.6 * 0.4 / n)  # faces 9..20
