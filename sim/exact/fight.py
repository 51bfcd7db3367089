"""The exact fight of a scenario: which chain plays it, and its solution.

Each rule system that has a chain offers a builder here (:data:`BUILDERS`): it reads a loaded
scenario, refuses what its chain does not play (:class:`~sim.exact.errors.NotExact`, with the
reason) and gives a :class:`Chain`. :func:`exact_fight` checks the chain's estimated number of
states against the cap before solving it (:class:`~sim.exact.chain.TooManyStates`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Protocol

from sim.engine.distribution import Distribution
from sim.exact import acs, prop3, target10, target10_luckless, target10_team
from sim.exact.chain import STATE_CAP, Ending, Solution, TooManyStates, solve
from sim.exact.errors import NotExact
from sim.exact.weights import Weights
from sim.scenario.schema import Scenario


class Chain(Protocol):
    """A fight as a chain: its first state's law, a step's law, the time limit's ending."""

    @property
    def steps(self) -> int:
        """Steps the time limit allows."""

    @property
    def step_s(self) -> Fraction:
        """Game seconds of one step (a round, a second)."""

    def estimate(self) -> int:
        """How many live states the chain may meet (before solving it)."""

    def cap(self) -> int:
        """The most estimated states this chain solves in reasonable time (its own limit)."""

    def start(self) -> Distribution[Any] | Weights[Any]:
        """The law of the first state."""

    def step(self, state: Any) -> Distribution[Any] | Weights[Any]:
        """The law of the state after one step (a state, or an :class:`Ending`)."""

    def timeout(self, state: Any) -> Ending:
        """The ending of a fight still going at the time limit."""


#: Each rule system's chain builder, by the rule system's name.
BUILDERS: dict[str, Callable[[Scenario], Chain]] = {
    "target10": target10_team.team,
    "acs": acs.duel,
    "prop3": prop3.duel,
}


@dataclass(frozen=True)
class ExactFight:
    """A scenario's fight solved exactly.

    Attributes:
        solution: the endings and their chances (:class:`~sim.exact.chain.Solution`).
        step_s: game seconds of one step.
        time_limit_s: the scenario's time limit (the length of a fight that reaches it).
    """

    solution: Solution
    step_s: Fraction
    time_limit_s: Fraction

    def duration_s(self, ending: Ending, step: int) -> Fraction:
        """The game seconds a fight ending so during ``step`` lasted, as the engine records it."""
        if ending.reason == "time_limit":
            return self.time_limit_s
        return ending.length(step) * self.step_s

    def durations_s(self) -> Weights[Fraction]:
        """The exact law of the fight's length in game seconds, as the engine records it.

        As whole-number weights (:meth:`~sim.exact.chain.Solution.weighted_timeline`).
        """
        law = self.ends_and_durations_s()
        return law.map(lambda where: where[1])

    def ends_and_durations_s(self) -> Weights[tuple[str, Fraction]]:
        """The exact law of how the fight ended (its ``reason``) and its length in game seconds.

        As whole-number weights (:meth:`~sim.exact.chain.Solution.weighted_timeline`): one
        timeline answers both questions.
        """
        timeline = self.solution.weighted_timeline(
            lambda e: replace(e, winner=None, survivors=(), hp_left=())
        )
        return Weights.merged(
            timeline.denominator,
            (
                ((ending.reason, self.duration_s(ending, step)), w)
                for (ending, step), w in timeline.pairs
            ),
        )


def chain_for(scenario: Scenario) -> Chain:
    """The chain of a scenario's fight.

    Raises:
        NotExact: no chain plays this scenario (the reason says why).
    """
    build = BUILDERS.get(scenario.system.name)
    if build is None:
        raise NotExact(f"no exact chain for the rule system {scenario.system.name!r}")
    return build(scenario)


def check_cap(scenario: Scenario, chain: Chain, cap: int = STATE_CAP) -> None:
    """Refuse a chain whose estimate is over ``cap`` or its own cap, before solving anything.

    Raises:
        TooManyStates: over the lower of the two (``exact_cap`` says what ``--exact`` solves).
    """
    own = min(STATE_CAP, chain.cap())
    estimate = chain.estimate()
    if estimate > min(cap, own):
        raise TooManyStates(estimate, min(cap, own), f"for {scenario.name}", exact_cap=own)


def exact_fight(scenario: Scenario, cap: int = STATE_CAP) -> ExactFight:
    """Solve a scenario's fight exactly.

    Raises:
        NotExact: no chain plays this scenario.
        TooManyStates: its chain would need more than ``cap`` states (sample it instead).
    """
    chain = chain_for(scenario)
    check_cap(scenario, chain, cap)
    if isinstance(chain, target10.Duel) and target10_luckless.applies(chain):
        solution = target10_luckless.solve(chain)
    else:
        solution = solve(chain.start(), chain.step, chain.steps, chain.timeout, cap)
    limit = Fraction(scenario.time_limit_s).limit_denominator(10**6)
    return ExactFight(solution, chain.step_s, limit)


__all__ = [
    "BUILDERS",
    "Chain",
    "ExactFight",
    "NotExact",
    "TooManyStates",
    "chain_for",
    "check_cap",
    "exact_fight",
]
