"""Scenario models of ACS: the clock's rule options, a combatant's timing, its tactics.

Every field here is a named rule option or stat with a default, documented in
``docs/rules/acs.md`` with the passage of the ACS text (and of RULINGS part A) it comes from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from sim.rules.acs.action_dice import MAX_CONCENTRATION, SEGMENTS
from sim.rules.common import Damage, HitPoints, Strict, TargetTactics


class AcsClockOptions(Strict):
    """Rule options of the ACS clock (RULINGS part A); a scenario overrides them by name."""

    resolution: str = Field(
        "percentile",
        description="How an attack is resolved on the ACS clock: percentile (ACS 'To Hit' and "
        "'Defenses'), target10 or prop3 (hybrids).",
    )
    tie_break: Literal["pure_ambition", "ambition_bonus"] = Field(
        "pure_ambition",
        description="Equal ambition totals: pure d12 roll-offs (the text), or the higher ambition "
        "bonus first and roll-offs only among equal bonuses.",
    )
    duplicates: Literal["slide", "reroll"] = Field(
        "slide",
        description="Two action dice on one segment: slide the later one up, or re-roll it.",
    )
    prepared_bonus: int = Field(
        3, ge=0, le=12, description="Ambition bonus for an attack ready and aimed at the start."
    )
    winner_free_action: bool = Field(
        True, description="The ambition winner takes an extra action on segment 1 before anyone."
    )
    winner_extra_defense: bool = Field(
        True, description="The ambition winner gets one extra defensive action in every segment."
    )
    giant_dice: bool = Field(
        True, description="Gigantic creatures roll d4/d6/d8 action dice on the late segments."
    )
    defense_costs_action: bool = Field(
        True, description="A defense on a segment with an untaken action of one's own costs it."
    )
    lost_action: Literal["slide", "defensive_maneuver", "drop"] = Field(
        "slide",
        description="A lost action moves to the next free segment of the second (slide), is "
        "taken at once as a defensive maneuver while a free segment remains (defensive_maneuver), "
        "or is gone (drop).",
    )
    disruption: bool = Field(
        True, description="A defense during a multi-segment action disrupts it: it starts over."
    )

    @field_validator("lost_action", mode="before")
    @classmethod
    def _lost_action_gone(cls, value: object) -> object:
        """``gone``, this option's earlier name for ``drop``, still reads as ``drop``."""
        return "drop" if value == "gone" else value

    start_distance: float = Field(
        0,
        ge=0,
        le=100_000,
        description="Distance between neighbouring sides at the start, in the resolution's unit "
        "(side i starts at i times this, unless a combatant gives its position); 0: everyone "
        "starts in reach.",
    )
    round_seconds: float = Field(
        6,
        gt=0,
        le=600,
        description="Seconds of the clock that one round of the plugged-in system lasts, for "
        "what it measures in rounds (distances moved, reloading).",
    )
    escape_distance: float | None = Field(
        30,
        ge=0,
        le=100_000,
        description="A fleeing combatant farther than this from every enemy is out (fled); null: "
        "never.",
    )
    simultaneous_concentration: int = Field(
        MAX_CONCENTRATION,
        ge=2,
        le=10,
        description="Most combined concentration of two actions sharing a segment (simultaneous "
        "actions skill).",
    )


class NamedAction(Strict):
    """A spell or maneuver of a combatant: an attack, or a long action with an effect.

    ACS "Action disruption": "amidst a maneuver, or while invoking a spell-or similar type of
    action, that action can be disrupted". The effect is the game's business; these are the kinds
    combatsim offers (``docs/rules/acs.md``, "Spells and maneuvers").
    """

    name: str = Field(..., min_length=1, description="The action's name (for the replay).")
    effect: Literal["attack", "damage", "heal", "modifier"] = Field(
        "attack",
        description="attack: the combatant's own attack; damage: dice of damage to one or several "
        "enemies; heal: hit points back to the most wounded ally; modifier: a bonus or penalty "
        "for the rest of the second.",
    )
    segments: int = Field(
        1, ge=1, le=100, description="Segments the action takes; more than 1 can be disrupted."
    )
    targets: int = Field(1, ge=1, le=50, description="damage: how many enemies it strikes.")
    amount: Damage = Field("1d6", description="damage or heal: the dice rolled (once).")
    to: Literal["self", "allies", "enemies"] = Field(
        "allies", description="modifier: whom it changes (allies includes the actor)."
    )
    attack_bonus: int = Field(
        0,
        ge=-200,
        le=200,
        description="modifier: added to attack totals for the rest of the second.",
    )
    defense_bonus: int = Field(
        0,
        ge=-100,
        le=100,
        description="modifier: added to defense chances for the rest of the second.",
    )
    when: Literal["always", "wounded_ally"] = Field(
        "always",
        description="Tactics: always when the other conditions hold, or only while an ally (or "
        "the actor) is at half its hit points or below.",
    )
    min_enemies: int = Field(
        1, ge=1, le=50, description="Tactics: only while at least this many enemies can fight."
    )
    uses: int | None = Field(
        None, ge=1, le=1000, description="Times per fight it can be completed (none: no limit)."
    )


class AcsTactics(TargetTactics):
    """Target choice plus the ACS decisions: when to defend, whether to ready an attack."""

    defend: Literal["always", "never", "keep_actions"] = Field(
        "always",
        description="always: defend while able (RULINGS); never; keep_actions: defend only when "
        "it costs no action and disrupts nothing.",
    )
    ready_last_action: bool = Field(
        False,
        description="Spend the last action of each second readying and aiming, for prepared "
        "ambition next second.",
    )
    movement: Literal["close", "hold"] = Field(
        "close",
        description="With its target out of reach (and range): close in on its action segments, "
        "or hold its ground.",
    )
    ranged: Literal["shoot", "close"] = Field(
        "shoot",
        description="With its target out of reach but in range of a ranged weapon: shoot, or "
        "close to fight hand to hand.",
    )
    keep_distance: float = Field(
        0,
        ge=0,
        le=100_000,
        description="A shooter steps back instead of shooting while an enemy is nearer than "
        "this (0: never).",
    )
    flee_below_hp: int = Field(
        0,
        ge=0,
        le=100_000,
        description="Flee from the nearest enemy at or below this many hit points (0: never).",
    )


class AcsTiming(Strict):
    """What the ACS clock needs to know of any combatant, whatever resolves its attacks."""

    hp: HitPoints = Field(..., description="Hit points: a number, or dice rolled per combat.")
    actions: int = Field(1, ge=1, le=SEGMENTS, description="Actions per second.")
    ambition_bonus: int = Field(0, ge=-12, le=24, description="Added to the d12 ambition roll.")
    size: Literal["normal", "giant"] = Field(
        "normal", description="giant: over 15 ft tall, slower action dice."
    )
    attack_segments: int = Field(
        1, ge=1, le=100, description="Segments one attack takes (an aimed shot, a spell: several)."
    )
    concentration: int = Field(
        2, ge=1, le=10, description="Concentration of one attack (for simultaneous actions)."
    )
    simultaneous_actions: bool = Field(
        False,
        description="The skill: two actions may share a segment within the concentration cap.",
    )
    prepared: bool = Field(
        False, description="Starts the fight with an attack ready and aimed (prepared ambition)."
    )
    position: float | None = Field(
        None,
        ge=-100_000,
        le=100_000,
        description="Start position on the line, in the resolution's unit (default: the side's "
        "index times start_distance).",
    )
    special_actions: list[NamedAction] = Field(
        default_factory=list,
        description="Named spells and maneuvers, tried in order at each action before the attack.",
    )
    tactics: AcsTactics = Field(default_factory=AcsTactics)


class PercentileOptions(Strict):
    """Options of the default ACS resolution (ACS 'To Hit' and 'Defenses')."""

    defense_reduction: bool = Field(
        True, description="Each point of an attack total above 100 may lower the defense chance."
    )
    excess_over_100: Literal["lower_defense", "more_effect", "attacker_chooses"] = Field(
        "lower_defense",
        description="What an attack total above 100 does: lowers the defense chance by the "
        "excess, adds damage (more_effect), or either, as the attacker chooses.",
    )
    excess_per_damage: int = Field(
        10, ge=1, le=100, description="more_effect: +1 damage per this many points above 100."
    )
    maneuver_bonus: int = Field(
        20,
        ge=0,
        le=100,
        description="lost_action: defensive_maneuver: added to the defense chance for the rest "
        "of the second.",
    )


class PercentileCombatant(AcsTiming):
    """A combatant under ACS percentile resolution."""

    to_hit: int = Field(50, ge=1, le=300, description="d100 + attack bonus must reach this to hit.")
    attack_bonus: int = Field(0, ge=-100, le=200, description="Added to the d100 attack roll.")
    defense: int = Field(
        30, ge=0, le=100, description="Percent chance to defend (roll at or below)."
    )
    damage: Damage = Field("1d6", description="Damage of a hit, in dice notation.")
    reach: float = Field(1, ge=0, le=1000, description="Melee reach, in paces.")
    range: float = Field(
        0, ge=0, le=100_000, description="Range of a ranged attack, in paces (0: none)."
    )
    speed: float = Field(
        4, ge=0, le=10_000, description="Paces it moves in one second (spread over its actions)."
    )
