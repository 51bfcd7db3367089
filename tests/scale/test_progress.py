"""The progress bar: on stderr when it is a terminal, never otherwise (or with --quiet)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from sim.progress import NoProgress, RunProgress, progress_bar, wanted
from tests.conftest import ROOT, SCENARIOS

DUEL = str(SCENARIOS / "acs-duel.yaml")
RUN = [sys.executable, "-m", "sim", "run", DUEL]


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_off_when_stderr_is_not_a_terminal():
    done = subprocess.run(
        [*RUN, "--runs", "3000", "--chunk-size", "500", "--workers", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert '"runs": 3000' in done.stdout


def test_wanted_only_for_a_terminal_and_when_not_quiet():
    assert not wanted(True, io.StringIO())
    assert wanted(True, FakeTerminal())
    assert not wanted(False, FakeTerminal())
    assert isinstance(progress_bar(10, stream=io.StringIO()), NoProgress)
    assert isinstance(progress_bar(10, enabled=False, stream=FakeTerminal()), NoProgress)


def test_the_bar_counts_combats_on_a_terminal():
    stream = FakeTerminal()
    with progress_bar(1000, done=200, stream=stream) as bar:
        assert isinstance(bar, RunProgress)
        bar.advance(500)
        bar.advance(300)
        bar._progress.refresh()
        shown = stream.getvalue()
    assert "1000/1000" in shown or "700/1000" in shown


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_run_draws_the_bar_on_a_terminal_and_not_with_quiet():
    def stderr_of(*extra):
        main, child = os.openpty()
        command = [sys.executable, "-m", "sim", "run", DUEL, "--runs", "6000"]
        process = subprocess.Popen(
            [*command, "--chunk-size", "200", "--workers", "2", "--json", *extra],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=child,
            text=True,
        )
        os.close(child)
        process.stdout.read()
        process.wait(timeout=120)
        seen = b""
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:
                break
            if not data:
                break
            seen += data
        os.close(main)
        return seen.decode("utf-8", "replace")

    assert "combats/s" in stderr_of()
    assert stderr_of("--quiet") == ""
