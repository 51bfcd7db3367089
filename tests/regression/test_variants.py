"""A scenario's variants: loading, applying, and clear errors (file, path, line) for bad ones."""

from __future__ import annotations

import textwrap

import pytest

from sim.scenario import schema, variants
from sim.scenario.loader import load_scenario, scenario_from_dict
from sim.scenario.problems import ScenarioError
from sim.scenario.variants import arms, variant_names, variant_scenario
from tests.conftest import SCENARIOS, acs_scenario
from tests.regression.conftest import TWEAKS, assert_clean_exit, run_cli

HEAD = """\
name: variants under test
rules: acs
sides:
  - name: red
    combatants:
      - name: Knight
        hp: 20
        to_hit: 45
  - name: blue
    combatants:
      - name: Brute
        hp: 20
variants:
"""


def write(tmp_path, variants_text: str):
    path = tmp_path / "variants.yaml"
    path.write_text(HEAD + textwrap.dedent(variants_text), encoding="utf-8")
    return path


def problems_of(tmp_path, variants_text: str):
    path = write(tmp_path, variants_text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return path, info.value.problems


def line_of(path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_the_name_pattern_is_the_schemas():
    assert variants.NAME_PATTERN == schema.NAME_PATTERN


def test_bundled_tweaks_load_with_their_variants():
    scenario = load_scenario(TWEAKS)
    assert variant_names(scenario) == [
        "control",
        "red-plus3",
        "reroll-duplicates",
        "no-free-action",
    ]
    chosen = arms(scenario)
    assert list(chosen) == ["base", *variant_names(scenario)]
    assert chosen["base"] is scenario
    plus3 = chosen["red-plus3"]
    assert plus3.combatants[0].stats.attack_bonus == 3
    assert plus3.combatants[1].stats.attack_bonus == 0
    assert plus3.option_values() == scenario.option_values()
    assert chosen["reroll-duplicates"].options.duplicates == "reroll"
    assert chosen["no-free-action"].options.winner_free_action is False
    assert chosen["control"].option_values() == scenario.option_values()
    assert all(a.seed == scenario.seed and a.runs == scenario.runs for a in chosen.values())


def test_a_variant_may_set_options_and_tactics_the_file_leaves_out(tmp_path):
    path = write(
        tmp_path,
        """\
        - name: tweak
          set:
            options.duplicates: reroll
            sides.red.combatants.Knight.tactics.target: strongest
        """,
    )
    scenario = load_scenario(path)
    assert "options" not in scenario.data
    tweak = variant_scenario(scenario, "tweak")
    assert tweak.options.duplicates == "reroll"
    assert tweak.combatants[0].stats.tactics.target == "strongest"


def test_templates_and_counts_can_be_varied():
    data = acs_scenario([{"name": "goblin", "template": "g", "count": 2}], [{"name": "B", "hp": 9}])
    data["templates"] = {"g": {"hp": 4, "damage": "1d4"}}
    data["variants"] = [
        {"name": "more", "set": {"sides.red.combatants.goblin.count": 5, "templates.g.hp": 6}}
    ]
    more = variant_scenario(scenario_from_dict(data), "more")
    goblins = [c for c in more.combatants if c.side == 0]
    assert len(goblins) == 5 and all(c.stats.hp == 6 for c in goblins)


def test_unknown_variant_name_is_a_clear_problem():
    scenario = load_scenario(TWEAKS)
    with pytest.raises(ScenarioError) as info:
        arms(scenario, ["nope"])
    (problem,) = info.value.problems
    assert "no variant named 'nope'" in problem.found
    assert "red-plus3" in problem.expected


@pytest.mark.parametrize(
    ("variants_text", "marker", "found", "expected"),
    [
        (
            """\
            - name: ghost
              set:
                sides.red.combatants.Nobody.hp: 3
            """,
            "Nobody",
            "no item named 'Nobody'",
            "a path to a value",
        ),
        (
            """\
            - name: negative
              set:
                sides.red.combatants.Knight.hp: -3
            """,
            "hp: -3",
            "-3 (in variant 'negative'",
            "hit points of at least 1",
        ),
        (
            """\
            - name: typo
              set:
                options.duplicate: reroll
            """,
            "duplicate:",
            "unknown key 'duplicate'",
            "did you mean 'duplicates'?",
        ),
        (
            """\
            - name: bad-option
              set:
                options.duplicates: sometimes
            """,
            "sometimes",
            "'sometimes' (in variant 'bad-option')",
            "'slide' or 'reroll'",
        ),
        (
            """\
            - name: reseeded
              set:
                seed: 4
            """,
            "seed: 4",
            "a variant setting 'seed'",
            "every variant plays the base's seed",
        ),
        (
            """\
            - name: renamed
              set:
                sides.blue.name: green
            """,
            "set:",
            "sides red, green",
            "the base's sides (red, blue)",
        ),
        (
            """\
            - name: base
              set: {}
            """,
            "name: base",
            "the name 'base'",
            "'base' is the scenario itself",
        ),
        (
            """\
            - name: twice
            - name: twice
            """,
            "name: twice",
            "variant name 'twice' again",
            "a name not used by variant 0",
        ),
        (
            """\
            - name: 3rd
            """,
            "name: 3rd",
            "'3rd'",
            "a short name",
        ),
        (
            """\
            - name: loose
              sett: {}
            """,
            "sett",
            "unknown key 'sett'",
            "did you mean 'set'?",
        ),
    ],
)
def test_bad_variants_name_file_path_and_line(tmp_path, variants_text, marker, found, expected):
    path, problems = problems_of(tmp_path, variants_text)
    assert len(problems) == 1, problems
    (problem,) = problems
    assert problem.file == str(path)
    assert problem.path[0] == "variants"
    assert found in problem.found
    assert expected in problem.expected
    lines = path.read_text(encoding="utf-8").splitlines()
    marked = [i for i, line in enumerate(lines, 1) if marker in line and i > HEAD.count("\n")]
    assert problem.line in marked, (problem, marked)


def test_every_problem_of_several_variants_is_reported(tmp_path):
    path, problems = problems_of(
        tmp_path,
        """\
        - name: one
          set:
            sides.red.combatants.Knight.hpp: 3
        - name: two
          set:
            sides.red.combatants.Knight.defense: 140
        """,
    )
    assert [p.path[:2] for p in problems] == [("variants", "one"), ("variants", "two")]
    assert problems[0].path[-1] == "sides.red.combatants.Knight.hpp"
    assert problems[0].line == line_of(path, "Knight.hpp")
    assert "did you mean 'hp'?" in problems[0].expected
    assert problems[1].line == line_of(path, "defense: 140")
    assert "140" in problems[1].found


def test_validate_and_compare_refuse_a_bad_variant_with_exit_2(tmp_path):
    path = write(
        tmp_path,
        """\
        - name: typo
          set:
            options.duplicate: reroll
        """,
    )
    for command in (["validate", path], ["compare", path, "--runs", 10]):
        result = run_cli(*command)
        assert_clean_exit(result, 2)
        assert f"{path}:{line_of(path, 'duplicate:')}" in result.stderr
        assert "variants.typo.set.options.duplicate" in result.stderr


def test_compare_refuses_an_unknown_variant_and_a_file_without_variants():
    result = run_cli("compare", TWEAKS, "--variant", "nope", "--runs", 10)
    assert_clean_exit(result, 2)
    assert "no variant named 'nope'" in result.stderr
    result = run_cli("compare", SCENARIOS / "acs-duel.yaml", "--runs", 10)
    assert_clean_exit(result, 2)
    assert "no variants" in result.stderr


def test_compare_refuses_files_with_other_sides(tmp_path):
    other = tmp_path / "other.yaml"
    text = (SCENARIOS / "acs-duel.yaml").read_text(encoding="utf-8")
    other.write_text(text.replace("name: blue", "name: green"), encoding="utf-8")
    result = run_cli("compare", SCENARIOS / "acs-duel.yaml", other, "--runs", 10)
    assert_clean_exit(result, 2)
    assert "sides red, green" in result.stderr


def test_compare_refuses_runs_with_precision():
    result = run_cli("compare", TWEAKS, "--runs", 10, "--precision", 0.01)
    assert_clean_exit(result, 2)
    assert "not both" in result.output
