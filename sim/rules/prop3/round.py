"""The Proposition Three round process: initiative, then one action each per round.

``rules/combat-proposition-three.txt`` gives no round length and no order of play beyond
initiative; RULINGS part C ("Declaring"): "Each combatant has one action a round; defending does
not use it." One SimPy process plays a whole round at the round's start time and sleeps for
``round_s`` game seconds (option, default 6; ``round_s * 10`` clock units), so the order inside a
round comes only from initiative, never from SimPy's event order.

- At the start of the fight everyone rolls initiative (:mod:`~sim.rules.prop3.initiative`).
- Each round, in initiative order, every combatant still in the fight takes its turn: its
  "until my next action" effects end as it starts (:meth:`Fight.begin_action`), then it acts:
  picks up a dropped weapon; or skips the turn to move up one place (tactic ``move_up``); or, on
  its target: attacks in melee within ``melee_range`` feet; shoots when it can (aiming first by
  the tactic ``aim``); else moves ``speed`` feet toward it (tactic ``advance``), stopping at its
  missile's maximum range or at melee range; else holds.
- Combatants stand on a line, in feet: side ``i`` starts at ``i * start_distance`` (or at the
  stat ``position``). Distances are along the line.
- When a combatant's Vigor reaches 0 it is out at the end of the round, and the fight ends when
  at most one side is left; its duration is the end of that round. A fight still going at the
  time limit is a draw.
"""

from __future__ import annotations

from collections.abc import Generator

from simpy.events import Event

from sim.engine.combat import SEGMENTS_PER_SECOND, Combat
from sim.engine.tactics import pick_target
from sim.rules.prop3.character import AIM_ALWAYS, AIM_FIRST, P3Fighter
from sim.rules.prop3.counters import counter_attack
from sim.rules.prop3.damage import out
from sim.rules.prop3.fight import Fight
from sim.rules.prop3.initiative import (
    initiative_dice,
    initiative_roll,
    move_up,
    rank,
    without_dice,
)
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.missiles import missile_attack, shot_reach
from sim.rules.prop3.models import Rules
from sim.rules.prop3.pool import NOTHING


def skips_turn(me: P3Fighter) -> bool:
    """Whether ``me`` skips this turn to move up a place (tactic ``move_up``, turns left)."""
    return me.skips > 0 and me.place > 0


class RoundFight(Fight[P3Fighter]):
    """A fight in rounds: places in the initiative order and positions on a line."""

    __slots__ = ("end_s", "end_t")

    def __init__(self, combat: Combat[P3Fighter], rules: Rules) -> None:
        super().__init__(combat, rules, counter_attack)
        self.end_s = 0.0
        self.end_t = 0.0

    def higher(self, a: P3Fighter, b: P3Fighter) -> bool:
        """Whether ``a`` is above ``b`` in the initiative order."""
        return a.place < b.place

    def distance(self, a: P3Fighter, b: P3Fighter) -> float:
        """Feet between two combatants on the line."""
        return abs(a.pos - b.pos)

    def lose_vigor(self, attacker: P3Fighter | None, target: P3Fighter, wounds: int) -> None:
        """Lower Vigor; at 0 the combatant is out at the end of the round."""
        target.hp -= wounds
        target.damage_taken += wounds
        if attacker is not None:
            attacker.damage_dealt += wounds
        combat = self.combat
        if self.tracing:
            combat.emit("damage", attacker, target, amount=wounds, hp=target.hp)
        if out(target.hp) and target.out is None:
            target.out = "down"
            target.out_at = self.end_t
            if self.tracing:
                combat.emit("out", target, how="down")
            self.taken_out(target)
            combat.check_end(self.end_s)


class Prop3Rounds:
    """Plays one combat round by round.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.prop3.character.P3Fighter`).
        rules: the hot-path rule options.
        round_s: game seconds in a round.
        every_round: roll initiative again every round.
        no_dice: how combatants whose initiative pools have no dice are ordered
            (``initiative_no_dice``).
    """

    __slots__ = (
        "combat",
        "every_round",
        "fight",
        "no_dice",
        "order",
        "round_s",
        "round_t",
        "rounds",
        "skipped",
        "tracing",
    )

    def __init__(
        self,
        combat: Combat[P3Fighter],
        rules: Rules,
        round_s: float,
        every_round: bool,
        no_dice: str = "listed",
    ) -> None:
        self.combat = combat
        self.fight = RoundFight(combat, rules)
        self.round_s = round_s
        self.round_t = round_s * SEGMENTS_PER_SECOND
        self.rounds = int(combat.time_limit_s / round_s + 1e-9)
        self.every_round = every_round
        self.no_dice = no_dice
        self.order: list[P3Fighter] = []
        self.skipped: list[P3Fighter] = []
        self.tracing = combat.trace is not None

    def start(self) -> None:
        """Start the round process."""
        self.combat.env.process(self.run())

    def run(self) -> Generator[Event, None, None]:
        """Initiative, then a round at each round's start until the end or the time limit."""
        combat = self.combat
        timeout = combat.env.timeout
        self.roll_initiative()
        for r in range(self.rounds):
            self.play(r)
            if combat.end_reason is not None:
                return
            yield timeout(self.round_t)
        combat.finish("time_limit", combat.time_limit_s)

    def roll_initiative(self) -> None:
        """Everyone still in the fight rolls; the order is the results', best first.

        Combatants whose pools have no dice do not roll: they come last (``initiative.py``).
        """
        fight = self.fight
        dice, keep = fight.dice, fight.rules.keep
        rolling: list[P3Fighter] = []
        idle: list[P3Fighter] = []
        for f in self.combat.fighters:
            if f.out is None:
                (rolling if initiative_dice(f) > 0 else idle).append(f)
        tracing = self.tracing

        def roll(f: P3Fighter):
            result, faces = initiative_roll(f, dice, keep)
            f.init = result
            if tracing:
                self.combat.emit("initiative", f, faces=list(faces), result=str(result))
            return result

        for f in idle:
            f.init = NOTHING
            if tracing:
                self.combat.emit("initiative", f, faces=[], result="no dice")
        self.set_order(rank(rolling, roll) + without_dice(idle, self.no_dice, dice))

    def set_order(self, order: list[P3Fighter]) -> None:
        """Set the initiative order (highest first)."""
        self.order = list(order)
        for place, f in enumerate(self.order):
            f.place = place
        if self.tracing:
            self.combat.emit("order", order=[f.name for f in self.order])

    def play(self, r: int) -> None:
        """Play round ``r`` (from 0): every combatant's turn, in initiative order."""
        fight = self.fight
        combat = self.combat
        fight.end_s = (r + 1) * self.round_s
        fight.end_t = (r + 1) * self.round_t
        fight.cluster.new_round(fight.rules.volley_round)
        if self.every_round and r > 0:
            self.roll_initiative()
        if self.tracing:
            combat.emit("round", number=r + 1)
        for f in tuple(self.order):
            if f.out is not None:
                continue
            self.turn(f)
            if combat.end_reason is not None:
                return
        if self.skipped:
            for f in self.skipped:
                if f.out is None:
                    move_up(self.order, f)
            self.skipped = []
            if self.tracing:
                combat.emit("order", order=[f.name for f in self.order])

    def turn(self, me: P3Fighter) -> None:
        """``me``'s action of the round."""
        fight = self.fight
        closing = fight.begin_action(me)
        me.actions_taken += 1
        combat = self.combat
        tracing = self.tracing
        if fight.pick_up(me):
            me.actions_lost += 1
        elif skips_turn(me):
            me.skips -= 1
            self.skipped.append(me)
            if tracing:
                combat.emit("skip", me)
        else:
            target = self.target(me)
            if target is not None:
                self.act(me, target)
        fight.end_action(closing)

    def target(self, me: P3Fighter) -> P3Fighter | None:
        """The target of ``me``'s action (kept until it is out, unless ``retarget``)."""
        target = me.target
        profile = me.state.profile
        if target is not None and target.out is None and not profile.each_action:
            return target
        combat = self.combat
        return pick_target(
            me,
            combat.enemies(me),
            combat.allies(me),
            combat.dice,
            profile.choose,
            profile.each_action,
        )

    def act(self, me: P3Fighter, target: P3Fighter) -> None:
        """Attack, shoot, aim, move or hold."""
        fight = self.fight
        body = me.state
        profile = body.profile
        distance = fight.distance(me, target)
        melee_range = fight.rules.melee_range
        if distance <= melee_range:
            body.aim = None
            me.attacks += 1
            melee_attack(fight, me, target)
            return
        reach = shot_reach(me, target) if profile.missile is not None else None
        if reach is not None and distance <= reach:
            aim = profile.aim
            if body.aim is not target and (
                aim == AIM_ALWAYS or (aim == AIM_FIRST and not body.fired)
            ):
                body.aim = target
                if self.tracing:
                    self.combat.emit("aim", me, target)
                return
            me.attacks += 1
            missile_attack(fight, me, target)
            return
        body.aim = None
        if profile.advance and profile.speed > 0:
            stop = reach if reach is not None and reach > melee_range else melee_range
            gap = max(stop, distance - profile.speed)
            start = me.pos
            there = target.pos
            me.pos = there + gap if start > there else there - gap
            if self.tracing:
                self.combat.emit("move", me, target, start=start, end=me.pos, distance=gap)
        elif self.tracing:
            self.combat.emit("hold", me, target, distance=distance)
