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
