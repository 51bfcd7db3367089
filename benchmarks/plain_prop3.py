"""An independent plain-Python loop of the Proposition Three duel (Moonbelly vs Kronzer).

The yardstick of issue 26 for ``scenarios/p3-moonbelly-vs-kronzer.yaml``: the engine must reach
at least 30% of this loop's combats per CPU second (or count at most 600,000 instructions per
combat). Unlike ``bare_prop3.py``, which calls the engine's own rule functions
(``sim.rules.prop3``: reading, wiggling, exact odds, the form table) and so costs what they cost,
this loop imports nothing of ``sim.rules`` and no SimPy: it is written here, straight from
``rules/combat-proposition-three.txt`` as RULINGS part C reads it under the option defaults, as
anyone would write one duel by hand. It draws its dice from the same kind of stream
(``Dice(seed, k)``) but not in the engine's order, so it agrees with the engine in law, not
combat by combat: its win rate and mean duration agree with the engine's within a few standard
errors (``tests/scale/test_bench.py`` checks that on fixed seeds).

The duel (the same as ``bare_prop3.py`` describes):

- d8s; Moonbelly Vigor 5, Agility 6, polearm (bash and slash average, thrust excellent,
  two-handed: she may block and parry anything), leather (poor against bashes); Kronzer Vigor 6
  and one size category up (+1 die on Vigor rolls), Agility 4, club (bash excellent, slash
  average, thrust poor; one-handed: no block, no parry against a bash), crude chain mail (bash
  poor, slash average, thrust excellent); attacks and blocks roll Vigor, dodges and parries
  Agility;
- a roll keeps its lowest three dice: three alike a triple (a pair of that face, with it as third
  die, for a stat at 2), two alike a pair with the other as third die; a stat at 1 succeeds only
  on a 1; better is triple over pair over nothing, lower faces first, then the lower third die;
- a wiggle point moves one die one face; the attacker reaches its best result; the defender,
  seeing it, beats it if it can, else cuts an attacking triple with a lower pair, else counts its
  best (a full tie is rolled again);
- forms: each side by the exact expected damage of the exchange (a critical hit two nicks); the
  lower in initiative declares first (maximin); initiative: Agility pools, rolled again on a tie,
  kept all fight;
- a fumble's d6: 1 drops the weapon (picked up instead of the next attack), 2 a nick to oneself,
  3 a counter (an automatic hit against a parry, else a full attack), 4 +2 wiggle against the
  fumbler and 5 -1 defense die, both until its next action; a critical block -1 defense die on
  the attacker until the blocker's next action is over; a critical dodge +2 wiggle against the
  attacker until the dodger's next action; a critical parry an automatic counter-hit (a critical
  on a triple); two nicks a wound, a wound a point of Vigor, Vigor 0 ends the fight; a draw after
  100 rounds of 6 s.

Run it: ``python benchmarks/plain_prop3.py [combats]`` prints combats per CPU second.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations_with_replacement
from math import factorial

from sim.engine.dice import Dice

SIDES = 8
ROUNDS = 100
ROUND_S = 6.0
NAMES = ("gerbil", "rat")
VIGOR = (5, 6)
AGILITY = (6, 4)
SIZE = (0, 1)
POOR, AVERAGE, EXCELLENT = -1, 0, 1
BASH, SLASH, THRUST = 0, 1, 2
DODGE, BLOCK, PARRY = 0, 1, 2
#: Each fighter's weapon by attack form, and its armor by attack form.
WEAPON = ((AVERAGE, AVERAGE, EXCELLENT), (EXCELLENT, AVERAGE, POOR))
ARMOR = ((POOR, AVERAGE, AVERAGE), (POOR, AVERAGE, EXCELLENT))
TWO_HANDED = (True, False)
#: [attack][defense]: the attack form's rating against the defense form, and the reverse.
ATTACK_VS = ((AVERAGE, POOR, EXCELLENT), (EXCELLENT, AVERAGE, POOR), (POOR, EXCELLENT, AVERAGE))
DEFENSE_VS = ((AVERAGE, POOR, EXCELLENT), (EXCELLENT, AVERAGE, POOR), (POOR, EXCELLENT, AVERAGE))

# Outcomes of an attack.
FUMBLE, DEFENDED, CRIT_DEFENSE, HIT, CRIT, CUT, TIE = range(7)
#: Nicks an outcome deals (a critical hit a wound, two nicks).
NICKS = {HIT: 1, CUT: 1, CRIT: 2}


def lost(rating: int) -> int:
    """Dice a rating costs (poor: one)."""
    return 1 if rating == POOR else 0


def gained(rating: int) -> int:
    """Wiggle points a rating earns (excellent: one)."""
    return 1 if rating == EXCELLENT else 0


def rank(kind: int, face: int = 0, third: int = 0) -> int:
    """A result as one integer, higher is better: kind 0 nothing, 1 pair, 2 triple.

    Lower faces are better, then a lower third die; no third die (0) is the worst third.
    """
    if kind == 0:
        return 0
    return kind * 10_000 + (20 - face) * 100 + (20 - third if third else 0)


def kind_of(r: int) -> int:
    return r // 10_000


def face_of(r: int) -> int:
    return 20 - (r % 10_000) // 100


def read(a: int, b: int, c: int, crit: bool) -> int:
    """The result of three kept dice ``a <= b <= c``."""
    if a == c:
        return rank(2, a) if crit else rank(1, a, a)
    if a == b:
        return rank(1, a, c)
    if b == c:
        return rank(1, b, a)
    return 0


#: Every kept triple a roll can be wiggled to, with its result, best result first.
def _targets(crit: bool) -> list[tuple[int, int, int, int]]:
    found = [
        (read(a, b, c, crit), a, b, c)
        for a, b, c in combinations_with_replacement(range(1, SIDES + 1), 3)
    ]
    return sorted((t for t in found if t[0]), reverse=True)


TARGETS = {True: _targets(True), False: _targets(False)}


def cost(s: tuple[int, ...], a: int, b: int, c: int) -> int:
    """Wiggle points that make the sorted roll ``s`` keep ``(a, b, c)``.

    The three lowest dice move to ``a, b, c``; every other die below ``c`` rises to ``c``.
    """
    total = abs(s[0] - a) + abs(s[1] - b) + abs(s[2] - c)
    for x in s[3:]:
        if x < c:
            total += c - x
    return total


def reach(s: tuple[int, ...], points: int, crit: bool, ones: bool) -> tuple[int, int]:
    """The best result the sorted roll ``s`` reaches, and the face of its lowest pair (0: none)."""
    n = len(s)
    if n == 0:
        return 0, 0
    if n == 1 or ones:
        return (rank(1, 1), 1) if s[0] - 1 <= points else (0, 0)
    if n == 2:
        for face in range(1, SIDES + 1):
            if abs(s[0] - face) + abs(s[1] - face) <= points:
                return rank(1, face), face
        return 0, 0
    best = 0
    for r, a, b, c in TARGETS[crit]:
        if cost(s, a, b, c) <= points:
            best = r
            break
    low = 0
    for r, a, b, c in TARGETS[crit]:
        if kind_of(r) == 1 and (low == 0 or face_of(r) < low) and cost(s, a, b, c) <= points:
            low = face_of(r)
    return best, low


_REACH: dict = {}


def reached(faces: list[int], points: int, stat: int) -> tuple[int, int]:
    """:func:`reach` for rolled faces and the roll's stat (cached by the sorted roll)."""
    key = (tuple(sorted(faces)), points, stat)
    found = _REACH.get(key)
    if found is None:
        found = _REACH[key] = reach(key[0], points, stat > 2, stat <= 1)
    return found


def outcome(attack: int, best: int, low: int) -> int:
    """An attack result against the defender's best result and lowest pair face."""
    if attack == 0:
        return FUMBLE
    if best > attack:
        return CRIT_DEFENSE if kind_of(best) == 2 else DEFENDED
    if kind_of(attack) == 2 and 0 < low < face_of(attack):
        return CUT
    if best == attack:
        return TIE
    return CRIT if kind_of(attack) == 2 else HIT


_LAWS: dict = {}


def law(n: int, points: int, stat: int) -> dict[tuple[int, int], float]:
    """The chance of each (best result, lowest pair face) of ``n`` d8s with ``points``.

    It reads every roll of the pool, and keeps each reading for :func:`reached` (so that the
    rolls of a declared exchange find their reading ready).
    """
    key = (n, points, stat)
    found = _LAWS.get(key)
    if found is None:
        found = {}
        for s in combinations_with_replacement(range(1, SIDES + 1), n):
            ways = factorial(n)
            for face in set(s):
                ways //= factorial(s.count(face))
            got = _REACH[s, points, stat] = reach(s, points, stat > 2, stat <= 1)
            found[got] = found.get(got, 0.0) + ways / SIDES**n
        _LAWS[key] = found
    return found


_VALUES: dict = {}


def value(na: int, wa: int, sa: int, nd: int, wd: int, sd: int) -> float:
    """Expected nicks of an attack (ties rolled again): pools, wiggle points, stats."""
    key = (na, wa, sa, nd, wd, sd)
    found = _VALUES.get(key)
    if found is None:
        nicks = tie = 0.0
        for (a, _), pa in law(na, wa, sa).items():
            for (b, low), pd in law(nd, wd, sd).items():
                o = outcome(a, b, low)
                if o == TIE:
                    tie += pa * pd
                else:
                    nicks += pa * pd * NICKS.get(o, 0)
        found = _VALUES[key] = nicks / (1.0 - tie)
    return found


_TRIPLES: dict = {}


def triple_chance(n: int, points: int, stat: int) -> float:
    """The chance that ``n`` d8s with ``points`` reach a triple."""
    key = (n, points, stat)
    if key not in _TRIPLES:
        _TRIPLES[key] = sum(p for (r, _), p in law(n, points, stat).items() if kind_of(r) == 2)
    return _TRIPLES[key]


def can_defend(who: int, armed: bool, a: int, d: int) -> bool:
    """Whether ``who`` may use defense ``d`` against attack ``a`` (light armor, no shield)."""
    if d == DODGE:
        return True
    if not armed:
        return False
    if d == BLOCK:
        return TWO_HANDED[who]
    return a != BASH or TWO_HANDED[who]


_FORMS: dict = {}


class Duel:
    """One combat: both fighters' state, the round loop and the exchange."""

    def __init__(self, seed: int, k: int) -> None:
        self.roll = Dice(seed, k).roll
        self.vigor = list(VIGOR)
        self.nicks = [0, 0]
        self.armed = [True, True]
        self.exposed = [0, 0]  # wiggle points against the fighter
        self.shaken = [0, 0]  # defense dice the fighter loses
        self.at_start: list[list] = [[], []]  # undone when the owner's next action starts
        self.after: list[list] = [[], []]  # undone when the owner's next action is over
        self.over = False
        self.winner = "draw"
        self.end = ROUNDS * ROUND_S
        self.now = 0.0
        self.order = self.initiative()

    def dice(self, n: int) -> list[int]:
        roll = self.roll
        return [roll(SIDES) for _ in range(n)]

    def initiative(self) -> list[int]:
        while True:
            first = reached(self.dice(AGILITY[0]), 0, AGILITY[0])[0]
            second = reached(self.dice(AGILITY[1]), 0, AGILITY[1])[0]
            if first != second:
                return [0, 1] if first > second else [1, 0]

    def pool(self, who: int, vigor_roll: bool) -> tuple[int, int]:
        """Dice and stat of an attack or block (Vigor) or of a dodge or parry (Agility)."""
        if not vigor_roll:
            return AGILITY[who], AGILITY[who]
        stat = self.vigor[who]
        return (stat + SIZE[who] if stat > 0 else 0), stat

    def pools(self, me: int, a: int, d: int | None) -> tuple:
        """Both sides' dice, wiggle points and stats of attack ``a`` against defense ``d``."""
        other = 1 - me
        n, stat = self.pool(me, True)
        rating, armor = WEAPON[me][a], ARMOR[other][a]
        wiggle = gained(rating) + (armor == POOR) + self.exposed[other]
        if d is None:
            return max(0, n - lost(rating)), wiggle, stat, 0, 0, 3
        n -= lost(rating) + lost(ATTACK_VS[a][d])
        wiggle += gained(ATTACK_VS[a][d])
        nd, dstat = self.pool(other, d == BLOCK)
        nd -= lost(DEFENSE_VS[d][a]) + lost(armor) + self.shaken[other]
        wd = gained(DEFENSE_VS[d][a]) + gained(armor)
        return max(0, n), wiggle, stat, max(0, nd), wd, dstat

    def forms(self, me: int) -> tuple:
        """The declared forms and both pools (cached by everything they depend on)."""
        other = 1 - me
        first = self.order.index(me) < self.order.index(other)
        key = (
            me,
            first,
            self.vigor[me],
            self.vigor[other],
            self.armed[other],
            self.exposed[other],
            self.shaken[other],
        )
        found = _FORMS.get(key)
        if found is None:
            a, d = self.declare(me, first)
            found = _FORMS[key] = (d, self.pools(me, a, d))
        return found

    def declare(self, me: int, defender_first: bool) -> tuple[int, int | None]:
        """Both forms by expected nicks; the lower in initiative declares first (maximin)."""
        other = 1 - me
        armed = self.armed[other]

        def v(a: int, d: int | None) -> float:
            if d is not None and not can_defend(other, armed, a, d):
                d = None
            return value(*self.pools(me, a, d))

        if defender_first:
            usable = [d for d in range(3) if any(can_defend(other, armed, a, d) for a in range(3))]
            d = min(usable, key=lambda d: max(v(a, d) for a in range(3)))
            a = max(range(3), key=lambda a: v(a, d))
        else:

            def worst(a: int) -> float:
                answers = [v(a, d) for d in range(3) if can_defend(other, armed, a, d)]
                return min(answers) if answers else v(a, None)

            a = max(range(3), key=worst)
            usable = [d for d in range(3) if can_defend(other, armed, a, d)]
            d = min(usable, key=lambda d: v(a, d)) if usable else None
        return a, (d if d is not None and can_defend(other, armed, a, d) else None)

    def attack(self, me: int) -> None:
        d, (na, wa, sa, nd, wd, sd) = self.forms(me)
        while True:
            result = reached(self.dice(na), wa, sa)[0]
            if result == 0:
                got = FUMBLE
            elif d is None:
                got = outcome(result, 0, 0)
            else:
                best, low = reached(self.dice(nd), wd, sd)
                got = outcome(result, best, low)
            if got != TIE:
                break
        self.settle(me, got, d)

    def settle(self, me: int, got: int, d: int | None) -> None:
        other = 1 - me
        if got == FUMBLE:
            face = self.roll(6)
            if face == 1:
                self.armed[me] = False
            elif face == 2:
                self.harm(me, 1)
            elif face == 3:
                self.counter(other, d == PARRY)
            elif face == 4:
                self.mark(me, me, 2, 0, False)
            elif face == 5:
                self.mark(me, me, 0, 1, False)
        elif got == CRIT_DEFENSE:
            if d == BLOCK:
                self.mark(other, me, 0, 1, True)
            elif d == DODGE:
                self.mark(other, me, 2, 0, False)
            else:
                self.counter(other, True)
        elif got in NICKS:
            self.harm(other, NICKS[got])

    def counter(self, me: int, automatic: bool) -> None:
        """``me`` strikes back: a full attack, or an automatic hit (critical on a triple)."""
        if self.over or not self.armed[me]:
            return
        if not automatic:
            self.attack(me)
            return
        chances = [triple_chance(*self.pools(me, a, None)[:3]) for a in range(3)]
        a = max(range(3), key=lambda a: chances[a])
        n, wiggle, stat = self.pools(me, a, None)[:3]
        result = reached(self.dice(n), wiggle, stat)[0]
        self.harm(1 - me, 2 if kind_of(result) == 2 else 1)

    def harm(self, target: int, nicks: int) -> None:
        total = self.nicks[target] + nicks
        self.nicks[target] = total % 2
        if total >= 2:
            self.vigor[target] -= total // 2
            if self.vigor[target] <= 0:
                self.over = True
                self.winner = NAMES[1 - target]
                self.end = self.now
                for effect in self.at_start[target] + self.after[target]:
                    self.undo(effect)
                self.at_start[target] = []
                self.after[target] = []

    def mark(self, owner: int, victim: int, wiggle: int, dice: int, after: bool) -> None:
        self.exposed[victim] += wiggle
        self.shaken[victim] += dice
        (self.after if after else self.at_start)[owner].append((victim, wiggle, dice))

    def undo(self, effect: tuple[int, int, int]) -> None:
        victim, wiggle, dice = effect
        self.exposed[victim] -= wiggle
        self.shaken[victim] -= dice

    def play(self) -> tuple[str, float]:
        for r in range(ROUNDS):
            self.now = (r + 1) * ROUND_S
            for me in tuple(self.order):
                for effect in self.at_start[me]:
                    self.undo(effect)
                self.at_start[me] = []
                closing, self.after[me] = self.after[me], []
                if self.armed[me]:
                    self.attack(me)
                else:
                    self.armed[me] = True
                for effect in closing:
                    self.undo(effect)
                if self.over:
                    return self.winner, self.end
        return self.winner, self.end


def play_plain(seed: int, k: int) -> tuple[str, float]:
    """Play combat ``k`` of a run seeded with ``seed``; ``(winner, duration_s)``."""
    return Duel(seed, k).play()


#: The name the bench's drivers call (``play_bare(seed, k)``, as the bare SimPy loops).
play_bare = play_plain


def main(combats: int = 5000) -> None:
    """Print the loop's combats per CPU second."""
    start = time.process_time()
    for k in range(combats):
        play_plain(1, k)
    print(f"{combats / (time.process_time() - start):.0f} combats per CPU second")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
