"""Every Target 10 rule function a test checks is one the engine calls (no test-only copies)."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

from sim.run.runner import run_chunk, trace_combat
from sim.scenario.loader import load_scenario
from tests.conftest import SCENARIOS

HERE = Path(__file__).parent
#: Exact calculators: the tests compare simulated rates with them; the engine rolls dice instead
#: (the exchange's law plays the engine's own :func:`resolve_attack` on every face).
REFERENCES = {
    "success_chance",
    "success_faces",
    "extended_chance",
    "contest_chance",
    "dice_law",
    "distribution",
}


def _tested_functions() -> dict[str, object]:
    """The functions (and classmethods) the Target 10 tests import from the rule package."""
    found: dict[str, object] = {}
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if not node.module.startswith("sim.rules.target10."):
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(module, alias.name)
                if inspect.isfunction(value) and alias.name not in REFERENCES:
                    found[f"{node.module}.{alias.name}"] = value
                elif inspect.isclass(value) and inspect.ismethod(getattr(value, "of", None)):
                    found[f"{node.module}.{alias.name}.of"] = value.of.__func__
    return found


def test_every_tested_rule_function_runs_in_the_bundled_scenarios():
    tested = _tested_functions()
    assert len(tested) >= 10  # the values, the combat test, damage, luck, tactics, test rolls
    codes = {fn.__code__: name for name, fn in tested.items()}
    called: set[str] = set()

    def watch(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            called.add(codes[frame.f_code])

    sys.setprofile(watch)
    try:
        for path in sorted(SCENARIOS.glob("t10-*.yaml")):
            scenario = load_scenario(path)
            run_chunk(scenario, 11, 0, 20)  # untraced
            trace_combat(scenario, 11, 0)  # traced
    finally:
        sys.setprofile(None)
    assert sorted(set(tested) - called) == []
