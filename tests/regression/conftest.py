"""Helpers of the regression-check tests: the bundled tweaks scenario and a CLI runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from tests.conftest import SCENARIOS

TWEAKS = SCENARIOS / "acs-duel-tweaks.yaml"


def run_cli(*args):
    """Invoke ``combatsim`` in-process; the result has ``exit_code``, ``stdout``, ``stderr``."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_clean_exit(result, code: int) -> None:
    """The command ended with ``code`` on purpose: no traceback, no stray exception."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


@pytest.fixture
def tweaks_copy(tmp_path) -> Path:
    """A copy of the bundled tweaks scenario in a scratch directory."""
    target = tmp_path / TWEAKS.name
    shutil.copy(TWEAKS, target)
    return target
