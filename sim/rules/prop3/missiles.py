"""Resolving one missile attack of Combat Proposition Three.

``rules/combat-proposition-three.txt``, the ranged passages of "(ANOTHER) COMBAT PROPOSAL", as
RULINGS part C ("Ranged") reads them, with the pure maths of :mod:`~sim.rules.prop3.ranged`:

- the shooter rolls its Ranged (archery) or Ranged (thrown) pool: one die lost per range increment
  beyond the first, no shot past the maximum range; +1 wiggle for a round spent aiming at this
  target; +1 wiggle per size category the target is larger, one die lost per category smaller;
  plus the wiggle of effects on the target (stumble, a critical dodge) and of focused fire
  (:mod:`~sim.rules.prop3.cluster`);
- the target picks a defense its gear allows against missiles (dodge; block with a shield or heavy
  armor; parry with a weapon), rated by the missile-defense table (dodge average, block and parry
  poor), gets +1 wiggle per increment beyond the first and per size category it is smaller, loses
  a die per category it is larger and to effects on it (fall, a critical block);
- armor plays no part in the defense unless it fails: then armor excellent against the
  ammunition's form gives one more wiggle point that may still save the target
  (``ranged.missile_defense``);
- the rolls are those of melee (one exchange, ``Fight.exchange``), and so are
  outcomes, fumbles and critical defenses (:func:`~sim.rules.prop3.outcomes.settle`); a fumble
  drops the missile weapon.

The missile's attack form matters only for armor (the ammunition's form); there is no form to
declare for the shooter, so the declaration order changes nothing here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from sim.rules.prop3.character import (
    DEFENSE_FORMS,
    DODGE,
    RANDOM,
    F,
    Profile,
    pool_dice,
    ready_pool,
)
from sim.rules.prop3.exchange import AttemptPlan, attempt_plan
from sim.rules.prop3.forms import DefenseForm, Pools
from sim.rules.prop3.outcomes import settle
from sim.rules.prop3.pool import Pool
from sim.rules.prop3.ranged import (
    armor_save_points,
    range_increments,
    ranged_pools,
    size_effect,
)
from sim.rules.prop3.tactics import melee_value, missile_allowed

if TYPE_CHECKING:
    from sim.rules.prop3.character import Combatant, Missile, ShotKey
    from sim.rules.prop3.fight import Fight


def shot_reach(shooter: Combatant, target: Combatant) -> float | None:
    """How far the shooter would shoot at ``target`` (None: nowhere).

    The farthest distance within the maximum range at which its pool keeps ``min_shot_dice``
    dice after range and size: with its bow in hand and shots left, a function of its Vigor
    and the target's profile, kept on its profile by those.
    """
    body = shooter.state
    profile = body.profile
    missile = profile.missile
    if missile is None or not profile.shoot or not body.bow or body.shots == 0:
        return None
    key = (shooter.hp, target.state.profile)
    if key in profile.reaches:
        return profile.reaches[key]
    dice = pool_dice(shooter, profile, missile.roll)
    dice -= size_effect(profile.size, target.state.profile.size).attack_dice_lost
    increments = dice - profile.min_dice + 1
    reach = None if increments < 1 else min(missile.max_range, missile.increment * increments)
    profile.reaches[key] = reach
    return reach


def _defenses(pd: Profile, armed: bool) -> list[int]:
    found = pd.missile_defenses.get(armed)
    if found is None:
        weapon = pd.weapon if armed and not pd.natural else None
        found = pd.missile_defenses[armed] = missile_allowed(pd.armor, pd.shield, weapon)
    return found


class Shot:
    """What a shot at one target depends on, whatever the target's defense form.

    Attributes:
        missile: the shooter's missile weapon.
        distance: feet to the target.
        aimed: the shooter spent its last action aiming at this target.
        wiggle: the shooter's extra wiggle (effects on the target, focused fire).
        shaken: defense dice the target loses to effects on it.
    """

    __slots__ = ("aimed", "distance", "missile", "shaken", "wiggle")

    def __init__(
        self, missile: Missile, distance: float, aimed: bool, wiggle: int, shaken: int
    ) -> None:
        self.missile = missile
        self.distance = distance
        self.aimed = aimed
        self.wiggle = wiggle
        self.shaken = shaken

    def pools(self, attacker: Combatant, defender: Combatant, d: int | None) -> Pools:
        """Both sides' dice and wiggle against defense form ``d`` (None: none)."""
        pa = attacker.state.profile
        pd = defender.state.profile
        base_d = 0 if d is None else max(0, pool_dice(defender, pd, DODGE + d) - self.shaken)
        return ranged_pools(
            pool_dice(attacker, pa, self.missile.roll),
            base_d,
            DefenseForm.DODGE if d is None else DEFENSE_FORMS[d],
            distance=self.distance,
            weapon_range=self.missile.increment,
            max_range=self.missile.max_range,
            aimed=self.aimed,
            attacker_size=pa.size,
            target_size=pd.size,
            attack_wiggle=self.wiggle,
        )

    def state(self, attacker: Combatant, defender: Combatant) -> ShotKey:
        """What the shot's pools depend on besides the shooter's profile and the defense form.

        The target's profile, both Vigors, the distance, aiming, the extra wiggle and the
        target's dice lost.
        """
        return (
            defender.state.profile,
            attacker.hp,
            defender.hp,
            self.distance,
            self.aimed,
            self.wiggle,
            self.shaken,
        )

    def ready(
        self, attacker: Combatant, defender: Combatant, d: int | None
    ) -> tuple[Pool, Pool | None]:
        """The attack pool and the defense pool (None: no defense) against defense form ``d``.

        Cached on the shooter's profile by :meth:`state` and ``d``.
        """
        pa = attacker.state.profile
        key = (self.state(attacker, defender), d)
        found = pa.shot_pools.get(key)
        if found is None:
            found = pa.shot_pools[key] = self._ready(attacker, defender, d)
        return found

    def _ready(
        self, attacker: Combatant, defender: Combatant, d: int | None
    ) -> tuple[Pool, Pool | None]:
        """The pools of :meth:`ready`, uncached."""
        pools = self.pools(attacker, defender, d)
        attack = ready_pool(attacker, self.missile.roll, pools.attack_dice, pools.attack_wiggle)
        if d is None:
            return attack, None
        defense = ready_pool(defender, DODGE + d, pools.defense_dice, pools.defense_wiggle)
        return attack, defense


@lru_cache(maxsize=1024)
def _save(pd: Profile, missile: Missile) -> int:
    """Armor points the target's armor saves a failed defense with against this missile."""
    return 0 if pd.armor is None else armor_save_points(pd.armor.rating(missile.form))


class ShotPlan(NamedTuple):
    """A shot before its rolls: the target's defense form and both pools.

    Attributes:
        defense: the target's defense form index (None: it does not defend).
        attack: the shooter's pool.
        defended: the target's pool (None: no defense).
        save: armor points that may still save a failed defense (``ranged.armor_save_points``).
        first: the tables of the exchange's first attempt (``exchange.attempt_plan``) when its
            input is the same every time (no persistent points to spend), else None.
    """

    defense: int | None
    attack: Pool
    defended: Pool | None
    save: int
    first: AttemptPlan | None


def missile_attack(fight: Fight[F], attacker: F, defender: F, primary: bool = False) -> bool:
    """Resolve ``attacker``'s shot at ``defender`` (which must be in range).

    Returns:
        Whether the target rolled a defense.
    """
    rules = fight.rules
    ab, db = attacker.state, defender.state
    missile = ab.profile.missile
    assert missile is not None, "a shot needs a missile weapon"
    distance = fight.distance(attacker, defender)
    if ab.shots > 0:
        ab.shots -= 1
    aimed = ab.aim is defender
    ab.aim = None
    ab.fired = True
    xw = db.exposed
    if rules.focused_fire:
        xw += fight.cluster.volley_bonus(attacker.side)
    plan = shot_plan(
        fight, attacker, defender, Shot(missile, distance, aimed, xw, db.shaken), primary
    )
    d = plan.defense
    if fight.tracing:
        fight.combat.emit(
            "shoot",
            attacker,
            defender,
            missile=missile.name,
            distance=distance,
            increments=range_increments(distance, missile.increment),
            aimed=aimed,
            defense=None if d is None else DEFENSE_FORMS[d].value,
            save=plan.save,
            shots_left=ab.shots,
        )
    exchange = fight.exchange(
        attacker,
        defender,
        plan.attack,
        plan.defended,
        name=missile.name,
        primary=primary,
        save=plan.save,
        first=plan.first,
    )
    if rules.focused_fire and exchange.attack_succeeded:
        fight.cluster.volley(attacker.side)
    settle(fight, attacker, defender, exchange, d, missile=True)
    return exchange.defense_rolled


def shot_plan(fight: Fight[F], attacker: F, defender: F, shot: Shot, primary: bool) -> ShotPlan:
    """The target's defense form and both pools of ``shot``.

    A pure function of the combatants as they stand, except that a defense tactic ``random``
    draws its form on the fight's dice. Without one, the plan is a function of the shot's state
    (:meth:`Shot.state`), whether the target has its weapon in hand (which decides the defenses
    it may use) and whether it may defend, so it is kept on the shooter's profile by those.
    """
    db = defender.state
    can_defend = fight.can_defend(defender, primary)
    if db.profile.defense == RANDOM:
        return _shot_plan(fight, attacker, defender, shot, can_defend)
    pa = attacker.state.profile
    key = (shot.state(attacker, defender), db.armed, can_defend)
    found = pa.shot_plans.get(key)
    if found is None:
        found = pa.shot_plans[key] = _shot_plan(fight, attacker, defender, shot, can_defend)
    return found


def _shot_plan(fight: Fight[F], attacker: F, defender: F, shot: Shot, can_defend: bool) -> ShotPlan:
    """The plan of :func:`shot_plan`, worked out (uncached)."""
    pd = defender.state.profile
    save = _save(pd, shot.missile)
    choices = _defenses(pd, defender.state.armed)
    d = None
    if can_defend and choices:
        tactic = pd.defense
        if tactic >= 0 and tactic in choices:
            d = tactic
        elif tactic == RANDOM:
            d = choices[fight.dice.index(len(choices))] if len(choices) > 1 else choices[0]
        else:
            d = _lowest_damage(fight, attacker, defender, choices, shot, save)
    attack, defense = shot.ready(attacker, defender, d)
    fixed = fight.fixed_input(attacker, defender, attack, defense, save)
    first = None if fixed is None else attempt_plan(fixed, 0, 0)
    return ShotPlan(d, attack, defense, save, first)


def _lowest_damage(
    fight: Fight[F], attacker: F, defender: F, choices: list[int], shot: Shot, save: int
) -> int:
    """The missile defense with the lowest exact expected damage."""
    rules = fight.rules
    best, choice = None, choices[0]
    for d in choices:
        attack, defense = shot.ready(attacker, defender, d)
        value = melee_value(
            attack, defense, rules.keep, rules.hit_nicks, rules.crit_nicks, save, rules.cuts
        )
        if best is None or value < best:
            best, choice = value, d
    return choice


def missile_auto_hit(fight: Fight[F], attacker: F, defender: F) -> None:
    """A missile counter-attack that hits automatically, rolled to see whether it is critical."""
    ab, db = attacker.state, defender.state
    missile = ab.profile.missile
    assert missile is not None, "a missile counter-attack needs a missile weapon"
    if ab.shots > 0:
        ab.shots -= 1
    xw = db.exposed
    if fight.rules.focused_fire:
        xw += fight.cluster.volley_bonus(attacker.side)
    shot = Shot(missile, fight.distance(attacker, defender), False, xw, 0)
    attack, _ = shot.ready(attacker, defender, None)
    exchange = fight.exchange(attacker, defender, attack, None, name=missile.name, automatic=True)
    settle(fight, attacker, defender, exchange, None, missile=True)
