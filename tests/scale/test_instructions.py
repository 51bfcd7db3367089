"""``benchmarks/instructions.py``: what it plays under callgrind and how it reads the count.

Valgrind itself is not needed here (nor on CI): these check the player the counts are made of,
the reading of callgrind's report, and the clear exit without valgrind.
"""

from __future__ import annotations

import pytest

from benchmarks import count_play, driver, instructions
from tests.conftest import ROOT

T10 = ROOT / "scenarios" / "t10-cole-vs-francois.yaml"


def test_the_engine_plays_the_references_combats():
    assert count_play.play(T10, "engine", 2, 3) == 5


def test_the_bare_loop_is_played_from_its_file(monkeypatch):
    assert count_play.play(ROOT / "benchmarks" / "bare_target10.py", "bare", 1, 2) == 3


def test_the_counted_combats_are_the_benchs():
    # count_play keeps its own copy of the bench's seed so as not to import the driver (and
    # pandas) under callgrind: the two must not drift apart.
    assert count_play.SEED == driver.SEED


def test_callgrinds_count_is_read_from_its_report():
    report = "==12== Events    : Ir\n==12== Collected : 123456789\n==12==\n==12== I   refs: 1"
    assert instructions.collected(report) == 123_456_789
    with pytest.raises(RuntimeError, match="no count"):
        instructions.collected("valgrind: command not found")


def test_without_valgrind_it_says_so_and_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main(["--only", "target10"]) == 2
    assert "valgrind is not on the PATH" in capsys.readouterr().err
