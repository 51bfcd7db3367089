"""``combatsim new``: a commented starter for every rule system and hybrid, which runs as it is."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from sim import load_scenario
from sim.cli.app import cli
from sim.cli.commands.new import STARTERS
from sim.rules import RULE_SYSTEMS

#: What each starter plays: its rule system and the resolution on the ACS clock.
PLAYS = {
    "acs": ("acs", "percentile"),
    "target10": ("target10", None),
    "prop3": ("prop3", None),
    "target10-on-acs": ("acs", "target10"),
    "prop3-on-acs": ("acs", "prop3"),
}


def test_there_is_a_starter_for_every_rule_system_and_every_hybrid():
    assert set(STARTERS) == set(PLAYS)
    assert {rules for rules, _ in PLAYS.values()} == set(RULE_SYSTEMS) - {"coinflip"}


@pytest.mark.parametrize("rules", sorted(PLAYS))
def test_the_starter_validates_runs_and_compares_as_written(rules, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(cli, ["new", rules, "my.yaml"])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "my.yaml").is_file() and "combatsim run my.yaml" in made.output
    scenario = load_scenario("my.yaml")
    system, resolution = PLAYS[rules]
    assert scenario.rules == system
    if resolution is not None:
        assert scenario.options.resolution == resolution
    assert runner.invoke(cli, ["validate", "my.yaml"]).exit_code == 0
    ran = runner.invoke(cli, ["run", "my.yaml", "--runs", "40", "--workers", "1"])
    assert ran.exit_code == 0, ran.output
    assert "win rate" in ran.stdout
    compared = runner.invoke(cli, ["compare", "my.yaml", "--runs", "40", "--workers", "1"])
    assert compared.exit_code == 0, compared.output


@pytest.mark.parametrize("rules", sorted(PLAYS))
def test_the_starter_says_what_its_keys_do(rules):
    result = CliRunner().invoke(cli, ["new", rules])
    assert result.exit_code == 0
    text = result.stdout
    data = yaml.safe_load(text)
    assert {"name", "rules", "runs", "seed", "time_limit", "sides", "variants"} <= set(data)
    commented = [line for line in text.splitlines() if "#" in line]
    assert len(commented) >= 10
    for key in ("runs:", "seed:", "time_limit:"):
        line = next(x for x in text.splitlines() if x.startswith(key))
        assert "#" in line, line  # every top-level number says what it means


def test_an_unknown_starter_gets_the_closest_name():
    result = CliRunner().invoke(cli, ["new", "Target-10"])
    assert result.exit_code == 2
    assert "(did you mean 'target10'?)" in result.stderr


def test_an_existing_file_is_kept_unless_forced(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\n", encoding="utf-8")
    kept = CliRunner().invoke(cli, ["new", "acs", str(path)])
    assert kept.exit_code == 2 and "exists already" in kept.stderr
    assert path.read_text(encoding="utf-8") == "name: mine\n"
    forced = CliRunner().invoke(cli, ["new", "acs", str(path), "--force"])
    assert forced.exit_code == 0 and "rules: acs" in path.read_text(encoding="utf-8")
    missing = CliRunner().invoke(cli, ["new", "acs", str(tmp_path / "no" / "x.yaml")])
    assert missing.exit_code == 2 and "no such folder" in missing.stderr
