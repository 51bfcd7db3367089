"""Scenario models of Combat Proposition Three: rule options, stat blocks, gear and tactics.

Every field is a named rule option or stat with a default, documented in ``docs/rules/prop3.md``
with the passage of ``rules/combat-proposition-three.txt`` (and of RULINGS part C) it comes from.
The models are only used to validate a scenario; :class:`Rules` is the plain hot-path copy of the
options that the round process and the hybrid read.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from sim.rules.acs.models import AcsTactics, AcsTiming
from sim.rules.armory import armory_schema, from_armory
from sim.rules.common import Strict, TargetTactics
from sim.rules.prop3 import armory
from sim.rules.prop3.exchange import ExchangeRules
from sim.rules.prop3.pool import (
    CUT_CRITICAL_WITH,
    KEEP_MODES,
    PROFICIENCY_DIE,
    TRIPLE_TIEBREAKS,
    reading,
)
from sim.rules.prop3.ranged import AMMUNITION_FORM
from sim.rules.prop3.wiggle import ATTACKER_POLICIES, DEFENDER_POLICIES

STATS = ("vigor", "agility", "mind", "spirit")
"""The four stats, in the order the hot path indexes them."""

SUBSTATS = (
    "strength",
    "fortitude",
    "speed",
    "dexterity",
    "intellect",
    "perception",
    "charisma",
    "will",
)
"""The eight sub-stats (text: "Vigor splits into Strength and Fortitude ..."), two per stat."""

STAT_OF = {name: STATS[i // 2] for i, name in enumerate(SUBSTATS)}
"""The stat each sub-stat belongs to."""

SKILLS = ("bash", "slash", "thrust", "dodge", "block", "parry", "archery", "thrown", "initiative")
"""The rolls of a fight, each with its skill: attack forms, defense forms, ranged, initiative."""

Proficiency = Literal["excellent", "good", "average", "fair", "poor"]
RatingName = Literal["poor", "average", "excellent"]
SubStat = Literal[
    "strength", "fortitude", "speed", "dexterity", "intellect", "perception", "charisma", "will"
]
Skill = Literal[
    "bash", "slash", "thrust", "dodge", "block", "parry", "archery", "thrown", "initiative"
]
AttackChoice = Literal["best", "random", "bash", "slash", "thrust"]
DefenseChoice = Literal["best", "random", "dodge", "block", "parry"]
assert tuple(PROFICIENCY_DIE) == ("excellent", "good", "average", "fair", "poor")
assert tuple(KEEP_MODES) == ("lowest_three", "best_set")
assert tuple(TRIPLE_TIEBREAKS) == ("reroll", "lowest_other")
assert tuple(CUT_CRITICAL_WITH) == ("any_pair", "read_pair")


# -- options -------------------------------------------------------------------------------------


class DiceOptions(Strict):
    """Options of how an attack is resolved: shared by ``rules: prop3`` and the ACS hybrid."""

    keep: Literal["lowest_three", "best_set"] = Field(
        "lowest_three",
        description="lowest_three: keep the lowest three dice (the text); best_set: the best "
        "triple or lowest pair anywhere in the pool (the combat examples come out as printed).",
    )
    attacker_wiggle: str = Field(
        "best", description="How an attacker spends wiggle points (a registered policy)."
    )
    defender_wiggle: str = Field(
        "best", description="How a defender, seeing the attack, spends its wiggle points."
    )
    advantage_points: int = Field(
        2, ge=0, le=20, description="Wiggle points per advantage on a sub-stat (the text: two)."
    )
    advantage_spending: Literal["to_succeed", "always", "never"] = Field(
        "to_succeed",
        description="When advantage and skill-focus points (never regained in a fight) are "
        "spent: to_succeed (only to turn a failure into a success), always (for any better "
        "result), never.",
    )
    die_source: Literal["skill", "best"] = Field(
        "skill",
        description="skill: the skill's proficiency sets the die, the race's stat proficiency "
        "only without the skill; best: the better of the two.",
    )
    attack_substat: SubStat = Field("strength", description="Sub-stat of melee attacks.")
    block_substat: SubStat = Field("fortitude", description="Sub-stat of blocks.")
    dodge_substat: SubStat = Field("speed", description="Sub-stat of dodges.")
    parry_substat: SubStat = Field("dexterity", description="Sub-stat of parries.")
    armor_also_helps_attacker: bool = Field(
        True, description="Armor poor against the attack form also gives the attacker +1 wiggle."
    )
    impossible_defense: Literal["undefended", "redeclare"] = Field(
        "undefended",
        description="A defense declared first that the attack makes impossible (a one-handed "
        "parry against a bash): undefended (no defense roll), or redeclare.",
    )
    size_in_melee: bool = Field(
        False, description="The ranged size rules (wiggle and dice per size category) in melee."
    )
    critical_always_wins: bool = Field(
        False,
        description="No defender pair cuts an attacking triple to a standard hit (the core "
        "mechanic: 'a critical success always wins'; the first combat example); false: a pair "
        "lower than the triple's face cuts it (the ranged example).",
    )
    triple_tiebreak: Literal["reroll", "lowest_other"] = Field(
        "reroll",
        description="Under keep: best_set, two equal triples tie and the exchange is re-rolled "
        "(reroll), or the lowest die outside each set breaks the tie (lowest_other), as it does "
        "for pairs ('the third die of each set acts as a tie-breaker').",
    )
    cut_critical_with: Literal["any_pair", "read_pair"] = Field(
        "any_pair",
        description="Under keep: best_set, which defender rolls cut an attacking triple to a "
        "standard hit: any pair the pool shows lower than the triple's face (any_pair), or only "
        "a roll that reads as such a pair, with no triple beside it (read_pair).",
    )
    cut_or_tie: Literal["cut", "tie"] = Field(
        "cut",
        description="A defender who can either cut an attacking triple to a standard hit or tie "
        "it takes the cut, or the tie (the exchange is re-rolled).",
    )
    parry_bash_needs_two_hands: bool = Field(
        True,
        description="Parrying a bash needs a two-handed weapon (the text: 'usually a two-hander "
        "to parry a bash'); false: any weapon in hand parries a bash.",
    )
    fumbles: bool = Field(
        True, description="An attack with no pair rolls the fumble d6; false: it just misses."
    )
    hit_nicks: int = Field(1, ge=0, le=10, description="Nicks dealt by a standard hit.")
    nicks_per_wound: int = Field(2, ge=1, le=10, description="Nicks that make one wound.")
    critical_wounds: int = Field(1, ge=0, le=10, description="Wounds dealt by a critical hit.")
    block_effect_ends: Literal["after_next_action", "at_next_action"] = Field(
        "after_next_action",
        description="A critical block's -1 defense die lasts until the blocker's next action is "
        "over, or until it starts.",
    )
    cluster_wiggle: bool = Field(
        True, description="+1 attack wiggle per ally who has already hit in melee this round."
    )
    cluster_scope: Literal["side", "target"] = Field(
        "side", description="Which allies' hits count: any on the side, or only on my target."
    )

    @field_validator("attacker_wiggle")
    @classmethod
    def _known_attacker_policy(cls, value: str) -> str:
        if value not in ATTACKER_POLICIES:
            raise ValueError(f"one of {', '.join(ATTACKER_POLICIES)}")
        return value

    @field_validator("defender_wiggle")
    @classmethod
    def _known_defender_policy(cls, value: str) -> str:
        if value not in DEFENDER_POLICIES:
            raise ValueError(f"one of {', '.join(DEFENDER_POLICIES)}")
        return value


class RangeOptions(DiceOptions):
    """Options of range and missiles: shared by ``rules: prop3`` and the ACS hybrid."""

    archery_substat: SubStat = Field("dexterity", description="Sub-stat of Ranged (archery).")
    thrown_substat: SubStat = Field("dexterity", description="Sub-stat of Ranged (thrown).")
    melee_range: float = Field(
        5.0, ge=0, le=1000, description="Feet within which two combatants fight in melee."
    )
    focused_fire: bool = Field(
        True,
        description="+1 wiggle to a side's missile attack per successful missile attack roll "
        "the side made before it (hit or dodged), until a missile strikes one of its members.",
    )
    focused_fire_span: Literal["round", "fight"] = Field(
        "round",
        description="round: the count starts again every round (on the ACS clock: every "
        "second), like the melee cluster's (RULINGS: 'the same'); fight: it keeps growing until "
        "the side is struck.",
    )


class Prop3Options(RangeOptions):
    """Rule options of ``rules: prop3`` (RULINGS part C); a scenario overrides them by name."""

    round_s: float = Field(
        6.0, gt=0, le=3600, description="Game seconds in a round (the text does not say)."
    )
    initiative: Literal["fight", "round"] = Field(
        "fight",
        description="fight: one Agility (Speed) roll at the start, kept all fight (RULINGS); "
        "round: rolled again at the start of every round.",
    )
    initiative_substat: SubStat = Field("speed", description="Sub-stat of the initiative roll.")
    initiative_no_dice: Literal["listed", "random"] = Field(
        "listed",
        description="Combatants whose initiative pools have no dice do not roll (re-rolling "
        "cannot tell them apart): they act after everyone who rolled, in the order the scenario "
        "lists them (listed), or in an order drawn at random once (random).",
    )
    start_distance: float = Field(
        0.0, ge=0, le=100_000, description="Feet between consecutive sides at the start."
    )


# -- gear ----------------------------------------------------------------------------------------


class WeaponModel(Strict):
    """A melee weapon: its rating for each attack form (null: it cannot make that attack).

    Or a weapon of the armory by name (``weapon: club``), or one changed field by field
    (``weapon: {base: greatsword, thrust: poor}``): :mod:`sim.rules.prop3.armory`.
    """

    model_config = ConfigDict(json_schema_extra=armory_schema(armory.WEAPONS, "weapon"))

    @model_validator(mode="before")
    @classmethod
    def _named(cls, value: Any) -> Any:
        return from_armory(value, armory.WEAPONS, "weapon")

    name: str = Field("weapon", description="A label for narration.")
    bash: RatingName | None = Field("average", description="Rating for bashing.")
    slash: RatingName | None = Field("average", description="Rating for slashing.")
    thrust: RatingName | None = Field("average", description="Rating for thrusting.")
    two_handed: bool = Field(False, description="Can block, and parry a bash.")
    secured: bool = Field(False, description="Secured to the hands: a fumble never drops it.")
    natural: bool = Field(
        False, description="Claws, teeth, fists: never dropped, but no weapon to parry with."
    )

    @model_validator(mode="after")
    def _some_attack(self) -> WeaponModel:
        if self.bash is None and self.slash is None and self.thrust is None:
            raise ValueError("a weapon that can make at least one attack form")
        return self


UNARMED = WeaponModel.model_validate(
    {"name": "fists", "bash": "average", "slash": "poor", "thrust": "poor", "natural": True}
)
"""The weapon of a combatant whose stat block names none."""


class ArmorModel(Strict):
    """Armor: its rating against each attack form, and whether it is heavy (or from the armory)."""

    model_config = ConfigDict(json_schema_extra=armory_schema(armory.ARMORS, "armor"))

    @model_validator(mode="before")
    @classmethod
    def _named(cls, value: Any) -> Any:
        return from_armory(value, armory.ARMORS, "armor")

    name: str = Field("armor", description="A label for narration.")
    bash: RatingName = Field("average", description="Rating against bashes.")
    slash: RatingName = Field("average", description="Rating against slashes.")
    thrust: RatingName = Field("average", description="Rating against thrusts.")
    heavy: bool = Field(False, description="Heavy armor: no dodging; lets one block missiles.")


class MissileModel(Strict):
    """A ranged weapon (bow, sling, javelins) and its ammunition (or the armory's bow)."""

    model_config = ConfigDict(json_schema_extra=armory_schema(armory.MISSILES, "missile weapon"))

    @model_validator(mode="before")
    @classmethod
    def _named(cls, value: Any) -> Any:
        return from_armory(value, armory.MISSILES, "missile weapon")

    name: str = Field("bow", description="A label for narration.")
    skill: Literal["archery", "thrown"] = Field("archery", description="Ranged skill it uses.")
    range: float = Field(5.0, gt=0, le=10_000, description="Feet of one range increment.")
    max_range: float = Field(25.0, gt=0, le=100_000, description="No shot beyond these feet.")
    ammunition: str = Field("arrow", description="What it shoots; sets the form against armor.")
    shots: int | None = Field(
        None, ge=0, le=1000, description="Shots carried (javelins); null: never runs out."
    )
    secured: bool = Field(False, description="A fumble never drops it.")

    @field_validator("ammunition")
    @classmethod
    def _known_ammunition(cls, value: str) -> str:
        if value not in AMMUNITION_FORM:
            raise ValueError(f"one of {', '.join(AMMUNITION_FORM)}")
        return value

    @model_validator(mode="after")
    def _range_order(self) -> MissileModel:
        if self.max_range < self.range:
            raise ValueError("max_range at least the range of one increment")
        return self


# -- characters ----------------------------------------------------------------------------------


class RaceProficiency(Strict):
    """The race's proficiency with each stat: the die of a roll made without a skill."""

    vigor: Proficiency = Field("average", description="Vigor die without a skill.")
    agility: Proficiency = Field("average", description="Agility die without a skill.")
    mind: Proficiency = Field("average", description="Mind die without a skill.")
    spirit: Proficiency = Field("average", description="Spirit die without a skill.")


class Skills(Strict):
    """Proficiency with each combat skill (null: the race's proficiency with the stat)."""

    bash: Proficiency | None = Field(None, description="Bashing.")
    slash: Proficiency | None = Field(None, description="Slashing.")
    thrust: Proficiency | None = Field(None, description="Thrusting.")
    dodge: Proficiency | None = Field(None, description="Dodging.")
    block: Proficiency | None = Field(None, description="Blocking.")
    parry: Proficiency | None = Field(None, description="Parrying.")
    archery: Proficiency | None = Field(None, description="Ranged (archery).")
    thrown: Proficiency | None = Field(None, description="Ranged (thrown).")
    initiative: Proficiency | None = Field(None, description="The initiative roll.")


class SubStatCounts(Strict):
    """A count per sub-stat (advantages taken, or disadvantages)."""

    strength: int = Field(0, ge=0, le=10)
    fortitude: int = Field(0, ge=0, le=10)
    speed: int = Field(0, ge=0, le=10)
    dexterity: int = Field(0, ge=0, le=10)
    intellect: int = Field(0, ge=0, le=10)
    perception: int = Field(0, ge=0, le=10)
    charisma: int = Field(0, ge=0, le=10)
    will: int = Field(0, ge=0, le=10)


class Focus(Strict):
    """A skill focus: wiggle points for a group of skills, spent like advantage points."""

    skills: list[Skill] = Field(..., min_length=1, description="The skills it helps.")
    points: int = Field(2, ge=1, le=20, description="Its wiggle points.")


class Character(Strict):
    """Stats, race, skills, advantages and gear: what every Proposition Three combatant has."""

    race: str = Field("", description="A label (the race's numbers are the fields below).")
    vigor: int = Field(4, ge=1, le=20, description="Vigor (4: an adult hamster).")
    agility: int = Field(4, ge=1, le=20, description="Agility.")
    mind: int = Field(4, ge=1, le=20, description="Mind.")
    spirit: int = Field(4, ge=1, le=20, description="Spirit.")
    size_category: int = Field(
        0,
        ge=-4,
        le=8,
        description="Size category: +1 Vigor die per category above 0 "
        "(0: hamster-sized; -1 per category below).",
    )
    race_proficiency: RaceProficiency = Field(
        default_factory=lambda: RaceProficiency.model_validate({})
    )
    skills: Skills = Field(default_factory=lambda: Skills.model_validate({}))
    advantages: SubStatCounts = Field(default_factory=lambda: SubStatCounts.model_validate({}))
    disadvantages: SubStatCounts = Field(default_factory=lambda: SubStatCounts.model_validate({}))
    focuses: list[Focus] = Field(default_factory=list, description="Skill focuses.")
    weapon: WeaponModel = Field(default_factory=lambda: UNARMED)
    armor: ArmorModel | None = Field(None, description="null: no armor (a defense die less).")
    shield: bool = Field(False, description="Carries a shield (can block).")


class FormTactics(Strict):
    """The form choices of a Proposition Three combatant, in rounds and on the ACS clock alike."""

    attack: AttackChoice = Field(
        "best",
        description="Attack form: best (highest exact expected damage), random, or a form.",
    )
    defense: DefenseChoice = Field(
        "best", description="Defense form: best (lowest exact expected damage), random, or a form."
    )


class ShotTactics(Strict):
    """How a Proposition Three shooter aims and when it shoots, in rounds and on the ACS clock."""

    aim: Literal["never", "first", "always"] = Field(
        "never",
        description="Spend a round aiming (on the ACS clock: aim_actions actions): never, before "
        "the first shot at a target, or before every shot.",
    )
    min_shot_dice: int = Field(
        2,
        ge=0,
        le=20,
        description="Shoot only when the attack pool keeps at least this many dice after range "
        "and size (a pair needs two); otherwise close in, or hold.",
    )


class Prop3Tactics(FormTactics, ShotTactics, TargetTactics):
    """Target choice plus the decisions of a Proposition Three combatant."""

    move_up: int = Field(
        0, ge=0, le=100, description="Turns skipped at the start to move up one place each."
    )
    shoot: bool = Field(True, description="Use the missile weapon when out of melee.")
    advance: bool = Field(True, description="Move toward the target when it is out of reach.")


class RangedGear(Strict):
    """A missile weapon and a speed: what a combatant brings to a fight at range."""

    missile: MissileModel | None = Field(None, description="A ranged weapon, or null.")
    speed: float = Field(
        5.0,
        ge=0,
        le=10_000,
        description="Feet moved in a round's action (on the ACS clock: spread over the "
        "round_seconds of a round and its actions).",
    )


class Prop3Combatant(Character, RangedGear):
    """A combatant of ``rules: prop3``. Its hit points are its Vigor."""

    position: float | None = Field(
        None,
        ge=-100_000,
        le=100_000,
        description="Feet along the line (default: side index times start_distance).",
    )
    tactics: Prop3Tactics = Field(default_factory=lambda: Prop3Tactics.model_validate({}))


# -- the hybrid ----------------------------------------------------------------------------------


class HybridTactics(FormTactics, ShotTactics, AcsTactics):
    """The ACS tactics (movement and range among them) plus the Proposition Three choices."""


class HybridCombatant(AcsTiming, Character, RangedGear):
    """A combatant on the ACS clock resolving attacks with Proposition Three.

    ``hp`` is its Vigor: leave it out (it is filled in from ``vigor``).
    """

    tactics: HybridTactics = Field(default_factory=lambda: HybridTactics.model_validate({}))

    @model_validator(mode="before")
    @classmethod
    def _hp_is_vigor(cls, data: Any) -> Any:  # the stat block as written, of any YAML type
        if isinstance(data, dict):
            if "hp" in data:
                raise ValueError(
                    "no hp under resolution prop3: its damage track is Vigor (leave hp out)"
                )
            data = {**data, "hp": data.get("vigor", 4)}
        return data


# -- the hot-path copy ---------------------------------------------------------------------------


class Rules:
    """The plain copy of the options that the fight reads on every attack."""

    __slots__ = (
        "advantage_points",
        "armor_helps",
        "attack_policy",
        "block_after",
        "cluster",
        "cluster_target",
        "crit_nicks",
        "critical_wounds",
        "cuts",
        "defense_policy",
        "exchange",
        "focused_fire",
        "fumbles",
        "hit_nicks",
        "keep",
        "melee_range",
        "nicks_per_wound",
        "parry_bash_two_hands",
        "redeclare",
        "size_in_melee",
        "spending",
        "volley_round",
    )

    def __init__(self, options: DiceOptions) -> None:
        # pool.reading: the keep mode with the best_set options, one argument for every search.
        self.keep = reading(options.keep, options.triple_tiebreak, options.cut_critical_with)
        self.attack_policy = ATTACKER_POLICIES[options.attacker_wiggle]
        self.defense_policy = DEFENDER_POLICIES[options.defender_wiggle]
        self.advantage_points = options.advantage_points
        self.spending = options.advantage_spending
        self.armor_helps = options.armor_also_helps_attacker
        self.redeclare = options.impossible_defense == "redeclare"
        self.size_in_melee = options.size_in_melee
        self.parry_bash_two_hands = options.parry_bash_needs_two_hands
        # pool.CUTS: how a defender pair meets an attacking triple.
        self.cuts = "never" if options.critical_always_wins else options.cut_or_tie
        self.fumbles = options.fumbles
        self.hit_nicks = options.hit_nicks
        self.nicks_per_wound = options.nicks_per_wound
        self.critical_wounds = options.critical_wounds
        self.crit_nicks = options.critical_wounds * options.nicks_per_wound
        self.exchange = ExchangeRules(
            keep=self.keep,
            cuts=self.cuts,
            spending=self.spending,
            attack_policy=self.attack_policy,
            defense_policy=self.defense_policy,
            hit_nicks=self.hit_nicks,
            critical_wounds=self.critical_wounds,
        )
        self.block_after = options.block_effect_ends == "after_next_action"
        self.cluster = options.cluster_wiggle
        self.cluster_target = options.cluster_scope == "target"
        if isinstance(options, RangeOptions):
            self.focused_fire = options.focused_fire
            self.volley_round = options.focused_fire_span == "round"
            self.melee_range = options.melee_range
        else:
            # The attack options alone (no range): no missiles, everyone engaged.
            self.focused_fire = False
            self.volley_round = True
            self.melee_range = 0.0
