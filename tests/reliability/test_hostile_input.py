"""Hostile input of issue 27: keys that are not text, terminal escapes, odd files, a killed worker.

Each test here failed on main before its fix: a traceback, an escape sequence printed to the
terminal, a command that never returned, or a traceback with no hint of what to do next.
"""

from __future__ import annotations

import dataclasses
import io
import re

import pytest

from sim.cli.app import VisibleStream
from sim.engine.text import ANY_CONTROL, visible
from sim.run.api import replay
from sim.scenario.loader import load_scenario, parse_scenario, scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.conftest import SCENARIOS
from tests.reliability.support import DUEL, invoke

TWEAKS = SCENARIOS / "acs-duel-tweaks.yaml"
#: A control character a terminal would act on (C0 but tab and newline, DEL, C1).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _no_raw_control(output: str) -> None:
    assert not RAW_CONTROL.search(output), repr(output)


# -- 3. a key that is not text ---------------------------------------------------------------------


@pytest.mark.parametrize("key", ["true", "5", "1.5", "~", "on"])
@pytest.mark.parametrize("command", ["validate", "run", "compare"])
def test_a_variant_set_key_that_is_not_text_is_a_problem(tmp_path, command, key):
    text = DUEL.read_text(encoding="utf-8") + f"variants:\n  - name: v1\n    set: {{{key}: 5}}\n"
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.count("\n")
    args = [command, path] + (["--runs", "20", "--workers", "1"] if command != "validate" else [])
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert f"{path}:{line}: variants[0].set.{key}: found the key {key}, which YAML reads as" in (
        result.output
    )


def test_a_key_that_is_not_text_in_data_is_a_problem_too():
    """Data given as a dict (the library) and overrides are checked as a file is."""
    data = {**load_scenario(DUEL).data, "options": {True: 5}}
    with pytest.raises(ScenarioError, match=r"options\.True: found the key True"):
        scenario_from_dict(data)
    with pytest.raises(ScenarioError, match=r"True is not a dotted path"):
        load_scenario(DUEL, overrides={True: 5})


# -- 5. terminal escapes ------------------------------------------------------------------------


ESCAPED = r'"ACS duel\e]0;pwned\a"'


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("scenario", "name: ACS duel tweaks\n", f"name: {ESCAPED}\n"),
        ("combatant", "- name: Red swordsman\n", f"- name: {ESCAPED}\n"),
        ("description", "description: The even", r'description: "\x9b2J" #'),
        ("key", "  duplicates: slide", r'  "dup\rlicates": slide'),
    ],
)
def test_an_escaped_control_character_is_refused_with_a_located_problem(tmp_path, where, old, new):
    source = TWEAKS.read_text(encoding="utf-8")
    assert old in source
    path = tmp_path / "tweaks.yaml"
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    for command in (["validate", path], ["run", path, "--runs", "20"], ["compare", path]):
        result = invoke(command)
        assert result.exit_code == 2, (command, result.output)
        assert "control character" in result.output, result.output
        _no_raw_control(result.output)
    line = source[: source.index(old)].count("\n") + 1
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    [problem] = caught.value.problems
    assert problem.line == line and "printable characters" in problem.expected


def test_a_name_with_a_newline_or_tab_is_refused_and_a_description_may_hold_them():
    text = DUEL.read_text(encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"control character \\t"):
        parse_scenario(text.replace("name: ACS duel\n", 'name: "ACS\\tduel"\n'), "x")
    described = text.replace("description: Two", 'description: "Two\\n\\tlines:" #', 1)
    assert "\t" in parse_scenario(described, "x").description


def test_the_visible_function_shows_control_characters_and_keeps_layout():
    assert visible("a\x1b]0;x\x07b\tc\nd\r\x7f\x9b") == "a\\x1b]0;x\\x07b\tc\nd\\r\\x7f\\x9b"
    assert visible("a\tb\n", ANY_CONTROL) == "a\\tb\\n"
    assert visible("名前 [bold]x[/bold] é") == "名前 [bold]x[/bold] é"


def test_the_narration_shows_a_name_it_is_given_visibly():
    """The library's replay text, not only the command line, is safe to print."""
    scenario = dataclasses.replace(load_scenario(DUEL), name="duel\x1b]0;pwned\x07")
    text = replay(scenario, 1, seed=1)
    _no_raw_control(text.replace("\n", ""))
    assert text.startswith("duel\\x1b]0;pwned\\x07: combat 1")


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "x\x1b]0;pwned\x07.yaml"],
        ["run", "x\x1b]0;pwned\x07.yaml"],
        ["run", DUEL, "--runs", "x\x1b[2J\x07"],
        ["replay", DUEL, "--combat", "\x1b]0;pwned\x07"],
        ["compare", DUEL, "x\x1b]0;pwned\x07.yaml"],
        ["check", "x\x1b]0;pwned\x07"],
    ],
)
def test_every_message_shows_control_characters_of_what_it_quotes(args):
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "\\x1b" in result.output
    _no_raw_control(result.output)


def test_on_a_terminal_only_the_styles_rich_draws_pass():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    VisibleStream(out, r"\x1b\[[0-9;]*m").write("\x1b[1mbold\x1b[0m \x1b]0;t\x07\r\x1b[1A")
    assert out.getvalue() == "\x1b[1mbold\x1b[0m \\x1b]0;t\\x07\\r\\x1b[1A"
    plain = VisibleStream(io.StringIO(), r"\x1b\[[0-9;]*m")
    plain.write("\x1b[1mbold")
    assert plain._stream.getvalue() == "\\x1b[1mbold"


def test_a_run_table_and_replay_print_no_control_character():
    for args in (["run", DUEL, "--runs", "20"], ["replay", DUEL, "--combat", "3"]):
        result = invoke(args)
        assert result.exit_code == 0, result.output
        _no_raw_control(result.output)


def test_refused_names_are_said_with_the_escape_written_visibly(tmp_path):
    path = tmp_path / "duel.yaml"
    text = DUEL.read_text(encoding="utf-8").replace("name: ACS duel\n", f"name: {ESCAPED}\n")
    path.write_text(text, encoding="utf-8")
    result = invoke(["validate", path])
    assert result.exit_code == 2
    output = result.output
    assert r'found a name holding the control character \x1b ("ACS duel\x1b]0;pwned\x07")' in (
        output
    )
