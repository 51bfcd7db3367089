"""The ``sweep:`` section: its values, and a clear error (file, path, line; exit 2) when wrong."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from analysis.sweep import plan_sweep
from sim.cli.app import cli
from sim.scenario.loader import load_scenario
from sim.scenario.problems import ScenarioError
from tests.conftest import SCENARIOS

BASE = """\
name: swept
rules: acs
runs: 50
seed: 3
templates:
  unused: {hp: 5}
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


def write(tmp_path, sweep: str):
    path = tmp_path / "swept.yaml"
    path.write_text(BASE + textwrap.dedent(sweep), encoding="utf-8")
    return path


def problems(tmp_path, sweep: str):
    path = write(tmp_path, sweep)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return path, info.value.problems


@pytest.mark.parametrize("name", ["acs-duel-hp-sweep.yaml", "acs-goblin-ambush-sweep.yaml"])
def test_bundled_sweeps_are_valid(name):
    plan = plan_sweep(SCENARIOS / name)
    assert plan.points and len(plan.parameters) in (1, 2)


def test_range_includes_its_last_value_and_the_grid_is_the_product(tmp_path):
    path = write(
        tmp_path,
        """\
        sweep:
          runs: 20
          parameters:
            - path: sides.red.combatants.A.hp
              label: red hp
              range: {first: 4, last: 12, step: 4}
            - path: options.duplicates
              values: [slide, reroll]
        """,
    )
    plan = plan_sweep(path)
    assert plan.runs == 20
    assert plan.labels == ["red hp", "options.duplicates"]
    assert [p.settings for p in plan.points] == [
        (4, "slide"), (4, "reroll"), (8, "slide"), (8, "reroll"), (12, "slide"), (12, "reroll"),
    ]  # fmt: skip
    assert [c.stats.hp for c in plan.points[2].scenario.combatants] == [8, 10]
    assert plan.points[1].scenario.options.duplicates == "reroll"


def test_a_value_that_makes_a_bad_scenario_names_its_own_line(tmp_path):
    path, found = problems(
        tmp_path,
        """\
        sweep:
          parameters:
            - path: sides.red.combatants.A.hp
              values:
                - 5
                - 0
        """,
    )
    assert len(found) == 1
    problem = found[0]
    assert problem.file == str(path)
    assert problem.path == ("sweep", "parameters", 0, "values", 1)
    assert problem.line == 21  # the line of "- 0"
    assert "0 for sides.red.combatants.A.hp" in problem.found
    assert "at least 1" in problem.expected


@pytest.mark.parametrize(
    ("sweep", "where", "words"),
    [
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.Z.hp\n      values: [1, 2]\n",
            "sweep.parameters[0].path",
            "no item named 'Z'",
        ),
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n      valuse: [1]\n",
            "sweep.parameters[0].valuse",
            "did you mean 'values'",
        ),
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n"
            "      values: [1]\n      range: {first: 1, last: 3}\n",
            "sweep.parameters[0]",
            "not both",
        ),
        (
            "sweep:\n  parameters:\n    - path: seed\n      values: [1, 2]\n",
            "sweep.parameters[0].path",
            "common random numbers",
        ),
        (
            "sweep:\n  parameters:\n    - path: templates.unused.hp\n      values: [1, 2]\n",
            "sweep.parameters[0].path",
            "changes nothing",
        ),
        (
            "sweep:\n  parameters:\n    - path: options.duplicate\n      values: [slide]\n",
            "sweep.parameters[0].values[0]",
            "did you mean 'duplicates'",
        ),
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n"
            "      range: {first: 9, last: 3}\n",
            "sweep.parameters[0].range",
            "at least first",
        ),
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n"
            "      label: winner\n      values: [1, 2]\n",
            "sweep.parameters[0].label",
            "outcome tables use",
        ),
        (
            "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n      values: [1, 1]\n",
            "sweep.parameters[0].values",
            "each value once",
        ),
        (
            "sweep:\n  parameters:\n"
            + "".join(f"    - path: sides.{s}.combatants.0.hp\n      values: [1]\n" for s in "ABC")
            .replace("sides.A", "sides.red")
            .replace("sides.B", "sides.blue")
            .replace("sides.C", "sides.0"),
            "sweep.parameters",
            "two (a heat map)",
        ),
        ("sweep:\n  runs: 0\n  parameters: []\n", "sweep.parameters", "at least 1"),
    ],
)
def test_bad_sweep_sections_are_explained(tmp_path, sweep, where, words):
    path, found = problems(tmp_path, sweep)
    text = "\n".join(str(p) for p in found)
    assert any(str(p).startswith(f"{path}:") and where in str(p) for p in found), text
    assert words in text
    assert all(p.line is not None for p in found), text


@pytest.mark.parametrize("command", ["validate", "sweep"])
def test_the_cli_refuses_a_bad_sweep_with_exit_2_and_no_traceback(tmp_path, command):
    path = write(
        tmp_path,
        "sweep:\n  parameters:\n    - path: sides.red.combatants.A.hp\n      values: [3, -1]\n",
    )
    result = CliRunner().invoke(cli, [command, str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{path}:19: sweep.parameters[0].values[1]" in result.output


def test_sweep_without_a_sweep_section_says_so(tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text(BASE, encoding="utf-8")
    result = CliRunner().invoke(cli, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "no sweep: section" in result.output
    assert not (tmp_path / "out").exists()
