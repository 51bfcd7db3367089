"""combatsim: a discrete-event combat simulator for tabletop role-playing game designers.

Built on The Ambition Combat System (Raven c.s. McCracken, 2007) as its clock, with Target 10
and Combat Proposition Three as further rule systems. The public library:

- :func:`load_scenario`: read and validate a scenario file;
- :func:`simulate`: play N seeded combats and get the outcome table and summary;
- :func:`replay`: narrate one combat of a run;
- :func:`odds`: the exact odds of one exchange for every attacker and defender pair.
"""

from sim.exact.odds import odds
from sim.run.api import Execution, RunInterrupted, RunResult, Storage, replay, simulate
from sim.run.version import __version__
from sim.scenario.loader import load_scenario, parse_scenario
from sim.scenario.problems import Problem, ScenarioError

__all__ = [
    "Execution",
    "Problem",
    "RunInterrupted",
    "RunResult",
    "ScenarioError",
    "Storage",
    "__version__",
    "load_scenario",
    "odds",
    "parse_scenario",
    "replay",
    "simulate",
]
