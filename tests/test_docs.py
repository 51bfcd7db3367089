"""The project's standing promises: README commands, credits, CI, and documented options."""

from __future__ import annotations

import re
from pathlib import Path

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


# -- links and the table of bundled scenarios ----------------------------------------------------

PAGES = [ROOT / "README.md", ROOT / "CREDITS.md", *sorted((ROOT / "docs").rglob("*.md"))]
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")


def _prose(text: str, spans: bool = False) -> str:
    """A page without its fenced blocks (and inline code, unless ``spans``), where a ``[x](y)``
    is not a link and a ``# line`` is not a heading."""
    kept, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        kept.append("" if fenced else line if spans else _CODE_SPAN.sub("", line))
    return "\n".join(kept)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text in lower case, punctuation dropped, spaces
    as hyphens (``## Addresses: in errors`` -> ``addresses-in-errors``)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading anchor of a page (a repeated heading gets ``-1``, ``-2``, as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(page.read_text(encoding="utf-8"), spans=True).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        anchor = github_anchor(match[1])
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """The links of a page to a file or heading that does not exist."""
    broken = []
    for match in _LINK.finditer(_prose(page.read_text(encoding="utf-8"))):
        target = match["target"]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
            broken.append(f"{target}: no heading with that anchor in {linked.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_between_the_pages_finds_its_file_and_heading(page):
    assert not broken_links(page), broken_links(page)


def test_the_link_check_finds_a_broken_anchor(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Addresses: in errors and in overrides\n\n## The `sweep:` section\n\n"
        "[a](#addresses-in-errors-and-in-overrides) [b](#the-sweep-section) [c](#overrides)\n"
        "[d](missing.md) `[e](not-a-link.md)`\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "#overrides: no heading with that anchor in page.md",
        "missing.md: no such file",
    ]


def test_the_readme_lists_every_bundled_scenario():
    section = README[README.index("Bundled scenarios") :]
    section = section[: section.index("\n\n## ")]
    listed = set(re.findall(r"^\| `([^`]+\.yaml)` \|", section, re.M))
    bundled = {path.name for path in (ROOT / "scenarios").glob("*.yaml")}
    assert listed == bundled, (
        f"missing from the README's table: {sorted(bundled - listed)}; "
        f"listed but not bundled: {sorted(listed - bundled)}"
    )
