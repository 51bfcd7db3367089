"""The workbench starts at once: the heavy analysis stack is imported after the server listens."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_server_starts_without_scipy_matplotlib_or_pandas():
    code = (
        "import sys, sim.cli.commands.serve, sim.web.app; "
        "from sim.web.app import Workbench, make_app; from sim.web.workspace import Workspace; "
        "make_app(Workbench(Workspace('.'), 't'), frozenset()); "
        "print(sorted(m for m in ('scipy', 'matplotlib', 'pandas') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert found.stdout.strip() == "[]"


def test_the_page_ships_its_scripts_and_styles_in_the_package():
    static = ROOT / "sim" / "web" / "static"
    for name in ("app.js", "editor.js", "style.css"):
        assert (static / name).is_file(), name
    pages = "".join(p.read_text() for p in (ROOT / "sim" / "web" / "templates").glob("*.html"))
    # No script, style or font from anywhere else: the page works with no network.
    for tag in ("<script src=", '<link rel="stylesheet" href='):
        for part in pages.split(tag)[1:]:
            assert part.startswith('"/static/'), part[:60]
    assert "http://" not in pages and "https://" not in pages
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"sim.web" = ["templates/*.html", "static/*.js", "static/*.css"' in pyproject
