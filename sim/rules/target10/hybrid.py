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

Target 10's one-minute rounds, initiative, movements and the other actions do not exist here: a
second of ACS is far shorter than a round, and the clock already orders everything. Unconscious
combatants do not wake (a fight on the ACS clock lasts seconds, not 1d6 minutes).

The attack test, its damage and the luck rule are the round's own
(:func:`~sim.rules.target10.combat_test.attack_modifier`,
:func:`~sim.rules.target10.tests.roll_test`, :func:`~sim.rules.target10.combat_test.damage_roll`,
:func:`~sim.rules.target10.actions.take_damage`, :mod:`~sim.rules.target10.luck`), and so
are the options they read (:class:`~sim.rules.target10.models.AttackOptions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from sim.dice import DiceExpr
from sim.rules.acs.models import AcsTactics, AcsTiming
from sim.rules.target10 import values
from sim.rules.target10.actions import DEAD, defend_bonus, take_damage
from sim.rules.target10.combat_test import (
    CombatTest,
    attack_modifier,
    damage_roll,
    lucky_hit,
)
from sim.rules.target10.luck import SucceedPolicy, luck_cap, spend_on_hit
from sim.rules.target10.models import (
    LUCK_TO_SUCCEED_HELP,
    AttackOptions,
    LuckPolicy,
    LuckToSucceed,
    MeleeWeapon,
    SkillLevel,
    succeed_policy,
)
from sim.rules.target10.narration import HYBRID_NARRATION
from sim.rules.target10.tests import outcomes, roll_test

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


class HybridOptions(AttackOptions):
    """Target 10's combat-test options (declared once, in its models) and the hybrid's own."""

    hybrid_defense: Literal["defend", "passive"] = Field(
        "defend",
        description="defend: an ACS defensive action is Target 10's Defend against that attack "
        "(and costs an action as ACS defenses do); passive: DEFENSE only, no ACS defenses.",
    )


class HybridTactics(AcsTactics):
    """The ACS tactics plus Target 10's luck spending."""

    luck: LuckPolicy = Field(
        "save", description="save: ignore a hit that would take it out; always: every hit; never."
    )
    luck_to_succeed: LuckToSucceed = Field("never", description=LUCK_TO_SUCCEED_HELP)


class HybridCombatant(AcsTiming):
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


@dataclass(slots=True)
class HybridState:
    """A hybrid combatant's state during one combat: the luck points it has left."""

    luck: int


class Target10Resolution:
    """The ``target10`` resolution of the ACS clock."""

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
        )

    def begin(self, clock: AcsClock) -> None:
        """Start of a combat: every combatant starts with its full luck (text, "Luck Points")."""
        for fighter in clock.combat.fighters:
            stats: HybridStats = fighter.stats
            fighter.state = HybridState(stats.luck)

    def attack(
        self, clock: AcsClock, attacker: AcsFighter, target: AcsFighter, can_defend: bool
    ) -> bool:
        """Resolve one Target 10 attack; True when the target used a defensive action."""
        combat = clock.combat
        dice = combat.dice
        a: HybridStats = attacker.stats
        d: HybridStats = target.stats
        test = a.test
        defending = can_defend and a.uses_defend
        defense = d.defense + d.defend if defending else d.defense
        modifier = attack_modifier(a.fight, defense, a.situational, test)
        roll = roll_test(dice, modifier, test.need)
        hit = lucky = False
        if roll.success:
            hit = True
        elif a.succeed.spends:
            mine: HybridState = attacker.state
            if mine.luck > 0 and lucky_hit(
                a.succeed, modifier, test.need, target.hp, a.damage, a.str_mod, test.min_damage
            ):
                mine.luck -= 1
                hit = lucky = True
        if combat.trace is not None:
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
            )
            if lucky:
                mine = attacker.state
                combat.emit("t10_luck_hit", attacker, target, left=mine.luck)
        if not hit:
            if defending:
                # The defense won if the attack would have hit against DEFENSE alone.
                plain = attack_modifier(a.fight, d.defense, a.situational, test)
                if outcomes(plain, test.need)[roll.face].success:
                    target.defenses_won += 1
            return defending
        attacker.hits += 1
        amount = damage_roll(dice, a.damage, a.str_mod, test.min_damage)
        state: HybridState = target.state
        _, how = take_damage(target.hp, amount, 0, test.zero_hp)
        if state.luck > 0 and spend_on_hit(d.luck_policy, how is not None):
            state.luck -= 1
            if combat.trace is not None:
                combat.emit("t10_luck", target, attacker, left=state.luck)
            return defending
        combat.damage(attacker, target, amount, 0, how if how is not None else DEAD)
        return defending


TARGET10_RESOLUTION = Target10Resolution()
