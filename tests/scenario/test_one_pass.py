"""`validate` reports every problem of a file in one run, each addressed as an override would be.

Issue 12, items 4 to 6: errors in the base do not hide those of the variants and the sweep, one
variant's bad name does not hide another's bad path, a bad template is reported as itself (not
as the keys it would have given), and the path an error prints can be pasted into an override.
"""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from sim.engine.errors import format_path
from sim.scenario.loader import load_scenario, parse_scenario
from sim.scenario.problems import MAX_PROBLEMS_LISTED, ScenarioError

BASE = """\
name: knights
rules: acs
sides:
  - name: knights
    combatants:
      - name: knight
        hp: 12
      - name: squire
        hp: 8
  - name: goblins
    combatants:
      - name: goblin
        count: 3
        hp: 5
"""


def problems_of(text: str) -> list:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(textwrap.dedent(text), file="f.yaml")
    return info.value.problems


def printed(problems) -> list[str]:
    return [f"{format_path(p.path)}: {p.found}" for p in problems]


def test_base_variant_and_sweep_problems_come_together():
    text = (
        BASE.replace("runs", "x").replace("        hp: 8\n", "        hp: -3\n")
        + """\
variants:
  - name: bad name!
    set:
      options.duplicates: reroll
  - name: typo
    set:
      sides.knights.combatants.knight.hpp: 3
sweep:
  parameters:
    - path: sides.goblins.combatants.goblin.hp
      values: [4, 0]
"""
    )
    problems = problems_of(text)
    shown = printed(problems)
    # the base: the squire's hit points
    assert any(s.startswith("sides.knights.combatants.squire.hp: -3") for s in shown), shown
    # the first variant's name, and the second variant's path: neither hides the other
    assert any(s.startswith("variants.bad name!.name: 'bad name!'") for s in shown), shown
    typo = [p for p in problems if p.path[:2] == ("variants", "typo")]
    assert len(typo) == 1 and "did you mean 'hp'?" in typo[0].expected
    assert typo[0].line == 21
    # the sweep's bad value, on its own line, and not the base's problem again
    swept = [p for p in problems if p.path[:1] == ("sweep",)]
    assert [format_path(p.path) for p in swept] == ["sweep.parameters[0].values[1]"]
    assert "0 for sides.goblins.combatants.goblin.hp" in swept[0].found
    # the base's problem is reported once, not again for each variant and swept value
    assert sum("-3" in s for s in shown) == 1


def test_a_broken_top_level_still_gets_the_cross_field_checks():
    text = """\
    rules: prop3
    time_limit: 1
    sides:
      - name: a
        combatants:
          - {name: x, race: gerbil, vigor: 5, agility: 6}
      - name: b
        combatants:
          - {name: y, race: rat, vigor: 6, agility: 4}
    """
    found = {format_path(p.path) for p in problems_of(text)}
    assert {"name", "time_limit"} <= found, found


def test_a_bad_template_is_reported_as_itself_with_a_suggestion():
    text = BASE.replace("sides:", "templates:\n  brute:\n    hp: 10\nsides:").replace(
        "      - name: knight\n        hp: 12\n", "      - name: knight\n        template: brut\n"
    )
    problems = problems_of(text)
    assert printed(problems) == ["sides.knights.combatants.knight.template: 'brut'"]
    assert "did you mean 'brute'?" in problems[0].expected
    assert problems[0].line == 10


def test_a_bad_template_still_reports_the_entrys_own_wrong_keys():
    text = BASE.replace(
        "      - name: knight\n        hp: 12\n",
        "      - name: knight\n        template: ghost\n        hp: lots\n",
    )
    shown = printed(problems_of(text))
    assert len(shown) == 2, shown
    assert shown[0].startswith("sides.knights.combatants.knight.template")
    assert shown[1].startswith("sides.knights.combatants.knight.hp: 'lots'")


def test_an_unused_template_is_checked_too():
    text = BASE.replace("sides:", "templates:\n  spare:\n    hp: -2\n    hpp: 1\nsides:")
    found = sorted(format_path(p.path) for p in problems_of(text))
    assert found == ["templates.spare.hp", "templates.spare.hpp"]


def test_the_path_an_error_prints_is_an_override(tmp_path):
    path = tmp_path / "k.yaml"
    path.write_text(BASE.replace("        hp: 8\n", "        hp: 0\n"), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    (problem,) = info.value.problems
    address = format_path(problem.path)
    assert address == "sides.knights.combatants.squire.hp"
    fixed = load_scenario(path, {address: 9})
    assert [c.stats.hp for c in fixed.combatants][:2] == [12, 9]
    # a variant's set: takes it too; validate then finds only the base's problem
    path.write_text(
        path.read_text(encoding="utf-8")
        + f"variants:\n  - name: v\n    set:\n      {address}: -1\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2
    assert "variants.v.set.sides.knights.combatants.squire.hp: found -1" in result.output


def test_an_item_without_a_usable_name_is_addressed_by_index():
    text = BASE.replace(
        "      - name: squire\n        hp: 8\n", "      - name: knight\n        hp: 0\n"
    )
    problems = problems_of(text)
    shown = printed(problems)
    assert any(s.startswith("sides.knights.combatants[1].hp: 0") for s in shown), shown
    # the printed form, and the older bare index, both reach the second knight
    for address in ("sides.knights.combatants[1].hp", "sides.0.combatants.1.hp"):
        with pytest.raises(ScenarioError) as info:
            parse_scenario(BASE.replace("name: squire", "name: knight"), overrides={address: 0})
        (problem,) = info.value.problems
        assert format_path(problem.path) == "sides.knights.combatants[1].hp"


def test_a_misspelt_override_says_what_exists():
    with pytest.raises(ScenarioError) as info:
        parse_scenario(BASE, overrides={"sides.knights.combatants[7].hp": 3})
    (problem,) = info.value.problems
    assert "no item [7]" in problem.found and "(2 items)" in problem.found


def test_many_bad_variants_are_capped_and_counted():
    variants = "".join(
        f"  - name: v{k}\n    set:\n      sides.knights.combatants.knight.hp{k}: 1\n      "
        f"sides.knights.combatants.squire.x{k}: 1\n"
        for k in range(80)
    )
    problems = problems_of(BASE + "variants:\n" + variants)
    assert len(problems) == MAX_PROBLEMS_LISTED
    (note,) = [p for p in problems if "not all checked" in p.found]
    assert note.found.startswith("31 variants from here on") and note.path == ("variants", "v49")
    assert "hp49" in problems[-1].found  # the first problem of v49 is still listed


@pytest.mark.parametrize("sides", ["5", "{a: 1}", "[1, 2]", "null"])
def test_a_sweep_over_a_file_with_broken_sides_is_still_checked(sides):
    text = f"""\
    name: x
    rules: acs
    sides: {sides}
    sweep:
      parameters:
        - path: options.duplicates
          values: [slide, reroll]
        - path: nowhere.at.all
          values: [1, 2]
    """
    shown = printed(problems_of(text))
    assert any(s.startswith("sides") for s in shown), shown
    assert any(s.startswith("sweep.parameters[1].path: 'nowhere.at.all'") for s in shown), shown
