"""Shared results directories for the analysis tests: a run, a one- and a two-parameter sweep.

Each is played once per session with a fixed seed and a few hundred combats, so the plot and
report tests read real results without paying for them again.
"""

from __future__ import annotations

import pytest

from analysis.sweep import Parameter, plan_sweep, run_sweep
from sim import simulate
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"
HP_SWEEP = SCENARIOS / "acs-duel-hp-sweep.yaml"
GOBLIN_SWEEP = SCENARIOS / "acs-goblin-ambush-sweep.yaml"


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory):
    """A plain run saved the way ``combatsim run --out --detail`` saves it (no meta.json)."""
    directory = tmp_path_factory.mktemp("run")
    simulate(DUEL, runs=400, seed=3, detail=True).save(directory)
    return directory


@pytest.fixture(scope="session")
def hp_sweep():
    """The bundled hit point sweep, 200 combats a point."""
    return run_sweep(plan_sweep(HP_SWEEP), runs=200, seed=2, detail=True)


@pytest.fixture(scope="session")
def hp_sweep_dir(tmp_path_factory, hp_sweep):
    directory = tmp_path_factory.mktemp("hp-sweep")
    hp_sweep.save(directory, csv=True)
    return directory


@pytest.fixture(scope="session")
def grid_sweep_dir(tmp_path_factory):
    """A small two-parameter sweep of the bundled goblin ambush (6 points, 60 combats each)."""
    plan = plan_sweep(
        GOBLIN_SWEEP,
        [
            Parameter("goblins", "sides.goblins.combatants.goblin.count", (6, 8, 10)),
            Parameter("guard defense", "sides.guards.combatants.guard.defense", (20, 40)),
        ],
    )
    directory = tmp_path_factory.mktemp("grid-sweep")
    run_sweep(plan, runs=60, seed=4).save(directory)
    return directory
