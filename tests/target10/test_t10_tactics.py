"""The YAML vocabulary of tactics: what it accepts, how it decides, how it refuses."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sim.rules.target10.tactics import FLAGS, QUANTITIES, compile_condition, parse_condition
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.target10.t10_helpers import d6, man, of, run, t10


def test_parse_forms():
    assert parse_condition("on_ground") == ("flag", "on_ground")
    assert parse_condition("distance > reach") == ("compare", "distance", ">", ("q", "reach"))
    assert parse_condition("round >= 3") == ("compare", "round", ">=", ("n", 3.0))
    assert parse_condition({"hp_below": 0.25}) == ("hp_below", 0.25)
    assert parse_condition({"not": "pinned"}) == ("not", ("flag", "pinned"))
    assert parse_condition({"any": ["pinned", "hp < 3"]})[0] == "any"


@pytest.mark.parametrize("bad", ["fleeing", "distanse > reach", "distance >> 3", {"hp_above": 1},
                                 {"hp_below": 2}, {"all": []}, 7])
def test_unknown_words_are_refused_with_the_known_ones(bad):
    with pytest.raises(ValueError) as error:
        parse_condition(bad)
    message = str(error.value)
    assert any(words in message for words in ("is not one", "a non-empty list", "a fraction"))


class _Stats:
    reach = 1.0
    speed = 10.0


class _F:
    def __init__(self, **kw):
        self.__dict__.update(pos=0.0, stats=_Stats(), range=0.0, weapon_at=None, hp=10,
                             max_hp=10, on_ground=False, pinned_by=None, pinning=None,
                             held_until=-1, luck=0, last_move=-1, last_act=-1)
        self.__dict__.update(kw)


def test_conditions_decide():
    me, them = _F(hp=2), _F(pos=5.0)
    assert compile_condition(parse_condition("distance > reach"))(me, them, 0, None)
    assert compile_condition(parse_condition({"hp_below": 0.25}))(me, them, 0, None)
    assert not compile_condition(parse_condition({"all": ["in_reach", "first_round"]}))(
        me, them, 0, None)
    assert compile_condition(parse_condition({"not": "opponent_pinned"}))(me, them, 0, None)
    assert set(FLAGS).isdisjoint(QUANTITIES)


def test_rules_choose_in_order():
    a = man("A", tactics={"rules": [
        {"if": "distance > reach", "then": {"movement": "advance", "action": "kill"}},
        {"else": {"movement": "hold", "action": "defend"}}]})
    _, trace, _ = run(t10([a], [man("B", action="none")], options={"start_distance": 10}),
                      d6(1, 1))
    declared = of(trace, "declare", "A")[0].data
    assert (declared["movement"], declared["action"]) == ("advance", "kill")
    _, trace, _ = run(t10([a], [man("B", action="none")]), d6(1, 1))
    declared = of(trace, "declare", "A")[0].data
    assert (declared["movement"], declared["action"]) == ("hold", "defend")


@pytest.mark.parametrize(("tactics", "says"), [
    ({"declare": {"movement": "jump"}}, "a movement: one of advance"),
    ({"declare": {"action": "bite"}}, "an action: one of defend"),
    ({"rules": [{"if": "sneaky", "then": {}}, {"else": {}}]}, "('sneaky' is not one)"),
    ({"rules": [{"if": "pinned", "then": {}}]}, "ending with an 'else:' rule"),
    ({"rules": [{"when": "pinned", "then": {}}, {"else": {}}]}, "(this one has when, then)"),
    ({"declare": {}, "rules": [{"else": {}}]}, "either declare or rules"),
    ({"luck": "sometimes"}, "'save', 'always' or 'never'"),
])
def test_bad_tactics_are_validation_errors(tactics, says):
    with pytest.raises(ScenarioError) as error:
        scenario_from_dict(t10([man("A", tactics=tactics)], [man("B")]))
    assert says in str(error.value)


BAD = """\
name: bad tactics
rules: target10
sides:
  - name: red
    combatants:
      - name: A
        hp: 5
        tactics:
          rules:
            - if: opponent_sleeping
              then: {movement: charge, action: kill}
            - else: {movement: hold, action: kill}
  - name: blue
    combatants:
      - name: B
        hp: 5
"""


def test_cli_refuses_bad_vocabulary_with_exit_2_and_no_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sim", "run", str(path), "--runs", "10"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "opponent_sleeping" in done.stderr and "opponent_fleeing" in done.stderr
    assert "bad.yaml:10" in done.stderr or "bad.yaml:9" in done.stderr
