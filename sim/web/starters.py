"""Starter scenarios for a new file, one per rule system (and per hybrid on the ACS clock).

**Seam.** The ``combatsim new RULES`` templates (another piece of work) are to be the starters;
until they are on main, a starter is the simplest bundled scenario of that rule system, opened
read-only and saved under a new name in the working folder.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.web.workspace import BUNDLED, BUNDLED_PREFIX

#: The bundled scenario each starter copies: (rules as the page shows them, file).
STARTER_FILES = (
    ("ACS (The Ambition Combat System)", "acs-duel.yaml"),
    ("Target 10", "t10-cole-vs-francois.yaml"),
    ("Combat Proposition Three", "p3-moonbelly-vs-kronzer.yaml"),
    ("Target 10 attacks on the ACS clock", "t10-hybrid-acs-duel.yaml"),
    ("Proposition Three attacks on the ACS clock", "p3-hybrid-duel.yaml"),
)


@dataclass(frozen=True)
class Starter:
    """A starter: what the page calls it and the file it opens (``bundled:NAME``)."""

    label: str
    path: str


def starters() -> list[Starter]:
    """The starters at hand (none when the bundled scenarios are not installed)."""
    return [
        Starter(label, BUNDLED_PREFIX + name)
        for label, name in STARTER_FILES
        if (BUNDLED / name).is_file()
    ]
