"""The balance charts are documented: help on every command, the README section and its picture."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from tests.conftest import ROOT

COMMANDS = ["sweep", "plot", "balance", "report"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_analysis_command_has_help(command):
    result = CliRunner().invoke(cli, [command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output and len(result.output.splitlines()) > 5


def test_readme_has_a_balance_charts_section_with_a_picture():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Balance charts", 1)[1].split("\n## ", 1)[0]
    for command in COMMANDS:
        assert f"combatsim {command}" in section
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+\.png)\)", section)
    assert pictures
    for picture in pictures:
        assert (ROOT / picture).stat().st_size > 10_000
    assert "docs/analysis.md" in section


def test_the_analysis_doc_covers_each_command_and_its_pictures_exist():
    doc = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"## `combatsim {command}`" in doc or f"combatsim {command}`" in doc
    for picture in re.findall(r"!\[[^\]]+\]\(([^)]+)\)", doc):
        assert (ROOT / "docs" / picture).is_file()
    for scenario in re.findall(r"\]\(\.\./(scenarios/[^)]+)\)", doc):
        assert (ROOT / scenario).is_file()
