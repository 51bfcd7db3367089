"""A coin-flip duel: the example rule system of docs/extending.md, installed as a plug-in.

The rules, in full: every second, each combatant still standing (in scenario order) flips a coin
at the first enemy still standing. Heads is a hit and takes the combatant's ``damage`` from the
target's hit points; at 0 the target is out. The one rule option, ``heads_chance``, is the chance
that a flip comes up heads (a fair coin by default).

It also offers the coin as a resolution on the ACS clock (``rules: acs`` with
``options: {resolution: coin}``, the entry point ``coin`` of ``combatsim.resolutions``): ACS
decides who acts when, and each ACS attack is a flip.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from simpy.events import Event

from sim.engine.combat import SEGMENTS_PER_SECOND, Combat, TraceEvent
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.engine.errors import Problem
from sim.rules import ScenarioView
from sim.rules.acs.clock import AcsClock, AcsFighter
from sim.rules.acs.models import AcsTiming
from sim.rules.acs.resolution import Defaults


class CoinOptions(BaseModel):
    """The rule options a scenario may override by name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    heads_chance: float = Field(0.5, ge=0, le=1, description="Chance that a flip is heads.")


class CoinCombatant(BaseModel):
    """One combatant's stat block."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hp: int = Field(3, ge=1, le=1000, description="Hit points.")
    damage: int = Field(1, ge=1, le=1000, description="Hit points a heads takes.")


class CoinFighter(Fighter):
    """A combatant in one combat: the engine's fighter plus its damage."""

    __slots__ = ("damage",)

    def __init__(self, name: str, side: int, index: int, hp: int, damage: int) -> None:
        super().__init__(name, side, index, hp)
        self.damage = damage


class CoinPrepared:
    """A validated scenario, ready to play combat after combat."""

    def __init__(self, scenario: ScenarioView) -> None:
        options = scenario.options
        assert isinstance(options, CoinOptions)
        self.heads_chance = options.heads_chance
        self.roster: list[tuple[str, int, CoinCombatant]] = []
        for spec in scenario.combatants:
            assert isinstance(spec.stats, CoinCombatant)
            self.roster.append((spec.name, spec.side, spec.stats))

    def spawn(self, dice: Dice) -> list[CoinFighter]:
        """Fresh fighters for one combat, in scenario order."""
        return [
            CoinFighter(name, side, index, stats.hp, stats.damage)
            for index, (name, side, stats) in enumerate(self.roster)
        ]

    def start(self, combat: Combat[CoinFighter]) -> None:
        """Start the one process that plays the seconds."""
        combat.env.process(self.seconds(combat))

    def seconds(self, combat: Combat[CoinFighter]) -> Generator[Event, Any, None]:
        """Every second, everyone standing flips at the first enemy standing."""
        env = combat.env
        limit = combat.time_limit_s * SEGMENTS_PER_SECOND
        while True:
            for fighter in combat.fighters:
                if fighter.out is not None or combat.over:
                    continue
                target = combat.enemies(fighter)[0]
                heads = combat.dice.uniform() < self.heads_chance
                fighter.attacks += 1
                combat.emit("flip", fighter, target, heads=heads)
                if heads:
                    fighter.hits += 1
                    combat.damage(fighter, target, fighter.damage)
            if combat.over:
                return
            if env.now + SEGMENTS_PER_SECOND >= limit:
                combat.finish("time_limit", combat.time_limit_s)
                return
            yield env.timeout(SEGMENTS_PER_SECOND)


def _flip(event: TraceEvent) -> str:
    result = "heads: a hit" if event.data["heads"] else "tails"
    return f"{event.actor} flips at {event.target}: {result}"


class CoinAcsCombatant(AcsTiming):
    """A combatant on the ACS clock (hp, actions, ambition, ...) that attacks with a coin."""

    damage: int = Field(1, ge=1, le=1000, description="Hit points a heads takes.")


class CoinStats:
    """What an ACS attack by coin reads: the combatant's damage and the coin's bias."""

    __slots__ = ("damage", "heads_chance")

    def __init__(self, damage: int, heads_chance: float) -> None:
        self.damage = damage
        self.heads_chance = heads_chance


class CoinResolution(Defaults[CoinStats, None]):
    """``resolution: coin`` on the ACS clock: each attack is one flip; nobody defends a coin.

    The optional hooks (movement and range, the defensive maneuver, named actions) are the
    clock's defaults: everyone in reach, attacks only.
    """

    name = "coin"
    # The rule system's own options, not a copy: the scenario's options are ACS's plus these.
    options_model = CoinOptions
    combatant_model = CoinAcsCombatant
    narration: Mapping[str, Callable[[TraceEvent], str]] = {"flip": _flip}

    def stats(self, model: CoinAcsCombatant, options: CoinOptions) -> CoinStats:
        """Plain numbers for the hot path."""
        return CoinStats(model.damage, options.heads_chance)

    def begin(self, clock: AcsClock[CoinStats, None]) -> None:
        """Nothing to set up: a coin remembers nothing between flips."""

    def attack(
        self,
        clock: AcsClock[CoinStats, None],
        attacker: AcsFighter[CoinStats, None],
        target: AcsFighter[CoinStats, None],
        can_defend: bool,
    ) -> bool:
        """Flip; heads takes the attacker's damage. No defense is ever rolled (False)."""
        combat = clock.combat
        heads = combat.dice.uniform() < attacker.stats.heads_chance
        combat.emit("flip", attacker, target, heads=heads)
        if heads:
            attacker.hits += 1
            combat.damage(attacker, target, attacker.stats.damage)
        return False


class CoinFlipSystem:
    """``rules: coinflip``: one coin flip a second each."""

    name = "coinflip"
    title = "Coin-flip duel"
    default_time_limit_s = 60.0
    #: It offers no resolution of its own here: the coin has an entry point of its own.
    resolutions: Mapping[str, CoinResolution] = {}

    def options_model(self, raw: Mapping[str, Any]) -> type[BaseModel]:
        """The rule options (the same whatever the scenario sets)."""
        return CoinOptions

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """A combatant's stat block."""
        return CoinCombatant

    def check(self, scenario: ScenarioView) -> list[Problem]:
        """A coin that never lands heads can never end a fight: say so before running."""
        options = scenario.options
        assert isinstance(options, CoinOptions)
        if options.heads_chance > 0:
            return []
        return [
            Problem(
                scenario.file,
                ("options", "heads_chance"),
                None,
                "a coin that never lands heads",
                "a heads_chance above 0 (or every fight is a draw)",
            )
        ]

    def prepare(self, scenario: ScenarioView) -> CoinPrepared:
        """Plain objects for the hot path."""
        return CoinPrepared(scenario)

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the one event this rule system emits."""
        return {"flip": _flip}

    def time_label(self, t: float) -> str:
        """The replay's heading for simulation time ``t``: the second."""
        return f"second {int(t) // SEGMENTS_PER_SECOND + 1}"

    def round_seconds(self, options: BaseModel) -> float | None:
        """None: its fights are counted in seconds."""
        return None


#: The objects the entry points name.
COIN_FLIP = CoinFlipSystem()
COIN = CoinResolution()
