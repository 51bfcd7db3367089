"""Initiative, the declaration order, and skipping a turn to move up (RULINGS part C, Declaring)."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest

from sim.engine.combat import Combat
from sim.engine.distribution import Distribution
from sim.rules.prop3.initiative import move_up, pair_order_law, rank
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.pool import NOTHING, Result
from sim.run.runner import trace_combat
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8, pool
from tests.prop3.scripted import dice as scripted_dice

FIGHTER = {"vigor": 4, "agility": 4, "weapon": {"name": "sword"}, "armor": {"name": "jack"},
           "tactics": {"attack": "bash", "defense": "dodge"}}
NO_PAIR = d8(2, 4, 6, 8)


def named(name: str, **extra) -> dict:
    block = copy.deepcopy(FIGHTER)
    block["name"] = name
    for key, value in extra.items():
        if key == "tactics":
            block["tactics"].update(value)
        else:
            block[key] = value
    return block


def setup(sides, faces, options=None, time_limit=600):
    data = {"name": "init", "rules": "prop3", "options": options or {}, "time_limit": time_limit,
            "sides": [{"name": f"s{i}", "combatants": side} for i, side in enumerate(sides)]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(faces)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    return prepared.rounds(combat), combat, trace, dice


def test_initiative_is_an_agility_speed_roll_best_result_first():
    # A rolls nothing, B a pair of 3s, C triple 2s: C, B, A.
    faces = d8(1, 2, 3, 4) + d8(3, 3, 5, 7) + d8(2, 2, 2, 8)
    rounds, combat, _trace, dice = setup([[named("A")], [named("B"), named("C")]], faces)
    rounds.roll_initiative()
    assert [f.name for f in rounds.order] == ["C", "B", "A"]
    assert [f.place for f in combat.fighters] == [2, 1, 0]
    assert not dice._buffer


def test_initiative_disadvantage_on_speed_and_the_initiative_skill():
    slow = named("A", disadvantages={"speed": 1}, skills={"initiative": "excellent"})
    faces = [*d8(1, 2, 3, 4), pool(4, 1, 1, 3)]  # B rolls 4d8; A 3d4 (Portly, excellent)
    rounds, _combat, trace, dice = setup([[named("B")], [slow]], faces)
    rounds.roll_initiative()
    rolls = {e.actor: e.data["faces"] for e in trace if e.kind == "initiative"}
    assert rolls == {"B": [1, 2, 3, 4], "A": [1, 1, 3]}
    assert not dice._buffer


def test_tied_results_are_rolled_again_among_the_tied():
    # A and B both roll nothing, C a pair: C first; A and B roll again: B's pair beats A.
    faces = d8(1, 2, 3, 4) + d8(1, 3, 5, 7) + d8(4, 4, 6, 8)
    faces += d8(1, 2, 3, 4) + d8(5, 5, 6, 7)
    rounds, _combat, _trace, dice = setup([[named("A"), named("B")], [named("C")]], faces)
    rounds.roll_initiative()
    assert [f.name for f in rounds.order] == ["C", "B", "A"]
    assert not dice._buffer


def test_rank_orders_by_result_and_rolls_off_ties():
    rolls = iter([Result.pair(3), Result.pair(3), Result.triple(6), Result.pair(2), Result.pair(4)])
    assert rank(["x", "y", "z"], lambda f: next(rolls)) == ["z", "x", "y"]


def test_roll_offs_go_on_until_the_tied_differ_with_no_cap():
    # 150 roll-offs tie (the old safety net stopped at 100 and kept the scenario's order).
    rolls = iter([Result.pair(3)] * 302 + [Result.pair(4), Result.pair(2)])
    assert rank(["x", "y"], lambda f: next(rolls)) == ["y", "x"]
    assert next(rolls, None) is None


def _law(*weighted: tuple[Result, int]) -> Distribution[Result]:
    total = sum(w for _, w in weighted)
    return Distribution.of([(r, Fraction(w, total)) for r, w in weighted])


@pytest.mark.parametrize(
    "first, second",
    [
        # A lone die each (1d4): a 1 is a pair of 1s, anything else nothing; ties 10 in 16.
        (_law((Result.pair(1), 1), (NOTHING, 3)), _law((Result.pair(1), 1), (NOTHING, 3))),
        # Unlike pools: a pair of 2s, of 1s or nothing against a triple or nothing.
        (
            _law((Result.pair(2), 2), (Result.pair(1), 1), (NOTHING, 5)),
            _law((Result.triple(4), 1), (NOTHING, 2)),
        ),
    ],
)
def test_the_order_law_is_the_rank_of_every_sequence_of_rolls(first, second):
    """``pair_order_law`` against ``rank`` itself over every roll sequence of up to 12 roll-offs."""
    ahead = left = Fraction(0)
    stack = [((), Fraction(1))]
    while stack:
        rolls, weight = stack.pop()
        feed = iter(rolls)

        def roll(_f, feed=feed):
            found = next(feed, None)
            if found is None:
                raise LookupError
            return found

        try:
            order = rank(["first", "second"], roll)
        except LookupError:
            if len(rolls) >= 26:  # 12 roll-offs, then cut off
                left += weight
                continue
            for (a, p), (b, q) in itertools.product(first, second):
                stack.append(((*rolls, a, b), weight * p * q))
            continue
        ahead += weight if order == ["first", "second"] else 0
    exact = pair_order_law(first, second)
    assert 0 < left < Fraction(1, 100)
    assert ahead <= exact <= ahead + left
    assert 0 < exact < 1


def test_two_rolls_that_always_tie_have_no_order_law():
    certain = Distribution.certain(Result.pair(2))
    with pytest.raises(ValueError, match="always tie"):
        pair_order_law(certain, certain)


def test_initiative_is_kept_all_fight_or_rolled_every_round():
    one = [[named("A")], [named("B")]]
    faces = d8(1, 1, 3, 5) + d8(2, 4, 6, 8)  # A first
    faces += [*NO_PAIR, (6, 6), *NO_PAIR, (6, 6)]  # round 1: both just miss
    faces += [*NO_PAIR, (6, 6), *NO_PAIR, (6, 6)]  # round 2
    rounds, combat, trace, dice = setup(one, faces, time_limit=12)
    combat.run(lambda c: rounds.start())
    assert sum(e.kind == "initiative" for e in trace) == 2
    assert not dice._buffer
    faces = d8(1, 1, 3, 5) + d8(2, 4, 6, 8) + [*NO_PAIR, (6, 6), *NO_PAIR, (6, 6)]
    faces += d8(2, 4, 6, 8) + d8(1, 1, 3, 5)  # round 2: rolled again, B first now
    faces += [*NO_PAIR, (6, 6), *NO_PAIR, (6, 6)]
    rounds, combat, trace, dice = setup(one, faces, {"initiative": "round"}, time_limit=12)
    combat.run(lambda c: rounds.start())
    assert [e.data["order"] for e in trace if e.kind == "order"] == [["A", "B"], ["B", "A"]]
    assert not dice._buffer


def test_skipping_a_turn_moves_up_one_place_from_the_next_round():
    sides = [[named("A")], [named("B", tactics={"move_up": 1})]]
    faces = d8(1, 1, 3, 5) + d8(2, 4, 6, 8)  # A first
    faces += [*NO_PAIR, (6, 6)]  # round 1: A just misses; B skips
    faces += [*NO_PAIR, (6, 6), *NO_PAIR, (6, 6)]  # round 2: B, then A
    rounds, combat, trace, dice = setup(sides, faces, time_limit=12)
    combat.run(lambda c: rounds.start())
    acts = [(e.kind, e.actor) for e in trace if e.kind in ("skip", "declare", "round")]
    assert acts == [("round", None), ("declare", "A"), ("skip", "B"),
                    ("round", None), ("declare", "B"), ("declare", "A")]
    declares = [e for e in trace if e.kind == "declare"]
    assert declares[0].data["first"] == "B" and declares[1].data["first"] == "A"
    assert not dice._buffer


def test_move_up_swaps_with_the_one_above():
    class F:
        place = 0

    a, b, c = F(), F(), F()
    order = [a, b, c]
    move_up(order, c)
    assert order == [a, c, b] and (a.place, c.place, b.place) == (0, 1, 2)
    move_up(order, a)  # already first
    assert order == [a, c, b]


def best_duel(attacker_tactic: dict, defender_tactic: dict, attacker_higher: bool):
    attacker = named("A", weapon={"name": "sword"}, tactics=attacker_tactic)
    defender = named("D", weapon={"name": "greatsword", "two_handed": True},
                     tactics=defender_tactic)
    faces = [*NO_PAIR, (6, 6), *d8(2, 4, 6), (6, 6)]  # a fumble (just a miss) whatever forms
    rounds, combat, trace, _dice = setup([[attacker], [defender]], faces)
    a, d = combat.fighters
    rounds.set_order([a, d] if attacker_higher else [d, a])
    melee_attack(rounds.fight, a, d)
    return next(e for e in trace if e.kind == "declare").data


def test_the_lower_declares_first_and_the_higher_answers_knowing_it():
    # The attacker is lower: it declares its thrust; the defender, choosing second by the exact
    # odds, dodges (excellent against a thrust); against a declared slash it parries instead.
    thrust = best_duel({"attack": "thrust"}, {"defense": "best"}, attacker_higher=False)
    assert (thrust["first"], thrust["defense"]) == ("A", "dodge")
    slash = best_duel({"attack": "slash"}, {"defense": "best"}, attacker_higher=False)
    assert (slash["first"], slash["defense"]) == ("A", "parry")
    # The defender is lower: it declares its parry; the attacker answers with a bash (excellent
    # against a parry, which is poor against it).
    parry = best_duel({"attack": "best"}, {"defense": "parry"}, attacker_higher=True)
    assert (parry["first"], parry["attack"]) == ("D", "bash")
    block = best_duel({"attack": "best"}, {"defense": "block"}, attacker_higher=True)
    assert (block["first"], block["attack"]) == ("D", "thrust")


# -- pools of no dice (option initiative_no_dice) -------------------------------------------------

NO_DICE = {"agility": 1, "disadvantages": {"speed": 1}}  # Agility 1, Portly: no initiative dice


def test_pools_of_no_dice_do_not_roll_and_come_after_everyone_who_rolls():
    # A and C have no initiative dice; B rolls nothing at all (no pair) and still goes first.
    sides = [[named("A", **NO_DICE), named("B")], [named("C", **NO_DICE)]]
    rounds, _combat, trace, dice = setup(sides, d8(2, 4, 6, 8))
    rounds.roll_initiative()
    assert [f.name for f in rounds.order] == ["B", "A", "C"]  # then as the scenario lists them
    assert [(e.actor, e.data["faces"]) for e in trace if e.kind == "initiative"] == [
        ("A", []), ("C", []), ("B", [2, 4, 6, 8])
    ]
    assert not dice._buffer


def test_initiative_no_dice_random_orders_them_with_one_shuffle():
    sides = [[named("A", **NO_DICE), named("B", **NO_DICE)], [named("C", **NO_DICE)]]
    # The shuffle (Fisher and Yates): the last place takes index 0 of 3 (C and A swap), the
    # second index 1 of 2 (B stays).
    options = {"initiative_no_dice": "random"}
    rounds, _combat, _trace, dice = setup(sides, [(1, 3), (2, 2)], options)
    rounds.roll_initiative()
    assert [f.name for f in rounds.order] == ["C", "B", "A"]
    assert not dice._buffer


def test_no_fight_rolls_off_between_pools_that_cannot_differ():
    # Two fighters without initiative dice: they used to be rolled off up to 100 times a fight.
    sides = [[named("A", **NO_DICE)], [named("B", **NO_DICE)]]
    data = {"name": "idle", "rules": "prop3", "time_limit": 60,
            "sides": [{"name": f"s{i}", "combatants": side} for i, side in enumerate(sides)]}
    for how in ("listed", "random"):
        scenario = scenario_from_dict({**data, "options": {"initiative_no_dice": how}})
        for k in range(30):
            _combat, trace = trace_combat(scenario, 1, k)
            rolls = [e for e in trace if e.kind == "initiative"]
            assert len(rolls) == 2 and all(e.data["faces"] == [] for e in rolls)
            order = next(e.data["order"] for e in trace if e.kind == "order")
            if how == "listed":
                assert order == ["A", "B"]


def test_a_pool_of_no_dice_never_beats_one_with_dice_as_the_roll_offs_had_it():
    sides = [[named("A", **NO_DICE)], [named("B", agility=1)]]  # B: one die, a 1 to succeed
    data = {"name": "one", "rules": "prop3", "time_limit": 60,
            "sides": [{"name": f"s{i}", "combatants": side} for i, side in enumerate(sides)]}
    scenario = scenario_from_dict(data)
    for k in range(40):
        _combat, trace = trace_combat(scenario, 2, k)
        assert next(e.data["order"] for e in trace if e.kind == "order") == ["B", "A"]
        assert sum(e.kind == "initiative" and e.actor == "A" for e in trace) == 1
