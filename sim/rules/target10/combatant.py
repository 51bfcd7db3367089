"""The Target 10 combatant on the hot path: fixed stats, and its state during one combat.

:class:`Stats` is built once per run from a validated stat block (no pydantic in the loop);
:class:`T10Fighter` carries one combat's state: position, luck, this round's declaration and the
conditions the actions leave (on the ground, pinned, disarmed, unconscious, held off).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.engine.combatant import Fighter
from sim.engine.dice import DiceExpr
from sim.engine.space import home_side
from sim.engine.tactics import TARGETS, TargetChoice
from sim.rules.target10 import values
from sim.rules.target10.actions import KILL, NONE, defend_bonus
from sim.rules.target10.exchange import Weapon
from sim.rules.target10.luck import SucceedPolicy, luck_cap
from sim.rules.target10.models import succeed_policy
from sim.rules.target10.movements import HOLD
from sim.rules.target10.skill_tests import tv_of
from sim.rules.target10.tactics import (
    DEFAULT_RULES,
    Decide,
    compile_rules,
    declaration_codes,
    parse_condition,
)

if TYPE_CHECKING:
    from sim.rules.target10.models import Combatant, CombatOptions, Declaration, T10Tactics


@dataclass(frozen=True, slots=True)
class Stats:
    """A combatant's fixed numbers under the scenario's options.

    Its ways of attacking are :class:`~sim.rules.target10.exchange.Weapon` values, built here
    once: ``melee`` (FIGHT with its hand weapon), ``unarmed`` (FIGHT without the weapon bonus,
    disarmed), ``shot`` (SHOOT with its ranged weapon, None without one), ``disarm`` and
    ``disarm_unarmed`` (a Disarm by SHOOT with its hand weapon's bonus, or without it).
    """

    hd: int
    str_mod: int
    dex_mod: int
    cha_mod: int
    fight: int  # FIGHT with its weapon
    shoot: int  # SHOOT with its ranged weapon (0 if none)
    defense: int  # DEFENSE
    charge_dex: int  # what a charge takes off DEFENSE (the DEX bonus, if positive)
    defend: int  # what Defend adds to DEFENSE
    melee: Weapon
    unarmed: Weapon
    shot: Weapon | None
    disarm: Weapon
    disarm_unarmed: Weapon
    reach: float
    range: float
    speed: float
    venturer: bool
    skill: int
    resist: int  # the TV others' negotiation is tested against
    situational: int
    luck: int
    luck_policy: str
    succeed: SucceedPolicy  # when to spend luck to succeed at its own tests
    push_away: bool
    point_blank: bool  # within reach, shoot a ready ranged weapon (else fight hand to hand)
    firearm: bool  # its ranged weapon reloads after each shot (option firearm_reload)
    ammo: int | None  # shots or missiles carried (None: unlimited)
    cover: int  # minus this on attacks against it (option cover_against)
    choose: TargetChoice
    each_action: bool
    decide: Decide | None  # compiled rules, or None for a fixed declaration
    fixed: tuple[int, int]
    home: int  # -1 for the first side, +1 for the others (flight direction on a tie)

    @classmethod
    def of(cls, model: Combatant, options: CombatOptions, side: int) -> Stats:
        """Read a validated stat block under the rule options."""
        formula = options.ability_modifier

        def modifier(score: int, given: int | None) -> int:
            return given if given is not None else values.ability_modifier(score, formula)

        str_mod = modifier(model.strength, model.strength_mod)
        dex_mod = modifier(model.dexterity, model.dexterity_mod)
        cha_mod = modifier(model.charisma, model.charisma_mod)
        hd = model.hit_dice
        weapon = model.weapon
        ranged = model.ranged
        tactics = model.tactics
        decide, fixed = declarations(tactics)
        melee = DiceExpr.parse(weapon.damage)
        charge = values.charge_fight_bonus(str_mod, options.charge_str_factor)
        fight = values.fight(hd, str_mod, weapon.bonus)
        shoot = values.shoot(hd, dex_mod, ranged.bonus) if ranged is not None else 0
        return cls(
            hd=hd,
            str_mod=str_mod,
            dex_mod=dex_mod,
            cha_mod=cha_mod,
            fight=fight,
            shoot=shoot,
            defense=values.defense(hd, dex_mod, model.armor),
            charge_dex=values.charge_defense_loss(dex_mod, options.charge_drops_dex),
            defend=defend_bonus(dex_mod, options.defend_minimum),
            melee=Weapon(fight, melee, str_mod, charge=charge),
            unarmed=Weapon(values.fight(hd, str_mod, 0), melee, str_mod, charge=charge),
            shot=(
                Weapon(shoot, DiceExpr.parse(ranged.damage), dex_mod, ranged=True)
                if ranged is not None
                else None
            ),
            disarm=Weapon(values.shoot(hd, dex_mod, weapon.bonus), melee, str_mod),
            disarm_unarmed=Weapon(values.shoot(hd, dex_mod, 0), melee, str_mod),
            reach=weapon.reach,
            range=ranged.range if ranged is not None else 0.0,
            speed=model.speed,
            venturer=model.venturer,
            skill=model.skill,
            resist=tv_of(cha_mod, model.skill if model.venturer else 0),
            situational=model.situational,
            luck=model.luck if model.luck is not None else luck_cap(
                model.skill_level, options.luck_caps.model_dump()
            ),
            luck_policy=tactics.luck,
            succeed=succeed_policy(tactics.luck_to_succeed),
            push_away=tactics.push == "away",
            point_blank=tactics.point_blank == "shoot",
            firearm=ranged is not None and ranged.firearm,
            ammo=ranged.ammo if ranged is not None else None,
            cover=model.cover,
            choose=TARGETS[tactics.target],
            each_action=tactics.retarget == "each_action",
            decide=decide,
            fixed=fixed,
            home=home_side(side),
        )


def declarations(tactics: T10Tactics) -> tuple[Decide | None, tuple[int, int]]:
    """How a combatant declares: compiled rules (and no fixed declaration), or a fixed one.

    With no tactics at all, it follows :data:`~sim.rules.target10.tactics.DEFAULT_RULES`.
    """
    if tactics.declare is not None:
        return None, declaration_codes(tactics.declare.movement, tactics.declare.action)
    if tactics.rules is not None:
        rules = [(r.condition, _codes(r.then)) for r in tactics.rules]
    else:
        rules = [
            (parse_condition(c) if c is not None else None, _codes(d)) for c, d in DEFAULT_RULES
        ]
    return compile_rules(rules), (HOLD, KILL)


def _codes(declaration: Declaration | dict[str, str]) -> tuple[int, int]:
    if isinstance(declaration, dict):
        return declaration_codes(declaration["movement"], declaration["action"])
    return declaration_codes(declaration.movement, declaration.action)


class T10Fighter(Fighter):
    """A combatant in one Target 10 combat."""

    target: T10Fighter | None  # its opponent is a Target 10 fighter too

    __slots__ = (
        "act",
        "ammo",
        "attacked",
        "charging",
        "defending",
        "dv",
        "edge",
        "fled",
        "fleeing",
        "hampered",
        "held_until",
        "hold_round",
        "holding",
        "init",
        "last_act",
        "last_move",
        "luck",
        "move",
        "on_ground",
        "pinned_by",
        "pinning",
        "range",
        "reload_left",
        "stats",
        "wake_round",
        "weapon_at",
    )

    def __init__(self, name: str, side: int, index: int, hp: int, stats: Stats, pos: float) -> None:
        super().__init__(name, side, index, hp)
        self.stats: Stats = stats
        self.range: float = stats.range if stats.ammo != 0 else 0.0
        # Shots left (None: unlimited); at 0 it can no longer shoot.
        self.ammo: int | None = stats.ammo
        self.reload_left: int = 0  # reloading actions its firearm still needs before the next shot
        self.pos = pos
        self.luck: int = stats.luck
        self.move = HOLD
        self.act = NONE
        self.init = 0
        self.last_move: int = -1
        self.last_act: int = -1
        self.on_ground: bool = False
        self.hampered = 0  # ground and pin penalties, kept up to date by the round process
        self.dv = stats.defense  # DEFENSE this round (charge and Defend change it)
        self.pinned_by: T10Fighter | None = None
        self.pinning: T10Fighter | None = None
        self.weapon_at: float | None = None
        self.fleeing = False
        self.fled = False
        self.charging = False
        self.defending = False
        self.attacked = -1
        self.wake_round = -1
        self.held_until: int = -1
        self.holding: list[T10Fighter] | None = None
        self.hold_round = -1
        self.edge: tuple[T10Fighter, int] | None = None
