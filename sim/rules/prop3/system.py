"""Combat Proposition Three as a rule system of the engine (``rules: prop3``).

Binds the scenario models (:mod:`~sim.rules.prop3.models`) to the round process
(:mod:`~sim.rules.prop3.round`). The hybrid on the ACS clock is a resolution of the ACS rule
system instead (:mod:`~sim.rules.prop3.hybrid`, ``rules: acs`` with ``resolution: prop3``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, cast

from pydantic import BaseModel

from sim.engine.combat import Combat, TraceEvent
from sim.engine.dice import Dice
from sim.engine.errors import Problem
from sim.rules.base import ScenarioView as Scenario
from sim.rules.prop3.character import P3Fighter, Profile
from sim.rules.prop3.hybrid import PROP3_RESOLUTION, Prop3Resolution
from sim.rules.prop3.models import Prop3Combatant, Prop3Options, Rules
from sim.rules.prop3.narration import NARRATION, time_label
from sim.rules.prop3.round import Prop3Rounds

_DEFENSE_NEEDS = {
    "block": "a shield or a two-handed weapon",
    "parry": "a weapon (not a natural one)",
    "dodge": "light armor or none",
}


class Prop3Prepared:
    """A Proposition Three scenario ready to play combat after combat."""

    def __init__(self, scenario: Scenario) -> None:
        options = cast(Prop3Options, scenario.options)  # validated with options_model
        self.rules = Rules(options)
        self.round_s = options.round_s
        self.every_round = options.initiative == "round"
        self.no_dice = options.initiative_no_dice
        self.roster = []
        for spec in scenario.combatants:
            model = cast(Prop3Combatant, spec.stats)  # validated with combatant_model
            position = model.position
            if position is None:
                position = spec.side * options.start_distance
            self.roster.append((spec.name, spec.side, Profile(model, options), float(position)))

    def spawn(self, dice: Dice) -> list[P3Fighter]:
        """Fresh fighters (nothing is rolled before the fight)."""
        return [
            P3Fighter(name, side, index, profile, position)
            for index, (name, side, profile, position) in enumerate(self.roster)
        ]

    def rounds(self, combat: Combat) -> Prop3Rounds:
        """The round process of one combat, set up but not started (for tests and notebooks)."""
        return Prop3Rounds(combat, self.rules, self.round_s, self.every_round, self.no_dice)

    def start(self, combat: Combat) -> None:
        """Start the round process."""
        self.rounds(combat).start()


def gear_problems(scenario: Scenario) -> list[Problem]:
    """Fixed form tactics the combatant's gear can never use."""
    problems = []
    for spec in scenario.combatants:
        model = cast(Prop3Combatant, spec.stats)  # validated with combatant_model
        tactics = model.tactics
        weapon = model.weapon
        path = (*spec.path, "tactics")
        attack = tactics.attack
        if attack in ("bash", "slash", "thrust") and getattr(weapon, attack) is None:
            problems.append(
                Problem(
                    scenario.file,
                    (*path, "attack"),
                    None,
                    f"{tactics.attack} for {spec.name}, "
                    f"whose {weapon.name} cannot {tactics.attack}",
                    "an attack form its weapon has a rating for (or best, random)",
                )
            )
        defense = tactics.defense
        armor = model.armor
        if defense == "block":
            ok = model.shield or weapon.two_handed or (armor is not None and armor.heavy)
        elif defense == "parry":
            ok = not weapon.natural
        elif defense == "dodge":
            ok = armor is None or not armor.heavy
        else:
            ok = True
        if not ok:
            problems.append(
                Problem(
                    scenario.file,
                    (*path, "defense"),
                    None,
                    f"{defense} for {spec.name}, who has nothing to {defense} with",
                    f"a defense its gear allows ({defense} needs {_DEFENSE_NEEDS[defense]})",
                )
            )
    return problems


class Prop3System:
    """``rules: prop3``: rounds of one action each, pools of dice, forms, wiggle points."""

    name = "prop3"
    title = "Combat Proposition Three"
    default_time_limit_s = 600.0
    resolutions: Mapping[str, Prop3Resolution] = {"prop3": PROP3_RESOLUTION}

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events of its rounds."""
        return NARRATION

    @staticmethod
    def time_label(t: float) -> str:
        """Game time for simulation time ``t`` (the rounds are announced by their own events)."""
        return time_label(t)

    @staticmethod
    def round_seconds(options: BaseModel) -> float | None:
        """The option ``round_s``: the text gives no length, so a round is our ruling."""
        return float(cast(Prop3Options, options).round_s)

    def options_model(self, raw: Mapping[str, Any]) -> type[BaseModel]:
        """The rule options (``raw``: the scenario's ``options:`` as written, of any YAML type)."""
        return Prop3Options

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """A combatant's stat block."""
        return Prop3Combatant

    def check(self, scenario: Scenario) -> list[Problem]:
        """A time limit shorter than a round; fixed forms the gear cannot use."""
        problems = gear_problems(scenario)
        round_s = cast(Prop3Options, scenario.options).round_s
        if scenario.time_limit_s < round_s:
            problems.append(
                Problem(
                    scenario.file,
                    ("time_limit",),
                    None,
                    f"{scenario.time_limit_s:g} s",
                    f"at least one round of {round_s:g} s (option round_s)",
                )
            )
        return problems

    def prepare(self, scenario: Scenario) -> Prop3Prepared:
        """Plain objects for the hot path, made once per scenario object in this process.

        A run prepares its scenario for every chunk; the profiles' caches (matchups, pools, form
        values) are memos of pure functions of frozen stats, so they are kept from one chunk to
        the next (the last :data:`PREPARED_KEPT` scenarios).
        """
        key = id(scenario)
        found = _PREPARED.get(key)
        if found is not None and found[0] is scenario:
            _PREPARED.move_to_end(key)
            return found[1]
        prepared = Prop3Prepared(scenario)
        _PREPARED[key] = (scenario, prepared)
        while len(_PREPARED) > PREPARED_KEPT:
            _PREPARED.popitem(last=False)
        return prepared


PREPARED_KEPT = 16
"""How many scenarios' prepared objects a process keeps."""

#: The prepared objects, by the scenario's identity (the scenario is held too, so that its
#: identity is not reused while it is kept).
_PREPARED: OrderedDict[int, tuple[Scenario, Prop3Prepared]] = OrderedDict()


PROP3 = Prop3System()
