"""Bad scenarios: every kind of mistake gets a clear error (file, path, line, found, expected),
exit code 2 from the CLI, and never a traceback."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from sim.cli import cli
from sim.scenario.loader import load_scenario
from sim.scenario.problems import ScenarioError

GOOD = """\
name: ok
rules: acs
sides:
  - name: red
    combatants:
      - name: A
        hp: 10
  - name: blue
    combatants:
      - name: B
        hp: 10
"""


def write(tmp_path, text, name="bad.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(tmp_path, text):
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return path, info.value.problems


def run_cli(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_good_scenario_loads(tmp_path):
    scenario = load_scenario(write(tmp_path, GOOD))
    assert [c.name for c in scenario.combatants] == ["A", "B"]


def test_yaml_syntax_error_names_line(tmp_path):
    path, problems = problems_of(tmp_path, "name: x\nrules: acs\nsides: [\n  {name: a\n")
    assert len(problems) == 1
    assert problems[0].file == str(path)
    assert problems[0].line is not None and problems[0].line >= 4
    assert "YAML syntax error" in problems[0].found


def test_unknown_key_names_path_line_and_suggests(tmp_path):
    text = GOOD.replace(
        "        hp: 10\n  - name: blue", "        hp: 10\n        hpp: 3\n  - name: blue"
    )
    _, problems = problems_of(tmp_path, text)
    (problem,) = problems
    assert problem.path == ("sides", 0, "combatants", 0, "hpp")
    assert problem.line == 8
    assert problem.found == "unknown key 'hpp'"
    assert "did you mean 'hp'?" in problem.expected


def test_stat_out_of_range(tmp_path):
    _, problems = problems_of(
        tmp_path,
        GOOD.replace("name: B\n        hp: 10", "name: B\n        hp: 10\n        defense: 140"),
    )
    (problem,) = problems
    assert problem.path == ("sides", 1, "combatants", 0, "defense")
    assert problem.line == 12
    assert problem.found == "140"
    assert "less than or equal to 100" in problem.expected


def test_bad_dice_notation(tmp_path):
    _, problems = problems_of(
        tmp_path,
        GOOD.replace("name: A\n        hp: 10", "name: A\n        hp: 10\n        damage: 2x6"),
    )
    (problem,) = problems
    assert problem.path[-1] == "damage"
    assert problem.found == "'2x6'"
    assert "dice notation" in problem.expected


def test_unknown_rules_and_unknown_option(tmp_path):
    _, problems = problems_of(tmp_path, GOOD.replace("rules: acs", "rules: acs2"))
    assert problems[0].path == ("rules",) and "acs" in problems[0].expected
    _, problems = problems_of(
        tmp_path, GOOD.replace("rules: acs", "rules: acs\noptions:\n  duplicate: slide")
    )
    (problem,) = problems
    assert problem.path == ("options", "duplicate")
    assert "did you mean 'duplicates'?" in problem.expected


def test_bad_option_value(tmp_path):
    _, problems = problems_of(
        tmp_path, GOOD.replace("rules: acs", "rules: acs\noptions:\n  duplicates: shove")
    )
    (problem,) = problems
    assert problem.path == ("options", "duplicates")
    assert problem.found == "'shove'"
    assert "'slide' or 'reroll'" in problem.expected


def test_missing_required_and_wrong_types_all_reported_at_once(tmp_path):
    text = """\
    rules: acs
    runs: many
    sides:
      - name: red
        combatants:
          - name: A
      - name: blue
        combatants:
          - name: B
            hp: 10
            actions: 0
    """
    _, problems = problems_of(tmp_path, text)
    found = {(p.path, p.found) for p in problems}
    assert (("name",), "nothing") in found
    assert (("runs",), "'many'") in found
    assert (("sides", 0, "combatants", 0, "hp"), "nothing") in found
    assert (("sides", 1, "combatants", 0, "actions"), "0") in found


def test_impossible_scenarios(tmp_path):
    one_side = GOOD[: GOOD.index("  - name: blue")]
    _, problems = problems_of(tmp_path, one_side)
    assert problems[0].path == ("sides",) and "at least 2" in problems[0].expected

    same_names = GOOD.replace("name: blue", "name: red")
    _, problems = problems_of(tmp_path, same_names)
    assert problems[0].path == ("sides", 1, "name")

    empty_side = GOOD.replace("      - name: B\n        hp: 10\n", "").replace(
        "name: blue\n    combatants:", "name: blue\n    combatants: []"
    )
    _, problems = problems_of(tmp_path, empty_side)
    assert problems[0].path == ("sides", 1, "combatants")


def test_duplicate_key_is_an_error(tmp_path):
    _, problems = problems_of(
        tmp_path,
        GOOD.replace(
            "        hp: 10\n  - name: blue", "        hp: 10\n        hp: 12\n  - name: blue"
        ),
    )
    (problem,) = problems
    assert problem.line == 8
    assert "a second time" in problem.found


def test_template_errors_point_at_the_template(tmp_path):
    text = GOOD.replace(
        "sides:", "templates:\n  brute:\n    hp: 10\n    dammage: 1d6\nsides:"
    ).replace("      - name: A\n        hp: 10", "      - name: A\n        template: brute")
    _, problems = problems_of(tmp_path, text)
    (problem,) = problems
    assert problem.path == ("templates", "brute", "dammage")
    assert problem.line == 6
    _, problems = problems_of(
        tmp_path,
        GOOD.replace("      - name: A\n        hp: 10", "      - name: A\n        template: ghost"),
    )
    template = [p for p in problems if p.path == ("sides", 0, "combatants", 0, "template")]
    assert template and template[0].found == "'ghost'"
    assert "none are defined" in template[0].expected


def test_count_expands_names_and_bad_count_is_reported(tmp_path):
    scenario = load_scenario(
        write(tmp_path, GOOD.replace("      - name: B\n", "      - name: B\n        count: 3\n"))
    )
    assert [c.name for c in scenario.combatants] == ["A", "B 1", "B 2", "B 3"]
    _, problems = problems_of(
        tmp_path, GOOD.replace("      - name: B\n", "      - name: B\n        count: -1\n")
    )
    assert problems[0].path == ("sides", 1, "combatants", 0, "count")


def test_not_a_mapping_and_empty_file(tmp_path):
    _, problems = problems_of(tmp_path, "- just\n- a list\n")
    assert "a mapping" in problems[0].expected
    _, problems = problems_of(tmp_path, "")
    assert problems[0].found == "an empty file"


@pytest.mark.parametrize("command", ["run", "validate", "replay"])
def test_cli_exit_code_2_and_no_traceback(tmp_path, command):
    path = write(tmp_path, GOOD.replace("hp: 10", "hp: -4", 1))
    args = [command, path] + (["--combat", "0"] if command == "replay" else [])
    result = run_cli(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    assert "sides[0].combatants[0].hp" in result.output
    assert f"{path}:7" in result.output


def test_cli_missing_file(tmp_path):
    result = run_cli("run", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_cli_validate_ok(tmp_path):
    result = run_cli("validate", write(tmp_path, GOOD))
    assert result.exit_code == 0
    assert result.output.strip().endswith(": ok")
