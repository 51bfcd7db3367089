"""``combatsim odds`` and ``sim.odds``: exact odds of one exchange, held to the dice and the engine.

- brute force: every face of every die the exchange function the engine calls rolls, played
  one by one (Target 10's ``resolve_attack``), and the expected number of exchanges worked out
  by enumerating every sequence of damage rolls, independently of the chain of ``sim.exact``;
- the sampled engine: the same exchange functions on seeded dice, held within four standard
  errors of the exact values on bundled scenarios (fixed seeds);
- the worked examples of the texts (Target 10's Captain Cole and Francois, Proposition Three's
  Moonbelly and Kronzer);
- the command line on every bundled scenario, ``--json``'s shape, a plug-in refused in words.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import sim
from sim.cli.app import cli
from sim.engine.dice import Dice
from sim.exact.matchups import NoExactOdds, matchups
from sim.exact.odds import expected_exchanges, matchup_odds, scenario_odds
from sim.rules.acs.percentile import resolve
from sim.rules.prop3 import damage as p3damage
from sim.rules.prop3.exchange import roll_exchange
from sim.rules.target10.exchange import blow_lands, resolve_attack
from sim.scenario.loader import load_scenario, parse_scenario
from tests.conftest import ROOT
from tests.plugins.test_plugins import COIN_DUEL, COIN_ON_THE_CLOCK, COINFLIP, combatsim, install

SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

#: A Target 10 duel small enough to enumerate: 1d2 damage against 2 or 3 hit points.
TINY_T10 = """\
name: tiny
rules: target10
sides:
  - name: a
    combatants:
      - {name: A, hp: "1d2+1", hit_dice: 1, strength: 10, dexterity: 10,
         weapon: {name: stick, bonus: 3, damage: 1d2}, skill_level: high,
         tactics: {declare: {movement: hold, action: kill}}}
  - name: b
    combatants:
      - {name: B, hp: 2, hit_dice: 1, strength: 10, dexterity: 10,
         weapon: {name: stick, damage: 1d2}, skill_level: high,
         tactics: {declare: {movement: hold, action: kill}}}
"""


def within_four_se(hits: int, n: int, p: Fraction) -> bool:
    """Whether ``hits`` of ``n`` is within four standard errors of ``n * p``."""
    se = math.sqrt(n * float(p) * (1 - float(p)))
    return abs(hits - n * float(p)) <= 4 * se + 1e-9


# -- brute force ----------------------------------------------------------------------------------


def test_target10_outcomes_are_every_face_of_the_dice_the_engine_rolls():
    scenario = parse_scenario(TINY_T10)
    for m in matchups(scenario):
        odds = matchup_odds(m)
        counted: dict[str, Fraction] = {}
        damage: dict[int, Fraction] = {}
        for face, hurt in itertools.product(range(1, 21), range(1, 3)):
            outcome = resolve_attack(m.exchange, Dice.from_faces([(face, 20), (hurt, 2)]))
            word = "hit: kill" if outcome.hit else "miss"
            counted[word] = counted.get(word, Fraction(0)) + Fraction(1, 40)
            damage[outcome.damage] = damage.get(outcome.damage, Fraction(0)) + Fraction(1, 40)
        assert dict(odds.outcomes) == counted
        assert dict(odds.damage) == damage


def _hits_needed(hp: int, least: int, most: int) -> Fraction:
    """The mean number of hits of uniform damage ``least..most`` until ``hp`` is reached."""
    mean = Fraction(0)
    faces = range(least, most + 1)
    for n in range(1, hp + 1):  # every hit deals at least 1, so hp hits always suffice
        for rolled in itertools.product(faces, repeat=n):
            if sum(rolled) >= hp and sum(rolled[:-1]) < hp:
                mean += n * Fraction(1, len(faces)) ** n
    return mean


def test_target10_expected_exchanges_match_every_sequence_of_damage_rolls():
    scenario = parse_scenario(TINY_T10)
    for m in matchups(scenario):
        p_hit = matchup_odds(m).outcomes
        hit = dict(p_hit)["hit: kill"]
        # Without luck a blow takes the defender out once its damage reaches its hit points
        # (0 is out: unconscious or dead); damage 1d2 with no STR bonus.
        want = sum((p * _hits_needed(hp, 1, 2) / hit for hp, p in m.defender.hp), Fraction(0))
        assert expected_exchanges(m) == want


def test_acs_outcomes_are_every_face_of_the_dice_the_engine_rolls():
    scenario = load_scenario(ROOT / "scenarios" / "acs-duel.yaml")
    for m in matchups(scenario)[:2]:  # may defend, cannot defend
        attacker, defender, situation = m.exchange
        sides = attacker.damage.sides
        counted: dict[str, Fraction] = {}
        rolled = Fraction(0)
        share = Fraction(1, 100 * 100 * sides)
        for attack, defense, hurt in itertools.product(
            range(1, 101), range(1, 101), range(1, sides + 1)
        ):
            faces = [(attack, 100), (defense, 100), (hurt, sides)]
            outcome = resolve(attacker, defender, situation, Dice.from_faces(faces))
            word = "defended" if outcome.defended else ("hit" if outcome.hit else "miss")
            counted[word] = counted.get(word, Fraction(0)) + share
            rolled += share * outcome.defense_rolled
        odds = matchup_odds(m)
        assert dict(odds.outcomes) == counted
        assert odds.lost_action == rolled


# -- the sampled engine ----------------------------------------------------------------------------


def _t10_exchanges(m, dice: Dice) -> int:
    """Play one take-out with the engine's functions: the defender's hit points, then blows."""
    stats = m.defender.hp.sampler()
    hp = stats.draw(dice.uniform())
    luck = 0
    count = 0
    zero_hp = m.exchange.rules.test.zero_hp
    while True:
        count += 1
        outcome = resolve_attack(m.exchange, dice, 0, hp)
        if outcome.hit:
            landing = blow_lands(outcome.effect, outcome.damage, hp, luck, "save", zero_hp)
            hp = landing.hp
            if landing.out is not None:
                return count


def test_target10_odds_agree_with_the_sampled_exchange_on_the_reference_duel():
    scenario = load_scenario(ROOT / "scenarios" / "t10-cole-vs-francois.yaml")
    n = 4000
    for m in matchups(scenario):
        odds = matchup_odds(m)
        dice = Dice(7, 0)
        hits = sum(resolve_attack(m.exchange, dice).hit for _ in range(n))
        assert within_four_se(hits, n, dict(odds.outcomes)["hit: kill"])
        counts = [_t10_exchanges(m, Dice(11, i)) for i in range(1500)]
        mean = sum(counts) / len(counts)
        sd = math.sqrt(sum((c - mean) ** 2 for c in counts) / (len(counts) - 1))
        assert odds.exchanges is not None
        assert abs(mean - float(odds.exchanges)) <= 4 * sd / math.sqrt(len(counts))


def test_acs_odds_agree_with_the_sampled_exchange_on_the_reference_duel():
    scenario = load_scenario(ROOT / "scenarios" / "acs-duel.yaml")
    for m in matchups(scenario)[:2]:
        odds = matchup_odds(m)
        attacker, defender, situation = m.exchange
        counts = []
        for i in range(1500):
            dice = Dice(17, i)
            hp = m.defender.hp.sampler().draw(dice.uniform())
            count = 0
            while hp > 0:
                count += 1
                hp -= resolve(attacker, defender, situation, dice).damage
            counts.append(count)
        mean = sum(counts) / len(counts)
        sd = math.sqrt(sum((c - mean) ** 2 for c in counts) / (len(counts) - 1))
        assert odds.exchanges is not None
        assert abs(mean - float(odds.exchanges)) <= 4 * sd / math.sqrt(len(counts))


def test_prop3_odds_agree_with_the_sampled_exchange_on_the_text_duel():
    scenario = load_scenario(ROOT / "scenarios" / "p3-moonbelly-vs-kronzer.yaml")
    m = next(m for m in matchups(scenario) if m.defender.name == "Moonbelly")
    odds = matchup_odds(m)
    n = 3000
    dice = Dice(5, 0)
    seen: dict[str, int] = {}
    for _ in range(n):
        word = roll_exchange(m.exchange, dice).verdict().outcome.value.replace("_", " ")
        seen[word] = seen.get(word, 0) + 1
    assert set(seen) <= {name for name, _p in odds.outcomes}
    for name, p in odds.outcomes:
        assert within_four_se(seen.get(name, 0), n, p), name
    # The take-out: blows one after another on the damage track, with the pools of each Vigor
    # (no persistent points in this duel, so the stakes are Vigor and nicks).
    counts = []
    for i in range(600):
        dice = Dice(13, i)
        state = m.start().outcomes[0]
        count = 0
        while not state.out:
            count += 1
            verdict = roll_exchange(m.exchange_at(state), dice).verdict()
            nicks, wounds = p3damage.track(state.nicks, verdict.nicks, verdict.wounds, 2)
            vigor = state.vigor - wounds
            state = state._replace(vigor=vigor, nicks=nicks, out=p3damage.out(vigor))
        counts.append(count)
    mean = sum(counts) / len(counts)
    sd = math.sqrt(sum((c - mean) ** 2 for c in counts) / (len(counts) - 1))
    assert odds.exchanges is not None
    assert abs(mean - float(odds.exchanges)) <= 4 * sd / math.sqrt(len(counts))


# -- the texts' worked examples --------------------------------------------------------------------


def test_target10_worked_example_cole_and_francois():
    # Target 10, "Combat Tests": Cole has FIGHT 11 and DEFENSE 7, Francois FIGHT 10 and DEFENSE
    # 10; Cole attacks at +1, Francois at +3. Against 12 on the d20: 10 faces of 20 hit for
    # Cole (11 and up), 12 of 20 for Francois (9 and up).
    result = sim.odds(ROOT / "scenarios" / "t10-cole-vs-francois.yaml")[0]
    values = {c.name: dict(c.values) for c in result.combatants}
    assert (values["Captain Cole"]["FIGHT"], values["Captain Cole"]["DEFENSE"]) == ("11", "7")
    assert (values["Francois"]["FIGHT"], values["Francois"]["DEFENSE"]) == ("10", "10")
    by_attacker = {o.matchup.attacker.name: o for o in result.odds}
    cole, francois = by_attacker["Captain Cole"], by_attacker["Francois"]
    assert dict(cole.matchup.values)["roll"] == "d20+1 against 12"
    assert dict(francois.matchup.values)["roll"] == "d20+3 against 12"
    assert dict(cole.outcomes)["hit: kill"] == Fraction(1, 2)
    assert dict(francois.outcomes)["hit: kill"] == Fraction(3, 5)
    # Saber 1d6 + STR 3 on a hit: a mean of 6.5, so 13/4 per exchange.
    assert cole.mean_damage == Fraction(13, 4)


#: Issue 23's example of what a designer wants to read: FIGHT 12 against DEFENSE 8.
FIGHT_12_DEFENSE_8 = """\
name: twelve against eight
rules: target10
sides:
  - name: a
    combatants:
      - {name: Hero, hp: 8, hit_dice: 8, strength: 10, dexterity: 10,
         weapon: {name: sword, bonus: 4}, skill_level: high,
         tactics: {declare: {movement: hold, action: kill}}}
  - name: b
    combatants:
      - {name: Foe, hp: 8, hit_dice: 8, strength: 10, dexterity: 10, skill_level: high,
         tactics: {declare: {movement: hold, action: kill}}}
"""


def test_fight_12_against_defense_8_hits_65_percent():
    # d20 + 4 against 12: faces 8 to 20, 13 of 20. Damage 1d6 against 8 hit points: two
    # hits take him out unless both roll low, so about two hits, 3.5 exchanges or so.
    result = sim.odds(parse_scenario(FIGHT_12_DEFENSE_8))[0]
    hero = next(o for o in result.odds if o.matchup.attacker.name == "Hero")
    assert dict(result.combatants[0].values)["FIGHT"] == "12"
    assert dict(result.combatants[1].values)["DEFENSE"] == "8"
    assert dict(hero.outcomes)["hit: kill"] == Fraction(13, 20)
    hits = _hits_needed(8, 1, 6)
    assert hero.exchanges == hits / Fraction(13, 20)
    assert 2 < hits < 3


def test_prop3_worked_example_kronzer_bashes_and_moonbelly_blocks():
    # "Kronzer declares that he is going to bash with his one-handed club. Moonbelly has a
    # shield, so she decides to try blocking the attack": Moonbelly has the higher initiative,
    # so Kronzer declares first; the form tactics of the scenario choose as the text does.
    result = sim.odds(ROOT / "scenarios" / "p3-moonbelly-vs-kronzer.yaml")[0]
    ways = [o.matchup.way for o in result.odds if o.matchup.attacker.name == "Kronzer"]
    assert any(w.startswith("bash against block") and "Kronzer declares first" in w for w in ways)


# -- the command line ------------------------------------------------------------------------------

#: A derived value every scenario of each rule system shows.
SHOWN = {"target10": "FIGHT", "prop3": "Vigor", "acs": "to hit"}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_odds_prints_derived_values_for_every_bundled_scenario(path: Path):
    result = CliRunner().invoke(cli, ["odds", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    scenario = load_scenario(path)
    if not matchups(scenario):  # a test outside combat says so
        assert "no attacker and defender pairs" in result.output
        return
    system = scenario_odds(scenario).system
    shown = SHOWN["prop3" if "prop3" in system else system.split("+")[-1]]
    assert shown in result.output
    assert "one exchange, exactly" in result.output


def test_odds_json_gives_every_probability_as_fraction_and_float():
    path = ROOT / "scenarios" / "t10-hybrid-acs-duel.yaml"
    result = CliRunner().invoke(cli, ["odds", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["scenario"] == "Cole vs Francois on the ACS clock"
    (odds,) = data["odds"]
    assert odds["system"] == "acs+target10"
    assert {c["name"] for c in odds["combatants"]} == {"Captain Cole", "Francois"}
    assert odds["combatants"][0]["values"]["FIGHT"] == "11"
    for m in odds["matchups"]:
        assert set(m) >= {"attacker", "defender", "way", "outcomes", "damage", "exchanges"}
        total = sum(Fraction(p["fraction"]) for p in m["outcomes"].values())
        assert total == 1
        for p in m["outcomes"].values():
            assert p["float"] == float(Fraction(p["fraction"]))
        assert sum(Fraction(d["p"]["fraction"]) for d in m["damage"]) == 1
        # On the clock a Defend costs the defender its action, hit or miss.
        assert m["lost_action"]["fraction"] == ("1" if "Defend" in m["way"] else "0")


def test_a_variant_gets_its_own_odds():
    path = ROOT / "scenarios" / "acs-duel-tweaks.yaml"
    scenario = load_scenario(path)
    names = [v["name"] for v in scenario.data.get("variants", [])]
    results = sim.odds(scenario, names[:1])
    assert [r.variant for r in results] == ["base", names[0]]


def test_an_unknown_variant_is_refused_in_words():
    path = ROOT / "scenarios" / "t10-cole-vs-francois.yaml"
    result = CliRunner().invoke(cli, ["odds", str(path), "--variant", "nope"])
    assert result.exit_code == 2
    assert "nope" in result.output
    assert "Traceback" not in result.output


def test_a_rule_system_without_exchange_laws_has_no_matchups():
    scenario = load_scenario(ROOT / "scenarios" / "t10-cole-vs-francois.yaml")
    plug_in = dataclasses.replace(scenario, rules="coinflip")
    with pytest.raises(NoExactOdds, match=r"coinflip.*no exact odds"):
        matchups(plug_in)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The coin-flip plug-in installed (``tests/plugins``)."""
    site = tmp_path_factory.mktemp("site")
    install(site, COINFLIP)
    return site


@pytest.mark.slow
@pytest.mark.parametrize("text", [COIN_DUEL.format(heads=0.5), COIN_ON_THE_CLOCK])
def test_a_plugin_without_exchange_laws_is_refused_in_words_exit_2(site, tmp_path, text):
    (tmp_path / "coin.yaml").write_text(text, encoding="utf-8")
    result = combatsim(site, "odds", "coin.yaml", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "no exact odds" in result.stderr
    assert "Traceback" not in result.stderr
