"""Shared fixtures of the workbench's tests: a working folder, the app in-process, a live server."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sim.web.app import Workbench, make_app
from sim.web.guard import TOKEN_HEADER
from sim.web.workspace import Workspace
from tests.conftest import ROOT, SCENARIOS

#: The Host header of Starlette's TestClient.
TEST_HOST = "testserver"
TOKEN = "test-token-0123456789"
#: Scenarios copied into every working folder of these tests.
COPIED = ("acs-duel.yaml", "acs-duel-tweaks.yaml")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A working folder with two scenario files of the designer's own."""
    root = tmp_path / "work"
    (root / "scenarios").mkdir(parents=True)
    for name in COPIED:
        shutil.copy(SCENARIOS / name, root / "scenarios" / name)
    return root


@pytest.fixture
def bench(folder: Path) -> Workbench:
    return Workbench(Workspace(folder), TOKEN)


@pytest.fixture
def client(bench: Workbench) -> Iterator[TestClient]:
    """The app in-process, its token in every request (``headers={...}`` to leave it out)."""
    app = make_app(bench, frozenset({TEST_HOST}))
    with TestClient(app, headers={TOKEN_HEADER: TOKEN}) as test_client:
        yield test_client


def wait_for(client: TestClient, number: str, timeout: float = 120.0) -> dict:
    """The job once it has finished (or the test fails)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{number}").json()
        if job["state"] not in ("waiting", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {number} did not finish in {timeout} s")


@dataclass
class Served:
    """A ``combatsim serve`` running in a process of its own."""

    process: subprocess.Popen
    url: str
    folder: Path
    stderr: Path

    def stop(self) -> int:
        """Stop it as Ctrl-C does; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(2)  # SIGINT
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode


def start_server(folder: Path, *extra: str, log: Path | None = None) -> Served:
    """``combatsim serve FOLDER --port 0``, once it prints its address."""
    stderr = log or folder.parent / "serve.stderr"
    process = subprocess.Popen(
        [sys.executable, "-m", "sim", "serve", str(folder), "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=stderr.open("w"),
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"(http://\S+/)", line)
    if not found:
        process.kill()
        raise AssertionError(f"no address printed: {line!r}; {stderr.read_text()}")
    return Served(process, found.group(1), folder, stderr)


@pytest.fixture
def server(folder: Path) -> Iterator[Served]:
    served = start_server(folder)
    try:
        yield served
    finally:
        served.stop()
