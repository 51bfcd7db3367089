"""Target 10 resolution on the ACS clock (``rules: acs`` with ``options: {resolution: target10}``).

The Ambition Combat System is "a timing framework ... to be modified to fit each game's
mechanics" (ACS text, first lines; RULINGS part A): its seconds, ambition and action dice decide
*who acts when*, and leave hitting, defending and damage to the game. In this hybrid Target 10
decides *what happens*:

- each ACS action is one Target 10 Kill attack: d20 + (FIGHT - DEFENSE, within +/-10) +
  situational (within +/-3) against 12 (``combat_target``), damage 1d6 + STR modifier, at least 1;
  below 0 hit points the target is dead, at exactly 0 unconscious (``zero_hp``), and out either way;
- ACS defenses are Target 10's Defend (``hybrid_defense: defend``, default): a defender with a
  defensive action left in the segment (ACS "Defenses", and the tactic ``defend``) adds
  max(DEX bonus, 1) to its DEFENSE against that attack, and, as any ACS defense, that costs it the
  action it had on this segment (ACS "Defense-induced action loss"). With ``passive`` DEFENSE is
  all there is and nobody ever "rolls a defense";
- luck points work as in rounds: a point ignores a hit by the tactic ``luck`` (default ``save``:
  a hit that would take the combatant out), and turns a failed attack test into a success by the
  tactic ``luck_to_succeed`` (default ``never``).

Positions, movements and shots (:mod:`~sim.rules.target10.hybrid_space`, ACS "Movement": it "is
based on the mechanics utilizing this system"): closing in is an Advance or a Charge (tactic
``close``), fleeing a Flee, keeping a distance a Withdraw, each a round's paces spread over
``round_seconds`` seconds and the mover's actions. What those movements do to an attack is the
round's own rule, read through the same functions:

- a Charge ("adds double their strength bonus to their attack score", "does not add their
  dexterity bonus to their defense score during the round") lasts on the clock from the action
  that charges until its next attack is resolved: that attack adds the STR bonus once more
  (:func:`~sim.rules.target10.values.charge_fight_bonus`), and until then attacks on the charger
  meet DEFENSE without the DEX bonus (:func:`~sim.rules.target10.values.charge_defense_loss`);
- an attack on a fleeing combatant (one whose last action was a Flee) succeeds without a roll
  (``flee_auto_hit``, :func:`~sim.rules.target10.combat_rolls.flee_auto`; ``if_after`` reads the
  ambition order as the round's initiative), and a fleer, back turned, makes no ACS defense;
- a shot is Target 10's ranged attack: SHOOT against DEFENSE, damage + DEX, the target's
  ``cover`` (:func:`~sim.rules.target10.combat_rolls.cover_modifier`), within reach by the tactic
  ``point_blank`` (:func:`~sim.rules.target10.combat_rolls.weapon_for`), one missile per shot
  (:func:`~sim.rules.target10.ammunition.after_shot`) and a firearm's reload.

Target 10's initiative and its other actions (Defend aside, Disarm, Grapple, Negotiate, Subdue,
Trip) and movements (Hold is the ACS tactic ``movement: hold``; Maneuver and Stand) do not exist
here: a second of ACS is far shorter than a round, and the clock already orders everything.
Unconscious combatants do not wake (a fight on the ACS clock lasts seconds, not 1d6 minutes).

The attack test, its damage and the luck rule are the round's own
(:func:`~sim.rules.target10.combat_rolls.attack_modifier`,
:func:`~sim.rules.target10.skill_tests.roll_test`,
:func:`~sim.rules.target10.combat_rolls.damage_roll`,
:func:`~sim.rules.target10.actions.take_damage`, :mod:`~sim.rules.target10.luck`), and so
are the options they read (:class:`~sim.rules.target10.models.AttackOptions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from sim.engine.dice import DiceExpr
from sim.engine.space import distance
from sim.rules.acs.models import AcsTactics, AcsTiming
from sim.rules.acs.movement import FLEE
from sim.rules.target10 import values
from sim.rules.target10.actions import DEAD, defend_bonus, take_damage
from sim.rules.target10.ammunition import after_shot
from sim.rules.target10.combat_rolls import (
    RANGED,
    CombatTest,
    attack_modifier,
    cover_modifier,
    damage_roll,
    flee_auto,
    lucky_hit,
    weapon_for,
)
from sim.rules.target10.hybrid_space import Reach, Target10Space, reload_segments
from sim.rules.target10.luck import SucceedPolicy, luck_cap, spend_on_hit
from sim.rules.target10.models import (
    LUCK_TO_SUCCEED_HELP,
    AttackOptions,
    LuckPolicy,
    LuckToSucceed,
    MeleeWeapon,
    MovementOptions,
    RangedOptions,
    ShootingTactics,
    SkillLevel,
    Skirmisher,
    succeed_policy,
)
from sim.rules.target10.narration import HYBRID_NARRATION
from sim.rules.target10.skill_tests import outcomes, roll_test

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


class HybridOptions(AttackOptions, MovementOptions, RangedOptions):
    """Target 10's own options (declared once, in its models) and the hybrid's.

    The combat test's, the movements' and the shots' options are the round's own models.
    """

    hybrid_defense: Literal["defend", "passive"] = Field(
        "defend",
        description="defend: an ACS defensive action is Target 10's Defend against that attack "
        "(and costs an action as ACS defenses do); passive: DEFENSE only, no ACS defenses.",
    )


class HybridTactics(AcsTactics, ShootingTactics):
    """The ACS tactics plus Target 10's luck spending, point-blank shots and way of closing in."""

    close: Literal["advance", "charge"] = Field(
        "advance",
        description="How it closes in on a target out of reach (and range): advance (Advance, "
        "advance_paces a round, guard up; the round's default) or charge (Charge, run_multiplier "
        "x speed a round, no DEX to DEFENSE and double STR on the attack that ends it).",
    )

    luck: LuckPolicy = Field(
        "save", description="save: ignore a hit that would take it out; always: every hit; never."
    )
    luck_to_succeed: LuckToSucceed = Field("never", description=LUCK_TO_SUCCEED_HELP)


class HybridCombatant(AcsTiming, Skirmisher):
    """A combatant on the ACS clock fighting with Target 10 values."""

    hit_dice: int = Field(1, ge=0, le=40, description="Hit Dice, added to FIGHT and DEFENSE.")
    strength: int = Field(10, ge=1, le=40, description="Strength score.")
    dexterity: int = Field(10, ge=1, le=40, description="Dexterity score.")
    strength_mod: int | None = Field(None, ge=-10, le=20, description="Given STR modifier.")
    dexterity_mod: int | None = Field(None, ge=-10, le=20, description="Given DEX modifier.")
    weapon: MeleeWeapon = Field(default_factory=MeleeWeapon)
    armor: int = Field(0, ge=-10, le=40, description="Armor bonus to DEFENSE.")
    situational: int = Field(0, ge=-20, le=20, description="Situational modifier on its attacks.")
    skill_level: SkillLevel | None = Field(None, description="low, mid or high: caps luck points.")
    luck: int | None = Field(None, ge=0, le=20, description="Luck points (default: the cap).")
    tactics: HybridTactics = Field(default_factory=HybridTactics)


@dataclass(frozen=True, slots=True)
class HybridStats:
    """A hybrid combatant's fixed numbers, and the combat test of the scenario."""

    fight: int
    defense: int
    defend: int
    str_mod: int
    damage: DiceExpr
    situational: int
    luck: int
    luck_policy: str
    succeed: SucceedPolicy
    test: CombatTest
    uses_defend: bool
    dex_mod: int
    #: What a Charge adds to FIGHT and takes off DEFENSE.
    charge_str: int
    charge_dex: int
    #: ``flee_auto_hit``.
    flee_auto_hit: str
    #: ``firearm_reload`` (rounds).
    firearm_reload: int
    #: Distances, ranged weapon, cover, ways of moving.
    space: Reach


@dataclass(slots=True)
class HybridState:
    """A hybrid combatant's state during one combat.

    Attributes:
        luck: luck points left.
        ammo: missiles left (None: unlimited).
        loaded_at: the clock time (segments) its firearm is loaded again (-1: loaded).
        charging: it charged and has not attacked since (the Charge's "round").
    """

    luck: int
    ammo: int | None = None
    loaded_at: float = -1
    charging: bool = False


class Target10Resolution(Target10Space):
    """The ``target10`` resolution of the ACS clock (its space hooks: :class:`Target10Space`)."""

    name = "target10"
    narration = HYBRID_NARRATION
    options_model = HybridOptions
    combatant_model = HybridCombatant

    def stats(self, model: HybridCombatant, options: HybridOptions) -> HybridStats:
        """Plain stats for the hot path (options are the merged ACS + hybrid options)."""
        formula = options.ability_modifier
        str_mod = model.strength_mod
        if str_mod is None:
            str_mod = values.ability_modifier(model.strength, formula)
        dex_mod = model.dexterity_mod
        if dex_mod is None:
            dex_mod = values.ability_modifier(model.dexterity, formula)
        cap = luck_cap(model.skill_level, options.luck_caps.model_dump())
        tactics = model.tactics
        ranged = model.ranged
        shoot = values.shoot(model.hit_dice, dex_mod, ranged.bonus) if ranged is not None else 0
        space = Reach.of(
            model,
            options,
            reach=model.weapon.reach,
            shoot=shoot,
            charges=tactics.close == "charge",
            point_blank=tactics.point_blank == "shoot",
            cover_all=options.cover_against == "all",
        )
        return HybridStats(
            fight=values.fight(model.hit_dice, str_mod, model.weapon.bonus),
            defense=values.defense(model.hit_dice, dex_mod, model.armor),
            defend=defend_bonus(dex_mod, options.defend_minimum),
            str_mod=str_mod,
            damage=DiceExpr.parse(model.weapon.damage),
            situational=model.situational,
            luck=model.luck if model.luck is not None else cap,
            luck_policy=model.tactics.luck,
            succeed=succeed_policy(model.tactics.luck_to_succeed),
            test=CombatTest.of(options),
            uses_defend=options.hybrid_defense == "defend",
            dex_mod=dex_mod,
            charge_str=values.charge_fight_bonus(str_mod, options.charge_str_factor),
            charge_dex=values.charge_defense_loss(dex_mod, options.charge_drops_dex),
            flee_auto_hit=options.flee_auto_hit,
            firearm_reload=options.firearm_reload,
            space=space,
        )

    def begin(self, clock: AcsClock) -> None:
        """Start of a combat: full luck (text, "Luck Points"), full ammunition, a loaded weapon."""
        for fighter in clock.combat.fighters:
            stats: HybridStats = fighter.stats
            fighter.state = HybridState(stats.luck, stats.space.ammo)

    def attack(
        self, clock: AcsClock, attacker: AcsFighter, target: AcsFighter, can_defend: bool
    ) -> bool:
        """Resolve one Target 10 attack; True when the target used a defensive action."""
        combat = clock.combat
        dice = combat.dice
        a: HybridStats = attacker.stats
        d: HybridStats = target.stats
        mine: HybridState = attacker.state
        theirs: HybridState = target.state
        test = a.test
        kit = a.space
        gap = distance(attacker, target)
        loaded = mine.ammo != 0 and mine.loaded_at <= clock.env.now
        use = weapon_for(gap, attacker.reach, kit.range if loaded else 0.0, kit.point_blank)
        # Not a shot: hand to hand (the clock attacks only in reach, or in range of a shot).
        ranged = use == RANGED
        charging = mine.charging and not ranged
        value = a.fight + a.charge_str if charging else a.fight
        if ranged:
            value = kit.shoot
        mine.charging = False
        situational = a.situational
        if d.space.cover:
            situational += cover_modifier(d.space.cover, ranged, kit.cover_all)
        auto = target.moving == FLEE and flee_auto(a.flee_auto_hit, -attacker.rank, -target.rank)
        # A fleer has turned its back: no Defend, no ACS defense.
        defending = can_defend and a.uses_defend and not auto
        plain_defense = d.defense - d.charge_dex if theirs.charging else d.defense
        defense = plain_defense + d.defend if defending else plain_defense
        modifier = attack_modifier(value, defense, situational, test)
        roll = roll_test(dice, modifier, test.need, auto)
        if ranged:
            if mine.ammo is not None:
                mine.ammo = after_shot(mine.ammo)
            if kit.firearm:
                seconds = clock.options.round_seconds
                mine.loaded_at = clock.env.now + reload_segments(a.firearm_reload, seconds)
        hit = lucky = False
        if roll.success:
            hit = True
        elif a.succeed.spends:
            damage = kit.ranged_damage if ranged else a.damage
            bonus = a.dex_mod if ranged else a.str_mod
            if mine.luck > 0 and lucky_hit(
                a.succeed, modifier, test.need, target.hp, damage, bonus, test.min_damage
            ):
                mine.luck -= 1
                hit = lucky = True
        if combat.trace is not None:
            at: dict[str, object] = {}
            if ranged:
                at = {"weapon": kit.weapon, "distance": gap, "ammo": mine.ammo}
            combat.emit(
                "t10_attack",
                attacker,
                target,
                d20=roll.face,
                modifier=roll.modifier,
                total=roll.total,
                need=roll.need,
                hit=hit,
                defend=defending,
                ranged=ranged,
                auto=auto,
                charge=a.charge_str if charging else 0,
                **at,
            )
            if lucky:
                combat.emit("t10_luck_hit", attacker, target, left=mine.luck)
        if not hit:
            if defending:
                # The defense won if the attack would have hit against DEFENSE alone.
                plain = attack_modifier(value, plain_defense, situational, test)
                if outcomes(plain, test.need)[roll.face].success:
                    target.defenses_won += 1
            return defending
        attacker.hits += 1
        if ranged:
            shot = kit.ranged_damage
            assert shot is not None  # only a combatant with a ranged weapon has a range
            amount = damage_roll(dice, shot, a.dex_mod, test.min_damage)
        else:
            amount = damage_roll(dice, a.damage, a.str_mod, test.min_damage)
        _, how = take_damage(target.hp, amount, 0, test.zero_hp)
        if theirs.luck > 0 and spend_on_hit(d.luck_policy, how is not None):
            theirs.luck -= 1
            if combat.trace is not None:
                combat.emit("t10_luck", target, attacker, left=theirs.luck)
            return defending
        combat.damage(attacker, target, amount, 0, how if how is not None else DEAD)
        return defending


TARGET10_RESOLUTION = Target10Resolution()
