"""`combatsim schema`: the JSON Schema of scenario files, and the copy the bundled ones point at.

The schema is built from the loader's models, so these tests hold it to what the loader does:
every bundled scenario (found by glob, so new ones are covered) validates against the committed
schema, a broken one does not, and the committed file is what the command prints now.
"""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from sim.cli.app import cli
from sim.rules import RuleRegistry, built_in_rule_systems
from sim.scenario.editor_schema import MODELINE, SCHEMA_FILE, scenario_schema, schema_text
from tests.conftest import ROOT, SCENARIOS
from tests.plugins.test_plugins import COINFLIP, combatsim, install

BUNDLED = sorted(SCENARIOS.glob("*.yaml"))
COMMITTED = ROOT / SCHEMA_FILE


def built_ins() -> RuleRegistry:
    """The built-in rule systems alone: the committed schema does not depend on plug-ins."""
    return RuleRegistry(built_in_rule_systems, discover=lambda group: [])


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(validator, data) -> list[str]:
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)
    ]


def test_the_committed_schema_is_what_the_command_prints():
    registry = built_ins()
    expected = schema_text(scenario_schema(registry, registry.resolutions))
    assert COMMITTED.read_text(encoding="utf-8") == expected, (
        "schema/scenario.schema.json is stale: run  combatsim schema > schema/scenario.schema.json"
    )
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    assert result.output == expected


def test_there_are_bundled_scenarios():
    assert len(BUNDLED) >= 10


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_scenario_points_at_the_schema_and_passes_it(path, validator):
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == MODELINE, f"{path.name}: its first line should be {MODELINE}"
    assert (path.parent / MODELINE.split("$schema=")[1]).resolve() == COMMITTED.resolve()
    assert errors(validator, yaml.safe_load(text)) == []


def acs_duel() -> dict:
    return yaml.safe_load((SCENARIOS / "acs-duel.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d["sides"][0]["combatants"][0].update(hpp=3), "sides.0.combatants.0", "hpp"),
        (lambda d: d.update(options={"duplicates": "rerol"}), "options.duplicates", "rerol"),
        (lambda d: d.update(rules="acs2"), "rules", "acs2"),
        (lambda d: d["sides"][1]["combatants"][0].pop("hp"), "sides.1.combatants.0", "'hp'"),
        (lambda d: d.update(runs=0), "runs", "0"),
        (lambda d: d.update(colour="red"), "", "colour"),
        # a Target 10 stat in an ACS scenario: the stat block follows rules:
        (lambda d: d["sides"][0]["combatants"][0].update(luck=2), "sides.0.combatants.0", "luck"),
    ],
)
def test_a_broken_scenario_fails_the_schema(validator, change, where, words):
    data = acs_duel()
    assert errors(validator, data) == []
    change(data)
    found = errors(validator, data)
    assert any(e.startswith(f"{where}:") and words in e for e in found), found


def test_an_option_that_picks_the_stat_block_picks_it_in_the_schema(validator):
    data = acs_duel()
    hybrid = copy.deepcopy(data)
    hybrid["options"] = {"resolution": "prop3"}
    # the percentile stat block is not a Proposition Three one
    assert any("'to_hit'" in e for e in errors(validator, hybrid))
    hybrid = yaml.safe_load((SCENARIOS / "p3-hybrid-duel.yaml").read_text(encoding="utf-8"))
    assert errors(validator, hybrid) == []
    hybrid["sides"][0]["combatants"][0]["vigor"] = "lots"
    assert any("lots" in e for e in errors(validator, hybrid))


def test_a_template_may_leave_keys_out_and_an_entry_using_it_too(validator):
    data = acs_duel()
    entry = data["sides"][0]["combatants"][0]
    data["templates"] = {"sword": {"hp": entry.pop("hp")}}
    entry["template"] = "sword"
    assert errors(validator, data) == []
    data["templates"]["sword"]["hp"] = [10]
    assert any(e.startswith("templates.sword.hp") for e in errors(validator, data))


def test_descriptions_and_defaults_are_in_the_schema():
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert "draw" in schema["properties"]["time_limit"]["description"]
    options = schema["$defs"]["acs.AcsOptions_percentile"]["properties"]
    assert options["duplicates"]["default"] == "slide"
    assert options["duplicates"]["enum"] == ["slide", "reroll"]
    prop3 = schema["$defs"]["prop3.Prop3Options"]["properties"]
    assert prop3["round_s"]["default"] == 6.0
    assert all("description" in field for field in options.values()), options


def test_one_rule_system_alone():
    result = CliRunner().invoke(cli, ["schema", "--rules", "prop3"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["properties"]["rules"]["enum"] == ["prop3"]
    assert not [name for name in schema["$defs"] if name.startswith(("acs.", "target10."))]
    wrong = CliRunner().invoke(cli, ["schema", "--rules", "nope"])
    assert wrong.exit_code == 2 and "acs, target10, prop3" in wrong.output


def test_a_plug_in_rule_system_is_in_the_schema(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    install(site, COINFLIP)
    done = combatsim(site, "schema", "--rules", "coinflip", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema["properties"]["rules"]["enum"] == ["coinflip"]
    options = schema["$defs"]["coinflip.CoinOptions"]["properties"]
    assert options["heads_chance"]["default"] == 0.5
    coin = {
        "name": "coins",
        "rules": "coinflip",
        "sides": [
            {"name": "a", "combatants": [{"name": "x", "hp": 3}]},
            {"name": "b", "combatants": [{"name": "y", "hpp": 3}]},
        ],
    }
    found = errors(jsonschema.Draft202012Validator(schema), coin)
    assert len(found) == 1 and "hpp" in found[0]
