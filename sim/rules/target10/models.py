"""Scenario models of Target 10: rule options, stat blocks, tactics, testers.

Every field is a named rule option or stat with a default, documented in
``docs/rules/target10.md`` with the passage of the Target 10 text (and of RULINGS part B) it comes
from. ``options: {kind: test}`` turns a scenario into a test outside combat (the first side
tests, the second side opposes), whose combatants are :class:`Tester` stat blocks.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from sim.rules.armory import armory_schema, from_armory
from sim.rules.common import Damage, DiceText, HitPoints, Strict, TargetTactics
from sim.rules.target10 import armory
from sim.rules.target10.actions import ACTION_WORDS
from sim.rules.target10.combat_rolls import FLEE_AUTO
from sim.rules.target10.luck import LUCK_POLICIES, SUCCEED_WORDS, SucceedPolicy
from sim.rules.target10.movements import MOVEMENTS
from sim.rules.target10.tactics import parse_condition

SkillLevel = Literal["low", "mid", "high"]
LuckPolicy = Literal["save", "always", "never"]
assert LUCK_POLICIES == ("save", "always", "never")
SucceedWord = Literal["never", "always", "when_hit_takes_out", "when_hit_may_take_out"]
assert SUCCEED_WORDS == ("never", "always", "when_hit_takes_out", "when_hit_may_take_out")
FleeAutoHit = Literal["always", "if_after", "never"]
assert FLEE_AUTO == ("always", "if_after", "never")


class BelowChance(Strict):
    """``{below_chance: P}``: spend a point on a failed test whose chance was below P."""

    below_chance: float = Field(..., ge=0, le=1, description="A chance from 0 to 1.")


LuckToSucceed = SucceedWord | BelowChance
LUCK_TO_SUCCEED_HELP = (
    "never (default), always, when_hit_takes_out (a hit's least damage would take the target "
    "out), when_hit_may_take_out (its highest damage could), or {below_chance: P}: when to spend "
    "a luck point to succeed at its own failed attack test or negotiation."
)


def succeed_policy(value: LuckToSucceed) -> SucceedPolicy:
    """The plain policy of a validated ``luck_to_succeed`` tactic."""
    if isinstance(value, BelowChance):
        return SucceedPolicy("below_chance", value.below_chance)
    return SucceedPolicy(value)


class LuckCaps(Strict):
    """Most luck points a character may hold, by skill level (text, "Luck Points")."""

    low: int = Field(3, ge=0, le=20, description="Low-skill characters.")
    mid: int = Field(1, ge=0, le=20, description="Mid-skill characters.")
    high: int = Field(0, ge=0, le=20, description="High-skill characters.")


class _Basics(Strict):
    """Options of every Target 10 roll: in tests, in rounds and on the ACS clock."""

    situational_clamp: int = Field(
        3, ge=0, le=20, description="Situational modifiers add at most this much, either way."
    )
    ability_modifier: Literal["ceil_half", "floor_half"] = Field(
        "ceil_half", description="Score to modifier: ceil((score-10)/2) or floor((score-10)/2)."
    )
    luck_caps: LuckCaps = Field(
        LuckCaps(), description="Most luck points by skill level (low=3 mid=1 high=0)."
    )


class _Shared(_Basics):
    """Options common to combats and tests outside combat."""

    test_target: int = Field(
        10, ge=1, le=40, description="A test succeeds on d20 + modifier >= this."
    )


class AttackOptions(_Basics):
    """Options of a combat test and its damage (text, "Combat Tests" and "Damage").

    Declared once here: the round's :class:`CombatOptions` and the ACS hybrid's options
    (:class:`~sim.rules.target10.hybrid.HybridOptions`) both inherit them.
    """

    combat_target: int = Field(
        12, ge=1, le=40, description="A combat test succeeds on this or more."
    )
    value_clamp: int = Field(
        10,
        ge=0,
        le=40,
        description="(FIGHT or SHOOT) - DEFENSE counts at most this much, either way.",
    )
    min_damage: int = Field(1, ge=0, le=10, description="Damage is never below this.")
    zero_hp: Literal["unconscious", "dead"] = Field(
        "unconscious", description="A Kill that leaves exactly 0 hit points: unconscious, or dead."
    )
    defend_minimum: int = Field(
        1, ge=0, le=20, description="Defend adds the DEX bonus or this, if higher."
    )


class MovementOptions(Strict):
    """Options of Target 10's movements (text, "Movements"), declared once.

    The round's :class:`CombatOptions` and the ACS hybrid's options
    (:class:`~sim.rules.target10.hybrid.HybridOptions`) both inherit them.
    """

    advance_paces: float = Field(3, ge=0, le=1000, description="Paces of an Advance.")
    withdraw_paces: float = Field(3, ge=0, le=1000, description="Paces of a Withdraw.")
    run_multiplier: float = Field(
        3, ge=0, le=100, description="Charge and Flee move this many times the speed."
    )
    charge_str_factor: int = Field(
        2, ge=0, le=10, description="A charger adds this many times its STR bonus to FIGHT."
    )
    charge_drops_dex: bool = Field(
        True, description="A charger adds no DEX bonus to DEFENSE during the round."
    )
    flee_auto_hit: FleeAutoHit = Field(
        "always",
        description="Attacks on a fleeing combatant succeed without a roll: always; if_after, only "
        "when the fleer acts after its attacker (lower initiative); never (true/false read as "
        "always/never).",
    )

    @field_validator("flee_auto_hit", mode="before")
    @classmethod
    def _flee_bool(cls, value: Any) -> Any:  # Any: raw YAML, before validation
        if value is True:
            return "always"
        if value is False:
            return "never"
        return value


class RangedOptions(Strict):
    """Options of shots (reloading firearms, cover), declared once for the round and the hybrid."""

    firearm_reload: int = Field(
        0,
        ge=0,
        le=10,
        description="Rounds a firearm (ranged.firearm: true) needs to reload after each shot, one "
        "action each; 0: a shot every round (a round is a minute).",
    )
    cover_against: Literal["ranged", "all"] = Field(
        "ranged", description="A combatant's cover counts against ranged attacks, or every attack."
    )


class CombatOptions(_Shared, AttackOptions, MovementOptions, RangedOptions):
    """Rule options of a Target 10 combat (RULINGS part B); a scenario overrides them by name."""

    kind: Literal["combat", "test"] = Field(
        "combat",
        description="combat: rounds of movements and actions; test: a test outside combat.",
    )
    unconscious_rounds: DiceText = Field(
        "1d6", description="Rounds an unconscious combatant stays out before it wakes."
    )
    wake_up: bool = Field(
        True, description="Unconscious combatants wake after their rounds (while the fight lasts)."
    )
    start_distance: float = Field(
        1, ge=0, le=100_000, description="Paces between consecutive sides at the start."
    )
    maneuver_paces: float = Field(3, ge=0, le=1000, description="Paces a maneuvering hit moves.")
    fleer_acts: bool = Field(
        True,
        description="A fleeing combatant still takes its declared action (the text never "
        "takes it away); false: a fleer takes no action.",
    )
    held_cannot_move: bool = Field(
        False,
        description="Pinned and grounded combatants cannot move (they hold; a grounded one may "
        "stand); false: the text's penalties only.",
    )
    maneuver_keeps_action: bool = Field(
        True,
        description="A maneuvering hit deals no damage and pushes, and the action's other effect "
        "(trip, grapple, disarm) still lands; false: the push is all it does.",
    )
    escape: Literal["out_of_reach", "end_of_round", "on_move"] = Field(
        "out_of_reach",
        description="When a fleer has fled: at the end of a round in which no enemy could reach "
        "it next round; at the end of its first flight round; or as soon as it has moved.",
    )
    withdraw_attacks: Literal["advancing", "advance", "always", "never"] = Field(
        "advancing",
        description="Whom a withdrawing combatant may attack: an opponent who advances or charges "
        "this round, only one who advances, anyone, or nobody.",
    )
    stand_blocked_by: Literal["declared", "attacked"] = Field(
        "declared",
        description="Stand fails while an enemy who declared an attack on it this round is within "
        "its reach or range, or only when it has been attacked this round before it stands.",
    )
    ground_penalty: int = Field(
        2, ge=0, le=20, description="On the ground: minus this to attack and defend."
    )
    pin_penalty: int = Field(1, ge=0, le=20, description="Pinned: minus this to attack and defend.")
    penalties_as: Literal["situational", "values"] = Field(
        "situational",
        description="Ground and pin penalties count as situational modifiers (within +/-3), or "
        "change FIGHT/SHOOT and DEFENSE (within +/-10).",
    )
    disarm_value: Literal["shoot", "fight"] = Field(
        "shoot", description="Disarm is tested with SHOOT (the text's RAV) or FIGHT."
    )
    disarm_paces: DiceText = Field("1d6", description="How far a disarmed weapon flies, in paces.")
    maneuver_bonus: int = Field(
        0,
        ge=0,
        le=3,
        description="Situational bonus a maneuvering hit gives the attacker against that opponent "
        "next round (the text's 'high ground'; 0: just the push).",
    )
    negotiate_scope: Literal["all", "target"] = Field(
        "all", description="A successful negotiation holds off every enemy, or only the target."
    )
    negotiate_hold: Literal["this_round", "one_round"] = Field(
        "this_round",
        description="How long opponents are held off: to the end of this round, or one full round "
        "(until the negotiator's turn in the next round).",
    )
    negotiate_broken_by: Literal["negotiator_attacked", "any_attack"] = Field(
        "negotiator_attacked",
        description="What ends a hold: an attack on the negotiator, or also any attack by its "
        "side on the opponents held.",
    )


class TestOptions(_Shared):
    """Rule options of a test outside combat (text, "Tests" and "Man vs. Man")."""

    kind: Literal["test"] = Field("test", description="A test outside combat.")
    mode: Literal["extended", "contest"] = Field(
        "extended",
        description="extended: the first side tests, taking turns, against the second side's TV; "
        "contest: both sides test in turns and the first to its successes wins.",
    )
    successes: int = Field(1, ge=1, le=50, description="Successes needed.")
    failures: int = Field(
        1, ge=1, le=50, description="Shared failures that end an extended test in failure."
    )
    situational: int = Field(0, ge=-20, le=20, description="Situational modifier on every roll.")
    nature_tv: int = Field(5, ge=1, le=10, description="TV of nature when a tester gives none.")


class Declaration(Strict):
    """One movement and one action."""

    movement: str = Field("hold", description=f"One of {', '.join(MOVEMENTS)}.")
    action: str = Field("kill", description=f"One of {', '.join(ACTION_WORDS)}.")

    @field_validator("movement")
    @classmethod
    def _known_movement(cls, value: str) -> str:
        if value not in MOVEMENTS:
            raise ValueError(f"a movement: one of {', '.join(MOVEMENTS)}")
        return value

    @field_validator("action")
    @classmethod
    def _known_action(cls, value: str) -> str:
        if value not in ACTION_WORDS:
            raise ValueError(f"an action: one of {', '.join(ACTION_WORDS)}")
        return value


_RULE_SHAPE = (
    "a rule 'if: <condition>' with 'then: {movement, action}', or 'else: {movement, action}'"
)


class Rule(Strict):
    """``if: <condition>`` / ``then: <declaration>``, or ``else: <declaration>``."""

    condition: Any = None  # Any: parse_condition's tree of tuples, any depth (not validated again)
    then: Declaration
    otherwise: bool = False

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:  # Any: raw YAML, before validation
        if not isinstance(data, dict):
            raise ValueError(_RULE_SHAPE)
        keys = set(data)
        if keys == {"else"}:
            return {"then": data["else"], "otherwise": True}
        if keys == {"if", "then"}:
            return {"condition": parse_condition(data["if"]), "then": data["then"]}
        found = ", ".join(map(str, data)) or "no keys"
        raise ValueError(f"{_RULE_SHAPE} (this one has {found})")


class ShootingTactics(Strict):
    """How a combatant with a ranged weapon fights in reach: declared once, round and hybrid."""

    point_blank: Literal["shoot", "fight"] = Field(
        "shoot",
        description="Within melee reach with a ranged weapon ready: shoot (SHOOT, ranged damage) "
        "or fight hand to hand (FIGHT, the melee weapon).",
    )


class T10Tactics(TargetTactics, ShootingTactics):
    """Target choice, declarations, luck spending and which way a maneuver pushes."""

    declare: Declaration | None = Field(None, description="The same declaration every round.")
    rules: list[Rule] | None = Field(
        None, description="Ordered if/then rules ending with else; the first that holds wins."
    )
    luck: LuckPolicy = Field(
        "save",
        description="save: spend luck to ignore a hit that would take it out (or a decisive failed "
        "test); always: on every hit or failure; never.",
    )
    luck_to_succeed: LuckToSucceed = Field("never", description=LUCK_TO_SUCCEED_HELP)
    push: Literal["away", "toward"] = Field(
        "away", description="Where a maneuvering hit moves the opponent: away from or toward it."
    )

    @field_validator("rules")
    @classmethod
    def _ends_with_else(cls, rules: list[Rule] | None) -> list[Rule] | None:
        if rules is None:
            return rules
        if not rules or not rules[-1].otherwise:
            raise ValueError("a list of if/then rules ending with an 'else:' rule")
        if any(rule.otherwise for rule in rules[:-1]):
            raise ValueError("'else:' only as the last rule")
        return rules

    @model_validator(mode="after")
    def _one_way(self) -> T10Tactics:
        if self.declare is not None and self.rules is not None:
            raise ValueError("either declare or rules, not both")
        return self


class MeleeWeapon(Strict):
    """A hand-held weapon (or fists): its bonus to FIGHT, its reach and its damage.

    Or a weapon of the armory by name (``weapon: saber``), or one changed field by field
    (``weapon: {base: saber, reach: 2}``): :mod:`sim.rules.target10.armory`.
    """

    model_config = ConfigDict(json_schema_extra=armory_schema(armory.WEAPONS, "weapon"))

    @model_validator(mode="before")
    @classmethod
    def _named(cls, value: Any) -> Any:  # Any: raw YAML, before validation
        return from_armory(value, armory.WEAPONS, "weapon")

    name: str = "fists"
    bonus: int = Field(0, ge=-10, le=20, description="Weapon bonus to FIGHT.")
    reach: float = Field(1, ge=0, le=1000, description="Melee reach in paces.")
    damage: Damage = Field("1d6", description="The damage roll before the STR modifier.")


class RangedWeapon(Strict):
    """A thrown or missile weapon: its bonus to SHOOT, its range and its damage."""

    name: str = "bow"
    bonus: int = Field(0, ge=-10, le=20, description="Weapon bonus to SHOOT.")
    range: float = Field(..., gt=0, le=100_000, description="Range in paces.")
    damage: Damage = Field("1d6", description="The damage roll before the DEX modifier.")
    firearm: bool = Field(
        False, description="A musket or pistol: reloads after each shot (option firearm_reload)."
    )
    ammo: int | None = Field(
        None, ge=0, le=10_000, description="Shots or missiles carried (none given: unlimited)."
    )


class Skirmisher(Strict):
    """What a combatant brings to a fight at a distance: speed, a ranged weapon, cover.

    Declared once: the round's :class:`Combatant` and the ACS hybrid's stat block
    (:class:`~sim.rules.target10.hybrid.HybridCombatant`) both inherit them.
    """

    ranged: RangedWeapon | None = Field(None, description="A thrown or missile weapon, if any.")
    speed: float = Field(10, ge=0, le=10_000, description="Normal speed in paces per round.")
    cover: int = Field(
        0, ge=0, le=3, description="Cover: minus this on attacks against it (situational)."
    )


class _Character(Strict):
    """What both fighters and testers may carry: skill, luck."""

    skill: int = Field(0, ge=0, le=40, description="Skill value (venturers' Negotiate, tests).")
    skill_level: SkillLevel | None = Field(
        None, description="low, mid or high: caps luck points (3/1/0 by default)."
    )
    luck: int | None = Field(
        None, ge=0, le=20, description="Luck points at the start (default: the cap of its level)."
    )


class Combatant(_Character, Skirmisher):
    """A combatant's stat block under Target 10."""

    hp: HitPoints = Field(..., description="Hit points: a number, or dice rolled per combat.")
    hit_dice: int = Field(
        1, ge=0, le=40, description="Hit Dice, added to FIGHT, SHOOT and DEFENSE."
    )
    strength: int = Field(10, ge=1, le=40, description="Strength score.")
    dexterity: int = Field(10, ge=1, le=40, description="Dexterity score.")
    charisma: int = Field(10, ge=1, le=40, description="Charisma score (Negotiate).")
    strength_mod: int | None = Field(None, ge=-10, le=20, description="Given STR modifier.")
    dexterity_mod: int | None = Field(None, ge=-10, le=20, description="Given DEX modifier.")
    charisma_mod: int | None = Field(None, ge=-10, le=20, description="Given CHA modifier.")
    weapon: MeleeWeapon = Field(default_factory=MeleeWeapon)
    armor: int = Field(0, ge=-10, le=40, description="Armor bonus to DEFENSE.")
    position: float | None = Field(
        None,
        ge=-1_000_000,
        le=1_000_000,
        description="Start position in paces (default: the side's index x start_distance).",
    )
    venturer: bool = Field(False, description="A venturer: only venturers may Negotiate.")
    on_ground: bool = Field(False, description="Starts the fight sitting or lying down.")
    situational: int = Field(0, ge=-20, le=20, description="Situational modifier on its attacks.")
    tactics: T10Tactics = Field(default_factory=T10Tactics)


class TesterTactics(Strict):
    """How a tester spends luck."""

    luck: LuckPolicy = Field(
        "save",
        description="save: on a failure that would end the test; always: on any failure; never.",
    )


class Tester(_Character):
    """A character in a test outside combat: its Test Value, or the parts that make it."""

    ability: int = Field(10, ge=1, le=40, description="The governing ability score.")
    ability_mod: int | None = Field(None, ge=-10, le=20, description="Given ability modifier.")
    tv: int | None = Field(
        None, ge=-40, le=80, description="Test Value given directly (skill + modifier otherwise)."
    )
    nature: bool = Field(
        False, description="Nature, not a character: TV 1..10 (default nature_tv), never rolls."
    )
    hp: HitPoints = Field(1, description="Unused in tests (kept so stat blocks can be shared).")
    tactics: TesterTactics = Field(default_factory=TesterTactics)

    @model_validator(mode="after")
    def _nature_tv(self) -> Tester:
        if self.nature and self.tv is not None and not 1 <= self.tv <= 10:
            raise ValueError(f"nature's TV from 1 to 10 (found {self.tv})")
        return self
