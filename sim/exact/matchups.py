"""Every attacker and defender pair of a scenario: the inputs of their exchange and its exact law.

The exact answers (``combatsim odds``, the exact fights) start here. For a loaded
:class:`~sim.scenario.schema.Scenario`, :func:`matchups` lists, for every ordered pair of
combatants on different sides and for each way the attacker can strike the defender, one
:class:`Matchup`: the rule system's own frozen input of that exchange, built from the scenario's
validated stat blocks by the rule system's own preparation, and the law of the exchange from the
rule system's own exact function. Nothing here is a rule:

- ``target10``: ``target10.exchange.AttackInput`` (the weapons of ``Stats.of``), its law
  ``target10.exchange.distribution``; ``acs+target10`` the same, from
  ``Target10Resolution.stats``;
- ``prop3``: ``prop3.exchange.ExchangeInput`` (the pools of ``declaring.melee_pools``), its law
  ``prop3.exchange.exchange_law``; ``acs+prop3`` the same, from the hybrid's ``HybridProfile``;
- ``acs``: ``(PercentileStats, PercentileStats, Situation)``, its law
  ``acs.percentile.distribution``.

The ways (``Matchup.way``):

- Target 10: ``melee`` (FIGHT against DEFENSE with the hand weapon) and ``shot`` (SHOOT, with a
  ranged weapon), with the action of the attacker's fixed declaration (Kill when its tactics
  declare by rules: a rule-driven choice is the fight's, not the exchange's). On the ACS clock
  (``hybrid_defense: defend``) each also ``... with Defend``: the defender spends a defensive
  action on Target 10's Defend.
- Proposition Three: the forms the combatants' own form tactics declare (``declaring.
  choose_attack`` and ``choose_defense``: fixed, or "best" by the exact odds), the attacker
  declaring first and the defender declaring first (the lower in initiative declares first,
  which the fight's initiative decides), and the attack on a defender who cannot defend
  (``undefended``); with a tactic "random", every pair of forms the gear allows. Melee only (a
  missile's pools depend on the range of the moment).
- ACS percentile: ``may defend`` (the defender has a defensive action left: it rolls a defense
  and the roll costs it the action) and ``cannot defend``, with no named-action modifier.

The stakes that change from blow to blow are the law's arguments and the state of
:meth:`Matchup.step`, a one-sided chain of this attacker's exchanges against this defender:

- Target 10: :class:`T10Stakes` (the defender's hit points and luck points, the attacker's luck
  points); a blow lands by ``target10.exchange.blow_lands`` (luck to ignore it, Subdue stopping
  at 0, the reading of 0 hit points);
- Proposition Three: :class:`P3Stakes` (the defender's Vigor and nicks, each side's persistent
  points left for the pools of this matchup); Vigor is the defender's hit points and its pools
  are built again at each Vigor (``melee_pools``); the damage track is ``prop3.damage.track``
  and ``prop3.damage.out``; what a fumble or a critical defense does next is the fight's, not
  followed here;
- ACS percentile: the defender's hit points; a hit takes them off and the combatant is out at 0
  or below (the engine's ``Combat.damage``).

:meth:`Matchup.start` is the law of the stakes at the start of the fight (hit points rolled by
their dice: :func:`roll_law`). Everything is an exact
:class:`~sim.engine.distribution.Distribution`.
A scenario whose rule system has no exchange laws here (a plug-in) raises :class:`NoExactOdds`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, cast

from sim.engine.dice import Dice, DiceExpr
from sim.engine.distribution import Distribution
from sim.rules.acs.percentile import (
    PercentileResult,
    PercentileStats,
    Situation,
    damage_law,
)
from sim.rules.acs.percentile import distribution as percentile_law
from sim.rules.prop3 import damage as p3damage
from sim.rules.prop3.character import ATTACK_FORMS, DEFENSE_FORMS, RANDOM, P3Fighter, Profile
from sim.rules.prop3.declaring import (
    LazyValues,
    choose_attack,
    choose_defense,
    matchup,
    melee_pools,
)
from sim.rules.prop3.exchange import ExchangeInput, Verdict, exchange_law
from sim.rules.prop3.models import Rules
from sim.rules.prop3.pool import Pool
from sim.rules.target10.actions import ACTION_WORDS, DAMAGING, KILL
from sim.rules.target10.combatant import Stats
from sim.rules.target10.exchange import AttackInput, AttackOutcome, Weapon, blow_lands
from sim.rules.target10.exchange import distribution as _t10_distribution
from sim.rules.target10.hybrid import HybridStats
from sim.rules.target10.models import Combatant as T10Combatant
from sim.rules.target10.models import CombatOptions
from sim.rules.target10.state import RoundRules
from sim.scenario.schema import CombatantSpec, Scenario

#: The rule systems and hybrids with exchange laws, by :attr:`Matchup.system`.
SYSTEM_TITLES: Mapping[str, str] = {
    "target10": "Target 10",
    "prop3": "Proposition Three",
    "acs": "ACS (percentile)",
    "acs+target10": "Target 10 on the ACS clock",
    "acs+prop3": "Proposition Three on the ACS clock",
}


class NoExactOdds(Exception):
    """The scenario's rule system gives no exchange laws (a plug-in rule system)."""


@dataclass(frozen=True)
class Side:
    """One combatant as its exchanges read it.

    Attributes:
        name: its name in the scenario.
        side: its side's index.
        hp: the law of its hit points (Proposition Three: its Vigor) at the start of a fight.
        values: its derived values, worded (``("FIGHT", "12")``, ``("dodge pool", "3d6")``).
    """

    name: str
    side: int
    hp: Distribution[int]
    values: tuple[tuple[str, str], ...]


class T10Stakes(NamedTuple):
    """What Target 10 blows change: the defender's hit points and luck, the attacker's luck."""

    hp: int
    luck: int
    attacker_luck: int
    out: bool = False


class P3Stakes(NamedTuple):
    """What changes with Proposition Three blows: Vigor, nicks, persistent points left."""

    vigor: int
    nicks: int
    attack_points: int
    defense_points: int
    out: bool = False


class HpStakes(NamedTuple):
    """What changes with ACS percentile blows: the defender's hit points."""

    hp: int
    out: bool = False


@dataclass(frozen=True)
class Matchup:
    """One way one attacker strikes one defender, with the input and law of that exchange.

    Attributes:
        system: the rule system or hybrid (a key of :data:`SYSTEM_TITLES`).
        attacker: the attacker (:class:`Side`).
        defender: the defender.
        way: how it strikes (see the module's list).
        exchange: the rule system's own input of the exchange at the start of the fight.
        chosen: the way the combatants' tactics choose (True for every matchup listed now; kept
            for callers that list more ways than the tactics take).
        values: the exchange's own derived values (the pools of these forms, the modifier).
        unit: what :meth:`dealt` counts (``hit points``; Proposition Three: ``nicks``).
    """

    system: str
    attacker: Side
    defender: Side
    way: str
    exchange: Hashable
    chosen: bool = True
    values: tuple[tuple[str, str], ...] = ()
    unit: str = "hit points"
    _dealt: Callable[[Any], int] = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    _input: Callable[[Hashable], Hashable] | None = field(repr=False, compare=False, default=None)
    _law: Callable[[Hashable], Distribution[Any]] = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    _step: Callable[[Hashable], Distribution[Any]] = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    _start: Callable[[], Distribution[Any]] = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    def law(self, stakes: Hashable | None = None) -> Distribution[Any]:
        """The exact law of one exchange's outcome at ``stakes`` (None: at the fight's start).

        Outcomes are the rule system's own: ``AttackOutcome`` (Target 10), ``Verdict``
        (Proposition Three), ``PercentileResult`` (ACS).
        """
        if stakes is None:
            return self.start().bind(self._law)
        return self._law(stakes)

    def exchange_at(self, stakes: Hashable) -> Hashable:
        """The rule system's input of the exchange at ``stakes`` (what its sampler is given).

        Proposition Three's pools shrink with the defender's Vigor and its persistent points
        are spent; Target 10's and ACS's inputs do not change (their stakes are the law's own
        arguments).
        """
        return self.exchange if self._input is None else self._input(stakes)

    def dealt(self, outcome: Any) -> int:
        """The damage one outcome of :meth:`law` deals, in :attr:`unit` (0: none).

        Target 10 and ACS: hit points; Proposition Three: nicks, each wound counting the
        option ``nicks_per_wound``.
        """
        return self._dealt(outcome)

    def start(self) -> Distribution[Any]:
        """The law of the stakes at the start of a fight (:class:`T10Stakes`, ...)."""
        return self._start()

    def step(self, stakes: Hashable) -> Distribution[Any]:
        """The law of the stakes after one more exchange of this matchup (an out state stays)."""
        if cast(Any, stakes).out:
            return Distribution.certain(stakes)
        return self._step(stakes)


def roll_law(expr: DiceExpr) -> Distribution[int]:
    """The exact law of ``expr.roll`` (hit points, damage): the ACS ``percentile.damage_law``."""
    return damage_law(expr)


def matchups(scenario: Scenario) -> tuple[Matchup, ...]:
    """Every matchup of ``scenario``: attackers in scenario order, then defenders, then ways.

    None for a Target 10 test outside combat (``kind: test``): it has no attacks.

    Raises:
        NoExactOdds: the rule system has no exchange laws here (a plug-in).
    """
    rules = scenario.rules
    options = scenario.options
    if rules == "target10":
        if not isinstance(options, CombatOptions):
            return ()  # a test outside combat (``kind: test``): nobody attacks anybody
        return _target10(scenario, options)
    if rules == "prop3":
        return _prop3(scenario, Rules(cast(Any, options)), "prop3")
    if rules == "acs":
        resolution = getattr(options, "resolution", None)
        if resolution == "percentile":
            return _percentile(scenario)
        if resolution == "target10":
            return _t10_hybrid(scenario)
        if resolution == "prop3":
            return _prop3(scenario, Rules(cast(Any, options)), "acs+prop3")
        raise NoExactOdds(
            f"the ACS resolution {resolution!r} gives no exact odds (it has no exchange law)"
        )
    raise NoExactOdds(f"the rule system {rules!r} gives no exact odds (it has no exchange law)")


def pairs(scenario: Scenario) -> list[tuple[int, CombatantSpec, int, CombatantSpec]]:
    """Every ordered pair of combatants on different sides, in scenario order."""
    specs = scenario.combatants
    return [
        (i, a, j, d) for i, a in enumerate(specs) for j, d in enumerate(specs) if a.side != d.side
    ]


# -- Target 10, in rounds and on the ACS clock ---------------------------------------------------


def _damage_words(weapon: Weapon, least: int) -> str:
    bonus = f"{weapon.bonus:+d}" if weapon.bonus else ""
    return f"{weapon.damage}{bonus} (at least {least})"


def _t10_values(
    stats: Stats | HybridStats, defense: int, luck: int, least: int, hp: str
) -> tuple[tuple[str, str], ...]:
    melee = stats.melee
    shot = stats.shot
    values = [
        ("FIGHT", str(melee.value)),
        ("SHOOT", str(shot.value) if shot is not None else "-"),
        ("DEFENSE", str(defense)),
        ("damage", _damage_words(melee, least)),
    ]
    if shot is not None:
        values.append(("shot damage", _damage_words(shot, least)))
    values += [("hit points", hp), ("luck", str(luck))]
    return tuple(values)


def t10_law(attack: AttackInput, luck: int, target_hp: int) -> Distribution[AttackOutcome]:
    """Target 10's ``exchange.distribution`` at these stakes, kept (frozen inputs, frozen laws).

    The stakes matter only to an attacker that may spend a luck point to hit (the exchange's
    own contract): for any other, every stake shares one law.
    """
    if not (luck > 0 and attack.succeed.spends):
        luck, target_hp = 0, 0
    return _t10_kept(attack, luck, target_hp)


@lru_cache(maxsize=4096)
def _t10_kept(attack: AttackInput, luck: int, target_hp: int) -> Distribution[AttackOutcome]:
    return _t10_distribution(attack, luck, target_hp)


def _t10_chain(
    attack: AttackInput, hp: Distribution[int], a_luck: int, d_luck: int, policy: str
) -> tuple[
    Callable[[Hashable], Distribution[Any]],
    Callable[[Hashable], Distribution[Any]],
    Callable[[], Distribution[Any]],
]:
    zero_hp = attack.rules.test.zero_hp

    def law(stakes: Hashable) -> Distribution[AttackOutcome]:
        s = cast(T10Stakes, stakes)
        return t10_law(attack, s.attacker_luck, s.hp)

    def after(s: T10Stakes, outcome: AttackOutcome) -> T10Stakes:
        luck = s.attacker_luck - outcome.lucky
        if not outcome.hit or outcome.effect not in DAMAGING:
            return s._replace(attacker_luck=luck)
        landing = blow_lands(outcome.effect, outcome.damage, s.hp, s.luck, policy, zero_hp)
        if landing.ignored:
            return T10Stakes(s.hp, s.luck - 1, luck)
        return T10Stakes(landing.hp, s.luck, luck, landing.out is not None)

    def step(stakes: Hashable) -> Distribution[T10Stakes]:
        s = cast(T10Stakes, stakes)
        return t10_law(attack, s.attacker_luck, s.hp).map(lambda o: after(s, o))

    def start() -> Distribution[T10Stakes]:
        return hp.map(lambda points: T10Stakes(points, d_luck, a_luck))

    return law, step, start


def _t10_matchup(
    system: str,
    attacker: Side,
    defender: Side,
    way: str,
    attack: AttackInput,
    a_luck: int,
    d_luck: int,
    policy: str,
) -> Matchup:
    law, step, start = _t10_chain(attack, defender.hp, a_luck, d_luck, policy)
    roll = attack.rolls[0]
    values = (("roll", f"d20{roll.modifier:+d} against {roll.need}"),)
    return Matchup(
        system,
        attacker,
        defender,
        way,
        attack,
        True,
        values,
        "hit points",
        _t10_dealt,
        None,
        law,
        step,
        start,
    )


def _t10_dealt(outcome: AttackOutcome) -> int:
    return outcome.damage


def _target10(scenario: Scenario, options: CombatOptions) -> tuple[Matchup, ...]:
    rules = RoundRules.of(options)
    least = rules.test.min_damage
    stats: list[Stats] = []
    sides: list[Side] = []
    for spec in scenario.combatants:
        model = cast(T10Combatant, spec.stats)
        s = Stats.of(model, options, spec.side)
        stats.append(s)
        hp = str(model.hp)
        values = _t10_values(s, s.defense, s.luck, least, hp)
        sides.append(Side(spec.name, spec.side, roll_law(DiceExpr.parse(hp)), values))
    found: list[Matchup] = []
    for i, _a, j, _d in pairs(scenario):
        a, d = stats[i], stats[j]
        action = a.fixed[1] if a.decide is None else KILL
        word = ACTION_WORDS[action]
        weapons = [("melee", a.melee)] + ([("shot", a.shot)] if a.shot is not None else [])
        for way, weapon in weapons:
            attack = AttackInput(
                rules.exchange,
                weapon,
                action=action,
                defense=d.defense,
                situational=a.situational,
                cover=d.cover,
                succeed=a.succeed,
            )
            found.append(
                _t10_matchup(
                    "target10",
                    sides[i],
                    sides[j],
                    f"{way} ({word})",
                    attack,
                    a.luck,
                    d.luck,
                    d.luck_policy,
                )
            )
    return tuple(found)


def _clock_stats(scenario: Scenario) -> list[Any]:
    """Each combatant's stats under the resolution the scenario's ACS clock plays, in order.

    The percentile attack's, or a hybrid's Target 10 or Proposition Three exchange's: what the
    clock's own fighters are built from.
    """
    resolution = scenario.system.prepare(scenario).resolution
    return [resolution.stats(spec.stats, scenario.options) for spec in scenario.combatants]


def _t10_hybrid(scenario: Scenario) -> tuple[Matchup, ...]:
    stats = cast(list[HybridStats], _clock_stats(scenario))
    sides: list[Side] = []
    for spec, s in zip(scenario.combatants, stats, strict=True):
        model = spec.stats
        hp_text = cast(Any, model).hp
        least = s.exchange.test.min_damage
        sides.append(
            Side(
                spec.name,
                spec.side,
                roll_law(DiceExpr.parse(hp_text)),
                _t10_values(s, s.defense, s.luck, least, str(hp_text)),
            )
        )
    found: list[Matchup] = []
    for i, _a, j, _d in pairs(scenario):
        a, d = stats[i], stats[j]
        weapons = [("melee", a.melee)] + ([("shot", a.shot)] if a.shot is not None else [])
        defends = [0, d.defend] if d.uses_defend else [0]
        for way, weapon in weapons:
            for defend in defends:
                attack = AttackInput(
                    a.exchange,
                    weapon,
                    defense=d.defense,
                    situational=a.situational,
                    cover=d.space.cover,
                    defend=defend,
                    succeed=a.succeed,
                )
                label = f"{way} (kill), with Defend" if defend else f"{way} (kill)"
                found.append(
                    _t10_matchup(
                        "acs+target10",
                        sides[i],
                        sides[j],
                        label,
                        attack,
                        a.luck,
                        d.luck,
                        d.luck_policy,
                    )
                )
    return tuple(found)


# -- Proposition Three, in rounds and on the ACS clock -------------------------------------------


@lru_cache(maxsize=4096)
def p3_law(exchange: ExchangeInput) -> Distribution[Verdict]:
    """``exchange_law`` of an exchange input, kept (inputs and laws are frozen values).

    The same pools recur from state to state and from one pair of forms to the next.
    """
    return exchange_law(exchange)


def _pool_words(pool: Pool | None) -> str:
    if pool is None:
        return "none"
    wiggle = f" +{pool.wiggle} wiggle" if pool.wiggle else ""
    return f"{pool.dice}d{pool.sides}{wiggle}"


def _reserve(profile: Profile, body_points: list[int], pool: Pool | None, rules: Rules) -> int:
    """The persistent points that may help ``pool`` (the fight's ``Fight.reserve``)."""
    if pool is None or rules.spending == "never" or not profile.has_points:
        return 0
    return sum(body_points[i] for i in profile.points[pool.roll])


def _p3_fighters(scenario: Scenario, system: str) -> list[P3Fighter]:
    """A fighter for each combatant with its profile (nothing is rolled: Vigor is fixed)."""
    fighters = []
    if system == "prop3":
        prepared = scenario.system.prepare(scenario)
        return cast(list[P3Fighter], prepared.spawn(Dice(0, 0)))
    profiles = cast(list[Profile], _clock_stats(scenario))
    for index, (spec, profile) in enumerate(zip(scenario.combatants, profiles, strict=True)):
        fighters.append(P3Fighter(spec.name, spec.side, index, profile, 0.0))
    return fighters


def _p3_side(f: P3Fighter, spec: CombatantSpec) -> Side:
    profile = f.state.profile
    values = [("Vigor", str(f.hp)), ("weapon", profile.weapon_name)]
    armor = cast(Any, spec.stats).armor
    values.append(("armor", "none" if armor is None else str(armor.name)))
    if profile.shield:
        values.append(("shield", "yes"))
    return Side(f.name, f.side, Distribution.certain(f.hp), tuple(values))


class _Declaring:
    """What the form tactics read of a fight: its rules (a tactic "random" is never asked here)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules


def _declared(
    rules: Rules, af: P3Fighter, df: P3Fighter, m: Any
) -> list[tuple[int, int | None, str]]:
    """The forms the fight's own tactics declare (``declaring.choose_attack``, ``choose_defense``).

    The lower in initiative declares first: both orders are given, and an attack the defender
    cannot answer (``undefended``). A tactic "random" declares any form: every pair is given.
    """
    pa, pd = af.state.profile, df.state.profile
    if pa.attack == RANDOM or pd.defense == RANDOM:
        every = [(a, d, "") for a in m.attacks for d in m.answers[a]]
        return [*every, *((a, None, "") for a in m.attacks)]
    fight = cast(Any, _Declaring(rules))
    values = LazyValues(fight, af, df, m, 0, 0)
    found: list[tuple[int, int | None, str]] = []
    if m.declarable:
        a = choose_attack(fight, pa.attack, m, values, None, True)
        found.append(
            (a, choose_defense(fight, pd.defense, m, values, a), f"{af.name} declares first")
        )
        d = choose_defense(fight, pd.defense, m, values, None)
        a = choose_attack(fight, pa.attack, m, values, d, False)
        if d is not None and not m.allowed[a][d]:
            d = choose_defense(fight, pd.defense, m, values, a) if rules.redeclare else None
        found.append((a, d, f"{df.name} declares first"))
    found.append((choose_attack(fight, pa.attack, m, values, None, False), None, ""))
    unique: dict[tuple[int, int | None], str] = {}
    for a, d, who in found:
        unique[(a, d)] = f"{unique[(a, d)]}; {who}" if unique.get((a, d)) and who else who
    return [(a, d, who) for (a, d), who in unique.items()]


def _prop3(scenario: Scenario, rules: Rules, system: str) -> tuple[Matchup, ...]:
    fighters = _p3_fighters(scenario, system)
    sides = [_p3_side(f, spec) for f, spec in zip(fighters, scenario.combatants, strict=True)]
    found: list[Matchup] = []
    for i, _a, j, _d in pairs(scenario):
        af, df = fighters[i], fighters[j]
        m = matchup(af.state.profile, df.state.profile, True, rules)
        for a, d, who in _declared(rules, af, df, m):
            found.append(_p3_matchup(system, rules, af, df, sides[i], sides[j], m, a, d, who))
    return tuple(found)


def _p3_matchup(
    system: str,
    rules: Rules,
    af: P3Fighter,
    df: P3Fighter,
    attacker: Side,
    defender: Side,
    m: Any,
    a: int,
    d: int | None,
    who: str,
) -> Matchup:
    pa, pd = af.state.profile, df.state.profile
    vigor = df.hp

    def pools_at(v: int) -> tuple[Pool, Pool | None]:
        df.hp = v
        try:
            return melee_pools(af, df, m, a, d, 0, 0)
        finally:
            df.hp = vigor

    attack, defense = pools_at(vigor)
    a_points = _reserve(pa, af.state.points, attack, rules)
    d_points = _reserve(pd, df.state.points, defense, rules)

    def exchange_at(s: P3Stakes) -> ExchangeInput:
        at, de = pools_at(s.vigor)
        return ExchangeInput(at, de, rules.exchange, s.attack_points, s.defense_points)

    begin = P3Stakes(vigor, 0, a_points, d_points)

    def law(stakes: Hashable) -> Distribution[Verdict]:
        return p3_law(exchange_at(cast(P3Stakes, stakes)))

    def after(s: P3Stakes, v: Verdict) -> P3Stakes:
        nicks, wounds = p3damage.track(s.nicks, v.nicks, v.wounds, rules.nicks_per_wound)
        left = s.vigor - wounds
        return P3Stakes(
            left,
            nicks,
            s.attack_points - v.attack_spent,
            s.defense_points - v.defense_spent,
            p3damage.out(left),
        )

    def step(stakes: Hashable) -> Distribution[P3Stakes]:
        s = cast(P3Stakes, stakes)
        return p3_law(exchange_at(s)).map(lambda v: after(s, v))

    def start() -> Distribution[P3Stakes]:
        return Distribution.certain(begin)

    form = ATTACK_FORMS[a].value
    way = f"{form} against {DEFENSE_FORMS[d].value}" if d is not None else f"{form}, undefended"
    if who:
        way = f"{way} ({who})"
    values: tuple[tuple[str, str], ...] = (
        ("attack pool", _pool_words(attack)),
        ("defense pool", _pool_words(defense)),
    )
    if a_points or d_points:
        values += (("persistent points", f"{a_points} / {d_points}"),)
    exchange = ExchangeInput(attack, defense, rules.exchange, a_points, d_points)
    per = rules.nicks_per_wound

    def dealt(v: Verdict) -> int:
        return v.nicks + v.wounds * per

    return Matchup(
        system,
        attacker,
        defender,
        way,
        exchange,
        True,
        values,
        "nicks",
        dealt,
        cast(Callable[[Hashable], Hashable], exchange_at),
        law,
        step,
        start,
    )


# -- ACS percentile --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def acs_law(
    a: PercentileStats, d: PercentileStats, situation: Situation
) -> Distribution[PercentileResult]:
    """The percentile ``distribution`` of one attack, kept (inputs and laws are frozen values).

    Its stakes (the defender's hit points) do not enter it: every state of a matchup, and every
    pair of combatants with the same values, shares one law.
    """
    return percentile_law(a, d, situation)


def _percentile(scenario: Scenario) -> tuple[Matchup, ...]:
    stats = cast(list[PercentileStats], _clock_stats(scenario))
    sides: list[Side] = []
    for spec, s in zip(scenario.combatants, stats, strict=True):
        hp_text = str(cast(Any, spec.stats).hp)
        values = (
            ("to hit", str(s.to_hit)),
            ("attack bonus", f"{s.attack_bonus:+d}"),
            ("defense", f"{s.defense}%"),
            ("damage", str(s.damage)),
            ("hit points", hp_text),
        )
        sides.append(Side(spec.name, spec.side, roll_law(DiceExpr.parse(hp_text)), values))
    found: list[Matchup] = []
    for i, _a, j, _d in pairs(scenario):
        for can_defend in (True, False):
            situation = Situation(can_defend=can_defend)
            found.append(_percentile_matchup(sides[i], sides[j], stats[i], stats[j], situation))
    return tuple(found)


def _percentile_matchup(
    attacker: Side,
    defender: Side,
    a: PercentileStats,
    d: PercentileStats,
    situation: Situation,
) -> Matchup:
    exchange = (a, d, situation)

    def law(stakes: Hashable) -> Distribution[PercentileResult]:
        return acs_law(a, d, situation)

    def after(s: HpStakes, r: PercentileResult) -> HpStakes:
        left = s.hp - r.damage
        return HpStakes(left, r.damage > 0 and left <= 0)

    def step(stakes: Hashable) -> Distribution[HpStakes]:
        s = cast(HpStakes, stakes)
        return acs_law(a, d, situation).map(lambda r: after(s, r))

    def start() -> Distribution[HpStakes]:
        return defender.hp.map(lambda hp: HpStakes(hp))

    way = "may defend" if situation.can_defend else "cannot defend"
    values: tuple[tuple[str, str], ...] = (("roll", f"d100{a.attack_bonus:+d} against {a.to_hit}"),)
    if situation.can_defend:
        values += (("defense", f"d100 at or below {d.defense}"),)
    return Matchup(
        "acs",
        attacker,
        defender,
        way,
        exchange,
        True,
        values,
        "hit points",
        _percentile_dealt,
        None,
        law,
        step,
        start,
    )


def _percentile_dealt(result: PercentileResult) -> int:
    return result.damage


__all__ = [
    "SYSTEM_TITLES",
    "HpStakes",
    "Matchup",
    "NoExactOdds",
    "P3Stakes",
    "Side",
    "T10Stakes",
    "matchups",
    "pairs",
    "roll_law",
]
