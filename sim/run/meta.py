"""How a set of results was made (``meta.json``): the scenario, its rules, the run, the tool.

One record for every kind of results folder, sampled or exact (an exact one has no seed and no
runs, and says ``"method": "exact"``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from sim.run.store import json_ready, scenario_record
from sim.run.version import __version__
from sim.scenario.schema import Scenario


def run_meta(
    scenario: Scenario, seed: int | None, runs: int | None, kind: str = "run", **extra: Any
) -> dict[str, Any]:
    """How a set of results was made, JSON-ready (written as ``meta.json``).

    It says what ``scenario.yaml`` is (:func:`sim.run.store.scenario_record`): the file as
    written, and the values set on top of it.
    """
    return json_ready(
        {
            "kind": kind,
            "scenario": scenario.name,
            "file": scenario.file,
            "rules": scenario.rules,
            "options": scenario.option_values(),
            "time_limit_s": scenario.time_limit_s,
            "side_names": list(scenario.side_names),
            "seed": seed,
            "runs": runs,
            **scenario_record(scenario),
            **made_with(),
            **extra,
        }
    )


def made_with() -> dict[str, str]:
    """The combatsim version and the time, for a ``meta.json``."""
    try:
        combatsim_version = version("combatsim")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        combatsim_version = __version__
    return {
        "combatsim_version": combatsim_version,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


__all__ = ["made_with", "run_meta"]
