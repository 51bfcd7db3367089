"""The project's standing promises: README commands, credits, CI, and documented options."""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel

from sim.rules import RULE_SYSTEMS
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands():
    commands = [line.strip() for line in README.splitlines()[1:6] if line.startswith("    ")]
    assert len(commands) == 2
    run, test = commands
    assert "pip install" in run and re.search(r"combatsim run scenarios/\S+\.yaml", run)
    assert "pip install" in test and "pytest" in test
    scenario = re.search(r"combatsim run (scenarios/\S+\.yaml)", run).group(1)
    assert (ROOT / scenario).is_file()
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_ambition_combat_system_is_credited():
    head = "\n".join(README.splitlines()[:15])
    assert "The Ambition Combat System" in head
    credits = (ROOT / "CREDITS.md").read_text(encoding="utf-8")
    assert "The Ambition Combat System" in credits
    assert "Raven c.s. McCracken" in credits and "2007" in credits
    assert "Target 10" in credits and "Combat Proposition Three" in credits


def _fields(model: type[BaseModel]) -> set[str]:
    names = set()
    for name, field in model.model_fields.items():
        names.add(name)
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            names |= _fields(annotation)
    return names


DOCS = {"acs": "acs.md"}


@pytest.mark.parametrize("name", sorted(RULE_SYSTEMS))
def test_every_option_and_stat_is_documented(name):
    system = RULE_SYSTEMS[name]
    doc = (ROOT / "docs" / "rules" / DOCS.get(name, f"{name}.md")).read_text(encoding="utf-8")
    options = system.options_model({})
    names = _fields(options) | _fields(system.combatant_model(options.model_validate({})))
    missing = sorted(n for n in names if f"`{n}`" not in doc)
    assert not missing, f"undocumented in docs/rules for {name}: {missing}"
    for field_name, field in options.model_fields.items():
        default = field.default
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert re.search(rf"`{field_name}`[^\n]*\(`?{re.escape(shown)}", doc), (
            f"default of option {field_name} ({shown}) not stated next to it in the docs"
        )
