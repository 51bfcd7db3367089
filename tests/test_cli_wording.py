"""What the command line writes reads right: side names, possessives, counts, notes, no padding.

Side names may be plural or singular (``knights``, ``red``), so a side is the subject of a verb
as "side NAME" ("side knights wins"), a possessive of a name ending in s takes only the
apostrophe ("knights' win rate"), and every count agrees with its noun ("1 nick, 2 wounds").
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from sim import load_scenario
from sim.cli.app import cli
from sim.engine.combat import TraceEvent
from sim.rules.acs.narration import CLOCK_NARRATION
from sim.rules.prop3.narration import NARRATION as PROP3
from sim.rules.target10.narration import NARRATION as TARGET10
from sim.rules.wording import counted, possessive, side
from sim.run.narrate import ENGINE_NARRATION
from sim.run.summary import DEFINITIONS
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"


def test_possessives_of_names_with_and_without_a_final_s():
    assert possessive("Kronzer") == "Kronzer's"
    assert possessive("knights") == "knights'"
    assert possessive("BOSS") == "BOSS'"


def test_counts_agree_with_their_nouns():
    assert [counted(n, "nick") for n in (0, 1, 2)] == ["0 nicks", "1 nick", "2 nicks"]
    assert counted(1, "more wiggle point") == "1 more wiggle point"
    assert counted(2, "foot", "feet") == "2 feet"
    assert counted(1.5, "pace") == "1.5 paces"


def test_a_winning_side_is_named_as_a_side():
    assert side("knights") == "side knights"
    end = TraceEvent(12, "end", data={"reason": "victory", "winner": "knights", "duration_s": 7})
    assert ENGINE_NARRATION["end"](end) == "The fight ends after 7 s: side knights wins."


def test_prop3_harm_says_nicks_and_wounds_in_the_singular_and_the_plural():
    harm = PROP3["harm"]
    one = TraceEvent(0, "harm", "hamster 1", "Tom", {"nicks": 1, "wounds": 1, "track": 0})
    assert harm(one) == "  Tom takes 1 nick and 1 wound from hamster 1; 0 nicks on its track"
    more = TraceEvent(0, "harm", "hamster 1", "Tom", {"nicks": 2, "wounds": 0, "track": 1})
    assert harm(more) == "  Tom takes 2 nicks from hamster 1; 1 nick on its track"
    armor = TraceEvent(0, "armor_save", "Jonas", data={"points": 1})
    assert PROP3["armor_save"](armor) == "  Jonas' armor gives 1 more wiggle point"


def test_possessives_in_the_other_rule_systems():
    lost = TraceEvent(0, "action_lost", "Boris", data={"moved_to": None, "segment": 4})
    assert CLOCK_NARRATION["action_lost"](lost) == "  Boris' action on segment 4 is lost (defended)"
    sleep = TraceEvent(0, "sleep", "Juan", data={"rounds": 1})
    assert TARGET10["sleep"](sleep) == "  Juan will wake after 1 round"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_no_replay_says_s_in_brackets_or_s_apostrophe_s(path):
    scenario = load_scenario(path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--combat", "0"])
    assert result.exit_code == 0, result.output
    assert "(s)" not in result.output
    assert not re.search(r"s's\b", result.output)
    for name in scenario.side_names:
        assert f": {name} wins." not in result.output


def test_replay_beyond_the_runs_says_so_and_replays_it():
    runs = load_scenario(DUEL).runs
    beyond = CliRunner().invoke(cli, ["replay", str(DUEL), "--combat", str(runs + 3000)])
    assert beyond.exit_code == 0
    assert f"combat {runs + 3000} lies beyond the {runs} runs of ACS duel" in beyond.stderr
    assert beyond.stdout.startswith(f"ACS duel: combat {runs + 3000} of seed")
    inside = CliRunner().invoke(cli, ["replay", str(DUEL), "--combat", str(runs - 1)])
    assert inside.exit_code == 0 and inside.stderr == ""


def test_the_run_table_has_no_trailing_blanks():
    result = CliRunner().invoke(cli, ["run", str(DUEL), "--runs", "50", "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "ACS duel — 50 combats, seed 1"
    assert all(line == line.rstrip() for line in lines)


def test_run_help_defines_every_column_of_the_table():
    """``run --help`` says what each column means, from the one table of definitions."""
    result = CliRunner().invoke(cli, ["run", "--help"], terminal_width=100)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for name, meaning in DEFINITIONS.items():
        assert f"{name}: {' '.join(meaning.split())}" in text, name


# -- one count, one noun; numbers refused in words; "did you mean" for the usual slips ----------


@pytest.mark.parametrize(
    ("command", "first_line"),
    [
        (["run", str(DUEL), "--runs", "1"], "ACS duel — 1 combat, seed 1"),
        (
            ["compare", str(SCENARIOS / "acs-duel-tweaks.yaml"), "--runs", "1"],
            "ACS duel tweaks — 1 paired combat per arm, seed 1",
        ),
    ],
)
def test_one_combat_is_said_in_the_singular(command, first_line):
    result = CliRunner().invoke(cli, [*command, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].rstrip() == first_line
    assert not re.search(r"\b1 [a-z ]*combats\b", result.stdout)


def test_a_count_of_any_size_is_written_in_full():
    assert counted(10**6, "combat") == "1000000 combats"
    assert counted(1.0, "round") == "1 round"


def test_an_empty_list_says_how_many_items_without_brackets(tmp_path):
    path = tmp_path / "one.yaml"
    path.write_text(
        "name: x\nrules: acs\nsides:\n  - name: a\n    combatants: [{name: A, hp: 5}]\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2
    assert "found 1 item; expected at least 2 items" in result.output
    assert "(s)" not in result.output


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--runs", "abc", "'abc' is not a whole number; expected a whole number from 1 to"),
        ("--runs", "0", "0 is out of range; expected a whole number from 1 to 1,000,000,000"),
        ("--seed", "-1", "-1 is out of range; expected a whole number from 0 to"),
        ("--precision", "x", "'x' is not a number; expected a number above 0 and at most 0.5"),
        ("--precision", "nan", "'nan' is not a number"),
    ],
)
def test_a_bad_number_is_refused_in_words(option, value, said):
    result = CliRunner().invoke(cli, ["run", str(DUEL), option, value])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
    assert "valid integer range" not in result.output and "float range" not in result.output


def _problems(tmp_path, rules: str, stats: str) -> str:
    path = tmp_path / "slip.yaml"
    path.write_text(
        f"name: x\nrules: {rules}\nsides:\n  - name: a\n    combatants: [{{name: A, {stats}}}]\n"
        f"  - name: b\n    combatants: [{{name: B, {stats}}}]\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    ("rules", "meant"),
    [("target-10", "target10"), ("Target10", "target10"), ("Target 10", "target10"),
     ("Prop3", "prop3"), ("Proposition Three", "prop3"), ("ACS", "acs")],
)  # fmt: skip
def test_a_misspelt_rule_system_gets_a_did_you_mean(tmp_path, rules, meant):
    said = _problems(tmp_path, f'"{rules}"', "hp: 5")
    assert f"(did you mean '{meant}'?)" in said, said


@pytest.mark.parametrize(
    ("rules", "stats", "meant"),
    [
        ("acs", "hitpoints: 5", "'hp', which holds the hit points here"),
        ("target10", "hit_points: 5", "'hp', which holds the hit points here"),
        ("prop3", "hp: 5", "'vigor', which holds the hit points here"),
        ("acs", "defence: 30, hp: 5", "'defense'"),
    ],
)
def test_a_word_for_hit_points_gets_the_rule_systems_own(tmp_path, rules, stats, meant):
    said = _problems(tmp_path, rules, stats)
    assert f"(did you mean {meant}?)" in said, said


def test_compare_never_cuts_a_variant_name(tmp_path):
    long = "no-free-action-for-the-ambition-winner"  # 38 characters, a valid name
    text = (SCENARIOS / "acs-duel-tweaks.yaml").read_text(encoding="utf-8")
    path = tmp_path / "long.yaml"
    path.write_text(text.replace("name: no-free-action", f"name: {long}"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["compare", str(path), "--runs", "20", "--workers", "1"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if long[:10] in line]
    assert len(rows) == 3 and all(long in row for row in rows)  # two sides, and whole combats
    assert "…" not in result.stdout
