"""Characters of Combat Proposition Three: stats, sub-stats, race, size, skills, advantages.

Implements the character passages of ``rules/combat-proposition-three.txt`` as RULINGS part C
("Pool", "Wiggle points", "Disadvantages") reads them, for the rolls a fight makes: the three
attack forms, the three defense forms, Ranged (archery), Ranged (thrown) and initiative.

- The number of dice is the stat of the roll's sub-stat, plus one die per size category above 0
  on Vigor rolls (minus one per category below), minus one die per disadvantage on the sub-stat
  (``pool.pool_size``). Only Vigor changes in a fight (wounds): it is the fighter's ``hp``.
- The die is the proficiency with the roll's skill; without the skill, the race's proficiency with
  the stat (option ``die_source``: ``skill``, or ``best`` of the two).
- Advantages give ``advantage_points`` wiggle points per advantage on a sub-stat, and a skill focus
  its points to a group of skills; both are spent and not regained within the fight (the text:
  "you do not regain them until you have become well-rested").

:class:`Profile` is the immutable hot-path copy of a stat block; :class:`Body` is what changes in
one fight (nicks, weapon in hand, lasting effects, points left, position).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from sim.engine.combatant import Fighter
from sim.engine.tactics import TARGETS
from sim.rules.prop3.forms import Armor, AttackForm, DefenseForm, Rating, Weapon
from sim.rules.prop3.models import (
    SKILLS,
    STAT_OF,
    STATS,
    SUBSTATS,
    ArmorModel,
    DiceOptions,
    HybridCombatant,
    MissileModel,
    Prop3Combatant,
    Prop3Options,
    RangeOptions,
    WeaponModel,
)
from sim.rules.prop3.pool import Pool, can_crit, dice_offset, die_for, only_ones, stat_dice
from sim.rules.prop3.ranged import AMMUNITION_FORM

if TYPE_CHECKING:
    from typing import TypeAlias

    from sim.rules.acs.fighter import AcsFighter
    from sim.rules.prop3.declaring import FormValues, Matchup
    from sim.rules.prop3.hybrid import HybridBody, HybridProfile
    from sim.rules.prop3.kept import KeptTable, RolledPool
    from sim.rules.prop3.melee import Declared, MeleePlan
    from sim.rules.prop3.missiles import ShotPlan
    from sim.rules.prop3.pool import Result

    #: A state of an attack the form values depend on: the matchup, both Vigors, the attacker's
    #: extra wiggle and the defender's dice lost (``declaring.form_values``).
    ValuesKey: TypeAlias = tuple[Matchup, int, int, int, int]
    #: The same with the attack form and the defense form (None: none): ``declaring.melee_pools``.
    PoolsKey: TypeAlias = tuple[Matchup, int, int, int, int, int, int | None]
    #: The same state with whether a defense may be declared and who is higher
    #: (``melee.declare``).
    DeclaredKey: TypeAlias = tuple[Matchup, int, int, int, int, bool, bool]
    #: The declared state with whether the defender may defend (``melee.melee_plan``).
    PlanKey: TypeAlias = tuple[Matchup, int, int, int, int, bool, bool]
    #: A shot's state: the target's profile, both Vigors, the distance, aimed, the extra wiggle
    #: and the target's dice lost (``missiles.Shot.state``).
    ShotKey: TypeAlias = tuple["Profile", int, int, float, bool, int, int]

BASH, SLASH, THRUST, DODGE, BLOCK, PARRY, ARCHERY, THROWN, INITIATIVE = range(len(SKILLS))
"""Roll indices, in the order of :data:`~sim.rules.prop3.models.SKILLS`."""

ATTACK_FORMS = (AttackForm.BASH, AttackForm.SLASH, AttackForm.THRUST)
"""Attack forms by index (0..2, also their roll index)."""

DEFENSE_FORMS = (DefenseForm.DODGE, DefenseForm.BLOCK, DefenseForm.PARRY)
"""Defense forms by index (0..2; the roll index is ``DODGE + index``)."""

ATTACK_NAMES = tuple(form.value for form in ATTACK_FORMS)
"""Attack form names by index (for the trace)."""

BEST, RANDOM = -2, -1
"""Form tactics that are not a fixed form (a fixed form is its index)."""

AIM_NEVER, AIM_FIRST, AIM_ALWAYS = 0, 1, 2

_VIGOR = 0


def _form_choice(name: str, forms: tuple[AttackForm, ...] | tuple[DefenseForm, ...]) -> int:
    if name == "best":
        return BEST
    if name == "random":
        return RANDOM
    return [f.value for f in forms].index(name)


_ROUND_DEFAULTS = Prop3Options.model_validate({})
"""The options of ``rules: prop3`` at their defaults: the sub-stats of the rolls the hybrid never
makes (initiative), so that its profiles have every roll."""


def roll_substats(options: DiceOptions) -> tuple[str, ...]:
    """The sub-stat of each roll under the options (the hybrid has no initiative roll)."""
    rounds = options if isinstance(options, RangeOptions) else _ROUND_DEFAULTS
    initiative = options if isinstance(options, Prop3Options) else _ROUND_DEFAULTS
    attack = options.attack_substat
    return (
        attack,
        attack,
        attack,
        options.dodge_substat,
        options.block_substat,
        options.parry_substat,
        rounds.archery_substat,
        rounds.thrown_substat,
        initiative.initiative_substat,
    )


class Missile:
    """The hot-path copy of a ranged weapon."""

    __slots__ = ("form", "increment", "max_range", "name", "roll", "secured", "shots")

    def __init__(self, model: MissileModel) -> None:
        self.name: str = model.name
        self.roll = ARCHERY if model.skill == "archery" else THROWN
        self.increment: float = model.range
        self.max_range: float = model.max_range
        self.form: AttackForm = AMMUNITION_FORM[model.ammunition]
        self.shots: int = -1 if model.shots is None else model.shots
        self.secured: bool = model.secured


class Profile:
    """The immutable hot-path copy of one combatant's stat block under the rule options.

    Attributes:
        base: the four stats at the start (Vigor, Agility, Mind, Spirit).
        size: the size category.
        stat: per roll, the index of its stat.
        sides: per roll, the die.
        offset: per roll, dice added to the stat (size on Vigor rolls, minus disadvantages).
        points: per roll, the indices of the persistent point pools that may help it.
        start_points: the persistent pools at the start (8 sub-stats, then the skill focuses).
    """

    __slots__ = (
        "advance",
        "aim",
        "armor",
        "attack",
        "base",
        "choose",
        "declared",
        "defense",
        "each_action",
        "has_points",
        "initiatives",
        "matchups",
        "min_dice",
        "missile",
        "missile_defenses",
        "move_up",
        "natural",
        "offset",
        "plans",
        "points",
        "pools",
        "rating",
        "reaches",
        "secured",
        "shield",
        "shoot",
        "shot_plans",
        "shot_pools",
        "sides",
        "size",
        "speed",
        "start_points",
        "stat",
        "values",
        "weapon",
        "weapon_name",
    )

    def __init__(self, model: Prop3Combatant | HybridCombatant, options: DiceOptions) -> None:
        rules_points = options.advantage_points
        self.base = tuple(getattr(model, s) for s in STATS)
        self.size = model.size_category
        rolls = [
            _roll(model, options, skill, substat)
            for skill, substat in zip(SKILLS, roll_substats(options), strict=True)
        ]
        self.stat = tuple(r[0] for r in rolls)
        self.sides = tuple(r[1] for r in rolls)
        self.offset = tuple(r[2] for r in rolls)
        self.points = tuple(r[3] for r in rolls)
        self.start_points = (
            *(getattr(model.advantages, s) * rules_points for s in SUBSTATS),
            *(f.points for f in model.focuses),
        )
        self.has_points = any(self.start_points)
        w = model.weapon
        self.weapon = _weapon(w)
        self.weapon_name: str = w.name
        self.rating = tuple(self.weapon.rating(f) for f in ATTACK_FORMS)
        self.natural: bool = w.natural
        self.secured: bool = w.secured or w.natural
        self.armor = _armor(model.armor)
        self.shield: bool = model.shield
        tactics = model.tactics
        self.attack = _form_choice(tactics.attack, ATTACK_FORMS)
        self.defense = _form_choice(tactics.defense, DEFENSE_FORMS)
        self.missile: Missile | None = None
        if model.missile is not None:
            self.missile = Missile(model.missile)
        self.speed: float = model.speed
        self.aim = ("never", "first", "always").index(model.tactics.aim)
        self.min_dice: int = model.tactics.min_shot_dice
        if isinstance(model, Prop3Combatant):
            self.move_up: int = model.tactics.move_up
            self.shoot: bool = model.tactics.shoot
            self.advance: bool = model.tactics.advance
        else:
            # On the ACS clock nobody skips a turn; shooting and closing in are its tactics.
            self.move_up = 0
            self.shoot = model.tactics.ranged == "shoot"
            self.advance = model.tactics.movement == "close"
        self.choose = TARGETS[tactics.target]
        self.each_action = tactics.retarget == "each_action"
        # What the fight finds out about it, kept (declaring, melee, missiles, initiative): its
        # matchups, pools, form values and melee plans by state, its missile defenses, its shots'
        # pools, plans and reach by state, and its initiative tables by stat and reading.
        self.matchups: dict[tuple[Profile, bool], Matchup] = {}
        self.pools: dict[PoolsKey, tuple[Pool, Pool | None]] = {}
        self.values: dict[ValuesKey, FormValues] = {}
        self.declared: dict[DeclaredKey, Declared] = {}
        self.plans: dict[PlanKey, MeleePlan] = {}
        self.missile_defenses: dict[bool, list[int]] = {}
        self.shot_pools: dict[tuple[ShotKey, int | None], tuple[Pool, Pool | None]] = {}
        self.reaches: dict[tuple[int, Profile], float | None] = {}
        self.initiatives: dict[tuple[int, str], KeptTable | RolledPool] = {}
        self.shot_plans: dict[tuple[ShotKey, bool, bool], ShotPlan] = {}


def _roll(
    model: Prop3Combatant | HybridCombatant, options: DiceOptions, skill: str, substat: str
) -> tuple[int, int, int, tuple[int, ...]]:
    """One roll of a stat block: its stat's index, its die, its dice offset, its point pools.

    The die is the skill's proficiency, the race's with the stat without the skill (option
    ``die_source``); the offset is size on Vigor rolls minus the sub-stat's disadvantages; the
    point pools are the skill focuses that name the skill, then the sub-stat's advantages.
    """
    stat_name = STAT_OF[substat]
    index = STATS.index(stat_name)
    race_die = die_for(getattr(model.race_proficiency, stat_name))
    own = getattr(model.skills, skill)
    die = race_die if own is None else die_for(own)
    if options.die_source == "best":
        die = min(die, race_die)
    offset = dice_offset(
        size=model.size_category,
        vigor=index == _VIGOR,
        disadvantages=getattr(model.disadvantages, substat),
    )
    focus = [8 + j for j, f in enumerate(model.focuses) if skill in f.skills]
    return index, die, offset, (*focus, SUBSTATS.index(substat))


def _rating(value: str | None) -> Rating | None:
    return None if value is None else Rating(value)


def _weapon(w: WeaponModel) -> Weapon:
    """The hot-path copy of a melee weapon: its rating for each attack form."""
    return Weapon(
        bash=_rating(w.bash),
        slash=_rating(w.slash),
        thrust=_rating(w.thrust),
        two_handed=w.two_handed,
    )


def _armor(a: ArmorModel | None) -> Armor | None:
    """The hot-path copy of armor (None: no armor)."""
    if a is None:
        return None
    return Armor(bash=Rating(a.bash), slash=Rating(a.slash), thrust=Rating(a.thrust), heavy=a.heavy)


class Body:
    """What changes in one fight for one combatant (besides Vigor, which is its ``hp``).

    Attributes:
        profile: the stat block.
        nicks: nicks not yet making a wound.
        armed: the melee weapon is in hand (false after a fumble dropped it).
        bow: the missile weapon is in hand.
        shots: shots left (-1: unlimited).
        exposed: wiggle points everyone attacking it gets (stumble, an opponent's critical dodge).
        shaken: dice it loses on every defense (fall, an opponent's critical block).
        at_start: effects it caused that end when its next action starts.
        after: effects it caused that end when its next action is over.
        points: persistent wiggle points left (advantages, skill focuses).
        aim: the target it spent its last action aiming at.
        fired: it has shot at least once (for the tactic ``aim: first``).

    Its position on the line, in feet, is the fighter's own ``pos`` (:mod:`sim.engine.space`).
    """

    __slots__ = (
        "after",
        "aim",
        "armed",
        "at_start",
        "bow",
        "exposed",
        "fired",
        "nicks",
        "points",
        "profile",
        "shaken",
        "shots",
    )

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.nicks = 0
        self.armed = True
        self.bow = profile.missile is not None
        self.shots = profile.missile.shots if profile.missile is not None else 0
        self.exposed = 0
        self.shaken = 0
        self.at_start: list[LastingEffect] = []
        self.after: list[LastingEffect] = []
        self.points = list(profile.start_points)
        self.aim: Fighter | None = None
        self.fired = False


@dataclass(frozen=True, slots=True)
class LastingEffect:
    """An effect "until the next action" (stumble, fall, a critical block or dodge).

    Attributes:
        victim: who suffers it.
        exposed: wiggle points everyone attacking the victim gets.
        shaken: dice the victim loses on every defense.
    """

    victim: Body
    exposed: int
    shaken: int

    def apply(self) -> None:
        """The effect starts."""
        self.victim.exposed += self.exposed
        self.victim.shaken += self.shaken

    def undo(self) -> None:
        """The effect ends."""
        self.victim.exposed -= self.exposed
        self.victim.shaken -= self.shaken


def stat_now(fighter: Fighter, profile: Profile, roll: int) -> int:
    """The current value of a roll's stat (Vigor is the fighter's hit points)."""
    index = profile.stat[roll]
    return fighter.hp if index == _VIGOR else profile.base[index]


def pool_dice(fighter: Fighter, profile: Profile, roll: int) -> int:
    """The dice of a roll before forms, range and effects (``pool.pool_size`` of its stat)."""
    return stat_dice(stat_now(fighter, profile, roll), profile.offset[roll])


def ready_pool(fighter: Combatant, roll: int, dice: int, wiggle: int) -> Pool:
    """``fighter``'s pool for ``roll``: its die and the stat rules as its stats stand now."""
    profile = fighter.state.profile
    stat = stat_now(fighter, profile, roll)
    return Pool(roll, dice, profile.sides[roll], wiggle, can_crit(stat), only_ones(stat))


class P3Fighter(Fighter):
    """A combatant in Proposition Three rounds.

    Attributes:
        state: its :class:`Body`.
        place: its place in the initiative order (0 = highest).
        skips: turns it will still skip to move up.
        init: its initiative result (for the trace).
    """

    __slots__ = ("init", "place", "skips", "state")

    #: Whom it attacks: a combatant of the same fight.
    target: P3Fighter | None

    def __init__(self, name: str, side: int, index: int, profile: Profile, pos: float) -> None:
        super().__init__(name, side, index, profile.base[_VIGOR])
        self.pos = pos
        self.state = Body(profile)
        self.place = 0
        self.skips = profile.move_up
        self.init: Result | None = None


if TYPE_CHECKING:
    #: A combatant of Proposition Three: one of its rounds, or one on the ACS clock (the hybrid).
    Combatant: TypeAlias = P3Fighter | AcsFighter[HybridProfile, HybridBody]

#: The combatants of one fight (:class:`P3Fighter` in rounds, the ACS clock's in the hybrid).
F = TypeVar("F", bound="P3Fighter | AcsFighter[HybridProfile, HybridBody]")
