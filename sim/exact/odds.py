"""The exact odds of one exchange for every pair of a scenario, and the exchanges a take-out needs.

Issue 23 item 1 (``combatsim odds``, :func:`sim.odds`): for each :class:`~sim.exact.matchups.
Matchup` of a scenario, what one exchange does, read from the rule system's own exact law:

- ``outcomes``: the chance of each outcome of one exchange, in the system's words (Target 10:
  ``miss``, ``miss (Defend)``, ``hit: kill``, ``hit: subdue``, a hit by luck; Proposition Three:
  ``hit``, ``critical hit``, ``crit reduced``, ``defended``, ``critical defense``, ``fumble``;
  ACS: ``miss``, ``hit``, ``defended``);
- ``lost_action``: on the ACS clock, the chance that the defender rolls a defense (what costs it
  the action of its segment, ACS "Defense-induced action loss"); None in rounds;
- ``damage``: the law of the damage one exchange deals (hit points; Proposition Three: nicks, a
  wound counting ``nicks_per_wound``), 0 for every exchange that deals none;
- ``takes_out``: the chance that the first exchange of the fight takes the defender out;
- ``exchanges``: the expected number of this attacker's exchanges, one after another, until the
  defender is out, from the defender's hit points (rolled by their dice) and luck or damage
  track: the mean of a chain over the matchup's stakes (:meth:`~sim.exact.matchups.Matchup.step`)
  solved exactly. None when the exchange can never take the defender out (an action that deals
  no damage, a to-hit number no face reaches). It counts this attacker's exchanges only: what
  the defender does meanwhile, and the after-effects of fumbles or critical defenses, are the
  fight's (the exact fights of issue 23 item 2).

Every probability is an exact :class:`~fractions.Fraction`; :meth:`ScenarioOdds.to_json` gives
each as its fraction string and its float.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from sim.exact.matchups import SYSTEM_TITLES, Matchup, NoExactOdds, Side, matchups
from sim.rules.prop3.exchange import Verdict
from sim.rules.target10.actions import ACTION_WORDS
from sim.rules.target10.exchange import AttackOutcome
from sim.scenario.loader import load_scenario
from sim.scenario.schema import Scenario
from sim.scenario.variants import BASE, arms

__all__ = ["NoExactOdds", "Odds", "ScenarioOdds", "fraction_json", "odds", "scenario_odds"]


@dataclass(frozen=True)
class Odds:
    """What one exchange of one matchup does, exactly (see the module's list)."""

    matchup: Matchup
    outcomes: tuple[tuple[str, Fraction], ...]
    lost_action: Fraction | None
    damage: tuple[tuple[int, Fraction], ...]
    damage_unit: str
    mean_damage: Fraction
    takes_out: Fraction
    exchanges: Fraction | None


@dataclass(frozen=True)
class ScenarioOdds:
    """The odds of every matchup of one scenario (or of one of its variants)."""

    scenario: str
    variant: str
    system: str
    combatants: tuple[Side, ...]
    odds: tuple[Odds, ...]

    @property
    def title(self) -> str:
        """The rule system's (or hybrid's) name."""
        return SYSTEM_TITLES[self.system]

    def to_json(self) -> dict[str, Any]:
        """Plain data: every probability as ``{"fraction": "13/20", "float": 0.65}``."""
        return {
            "scenario": self.scenario,
            "variant": self.variant,
            "system": self.system,
            "title": self.title,
            "combatants": [
                {"name": c.name, "side": c.side, "values": dict(c.values)} for c in self.combatants
            ],
            "matchups": [_odds_json(o) for o in self.odds],
        }


def fraction_json(p: Fraction | None) -> dict[str, Any] | None:
    """A probability or mean as JSON: the exact fraction's string and its float (None stays)."""
    if p is None:
        return None
    return {"fraction": str(p), "float": float(p)}


def _odds_json(o: Odds) -> dict[str, Any]:
    m = o.matchup
    return {
        "attacker": m.attacker.name,
        "defender": m.defender.name,
        "way": m.way,
        "chosen": m.chosen,
        "values": dict(m.values),
        "outcomes": {name: fraction_json(p) for name, p in o.outcomes},
        "lost_action": fraction_json(o.lost_action),
        "damage_unit": o.damage_unit,
        "damage": [{"amount": amount, "p": fraction_json(p)} for amount, p in o.damage],
        "mean_damage": fraction_json(o.mean_damage),
        "takes_out": fraction_json(o.takes_out),
        "exchanges": fraction_json(o.exchanges),
    }


# -- reading the systems' outcomes ---------------------------------------------------------------


def _t10_word(o: AttackOutcome) -> str:
    if not o.hit:
        return "miss (Defend)" if o.parried else "miss"
    word = f"hit: {ACTION_WORDS[o.effect]}" if o.effect in range(len(ACTION_WORDS)) else "hit"
    if o.push:
        word = "hit: push" if word == "hit: none" else f"{word} and push"
    return f"{word} (luck)" if o.lucky else word


def _acs_word(r: Any) -> str:
    return "defended" if r.defended else ("hit" if r.hit else "miss")


def _prop3_word(v: Verdict) -> str:
    return str(v.outcome.value).replace("_", " ")  # critical_hit: "critical hit"


#: How each system's outcomes are worded, and whether a defense roll costs an action (the clock).
_WORDS: Mapping[str, tuple[Callable[[Any], str], bool]] = {
    "target10": (_t10_word, False),
    "acs+target10": (_t10_word, True),
    "prop3": (_prop3_word, False),
    "acs+prop3": (_prop3_word, True),
    "acs": (_acs_word, True),
}


# -- the number of exchanges to take the defender out --------------------------------------------


def expected_exchanges(m: Matchup) -> Fraction | None:
    """The exact mean number of exchanges until the defender is out (None: never certain).

    Each state's mean is ``(1 + sum of p * mean of each other state) / (1 - p of staying)``; a
    blow only ever lowers the stakes (hit points, luck, points) or leaves them as they are, so
    the states form a chain without loops but staying put, solved from the out states up.
    """
    memo: dict[Hashable, Fraction | None] = {}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        total = Fraction(0)
        for state, p in m.start():
            mean = _mean(m, state, memo)
            if mean is None:
                return None
            total += p * mean
        return total
    finally:
        sys.setrecursionlimit(limit)


def _mean(m: Matchup, state: Hashable, memo: dict[Hashable, Fraction | None]) -> Fraction | None:
    if state in memo:
        return memo[state]
    if cast(Any, state).out:
        memo[state] = Fraction(0)
        return Fraction(0)
    stay = Fraction(0)
    rest = Fraction(1)
    mean: Fraction | None = None
    for after, p in m.step(state):
        if after == state:
            stay += p
            continue
        later = _mean(m, after, memo)
        if later is None:
            memo[state] = None
            return None
        rest += p * later
    if stay < 1:
        mean = rest / (1 - stay)
    memo[state] = mean
    return mean


def _defense_rolled(m: Matchup, outcome: Any) -> bool:
    """Whether the defender rolled a defense (on the ACS clock, what costs it an action).

    Target 10 on the clock: a Defend was counted (the matchup's Defend way), hit or miss.
    """
    if m.system == "acs+target10":
        return bool(cast(Any, m.exchange).defend)
    return bool(outcome.defense_rolled)


def matchup_odds(m: Matchup) -> Odds:
    """The :class:`Odds` of one matchup."""
    word, on_clock = _WORDS[m.system]
    law = m.law()
    outcomes = law.map(word)
    damage = law.map(m.dealt)
    lost = None
    if on_clock:
        lost = law.probability(lambda o: _defense_rolled(m, o))
    takes_out = m.start().bind(m.step).probability(lambda s: bool(cast(Any, s).out))
    return Odds(
        m,
        tuple(outcomes),
        lost,
        tuple(sorted(damage)),
        m.unit,
        damage.expectation(),
        takes_out,
        expected_exchanges(m),
    )


def scenario_odds(scenario: Scenario, variant: str = BASE) -> ScenarioOdds:
    """The odds of every matchup of ``scenario``.

    Raises:
        NoExactOdds: its rule system gives no exchange laws.
    """
    found = matchups(scenario)
    system = found[0].system if found else _system_of(scenario)
    combatants = _combatants(found)
    return ScenarioOdds(
        scenario.name, variant, system, combatants, tuple(matchup_odds(m) for m in found)
    )


def _system_of(scenario: Scenario) -> str:
    resolution = getattr(scenario.options, "resolution", None)
    if scenario.rules == "acs" and resolution in ("target10", "prop3"):
        return f"acs+{resolution}"
    return scenario.rules


def _combatants(found: tuple[Matchup, ...]) -> tuple[Side, ...]:
    seen: dict[str, Side] = {}
    for m in found:
        seen.setdefault(m.attacker.name, m.attacker)
        seen.setdefault(m.defender.name, m.defender)
    return tuple(seen.values())


def odds(scenario: Scenario | str | Path, variants: Sequence[str] = ()) -> list[ScenarioOdds]:
    """The odds of ``scenario`` (a loaded scenario or its file) and of each named variant.

    The base comes first, then the variants in the order given. ``sim.odds`` is this function.

    Raises:
        NoExactOdds: the rule system gives no exchange laws.
        ScenarioError: the file is not a valid scenario, or a name is not one of its variants.
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    chosen: Mapping[str, Scenario] = (
        arms(scenario, list(variants)) if variants else {BASE: scenario}
    )
    return [scenario_odds(s, name) for name, s in chosen.items()]
