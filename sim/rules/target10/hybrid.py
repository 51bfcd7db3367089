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
  a hit that would take the combatant out).

Target 10's one-minute rounds, initiative, movements and the other actions do not exist here: a
second of ACS is far shorter than a round, and the clock already orders everything. Unconscious
combatants do not wake (a fight on the ACS clock lasts seconds, not 1d6 minutes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from sim.dice import DiceExpr
from sim.rules.acs.models import AcsTactics, AcsTiming
from sim.rules.common import Strict
from sim.rules.target10 import values
from sim.rules.target10.actions import DEAD, UNCONSCIOUS, defend_bonus
from sim.rules.target10.luck import luck_cap, spend_on_hit
from sim.rules.target10.models import LuckCaps, LuckPolicy, MeleeWeapon, SkillLevel
from sim.rules.target10.narration import HYBRID_NARRATION

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


class HybridOptions(Strict):
    """Target 10 options of the hybrid (the ACS clock's own options come with them)."""

    combat_target: int = Field(
        12, ge=1, le=40, description="A combat test succeeds on this or more."
    )
    value_clamp: int = Field(
        10, ge=0, le=40, description="FIGHT - DEFENSE counts at most this much."
    )
    situational_clamp: int = Field(
        3, ge=0, le=20, description="Situational modifiers at most this."
    )
    ability_modifier: Literal["ceil_half", "floor_half"] = Field(
        "ceil_half", description="Score to modifier: ceil((score-10)/2) or floor((score-10)/2)."
    )
    min_damage: int = Field(1, ge=0, le=10, description="Damage is never below this.")
    zero_hp: Literal["unconscious", "dead"] = Field(
        "unconscious", description="Exactly 0 hit points: unconscious, or dead (out either way)."
    )
    hybrid_defense: Literal["defend", "passive"] = Field(
        "defend",
        description="defend: an ACS defensive action is Target 10's Defend against that attack "
        "(and costs an action as ACS defenses do); passive: DEFENSE only, no ACS defenses.",
    )
    defend_minimum: int = Field(1, ge=0, le=20, description="Defend adds the DEX bonus or this.")
    luck_caps: LuckCaps = Field(
        LuckCaps(), description="Most luck points by skill level (low=3 mid=1 high=0)."
    )


class HybridTactics(AcsTactics):
    """The ACS tactics plus Target 10's luck spending."""

    luck: LuckPolicy = Field(
        "save", description="save: ignore a hit that would take it out; always: every hit; never."
    )


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
    """The hot-path copy of a hybrid combatant's numbers and of the options it needs."""

    fight: int
    defense: int
    defend: int
    str_mod: int
    damage: DiceExpr
    situational: int
    luck: int
    luck_policy: str
    target: int
    value_clamp: int
    situ_clamp: int
    min_damage: int
    zero_dead: bool
    uses_defend: bool


class Target10Resolution:
    """The ``target10`` resolution of the ACS clock."""

    name = "target10"
    narration = HYBRID_NARRATION
    options_model = HybridOptions
    combatant_model = HybridCombatant

    def stats(self, model: HybridCombatant, options: Any) -> HybridStats:
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
            target=options.combat_target,
            value_clamp=options.value_clamp,
            situ_clamp=options.situational_clamp,
            min_damage=options.min_damage,
            zero_dead=options.zero_hp == "dead",
            uses_defend=options.hybrid_defense == "defend",
        )

    def attack(
        self, clock: AcsClock, attacker: AcsFighter, target: AcsFighter, can_defend: bool
    ) -> bool:
        """Resolve one Target 10 attack; True when the target used a defensive action."""
        combat = clock.combat
        dice = combat.dice
        a = attacker.stats
        d = target.stats
        defending = can_defend and a.uses_defend
        limit = a.value_clamp
        diff = a.fight - d.defense
        situ = a.situational
        slimit = a.situ_clamp
        situ = -slimit if situ < -slimit else slimit if situ > slimit else situ
        base = (-limit if diff < -limit else limit if diff > limit else diff) + situ
        if defending:
            diff -= d.defend
            modifier = (-limit if diff < -limit else limit if diff > limit else diff) + situ
        else:
            modifier = base
        face = dice.roll(20)
        hit = face + modifier >= a.target
        if combat.trace is not None:
            combat.emit(
                "t10_attack",
                attacker,
                target,
                d20=face,
                modifier=modifier,
                total=face + modifier,
                need=a.target,
                hit=hit,
                defend=defending,
            )
        if not hit:
            if defending and face + base >= a.target:
                target.defenses_won += 1
            return defending
        attacker.hits += 1
        amount = a.damage.roll(dice) + a.str_mod
        if amount < a.min_damage:
            amount = a.min_damage
        left = target.state
        if left is None:
            left = target.state = d.luck
        after = target.hp - amount
        if left > 0 and spend_on_hit(d.luck_policy, after <= 0):
            target.state = left - 1
            if combat.trace is not None:
                combat.emit("t10_luck", target, attacker, left=left - 1)
            return defending
        how = DEAD if after < 0 or a.zero_dead else UNCONSCIOUS
        combat.damage(attacker, target, amount, 0, how)
        return defending


TARGET10_RESOLUTION = Target10Resolution()
