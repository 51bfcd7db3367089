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

Every attack is the round's own exchange,
:func:`~sim.rules.target10.exchange.resolve_attack` (the test, luck spent to hit, damage and the
target's luck to ignore the hit), with the round's options
(:class:`~sim.rules.target10.models.AttackOptions`); this module builds its input from the clock
and applies its outcome.
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
from sim.rules.target10.actions import DEAD, KILL, defend_bonus
from sim.rules.target10.ammunition import after_shot
from sim.rules.target10.combat_rolls import RANGED, CombatTest, flee_auto, weapon_for
from sim.rules.target10.exchange import (
    AttackInput,
    AttackOutcome,
    ExchangeRules,
    Weapon,
    blow_lands,
    resolve_attack,
)
from sim.rules.target10.hybrid_space import Reach, Target10Space, reload_segments
from sim.rules.target10.luck import SucceedPolicy, luck_cap
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
    """A hybrid combatant's fixed numbers, and the options of its exchanges.

    Attributes:
        melee: its hand weapon (FIGHT, damage + STR, a Charge's STR bonus once more).
        shot: its ranged weapon (SHOOT, damage + DEX), or None.
        defense: DEFENSE.
        defend: what Defend adds to it.
        charge_dex: what a Charge takes off DEFENSE.
        situational: its situational modifier on its attacks.
        luck: luck points at the start.
        luck_policy: when it ignores a hit with one (``tactics.luck``).
        succeed: when it spends one to hit (``tactics.luck_to_succeed``).
        exchange: the scenario's options of an exchange.
        uses_defend: ACS defenses are Target 10's Defend (``hybrid_defense: defend``).
        flee_auto_hit: ``flee_auto_hit``.
        firearm_reload: ``firearm_reload`` (rounds).
        space: distances, ranged weapon, cover, ways of moving.
    """

    melee: Weapon
    shot: Weapon | None
    defense: int
    defend: int
    charge_dex: int
    situational: int
    luck: int
    luck_policy: str
    succeed: SucceedPolicy
    exchange: ExchangeRules
    uses_defend: bool
    flee_auto_hit: str
    firearm_reload: int
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
        test = CombatTest.of(options)
        return HybridStats(
            melee=Weapon(
                values.fight(model.hit_dice, str_mod, model.weapon.bonus),
                DiceExpr.parse(model.weapon.damage),
                str_mod,
                charge=values.charge_fight_bonus(str_mod, options.charge_str_factor),
            ),
            shot=(
                Weapon(shoot, space.ranged_damage, dex_mod, ranged=True)
                if space.ranged_damage is not None
                else None
            ),
            defense=values.defense(model.hit_dice, dex_mod, model.armor),
            defend=defend_bonus(dex_mod, options.defend_minimum),
            charge_dex=values.charge_defense_loss(dex_mod, options.charge_drops_dex),
            situational=model.situational,
            luck=model.luck if model.luck is not None else cap,
            luck_policy=model.tactics.luck,
            succeed=succeed_policy(model.tactics.luck_to_succeed),
            exchange=ExchangeRules(test, cover_all=options.cover_against == "all"),
            uses_defend=options.hybrid_defense == "defend",
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
        self,
        clock: AcsClock[HybridStats, HybridState],
        attacker: AcsFighter[HybridStats, HybridState],
        target: AcsFighter[HybridStats, HybridState],
        can_defend: bool,
    ) -> bool:
        """Resolve one Target 10 attack; True when the target used a defensive action."""
        combat = clock.combat
        a = attacker.stats
        mine = attacker.state
        theirs = target.state
        weapon = ready_weapon(clock, attacker, target)
        automatic = target.moving == FLEE and flee_auto(
            a.flee_auto_hit, -attacker.rank, -target.rank
        )
        # A fleer has turned its back: no Defend, no ACS defense.
        defending = can_defend and a.uses_defend and not automatic
        exchange = attack_input(attacker, target, weapon, automatic, defending)
        mine.charging = False  # the blow that ends a Charge
        outcome = resolve_attack(exchange, combat.dice, mine.luck, target.hp)
        if weapon.ranged:
            shot_fired(clock, attacker)
        if outcome.lucky:
            mine.luck -= 1
        if combat.trace is not None:
            emit_attack(clock, attacker, target, exchange, outcome, defending)
        if not outcome.hit:
            if outcome.parried:
                target.defenses_won += 1
            return defending
        attacker.hits += 1
        d = target.stats
        landing = blow_lands(
            KILL, outcome.damage, target.hp, theirs.luck, d.luck_policy, a.exchange.test.zero_hp
        )
        if landing.ignored:
            theirs.luck -= 1
            if combat.trace is not None:
                combat.emit("t10_luck", target, attacker, left=theirs.luck)
            return defending
        combat.damage(attacker, target, outcome.damage, 0, landing.out or DEAD)
        return defending


def ready_weapon(
    clock: AcsClock[HybridStats, HybridState],
    attacker: AcsFighter[HybridStats, HybridState],
    target: AcsFighter[HybridStats, HybridState],
) -> Weapon:
    """What ``attacker`` strikes ``target`` with: a loaded ranged weapon, or its hand weapon.

    The clock attacks only in reach, or in range of a shot (:func:`~sim.rules.target10.
    combat_rolls.weapon_for`: point-blank shots by the tactic ``point_blank``).
    """
    a = attacker.stats
    mine = attacker.state
    kit = a.space
    loaded = mine.ammo != 0 and mine.loaded_at <= clock.env.now
    ready = kit.range if loaded else 0.0
    if a.shot is not None and weapon_for(
        distance(attacker, target), attacker.reach, ready, kit.point_blank
    ) == RANGED:
        return a.shot
    return a.melee


def attack_input(
    attacker: AcsFighter[HybridStats, HybridState],
    target: AcsFighter[HybridStats, HybridState],
    weapon: Weapon,
    automatic: bool,
    defending: bool,
) -> AttackInput:
    """The exchange's input: ``attacker`` striking ``target`` with ``weapon`` on the clock.

    A Charge lasts until the charger's next attack: that blow adds its STR bonus once more
    (hand to hand), and until then the charger meets attacks without its DEX bonus.
    """
    a = attacker.stats
    d = target.stats
    return AttackInput(
        a.exchange,
        weapon,
        defense=d.defense - d.charge_dex if target.state.charging else d.defense,
        situational=a.situational,
        charging=attacker.state.charging,
        cover=d.space.cover,
        automatic=automatic,
        defend=d.defend if defending else 0,
        succeed=a.succeed,
    )


def shot_fired(
    clock: AcsClock[HybridStats, HybridState], attacker: AcsFighter[HybridStats, HybridState]
) -> None:
    """A shot uses one missile, and a firearm must reload (``firearm_reload`` rounds)."""
    a = attacker.stats
    mine = attacker.state
    if mine.ammo is not None:
        mine.ammo = after_shot(mine.ammo)
    if a.space.firearm:
        seconds = clock.options.round_seconds
        mine.loaded_at = clock.env.now + reload_segments(a.firearm_reload, seconds)


def emit_attack(
    clock: AcsClock[HybridStats, HybridState],
    attacker: AcsFighter[HybridStats, HybridState],
    target: AcsFighter[HybridStats, HybridState],
    exchange: AttackInput,
    outcome: AttackOutcome,
    defending: bool,
) -> None:
    """The replay's ``t10_attack`` event (and ``t10_luck_hit`` for a lucky hit)."""
    combat = clock.combat
    roll = outcome.roll
    weapon = exchange.weapon
    at: dict[str, object] = {}
    if weapon.ranged:
        gap = distance(attacker, target)
        at = {"weapon": attacker.stats.space.weapon, "distance": gap, "ammo": attacker.state.ammo}
    combat.emit(
        "t10_attack",
        attacker,
        target,
        d20=roll.face,
        modifier=roll.modifier,
        total=roll.total,
        need=roll.need,
        hit=outcome.hit,
        defend=defending,
        ranged=weapon.ranged,
        auto=exchange.automatic,
        charge=weapon.charge if exchange.charging else 0,
        **at,
    )
    if outcome.lucky:
        combat.emit("t10_luck_hit", attacker, target, left=attacker.state.luck)


TARGET10_RESOLUTION = Target10Resolution()
