"""The Target 10 round process: declare, roll initiative, act in order, simultaneous on ties.

Target 10 text, "Combat Tests": a round is about one minute (600 clock units, 60 s of game time).
Everyone declares a movement and an action (through its tactics, :mod:`~sim.rules.target10.
tactics`), then rolls 1d6 + DEX bonus; the highest goes first and play proceeds down the scores.
Equal scores act simultaneously, "making it possible for two combatants to kill one another".

One SimPy process plays a whole round at the round's start time and then sleeps for 600 units,
so the order inside a round comes only from the initiative scores, never from SimPy's event
order. Each initiative score is a *step*: its combatants first move (positions computed from
the state before the step), then attack, every attack read against the state before the step;
the effects then land together (Kill damage before Subdue damage, see
:func:`~sim.rules.target10.actions.take_damage`). Dice are rolled in scenario order within a step,
which orders nothing since the step is simultaneous.

The fight ends when every combatant of a side is dead, unconscious or fled (text, "Ending
Combat"); its duration is the end of the round in which that happened. A combatant out of the
fight is out at the end of that round (``out_at``). Unconscious combatants wake after their
rounds at the start of a later round, but only while the fight lasts: a side that is all out has
lost, so waking can never undo the end of a fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.engine import Combat
from sim.rules.target10.actions import (
    ACTION_WORDS,
    ATTACKS,
    DAMAGING,
    DEAD,
    DEFEND,
    DISARM,
    FLED,
    GRAPPLE,
    KILL,
    NEGOTIATE,
    NONE,
    RECOVER,
    SUBDUE,
    TRIP,
    UNCONSCIOUS,
    take_damage,
)
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.luck import cancel_hits, spend_on_failed_test
from sim.rules.target10.movements import (
    ADVANCE,
    CHARGE,
    FLEE,
    HOLD,
    MANEUVER,
    MOVEMENTS,
    STAND,
    TRAVEL,
    WITHDRAW,
    approach,
    push,
    retreat,
)

if TYPE_CHECKING:
    from sim.rules.target10.models import CombatOptions

#: Clock units in a round (one minute).
ROUND = 600
ROUND_S = 60.0
INITIATIVE_DIE = 6
#: Effect kinds beyond the action codes.
PUSH, BREAK = 100, 101


class RoundRules:
    """The hot-path copy of the combat options."""

    __slots__ = (
        "advance",
        "combat_target",
        "disarm_dice",
        "disarm_shoot",
        "escape",
        "flee_auto_hit",
        "ground_pen",
        "maneuver_bonus",
        "maneuver_paces",
        "min_damage",
        "neg_any",
        "neg_next",
        "neg_target",
        "pen_values",
        "pin_pen",
        "run_multiplier",
        "situ_clamp",
        "stand_declared",
        "test_target",
        "unconscious_dice",
        "value_clamp",
        "wake_up",
        "withdraw",
        "withdraw_vs",
        "zero_dead",
    )

    def __init__(self, options: CombatOptions) -> None:
        from sim.dice import DiceExpr

        self.combat_target = options.combat_target
        self.test_target = options.test_target
        self.value_clamp = options.value_clamp
        self.situ_clamp = options.situational_clamp
        self.min_damage = options.min_damage
        self.zero_dead = options.zero_hp == "dead"
        self.unconscious_dice = DiceExpr.parse(options.unconscious_rounds)
        self.wake_up = options.wake_up
        self.advance = options.advance_paces
        self.withdraw = options.withdraw_paces
        self.maneuver_paces = options.maneuver_paces
        self.run_multiplier = options.run_multiplier
        self.flee_auto_hit = options.flee_auto_hit
        self.escape = options.escape
        self.withdraw_vs = frozenset(
            {
                "advancing": (ADVANCE, CHARGE),
                "advance": (ADVANCE,),
                "always": range(len(MOVEMENTS)),
                "never": (),
            }[options.withdraw_attacks]
        )
        self.stand_declared = options.stand_blocked_by == "declared"
        self.ground_pen = options.ground_penalty
        self.pin_pen = options.pin_penalty
        self.pen_values = options.penalties_as == "values"
        self.disarm_shoot = options.disarm_value == "shoot"
        self.disarm_dice = DiceExpr.parse(options.disarm_paces)
        self.maneuver_bonus = options.maneuver_bonus
        self.neg_target = options.negotiate_scope == "target"
        self.neg_next = options.negotiate_hold == "one_round"
        self.neg_any = options.negotiate_broken_by == "any_attack"


class Rounds:
    """Plays one combat round by round.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.target10.combatant.T10Fighter`).
        rules: the rule options.
    """

    __slots__ = (
        "changed",
        "combat",
        "dice",
        "fighters",
        "flight",
        "history",
        "rounds",
        "rules",
        "run_multiplier",
        "sleepers",
        "tracing",
    )

    def __init__(self, combat: Combat, rules: RoundRules) -> None:
        self.combat = combat
        self.dice = combat.dice
        self.fighters: list[T10Fighter] = combat.fighters  # type: ignore[assignment]
        self.rules = rules
        self.run_multiplier = rules.run_multiplier
        self.rounds = int(combat.time_limit_s // ROUND_S + 1e-9)
        self.sleepers: list[T10Fighter] = []
        self.changed = False  # someone left the fight: check whether it is over
        self.flight = False  # someone fled this round: see at its end who got away
        # Tactics read what opponents declared last round: keep it only when someone looks.
        self.history = any(f.stats.decide is not None for f in self.fighters)
        self.tracing = combat.trace is not None

    def start(self) -> None:
        """Start the round process."""
        self.combat.env.process(self.run())

    def run(self):
        """The round process: a round at each round's start, until the end or the time limit."""
        combat = self.combat
        timeout = combat.env.timeout
        play = self.play
        if self.tracing is False:
            duel = _static_duel(self)
            if duel is not None:
                play = duel.play
        for r in range(self.rounds):
            play(r)
            if combat.end_reason is not None:
                return
            yield timeout(ROUND)
        combat.finish("time_limit", combat.time_limit_s)

    # -- counting, for tactics --------------------------------------------------------------------

    def count_enemies(self, me: T10Fighter) -> int:
        """Able combatants of other sides."""
        side = me.side
        return sum(1 for f in self.fighters if f.out is None and f.side != side)

    def count_allies(self, me: T10Fighter) -> int:
        """Able combatants of its side other than itself."""
        side = me.side
        return sum(1 for f in self.fighters if f.out is None and f.side == side and f is not me)

    # -- a round ----------------------------------------------------------------------------------

    def play(self, r: int) -> None:
        """Play round ``r`` (from 0): wake-ups, declarations, initiative, the steps, escapes."""
        combat = self.combat
        if self.sleepers:
            self._wake(r)
        able = [f for f in self.fighters if f.out is None]
        if self.history:
            for f in able:
                f.last_move = f.move
                f.last_act = f.act
        declare = self._declare
        for f in able:
            declare(f, r)
        roll = self.dice.roll
        for f in able:
            f.init = roll(INITIATIVE_DIE) + f.dex_mod
        if self.tracing:
            for f in able:
                combat.emit("initiative", f, total=f.init, roll=f.init - f.dex_mod, bonus=f.dex_mod)
        if len(able) == 2:
            a, b = able
            if a.init > b.init:
                steps = ((a,), (b,))
            elif a.init < b.init:
                steps = ((b,), (a,))
            else:
                steps = ((a, b),)
        else:
            steps = _steps(able)
        end_s = (r + 1) * ROUND_S
        play_step = self._step
        for step in steps:
            play_step(step, r)
            if self.changed:
                self.changed = False
                combat.check_end(end_s)
                if combat.end_reason is not None:
                    return
        if self.flight:
            self._escape(able, r)
            if self.changed:
                self.changed = False
                combat.check_end(end_s)

    def _choose(self, me: T10Fighter) -> T10Fighter | None:
        side = me.side
        enemies = [f for f in self.fighters if f.out is None and f.side != side]
        if not enemies:
            me.target = None
            return None
        if len(enemies) == 1:
            target = enemies[0]
        else:
            allies = [f for f in self.fighters if f.out is None and f.side == side and f is not me]
            target = me.stats.choose(me, enemies, allies, self.dice)
        me.target = target
        return target

    def _declare(self, f: T10Fighter, r: int) -> None:
        stats = f.stats
        target = f.target
        if target is None or target.out is not None or stats.each_action:
            target = self._choose(f)
        decide = stats.decide
        if decide is None:
            move, act = stats.fixed
        else:
            move, act = decide(f, target, r, self)
        declared = move
        if move in TRAVEL and (f.pinned_by is not None or f.on_ground):
            move = HOLD
        if act == NEGOTIATE and not stats.venturer:
            act = NONE
        f.move = move
        f.act = act
        f.fled = False
        # DEFENSE for the whole round: a charge drops the DEX bonus, Defend adds to it.
        dv = stats.defense
        if move == CHARGE:
            f.charging = True
            dv -= stats.charge_dex
        elif f.charging:
            f.charging = False
        f.fleeing = move == FLEE
        if act == DEFEND:
            f.defending = True
            dv += stats.defend
        elif f.defending:
            f.defending = False
        f.dv = dv
        if self.tracing:
            self.combat.emit(
                "declare",
                f,
                target,
                movement=MOVEMENTS[declared],
                action=ACTION_WORDS[act],
                held=move != declared,
            )

    # -- a step: everyone with one initiative score ---------------------------------------------

    def _step(self, step: tuple[T10Fighter, ...], r: int) -> None:
        if len(step) == 1:
            # One combatant alone on its initiative score: the common case, kept short.
            f = step[0]
            if f.out is not None:
                return
            if f.holding is not None and f.hold_round < r:
                self._end_holds(f, r, quiet=True)
            origin = self._move(step, r) if f.move != HOLD else None
            act = f.act
            if act in ATTACKS:
                f.actions_taken += 1
                effect = self._attack(f, r, origin)
                if effect is not None:
                    self._land_one(effect, r)
                return
            members = step
        else:
            members = tuple(f for f in step if f.out is None)
            if not members:
                return
            for f in members:
                if f.holding is not None and f.hold_round < r:
                    self._end_holds(f, r, quiet=True)
            origin = None
            for f in members:
                if f.move != HOLD:
                    origin = self._move(members, r)
                    break
        effects = []
        negotiators = None
        for f in members:
            act = f.act
            if act in ATTACKS:
                f.actions_taken += 1
                effect = self._attack(f, r, origin)
                if effect is not None:
                    effects.append(effect)
            elif act == NEGOTIATE:
                f.actions_taken += 1
                if negotiators is None:
                    negotiators = []
                negotiators.append(f)
            elif act == DEFEND:
                f.actions_taken += 1
            elif act == RECOVER:
                f.actions_taken += 1
                self._recover(f)
        if effects:
            self._land(effects, r)
        if negotiators is not None:
            for f in negotiators:
                if f.out is None:
                    self._negotiate(f, r)

    # -- movements ------------------------------------------------------------------------------

    def _move(self, members: tuple[T10Fighter, ...], r: int) -> dict | None:
        """Move every member from the positions before the step; return withdrawers' origins."""
        rules = self.rules
        moves = []
        origin = None
        for f in members:
            m = f.move
            if m in (HOLD, MANEUVER):
                continue
            if m == STAND:
                self._stand(f, r)
                continue
            target = f.target
            if m == FLEE:
                away = self._nearest_enemy(f)
                if away is None:
                    continue
                moves.append(
                    (f, retreat(f.pos, away.pos, f.speed * rules.run_multiplier, f.stats.home))
                )
                continue
            if target is None or target.out is not None:
                continue
            if m == ADVANCE:
                moves.append((f, approach(f.pos, target.pos, rules.advance, f.reach)))
            elif m == CHARGE:
                moves.append(
                    (f, approach(f.pos, target.pos, f.speed * rules.run_multiplier, f.reach))
                )
            elif m == WITHDRAW:
                if origin is None:
                    origin = {}
                origin[f] = f.pos
                moves.append((f, retreat(f.pos, target.pos, rules.withdraw, f.stats.home)))
        tracing = self.tracing
        for f, pos in moves:
            if tracing:
                self.combat.emit("move", f, movement=MOVEMENTS[f.move], start=f.pos, end=pos)
            f.pos = pos
            if f.move == FLEE:
                f.fled = True
                self.flight = rules.escape != "on_move"
        for f, _ in moves:
            held = f.pinning
            if held is not None and abs(f.pos - held.pos) > f.reach:
                self._release(f)
            if f.fled and rules.escape == "on_move" and f.out is None:
                self._put_out(f, FLED, r)
        return origin

    def _stand(self, f: T10Fighter, r: int) -> None:
        if not f.on_ground:
            return
        if self.rules.stand_declared:
            blocked = any(
                e.out is None
                and e.target is f
                and e.act in ATTACKS
                and e.held_until < r
                and _threatens(e, f)
                for e in self.fighters
            )
        else:
            blocked = f.attacked == r
        if not blocked:
            f.on_ground = False
            self._hamper(f)
        if self.tracing:
            self.combat.emit("stand", f, success=not blocked)

    def _nearest_enemy(self, f: T10Fighter) -> T10Fighter | None:
        side = f.side
        best = None
        gap = 0.0
        for e in self.fighters:
            if e.out is None and e.side != side:
                d = abs(e.pos - f.pos)
                if best is None or d < gap:
                    best, gap = e, d
        return best

    def _recover(self, f: T10Fighter) -> None:
        spot = f.weapon_at
        if spot is None:
            return
        if abs(spot - f.pos) <= f.speed:
            f.pos = spot
            f.weapon_at = None
            done = True
        else:
            f.pos = approach(f.pos, spot, f.speed, 0.0)
            done = False
        if self.tracing:
            self.combat.emit("recover", f, success=done, pos=f.pos)

    # -- attacks ----------------------------------------------------------------------------------

    def _attack(self, f: T10Fighter, r: int, origin: dict | None):
        """Roll one attack against the state before the step; its effect, or None on a miss."""
        t = f.target
        if t is None or t.out is not None:
            t = self._choose(f)
            if t is None:
                return None
        if f.held_until >= r:
            if self.tracing:
                self.combat.emit("no_attack", f, t, why="held off by a negotiation")
            return None
        rules = self.rules
        act = f.act
        move = f.move
        pinner = f.pinned_by
        if pinner is not None and act == GRAPPLE:
            t = pinner
        if move == WITHDRAW and t.move not in rules.withdraw_vs:
            if self.tracing:
                self.combat.emit(
                    "no_attack", f, t, why="withdrawing from an opponent not advancing"
                )
            return None
        distance = (f.pos if origin is None else origin.get(f, f.pos)) - t.pos
        if distance < 0:
            distance = -distance
        s = f.stats
        armed = f.weapon_at is None
        if distance <= f.reach:
            ranged = False
            if act == DISARM and rules.disarm_shoot:
                value = s.shoot_melee if armed else s.shoot_unarmed
            else:
                value = s.fight if armed else s.fight_unarmed
                if f.charging:
                    value += s.charge_str
        elif armed and distance <= f.range:
            ranged = True
            value = s.shoot
        else:
            if self.tracing:
                self.combat.emit("no_attack", f, t, why="out of reach", distance=distance)
            return None
        situ = s.situational
        penalty = t.hampered - f.hampered
        if penalty:
            if rules.pen_values:
                value += penalty
            else:
                situ += penalty
        if f.edge is not None and f.edge[0] is t and f.edge[1] == r:
            situ += rules.maneuver_bonus
        diff = value - t.dv
        limit = rules.value_clamp
        modifier = -limit if diff < -limit else limit if diff > limit else diff
        if situ:
            limit = rules.situ_clamp
            modifier += -limit if situ < -limit else limit if situ > limit else situ
        f.attacks += 1
        t.attacked = r
        if t.holding is not None:
            self._end_holds(t, r)
        if t.held_until >= r and rules.neg_any:
            self._break_parley(t.side, r)
        if t.fleeing and rules.flee_auto_hit:
            face = 0
            hit = True
        else:
            face = self.dice.roll(20)
            hit = face + modifier >= rules.combat_target
        if self.tracing:
            self.combat.emit(
                "attack",
                f,
                t,
                action=ACTION_WORDS[act],
                roll=face,
                modifier=modifier,
                need=rules.combat_target,
                hit=hit,
                auto=face == 0,
                ranged=ranged,
                maneuver=move == MANEUVER,
            )
        if not hit:
            return None
        f.hits += 1
        if move == MANEUVER:
            return (PUSH, f, t, 0)
        if act in (KILL, SUBDUE):
            if ranged:
                sides = s.ranged_sides
                amount = (
                    self.dice.roll(sides) + s.ranged_add
                    if sides
                    else s.ranged_damage.roll(self.dice) + s.dex_mod
                )
            else:
                sides = s.melee_sides
                amount = (
                    self.dice.roll(sides) + s.melee_add
                    if sides
                    else s.melee_damage.roll(self.dice) + s.str_mod
                )
            if amount < rules.min_damage:
                amount = rules.min_damage
            return (act, f, t, amount)
        if act == GRAPPLE and pinner is t:
            return (BREAK, f, t, 0)
        return (act, f, t, 0)

    # -- effects ----------------------------------------------------------------------------------

    def _land_one(self, effect: tuple, r: int) -> None:
        """Let a single successful attack take effect."""
        kind, f, t, amount = effect
        if t.out is not None:
            return
        if t.luck > 0 and self._ignored(t, f, kind, amount):
            return
        if kind == KILL:
            hp = t.hp - amount
            t.hp = hp
            t.damage_taken += amount
            f.damage_dealt += amount
            if self.tracing:
                self.combat.emit("damage", f, t, amount=amount, hp=hp, by=[f.name])
            if hp <= 0:
                self._put_out(t, DEAD if hp < 0 or self.rules.zero_dead else UNCONSCIOUS, r)
        elif kind == SUBDUE:
            self._hurt(t, (), ((f, amount),), r)
        else:
            self._condition(kind, f, t, r)

    def _land(self, effects: list, r: int) -> None:
        """Let the step's successful attacks take effect together."""
        if len(effects) == 1:
            self._land_one(effects[0], r)
            return
        by_target: dict[T10Fighter, list] = {}
        for effect in effects:
            by_target.setdefault(effect[2], []).append(effect)
        survivors = []
        for t, hits in by_target.items():
            if t.out is not None:
                continue
            damaging = [h for h in hits if h[0] in DAMAGING]
            others = [h for h in hits if h[0] not in DAMAGING]
            policy = t.stats.luck_policy
            if t.luck > 0 and damaging:
                cancelled = cancel_hits(t.hp, [h[3] for h in damaging], t.luck, policy)
                for i in sorted(cancelled):
                    self._spend(t, damaging[i][1])
                damaging = [h for i, h in enumerate(damaging) if i not in cancelled]
            if t.luck > 0 and others and policy == "always":
                kept = []
                for h in others:
                    if t.luck > 0:
                        self._spend(t, h[1])
                    else:
                        kept.append(h)
                others = kept
            survivors.append((t, damaging, others))
        for t, _, others in survivors:
            for kind, f, _, _ in others:
                self._condition(kind, f, t, r)
        for t, damaging, _ in survivors:
            if damaging:
                kills = tuple((h[1], h[3]) for h in damaging if h[0] == KILL)
                subdues = tuple((h[1], h[3]) for h in damaging if h[0] == SUBDUE)
                self._hurt(t, kills, subdues, r)

    def _ignored(self, t: T10Fighter, attacker: T10Fighter, kind: int, amount: int) -> bool:
        """Whether ``t`` spends a luck point to ignore a single hit."""
        if t.luck <= 0:
            return False
        policy = t.stats.luck_policy
        if policy == "never":
            return False
        if policy == "save" and (kind not in DAMAGING or t.hp - amount > 0):
            return False
        self._spend(t, attacker)
        return True

    def _spend(self, t: T10Fighter, attacker: T10Fighter) -> None:
        t.luck -= 1
        t.defenses += 1
        t.defenses_won += 1
        if self.tracing:
            self.combat.emit("luck", t, attacker, left=t.luck)

    def _hurt(self, t: T10Fighter, kills: tuple, subdues: tuple, r: int) -> None:
        hp = t.hp
        kill = 0
        for f, amount in kills:
            kill += amount
            f.damage_dealt += amount
        left = hp - kill
        subdue = 0
        for f, amount in subdues:
            dealt = amount if amount < left else max(left, 0)
            left -= dealt
            subdue += amount
            f.damage_dealt += dealt
        zero_hp = "dead" if self.rules.zero_dead else "unconscious"
        after, how = take_damage(hp, kill, subdue, zero_hp)
        t.hp = after
        t.damage_taken += hp - after
        if self.tracing:
            by = [f for f, _ in kills + subdues]
            self.combat.emit(
                "damage",
                by[0] if len(by) == 1 else None,
                t,
                amount=hp - after,
                hp=after,
                by=[f.name for f in by],
            )
        if how is not None:
            self._put_out(t, how, r)

    def _condition(self, kind: int, f: T10Fighter, t: T10Fighter, r: int) -> None:
        tracing = self.tracing
        if kind == TRIP:
            t.on_ground = True
            self._hamper(t)
        elif kind == GRAPPLE:
            if t.pinned_by is None:
                if f.pinning is not None:
                    self._release(f)
                t.pinned_by = f
                f.pinning = t
                self._hamper(t)
        elif kind == BREAK:
            if f.pinned_by is t:
                self._release(t)
        elif kind == DISARM:
            if t.weapon_at is None:
                dice = self.dice
                way = 1 if dice.roll(2) == 2 else -1
                t.weapon_at = t.pos + way * self.rules.disarm_dice.roll(dice)
        elif kind == PUSH:
            start = t.pos
            t.pos = push(t.pos, f.pos, self.rules.maneuver_paces, f.stats.push_away, t.stats.home)
            if self.rules.maneuver_bonus:
                f.edge = (t, r + 1)
            holder = t.pinned_by
            if holder is not None and abs(holder.pos - t.pos) > holder.reach:
                self._release(holder)
            held = t.pinning
            if held is not None and abs(held.pos - t.pos) > t.reach:
                self._release(t)
            if tracing:
                self.combat.emit("effect", f, t, effect="push", start=start, end=t.pos)
            return
        if tracing:
            name = "break" if kind == BREAK else ACTION_WORDS[kind]
            self.combat.emit("effect", f, t, effect=name, weapon_at=t.weapon_at)

    def _hamper(self, f: T10Fighter) -> None:
        """Recompute what lying on the ground and being pinned cost ``f`` to attack and defend."""
        rules = self.rules
        f.hampered = (rules.ground_pen if f.on_ground else 0) + (
            rules.pin_pen if f.pinned_by is not None else 0
        )

    def _release(self, holder: T10Fighter) -> None:
        held = holder.pinning
        if held is not None:
            held.pinned_by = None
            holder.pinning = None
            self._hamper(held)

    def _put_out(self, f: T10Fighter, how: str, r: int) -> None:
        """Take ``f`` out at the end of round ``r`` (the fight's end is checked after the step)."""
        f.out = how
        f.out_at = (r + 1) * ROUND
        self.changed = True
        if f.pinning is not None:
            self._release(f)
        if f.pinned_by is not None:
            self._release(f.pinned_by)
        if f.holding is not None:
            self._end_holds(f, r)
        if self.tracing:
            self.combat.emit("out", f, how=how)
        if how == UNCONSCIOUS:
            f.on_ground = True
            self._hamper(f)
            if self.rules.wake_up:
                rounds = self.rules.unconscious_dice.roll(self.dice)
                f.wake_round = r + 1 + max(rounds, 0)
                self.sleepers.append(f)
                if self.tracing:
                    self.combat.emit("sleep", f, rounds=rounds)

    def _wake(self, r: int) -> None:
        still = []
        for f in self.sleepers:
            if f.out != UNCONSCIOUS:
                continue
            if f.wake_round <= r:
                f.out = None
                f.out_at = None
                f.target = None
                if self.tracing:
                    self.combat.emit("wake", f, hp=f.hp)
            else:
                still.append(f)
        self.sleepers = still

    # -- negotiation ------------------------------------------------------------------------------

    def _negotiate(self, f: T10Fighter, r: int) -> None:
        combat = self.combat
        rules = self.rules
        if f.attacked == r:
            if self.tracing:
                combat.emit("negotiate", f, spoiled=True)
            return
        side = f.side
        if rules.neg_target:
            t = f.target
            held = [t] if t is not None and t.out is None else []
        else:
            held = [e for e in self.fighters if e.out is None and e.side != side]
        if not held:
            return
        s = f.stats
        tv = s.cha_mod + s.skill
        against = max(e.stats.resist for e in held)
        situ = s.situational
        sc = rules.situ_clamp
        modifier = tv - against + (-sc if situ < -sc else sc if situ > sc else situ)
        face = self.dice.roll(20)
        success = face + modifier >= rules.test_target
        lucky = False
        if not success and f.luck > 0 and spend_on_failed_test(s.luck_policy, False):
            f.luck -= 1
            success = lucky = True
        if success:
            # one_round: held into the next round, until the negotiator's turn ends the hold.
            until = r + 1 if rules.neg_next else r
            for e in held:
                if e.held_until < until:
                    e.held_until = until
            f.holding = held
            f.hold_round = r
        if self.tracing:
            combat.emit(
                "negotiate",
                f,
                spoiled=False,
                roll=face,
                tv=tv,
                against=against,
                modifier=modifier,
                need=rules.test_target,
                success=success,
                luck=lucky,
                held=[e.name for e in held] if success else [],
            )

    def _end_holds(self, negotiator: T10Fighter, r: int, quiet: bool = False) -> None:
        """End the holds of a negotiator in round ``r``: broken by an attack, or run out."""
        held = negotiator.holding
        negotiator.holding = None
        if held:
            active = False
            for e in held:
                if e.held_until >= r:
                    active = True
                e.held_until = -1
            if self.tracing and active and not quiet:
                self.combat.emit("parley_broken", negotiator)

    def _break_parley(self, side: int, r: int) -> None:
        for f in self.fighters:
            if f.holding is not None and any(e.side == side for e in f.holding):
                self._end_holds(f, r)

    # -- the end of a round -----------------------------------------------------------------------

    def _escape(self, able: list[T10Fighter], r: int) -> None:
        """At the end of a round, those who fled and got away are out of the fight."""
        self.flight = False
        escape = self.rules.escape
        for f in able:
            if f.fled and f.out is None and (escape == "end_of_round" or self._beyond_reach(f)):
                self._put_out(f, FLED, r)

    def _beyond_reach(self, f: T10Fighter) -> bool:
        """No able enemy could attack ``f`` next round: out of charge + reach and of range."""
        run = self.run_multiplier
        side = f.side
        for e in self.fighters:
            if e.out is None and e.side != side:
                distance = abs(e.pos - f.pos)
                if distance <= e.reach + e.speed * run:
                    return False
                if e.weapon_at is None and distance <= e.range:
                    return False
        return True


class StaticDuel:
    """The fast lane of a *static duel*: :meth:`Rounds.play` for two fixed melee fighters.

    Two combatants who hold their ground and Kill (or Subdue) each other in reach can never
    change that: nobody moves, no action leaves a condition, and the first one out ends the
    fight. Their rounds are then just initiative, attack tests and damage, so this lane plays
    them without the declarations and steps of the general round, drawing the same dice in the
    same order. It is used only without tracing; ``tests/target10/test_t10_round.py`` checks that it
    gives exactly the general path's results.
    """

    __slots__ = ("a", "a_mod", "b", "b_mod", "rounds", "target")

    def __init__(self, rounds: Rounds, a: T10Fighter, b: T10Fighter) -> None:
        self.rounds = rounds
        self.a = a
        self.b = b
        self.target = rounds.rules.combat_target
        self.a_mod = _static_modifier(a, b, rounds.rules)
        self.b_mod = _static_modifier(b, a, rounds.rules)

    def play(self, r: int) -> None:
        """Play round ``r`` of the duel."""
        rounds = self.rounds
        roll = rounds.dice.roll
        a = self.a
        b = self.b
        ia = roll(INITIATIVE_DIE) + a.dex_mod
        ib = roll(INITIATIVE_DIE) + b.dex_mod
        a.init = ia
        b.init = ib
        if ia == ib:
            a.actions_taken += 1
            b.actions_taken += 1
            effects = [
                e
                for e in (self.strike(a, b, self.a_mod, r), self.strike(b, a, self.b_mod, r))
                if e is not None
            ]
            if effects:
                rounds._land(effects, r)
        else:
            if ia > ib:
                first, second, first_mod, second_mod = a, b, self.a_mod, self.b_mod
            else:
                first, second, first_mod, second_mod = b, a, self.b_mod, self.a_mod
            first.actions_taken += 1
            effect = self.strike(first, second, first_mod, r)
            if effect is not None:
                rounds._land_one(effect, r)
            if second.out is None:
                second.actions_taken += 1
                effect = self.strike(second, first, second_mod, r)
                if effect is not None:
                    rounds._land_one(effect, r)
        if rounds.changed:
            rounds.changed = False
            rounds.combat.check_end((r + 1) * ROUND_S)

    def strike(self, f: T10Fighter, t: T10Fighter, modifier: int, r: int):
        """One attack test of the duel, as :meth:`Rounds._attack` would roll it."""
        f.attacks += 1
        t.attacked = r
        dice = self.rounds.dice
        if dice.roll(20) + modifier < self.target:
            return None
        f.hits += 1
        s = f.stats
        sides = s.melee_sides
        amount = dice.roll(sides) + s.melee_add if sides else s.melee_damage.roll(dice) + s.str_mod
        least = self.rounds.rules.min_damage
        return (s.fixed[1], f, t, amount if amount > least else least)


def _static_modifier(f: T10Fighter, t: T10Fighter, rules: RoundRules) -> int:
    s = f.stats
    diff = s.fight - t.dv
    limit = rules.value_clamp
    modifier = -limit if diff < -limit else limit if diff > limit else diff
    situ = s.situational
    limit = rules.situ_clamp
    return modifier + (-limit if situ < -limit else limit if situ > limit else situ)


def _static_duel(rounds: Rounds) -> StaticDuel | None:
    """The fast lane, when the fight is a static duel from its start (see :class:`StaticDuel`)."""
    fighters = rounds.fighters
    if len(fighters) != 2:
        return None
    a, b = fighters
    if a.side == b.side or abs(a.pos - b.pos) > min(a.reach, b.reach):
        return None
    for f in fighters:
        s = f.stats
        if (
            s.decide is not None
            or s.fixed[0] != HOLD
            or s.fixed[1] not in (KILL, SUBDUE)
            or f.on_ground
            or f.out is not None
        ):
            return None
    a.target = b
    b.target = a
    return StaticDuel(rounds, a, b)


def _threatens(e: T10Fighter, f: T10Fighter) -> bool:
    """Whether ``e`` is in a position to attack ``f``: within its reach, or its range."""
    distance = abs(e.pos - f.pos)
    return distance <= e.reach or (e.weapon_at is None and distance <= e.range)


def _steps(able: list[T10Fighter]) -> list[tuple[T10Fighter, ...]]:
    """Group combatants by initiative score, highest first (scenario order inside a group)."""
    ranked = sorted(able, key=lambda f: -f.init)
    steps: list[tuple[T10Fighter, ...]] = []
    start = 0
    n = len(ranked)
    while start < n:
        end = start + 1
        score = ranked[start].init
        while end < n and ranked[end].init == score:
            end += 1
        steps.append(tuple(ranked[start:end]))
        start = end
    return steps
