"""The strategies: section: its cells, and bad input refused with file, path and line (exit 2)."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from analysis.tournament import plan_tournament
from sim.cli.app import cli
from sim.scenario.loader import load_scenario, parse_scenario
from sim.scenario.problems import ScenarioError
from sim.scenario.strategies import strategies_of
from tests.conftest import SCENARIOS

HEAD = """\
name: duel
rules: acs
runs: 50
seed: 3
time_limit: 20
sides:
  - name: red
    combatants:
      - {name: Red, hp: 8, to_hit: 45, defense: 35, damage: 1d6}
  - name: blue
    combatants:
      - {name: Blue, hp: 8, to_hit: 45, defense: 35, damage: 1d6}
"""

GOOD = """\
strategies:
  red:
    - name: tough
      set:
        sides.red.combatants.Red.hp: 12
    - name: plain
      set: {}
  blue:
    - name: sharp
      set:
        sides.blue.combatants.Blue.to_hit: 35
"""


def problems(text: str) -> list:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(textwrap.dedent(text), "bad.yaml")
    return caught.value.problems


def one(text: str):
    found = problems(HEAD + text)
    assert len(found) == 1, found
    return found[0]


def test_a_good_section_gives_every_cell_with_both_strategies_applied():
    plan = plan_tournament(parse_scenario(HEAD + GOOD, "good.yaml"))
    assert [s.name for s in plan.rows] == ["tough", "plain"]
    assert [s.name for s in plan.columns] == ["sharp"]
    tough_sharp = plan.cells[0][0]
    stats = {c.name: c.stats for c in tough_sharp.combatants}
    assert stats["Red"].hp == 12 and stats["Blue"].to_hit == 35
    plain = {c.name: c.stats for c in plan.cells[1][0].combatants}
    assert plain["Red"].hp == 8 and plain["Blue"].to_hit == 35
    # A cell is a plain scenario: no strategies left to check in every worker.
    assert "strategies" not in tough_sharp.data


def test_an_unknown_path_is_reported_at_its_line():
    problem = one(GOOD.replace("sides.red.combatants.Red.hp", "sides.red.combatants.Rex.hp"))
    assert problem.file == "bad.yaml"
    assert problem.path == ("strategies", "red", "tough", "set", "sides.red.combatants.Rex.hp")
    assert problem.line == HEAD.count("\n") + 5
    assert "no item named 'Rex'" in problem.found and "in strategy 'tough'" in problem.found


def test_a_bad_value_is_reported_at_the_override_that_sets_it():
    problem = one(GOOD.replace("hp: 12", "hp: -4"))
    assert problem.path == ("strategies", "red", "tough", "set", "sides.red.combatants.Red.hp")
    assert problem.line == HEAD.count("\n") + 5


def test_an_empty_strategy_list_is_refused():
    text = GOOD.split("  blue:")[0] + "  blue: []\n"
    problem = one(text)
    assert problem.path == ("strategies", "blue")
    assert problem.found == "no strategies for blue"
    assert problem.line == HEAD.count("\n") + 8


def test_a_side_left_out_or_unknown():
    missing = one(GOOD.split("  blue:")[0])
    assert missing.path == ("strategies",) and "no strategies for blue" in missing.found
    unknown = problems(HEAD + GOOD + "  green:\n    - name: x\n      set: {}\n")
    assert [p.path for p in unknown] == [("strategies", "green")]
    assert "red, blue" in unknown[0].expected


def test_a_strategy_may_not_set_the_seed_nor_touch_the_other_side():
    seed = one(GOOD.replace("sides.red.combatants.Red.hp: 12", "seed: 4"))
    assert seed.path == ("strategies", "red", "tough", "set", "seed")
    assert "same seeds" in seed.expected
    other = one(GOOD.replace("sides.red.combatants.Red.hp", "sides.blue.combatants.Blue.hp"))
    assert other.path == ("strategies", "red", "tough", "set", "sides.blue.combatants.Blue.hp")
    assert "changing side blue" in other.found
    by_index = one(GOOD.replace("sides.red.combatants.Red.hp", "sides.1.combatants.0.hp"))
    assert "changing side blue" in by_index.found


def test_a_path_set_by_both_sides_is_refused():
    shared = GOOD.replace("sides.red.combatants.Red.hp: 12", "options.duplicates: reroll")
    shared = shared.replace("sides.blue.combatants.Blue.to_hit: 35", "options.duplicates: slide")
    problem = one(shared)
    assert problem.path == ("strategies", "blue", "sharp", "set", "options.duplicates")
    assert "set by both red/tough against blue/sharp" in problem.found


def test_duplicate_names_and_bad_names():
    problem = one(GOOD.replace("name: plain", "name: tough"))
    assert problem.path == ("strategies", "red", 1, "name")
    bad = one(GOOD.replace("name: plain", "name: 'two words'"))
    assert bad.path == ("strategies", "red", "two words", "name")


def test_three_sides_are_refused_with_a_clear_message():
    text = HEAD + "  - name: green\n    combatants:\n      - {name: Green, hp: 8}\n" + GOOD
    (problem,) = problems(text)
    assert problem.path == ("strategies",)
    assert "3 sides" in problem.found and "two-player game" in problem.expected


def test_the_command_refuses_bad_input_with_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + GOOD.replace("Red.hp", "Red.hitpoints"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["tournament", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert f"{bad}:{HEAD.count(chr(10)) + 5}: strategies.red.tough.set" in result.output
    assert "Traceback" not in result.output
    none = tmp_path / "none.yaml"
    none.write_text(HEAD, encoding="utf-8")
    result = CliRunner().invoke(cli, ["tournament", str(none), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "no strategies: section" in result.output


@pytest.mark.parametrize(
    "name", ["t10-tactics-tournament", "p3-forms-tournament", "acs-builds-tournament"]
)
def test_the_bundled_tournaments_load(name):
    scenario = load_scenario(SCENARIOS / f"{name}.yaml")
    rows, columns = strategies_of(scenario)
    assert len(rows) == len(columns) == 3
    assert scenario.description
