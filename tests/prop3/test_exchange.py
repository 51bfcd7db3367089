"""One exchange of Proposition Three: the function every path plays, and its exact law.

``exchange.roll_exchange`` is what the round, the hybrid on the ACS clock, missiles and
counter-attacks all play (through ``Fight.exchange``, which only applies what it returns); its
``exchange_law`` sums the same steps over every roll. Checked here: spied on and replaced from
every path; the law of one attempt against the sampler fed every ordered roll of the dice; the
law of the whole exchange against the brute force of RULINGS part C (``conftest``) and against
the tactics' calculator ``exact.attack_odds``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache
from unittest.mock import patch

import pytest

import sim.rules.prop3.fight as fight_module
from sim.engine.dice import Dice
from sim.engine.distribution import Distribution
from sim.rules.prop3.character import ARCHERY, BASH, DODGE, PARRY
from sim.rules.prop3.exact import attack_odds
from sim.rules.prop3.exchange import (
    MAX_TIES,
    Attempt,
    AttemptOutcome,
    AttemptPlan,
    ExchangeInput,
    ExchangeOutcome,
    ExchangeRules,
    Verdict,
    attempt_law,
    exchange_law,
    roll_attempt,
    roll_exchange,
    unanswered,
)
from sim.rules.prop3.pool import FAILED_DEFENSES, Outcome, Pool, Result, resolve
from sim.rules.prop3.spending import Counted, attack_answer, defense_answer
from sim.run.runner import trace_combat
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS
from tests.prop3.scripted import pool as drawn

PATHS = [
    "p3-moonbelly-vs-kronzer.yaml",  # the round, melee, counter-attacks
    "p3-moonbelly-vs-kronzer-range.yaml",  # missiles, then melee
    "p3-hamsters-vs-rats.yaml",  # many opponents, focused fire, javelins
    "p3-hybrid-duel.yaml",  # the ACS clock, melee
    "p3-moonbelly-vs-kronzer-range-acs.yaml",  # the ACS clock, missiles
]


def pool(dice, sides, wiggle=0, roll=BASH, crit=True, ones=False):
    return Pool(roll, dice, sides, wiggle, crit, ones)


# -- every path plays the one function -----------------------------------------------------------


PARRYING = {
    "name": "parries",
    "rules": "prop3",
    "sides": [
        {
            "name": side,
            "combatants": [
                {
                    "name": side,
                    "vigor": 5,
                    "agility": 6,
                    "skills": {"parry": "excellent"},
                    "weapon": {"name": "sword"},
                    "tactics": {"attack": "slash", "defense": "parry"},
                }
            ],
        }
        for side in ("red", "blue")
    ],
}
"""A duel of parries: critical parries and fumbles against a parry make automatic hits."""


def _spied(path: str | dict, combats: range):
    """Trace ``combats`` of a scenario with ``roll_exchange`` spied on: (fighters, trace, calls)."""
    calls: list[tuple[ExchangeInput, ExchangeOutcome]] = []

    def spy(
        exchange: ExchangeInput, dice: Dice, first: AttemptPlan | None = None
    ) -> ExchangeOutcome:
        if first is not None:  # a plan the caller kept is the one of this input's first attempt
            assert first.exchange == exchange
            reserves = (exchange.attack_reserve, exchange.defense_reserve)
            assert (first.a_left, first.d_left) == reserves
        outcome = roll_exchange(exchange, dice, first)
        calls.append((exchange, outcome))
        return outcome

    scenario = (
        scenario_from_dict(path) if isinstance(path, dict) else load_scenario(SCENARIOS / path)
    )
    played = []
    with patch.object(fight_module, "roll_exchange", spy):
        for k in combats:
            first = len(calls)
            combat, trace = trace_combat(scenario, 1, k)
            played.append((combat.fighters, trace, calls[first:]))
    return played


@pytest.mark.parametrize("path", [*PATHS, PARRYING])
def test_every_exchange_of_every_path_is_the_functions_and_is_applied_as_it_says(path):
    automatic = 0
    for fighters, trace, calls in _spied(path, range(12)):
        told = [e for e in trace if e.kind == "exchange"]
        attempts = [a for _, outcome in calls for a in outcome.attempts]
        # The trace tells each attempt the function played, in order, and nothing else.
        assert [(e.data["faces"], e.data["outcome"]) for e in told] == [
            (list(a.faces), a.outcome.value) for a in attempts
        ]
        outcomes = [outcome.outcome for _, outcome in calls]
        assert sum(f.hits for f in fighters) == sum(o in FAILED_DEFENSES for o in outcomes)
        assert sum(f.criticals for f in fighters) == outcomes.count(Outcome.CRITICAL_HIT)
        fumbles = [e for e in trace if e.kind == "fumble"]
        assert len(fumbles) == outcomes.count(Outcome.FUMBLE)
        automatic += sum(exchange.automatic for exchange, _ in calls)
        assert all(
            outcome.defense_rolled == (outcome.last.d_faces is not None or outcome.ties > 0)
            for _, outcome in calls
        )
    if path is PARRYING:
        assert automatic > 0  # critical parries and fumbles against a parry hit automatically


def _critical(exchange: ExchangeInput, dice: Dice) -> ExchangeOutcome:
    """Every exchange a critical hit of one wound, without a die."""
    attack = Counted(Result.triple(1), 0)
    return ExchangeOutcome((Attempt((), attack, Outcome.CRITICAL_HIT),), Outcome.CRITICAL_HIT, 0, 1)


@pytest.mark.parametrize("path", [*PATHS, PARRYING])
def test_replacing_the_function_changes_every_path(path):
    calls = []

    def stub(
        exchange: ExchangeInput, dice: Dice, first: AttemptPlan | None = None
    ) -> ExchangeOutcome:
        calls.append(exchange)
        return _critical(exchange, dice)

    scenario = (
        scenario_from_dict(path) if isinstance(path, dict) else load_scenario(SCENARIOS / path)
    )
    with patch.object(fight_module, "roll_exchange", stub):
        for k in range(5):
            first = len(calls)
            combat, trace = trace_combat(scenario, 1, k)
            made = len(calls) - first
            assert made > 0
            # Every attack was the stub's critical hit: no defense won, one wound each.
            assert sum(f.criticals for f in combat.fighters) == made
            assert sum(f.damage_taken for f in combat.fighters) == made
            assert sum(f.defenses_won for f in combat.fighters) == 0
            assert not [e for e in trace if e.kind == "fumble"]


# -- one attempt against every roll of the dice --------------------------------------------------


def _searched(exchange: ExchangeInput, a_roll, d_roll, a_left: int, d_left: int):
    """One attempt read by the searches themselves from whole rolls (``d_roll`` None: unused)."""
    rules, defense = exchange.rules, exchange.defense
    a = attack_answer(rules, exchange.attack, tuple(sorted(a_roll)), a_left)
    outcome = unanswered(exchange, a.result)
    if outcome is not None:
        return AttemptOutcome(outcome, a.extra, 0, False), a
    d = defense_answer(rules, defense, a.result, tuple(sorted(d_roll)), d_left, exchange.save)
    return AttemptOutcome(resolve(a.result, d.result, rules.cuts), a.extra, d.extra, True), a


@cache
def _every_attempt(exchange: ExchangeInput, a_left: int, d_left: int) -> Distribution:
    """The law of an attempt by brute force: every ordered roll, read by the searches."""
    attack, defense = exchange.attack, exchange.defense
    weighted: list[tuple[AttemptOutcome, Fraction]] = []
    d_rolls = [()]
    if defense is not None:
        d_rolls = list(itertools.product(range(1, defense.sides + 1), repeat=defense.dice))
    for a_roll in itertools.product(range(1, attack.sides + 1), repeat=attack.dice):
        pa = Fraction(1, attack.sides**attack.dice)
        for d_roll in d_rolls:
            step, _ = _searched(exchange, a_roll, d_roll, a_left, d_left)
            if not step.defense_rolled:
                weighted.append((step, pa))
                break
            weighted.append((step, pa / len(d_rolls)))
    return Distribution.of(weighted)


RULES = ExchangeRules()
ATTEMPTS = [
    ExchangeInput(pool(3, 4, 1), pool(3, 4, 0, DODGE), RULES),
    ExchangeInput(pool(4, 3, 0), pool(2, 4, 2, DODGE), RULES),
    ExchangeInput(pool(4, 4, 2), pool(3, 4, 1, DODGE), ExchangeRules(keep="best_set")),
    ExchangeInput(pool(3, 4, 0), pool(3, 3, 1, DODGE), ExchangeRules(cuts="tie")),
    ExchangeInput(pool(3, 4, 1), pool(3, 4, 1, DODGE), ExchangeRules(cuts="never")),
    ExchangeInput(pool(3, 4, 1, ARCHERY), pool(3, 4, 0, DODGE), RULES, save=1),
    ExchangeInput(pool(2, 4, 1, crit=False), pool(3, 4, 0, DODGE, ones=True), RULES),
    ExchangeInput(pool(4, 4, 0), None, RULES),
    ExchangeInput(pool(4, 4, 0), None, RULES, automatic=True),
    ExchangeInput(pool(0, 4, 0), pool(3, 4, 0, DODGE), RULES),
    # Persistent points: spent to succeed (the default), always, never.
    ExchangeInput(pool(3, 4, 0), pool(3, 4, 0, PARRY), RULES, attack_reserve=2, defense_reserve=1),
    ExchangeInput(
        pool(3, 4, 0), pool(3, 4, 0, PARRY), ExchangeRules(spending="always"), 2, 2, save=1
    ),
    ExchangeInput(pool(3, 4, 0), pool(3, 4, 0, PARRY), ExchangeRules(spending="never"), 2, 2),
]


@pytest.mark.parametrize("exchange", ATTEMPTS)
def test_the_law_of_an_attempt_is_every_roll_read_by_the_searches(exchange):
    a_left, d_left = exchange.attack_reserve, exchange.defense_reserve
    assert attempt_law(exchange, a_left, d_left) == _every_attempt(exchange, a_left, d_left)


def _sorted_rolls(p: Pool) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(1, p.sides + 1), p.dice))


@pytest.mark.parametrize("exchange", ATTEMPTS)
def test_the_sampler_draws_each_roll_and_reads_it_as_the_searches_do(exchange):
    # Every roll of both pools, drawn by the number of its slice of the table (one per pool).
    a_left, d_left = exchange.attack_reserve, exchange.defense_reserve
    defense = exchange.defense
    for a_roll in _sorted_rolls(exchange.attack):
        a_draw = [drawn(exchange.attack.sides, *a_roll)] if a_roll else []
        for d_roll in [()] if defense is None else _sorted_rolls(defense):
            d_draw = [drawn(defense.sides, *d_roll)] if defense is not None and d_roll else []
            dice = Dice.from_floats(a_draw + d_draw)
            attempt = roll_attempt(exchange, dice, a_left, d_left)
            expected, a = _searched(exchange, a_roll, d_roll, a_left, d_left)
            assert attempt.summary() == expected
            assert attempt.faces == a_roll and attempt.attack.result == a.result
            if not expected.defense_rolled:
                assert len(dice._buffer) == len(d_draw)  # the defender drew nothing
                break
            assert attempt.d_faces == d_roll and len(dice._buffer) == 0


@cache
def _every_exchange(exchange: ExchangeInput, a_left: int, d_left: int) -> Distribution:
    """The law of an exchange from the brute-force attempts: ties re-rolled with points left."""
    weighted = []
    for step, p in _every_attempt(exchange, a_left, d_left):
        if step.outcome != Outcome.TIE:
            weighted.append(((step.outcome, step.attack_spent, step.defense_spent), p))
        elif step.attack_spent or step.defense_spent:
            rest = _every_exchange(
                exchange, a_left - step.attack_spent, d_left - step.defense_spent
            )
            weighted += [
                ((o, a + step.attack_spent, d + step.defense_spent), p * q) for (o, a, d), q in rest
            ]
    return Distribution.of(weighted)


@pytest.mark.parametrize("exchange", ATTEMPTS)
def test_the_law_of_an_exchange_conditions_its_ties_away(exchange):
    law = exchange_law(exchange)
    brute = _every_exchange(exchange, exchange.attack_reserve, exchange.defense_reserve)
    assert law.map(lambda v: (v.outcome, v.attack_spent, v.defense_spent)) == brute
    assert law.probability(lambda v: v.outcome == Outcome.TIE) == 0


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ((3, 4, 1), (3, 4, 0), {}),
        ((4, 3, 2), (3, 3, 1), {"keep": "best_set"}),
        ((3, 4, 0), (3, 4, 1), {"cuts": "tie"}),
        ((3, 4, 1), (3, 4, 1), {"save": 1}),
    ],
)
def test_the_law_is_the_brute_force_of_the_rulings(brute, attacker, defender, options):
    keep, cuts, save = (
        options.get("keep", "lowest_three"),
        options.get("cuts", "cut"),
        options.get("save", 0),
    )
    exchange = ExchangeInput(
        pool(*attacker, roll=ARCHERY if save else BASH),
        pool(*defender, roll=DODGE),
        ExchangeRules(keep=keep, cuts=cuts),
        save=save,
    )
    ruled = brute.attack(attacker, defender, keep=keep, save=save, cuts=cuts)
    tie = ruled.pop(Outcome.TIE, 0.0)
    law = exchange_law(exchange).map(lambda v: v.outcome)
    assert set(law.outcomes) == {o for o, p in ruled.items() if p > 0}
    for outcome, p in ruled.items():
        assert float(law.probability(outcome)) == pytest.approx(p / (1 - tie), abs=1e-12)


@pytest.mark.parametrize(
    ("attack", "defense", "options"),
    [
        (pool(6, 8, 2), pool(5, 8, 1, DODGE), {}),
        (pool(7, 8, 3), pool(4, 6, 2, DODGE), {"cuts": "never"}),
        (pool(5, 8, 1, ARCHERY), pool(4, 8, 2, DODGE), {"save": 1}),
        (pool(5, 6, 1), pool(5, 6, 1, DODGE), {"keep": "best_set"}),
    ],
)
def test_the_law_agrees_with_the_tactics_calculator(attack, defense, options):
    save = options.pop("save", 0)
    rules = ExchangeRules(**options)
    law = exchange_law(ExchangeInput(attack, defense, rules, save=save))
    odds = attack_odds(
        attack.dice,
        attack.sides,
        attack.wiggle,
        defense.dice,
        defense.sides,
        defense.wiggle,
        keep=rules.keep,
        defense_save_points=save,
        cuts=rules.cuts,
    ).outcomes
    for outcome, p in odds.items():
        assert float(law.probability(lambda v, o=outcome: v.outcome == o)) == pytest.approx(
            p, abs=1e-9
        )


def test_damage_follows_the_options():
    rules = ExchangeRules(hit_nicks=2, critical_wounds=3)
    law = exchange_law(ExchangeInput(pool(4, 4, 1), pool(3, 4, 0, DODGE), rules))
    for verdict, _ in law:
        expected = {Outcome.CRITICAL_HIT: (0, 3), Outcome.HIT: (2, 0), Outcome.CRIT_REDUCED: (2, 0)}
        assert (verdict.nicks, verdict.wounds) == expected.get(verdict.outcome, (0, 0))
    automatic = exchange_law(ExchangeInput(pool(3, 4, 0), None, rules, automatic=True))
    assert {v.outcome for v in automatic.outcomes} == {Outcome.HIT, Outcome.CRITICAL_HIT}


def test_a_sampled_exchange_gives_its_verdict_and_the_law_its_chance():
    exchange = ExchangeInput(pool(5, 6, 1), pool(4, 6, 1, DODGE), RULES)
    law = exchange_law(exchange)
    dice = Dice(20261201, 0)
    counts = Counter(roll_exchange(exchange, dice).verdict() for _ in range(4000))
    assert set(counts) <= set(law.outcomes)
    for verdict, p in law:
        assert (
            abs(counts[verdict] / 4000 - float(p))
            <= 4 * (float(p) * (1 - float(p)) / 4000) ** 0.5 + 1 / 4000
        )


def test_pools_that_always_tie_are_defended_after_the_safety_net():
    # 3d2 with 3 points always reaches triple 1s, on both sides: every attempt ties.
    exchange = ExchangeInput(pool(3, 2, 3), pool(3, 2, 3, DODGE), RULES)
    outcome = roll_exchange(exchange, Dice(1, 0))
    assert outcome.outcome == Outcome.DEFENDED and len(outcome.attempts) == MAX_TIES
    assert outcome.ties == MAX_TIES and outcome.attack_succeeded and outcome.defense_rolled
    assert exchange_law(exchange) == Distribution.certain(
        Verdict(Outcome.DEFENDED, attack_succeeded=True, defense_rolled=True)
    )


def test_the_inputs_are_frozen_and_hashable():
    exchange = ExchangeInput(pool(3, 4, 1), pool(3, 4, 0, DODGE), RULES, 1, 2, 0, False)
    assert hash(exchange) == hash(
        ExchangeInput(pool(3, 4, 1), pool(3, 4, 0, DODGE), ExchangeRules(), 1, 2)
    )
    with pytest.raises(AttributeError):
        exchange.attack = pool(1, 4)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        RULES.keep = "best_set"  # type: ignore[misc]
