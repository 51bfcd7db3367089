"""Bad scenarios: every kind of mistake gets a clear error (file, path, line, found, expected),
exit code 2 from the CLI, and never a traceback."""

from __future__ import annotations

import math
import re
import textwrap

import pytest
import yaml
from click.testing import CliRunner

from sim.cli.app import cli
from sim.scenario import limits
from sim.scenario.loader import load_scenario, scenario_from_dict
from sim.scenario.problems import MAX_PROBLEMS_LISTED, ScenarioError
from tests.conftest import SCENARIOS
from tests.fuzz.harness import HANG_S, hang_guard

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
    assert problem.path == ("sides", "red", "combatants", "A", "hpp")
    assert problem.line == 8
    assert problem.found == "unknown key 'hpp'"
    assert "did you mean 'hp'?" in problem.expected


def test_stat_out_of_range(tmp_path):
    _, problems = problems_of(
        tmp_path,
        GOOD.replace("name: B\n        hp: 10", "name: B\n        hp: 10\n        defense: 140"),
    )
    (problem,) = problems
    assert problem.path == ("sides", "blue", "combatants", "B", "defense")
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
    assert (("sides", "red", "combatants", "A", "hp"), "nothing") in found
    assert (("sides", "blue", "combatants", "B", "actions"), "0") in found


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
    assert problems[0].path == ("sides", "blue", "combatants")


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
    template = [p for p in problems if p.path == ("sides", "red", "combatants", "A", "template")]
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
    assert problems[0].path == ("sides", "blue", "combatants", "B", "count")


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
    assert "sides.red.combatants.A.hp" in result.output
    assert f"{path}:7" in result.output


def test_cli_missing_file(tmp_path):
    result = run_cli("run", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_cli_validate_ok(tmp_path):
    result = run_cli("validate", write(tmp_path, GOOD))
    assert result.exit_code == 0
    assert result.output.strip().endswith(": ok")


# -- limits: no file can crash or hang the loader ----------------------------------------------


def raw_problems(tmp_path, raw: bytes):
    path = tmp_path / "limits.yaml"
    path.write_bytes(raw)
    with hang_guard(HANG_S), pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return str(path), info.value.problems


def only(problems):
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


def test_billion_laughs_is_refused_before_expansion(tmp_path):
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{k}: &l{k} [{', '.join([f'*l{k - 1}'] * 10)}]" for k in range(1, 10)]
    file, problems = raw_problems(tmp_path, (GOOD + "\n".join(lines) + "\n").encode())
    problem = only(problems)
    assert problem.file == file
    assert problem.path == ("lol4",) and problem.line == 16
    assert problem.found == "a value that expands to 111,111 values through its aliases"
    assert (
        problem.expected == f"at most {limits.MAX_NODES:,} values in a scenario, aliases expanded"
    )


@pytest.mark.parametrize(
    ("text", "path"),
    [("loop: &r [1, *r]\n", ("loop",)), ("loop: &r {a: {b: *r}}\n", ("loop",))],
)
def test_recursive_alias_is_refused(tmp_path, text, path):
    _, problems = raw_problems(tmp_path, (GOOD + text).encode())
    problem = only(problems)
    assert problem.path == path and problem.line == 12
    assert problem.found == "a recursive alias (a value that contains itself)"


def test_alias_count_is_limited(tmp_path):
    uses = ", ".join(["*a"] * (limits.MAX_ALIASES + 1))
    _, problems = raw_problems(tmp_path, (GOOD + f"x: &a 1\ny: [{uses}]\n").encode())
    assert only(problems).found == f"more than {limits.MAX_ALIASES:,} aliases (*name)"


@pytest.mark.parametrize("depth", [limits.MAX_DEPTH, 5000, 100_000])
def test_deep_nesting_is_refused(tmp_path, depth):
    nested = "{a: " * depth + "1" + "}" * depth
    _, problems = raw_problems(tmp_path, (GOOD + f"deep: {nested}\n").encode())
    problem = only(problems)
    assert problem.line == 12
    assert "nest" in problem.found


def test_nesting_just_under_the_limit_is_read(tmp_path):
    # 38 levels under deep: plus the top level: the file's own nesting stays within the limit,
    # so the only problem is the unknown key.
    nested = "[" * (limits.MAX_DEPTH - 2) + "]" * (limits.MAX_DEPTH - 2)
    _, problems = raw_problems(tmp_path, (GOOD + f"deep: {nested}\n").encode())
    assert only(problems).found == "unknown key 'deep'"


def test_unknown_keys_are_refused_at_once_and_the_list_is_capped(tmp_path):
    # 8 combatants with 998 unknown keys each: 7,984 problems, collected in linear time.
    entries = "".join(
        f"      - name: X{k}\n        hp: 3\n"
        + "".join(f"        junk{j}: 1\n" for j in range(limits.MAX_KEYS - 2))
        for k in range(8)
    )
    text = GOOD.replace(
        "      - name: B\n        hp: 10\n", "      - name: B\n        hp: 10\n" + entries
    )
    _, problems = raw_problems(tmp_path, text.encode())
    assert len(problems) == MAX_PROBLEMS_LISTED + 1
    assert problems[0].found == "unknown key 'junk0'" and problems[0].line == 14
    assert problems[-1].found == f"{8 * 998 - MAX_PROBLEMS_LISTED:,} more problems, not listed"


def test_too_many_keys_in_one_mapping(tmp_path):
    keys = "".join(f"k{i}: 1\n" for i in range(16_000))
    _, problems = raw_problems(tmp_path, (GOOD + keys).encode())
    problem = only(problems)
    assert problem.line == 12 + limits.MAX_KEYS - 3  # the first key past the limit
    assert problem.found == f"a mapping of more than {limits.MAX_KEYS:,} keys"


def test_file_size_is_limited(tmp_path):
    raw = GOOD.encode() + b"# " + b"x" * limits.MAX_FILE_BYTES + b"\n"
    _, problems = raw_problems(tmp_path, raw)
    assert only(problems).found == f"a file of more than {limits.MAX_FILE_BYTES:,} bytes"


@pytest.mark.parametrize(
    ("extra", "found"),
    [
        ("x: " + "9" * 5000, "a number written with 5,000 characters"),
        ("x: '" + "y" * 20_000 + "'", "a text of 20,000 characters"),
        ("x: !!timestamp hello", "'hello', which is not a valid timestamp (AttributeError)"),
        ("x: !!int abc", "'abc', which is not a valid int (ValueError)"),
    ],
)
def test_values_yaml_cannot_hold_are_located(tmp_path, extra, found):
    _, problems = raw_problems(tmp_path, (GOOD + extra + "\n").encode())
    problem = only(problems)
    assert problem.path == ("x",) and problem.line == 12
    assert problem.found == found


@pytest.mark.parametrize(
    ("raw", "line", "found"),
    [
        (GOOD.encode().replace(b"name: B", b"name: \x00B"), 10, "the character U+0000"),
        (GOOD.encode().replace(b"name: B", b"name: \x07B"), 10, "the character U+0007"),
        (GOOD.encode("utf-16"), 1, "bytes that are not UTF-8"),
        (GOOD.encode().replace(b"name: B", b"name: \xffB"), 10, "bytes that are not UTF-8"),
    ],
)
def test_control_characters_and_other_encodings_are_located(tmp_path, raw, line, found):
    _, problems = raw_problems(tmp_path, raw)
    problem = only(problems)
    assert problem.line == line
    assert problem.found.startswith(found)


@pytest.mark.parametrize(
    ("hp", "found"),
    [
        ("1.0e+30", "1e+30"),
        (".nan", "nan"),
        (".inf", "inf"),
        ("-.inf", "-inf"),
        ("10000000000000000000000000000000", "1e+31"),
    ],
)
def test_numbers_past_what_the_tables_hold_are_refused(tmp_path, hp, found):
    _, problems = raw_problems(tmp_path, GOOD.replace("hp: 10", f"hp: {hp}", 1).encode())
    problem = only(problems)
    assert problem.path == ("sides", "red", "combatants", "A", "hp") and problem.line == 7
    assert problem.found == found


def test_hit_points_as_dice_text_are_bounded(tmp_path):
    _, problems = raw_problems(tmp_path, GOOD.replace("hp: 10", "hp: 1d6+9999999999", 1).encode())
    assert "within ±1,000,000,000" in only(problems).expected
    big = load_scenario(write(tmp_path, GOOD.replace("hp: 10", "hp: 1000000000", 1)))
    assert big.combatants[0].stats.hp == 10**9


def test_the_seed_may_use_all_64_bits(tmp_path):
    seed = 2**63 - 1
    assert load_scenario(write(tmp_path, GOOD + f"seed: {seed}\n")).seed == seed
    _, problems = raw_problems(tmp_path, (GOOD + f"seed: {seed + 1}\n").encode())
    assert only(problems).path == ("seed",)


def test_resolution_given_as_a_mapping_is_a_problem(tmp_path):
    text = GOOD.replace("rules: acs", "rules: acs\noptions:\n  resolution: {a: 1}")
    _, problems = raw_problems(tmp_path, text.encode())
    problem = only(problems)
    assert problem.path == ("options", "resolution") and problem.line == 4


@pytest.mark.parametrize("template", ["[a, b]", "{a: 1}"])
def test_template_of_the_wrong_type_is_a_problem(tmp_path, template):
    text = GOOD.replace("      - name: A\n", f"      - name: A\n        template: {template}\n")
    _, problems = raw_problems(tmp_path, text.encode())
    problem = only(problems)
    assert problem.path == ("sides", "red", "combatants", "A", "template") and problem.line == 7


def test_counts_are_not_expanded_past_the_combatant_limit(tmp_path):
    entries = "".join(
        f"      - name: C{k}\n        hp: 3\n        count: 1000\n" for k in range(50)
    )
    text = GOOD.replace(
        "      - name: B\n        hp: 10\n", "      - name: B\n        hp: 10\n" + entries
    )
    _, problems = raw_problems(tmp_path, text.encode())
    problem = only(problems)
    assert problem.found == "50002 combatants" and problem.path == ("sides",)


def test_cross_field_problems_carry_the_line_of_their_key(tmp_path):
    text = (SCENARIOS / "p3-moonbelly-vs-kronzer.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^time_limit: .*$", "time_limit: 1", text)
    if "time_limit: 1" not in text:
        text = text.replace("rules: prop3", "rules: prop3\ntime_limit: 1")
    _, problems = raw_problems(tmp_path, text.encode())
    problem = only(problems)
    assert problem.path == ("time_limit",)
    lines = text.splitlines()
    assert lines[problem.line - 1].startswith("time_limit:")


def test_data_given_as_a_dict_is_bounded_too():
    data = yaml.safe_load(GOOD)
    loop: list = []
    loop.append(loop)
    data["description"] = loop
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data)
    assert "nested more than" in only(info.value.problems).found
    data = yaml.safe_load(GOOD)
    data["sides"][0]["combatants"][0]["hp"] = math.inf
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data)
    assert only(info.value.problems).expected == "a finite number"


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_a_name_with_rich_markup_is_printed_as_written(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)  # sweep writes its results next to where it runs
    text = GOOD.replace("name: ok", "name: 'duel [/] [bold]x'") + (
        "sweep:\n  parameters:\n    - path: sides.red.combatants.0.hp\n      values: [5, 10]\n"
    )
    result = run_cli(command, write(tmp_path, text), "--runs", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "duel [/] [bold]x — " in result.output
