"""The smallest bare SimPy program that plays the Proposition Three duel (Moonbelly vs Kronzer).

The yardstick of issue 7 for ``scenarios/p3-moonbelly-vs-kronzer.yaml``: the engine must reach at
least half the combats per second of this loop. It plays the same duel by the same rules
(``rules/combat-proposition-three.txt``; RULINGS part C; the option defaults) from the same
``Dice(seed, k)`` stream, drawing the same dice in the same order, so both give the same winner
and duration for every combat (``tests/prop3/test_bare_prop3.py`` checks that). It uses the
pure dice maths of ``sim.rules.prop3`` (reading, wiggling, exact odds, the form table) and none of
the engine or of the combat modules:

- every roll is on d8s; Moonbelly: Vigor 5, Agility 6, polearm (bash and slash average, thrust
  excellent, two-handed), leather (poor against bashes); Kronzer: Vigor 6 and one size category
  up (+1 die on Vigor rolls), Agility 4, club (bash excellent, slash average, thrust poor), crude
  chain mail (bash poor, slash average, thrust excellent); attacks and blocks roll Vigor, dodges
  and parries Agility; no shields;
- initiative: Agility pools (Moonbelly's dice first), read as lowest three, best first; ties
  rolled again; kept all fight. Each 6 s round, in that order, each attacks the other (or picks
  up its dropped weapon); the lower in initiative declares its form first, both by the exact
  expected damage (maximin when declaring first); a one-handed parry declared against a bash
  leaves Kronzer undefended;
- rolls: attacker wiggles for its best result; no pair is a fumble (d6 table); otherwise the
  defender rolls and answers ("best" policy); full ties are re-rolled; a hit is a nick, a critical
  hit a wound, two nicks a wound, a wound a point of Vigor; Vigor 0 ends the fight;
- critical block: -1 defense die on the attacker until the blocker's next action is over;
  critical dodge / stumble: +2 wiggle against the victim until the dodger's / fumbler's next
  action; fall: -1 defense die until the fumbler's next action; critical parry and fumble 3
  against a parry: an automatic counter-hit (critical on a triple); fumble 3 otherwise: a full
  counter-attack; a draw after 100 rounds (600 s).

One process, one ``timeout`` per round.

Run it: ``python benchmarks/bare_prop3.py [combats]`` prints combats per second.
"""

from __future__ import annotations

import sys
import time

import simpy

from sim.engine.dice import Dice
from sim.rules.prop3.exact import attack_odds, class_probabilities
from sim.rules.prop3.forms import (
    Armor,
    AttackForm,
    DefenseForm,
    Rating,
    Weapon,
    defense_allowed,
    melee_pools,
)
from sim.rules.prop3.pool import NOTHING, Kind, Outcome, read_roll, resolve
from sim.rules.prop3.wiggle import best_response, best_roll

ROUND_S = 6.0
ROUNDS = 100
SIDES = 8
NAMES = ("gerbil", "rat")
ATT = (AttackForm.BASH, AttackForm.SLASH, AttackForm.THRUST)
DEF = (DefenseForm.DODGE, DefenseForm.BLOCK, DefenseForm.PARRY)
R = Rating
WEAPONS = (
    Weapon(bash=R.AVERAGE, slash=R.AVERAGE, thrust=R.EXCELLENT, two_handed=True),
    Weapon(bash=R.EXCELLENT, slash=R.AVERAGE, thrust=R.POOR),
)
ARMORS = (Armor(bash=R.POOR), Armor(bash=R.POOR, slash=R.AVERAGE, thrust=R.EXCELLENT))
VIGOR = (5, 6)
AGILITY = (6, 4)
SIZE = (0, 1)
CRIT_NICKS = 2


def _effects(me: int) -> tuple:
    """[attack][defense]: (attack lost, attack wiggle, defense lost, defense wiggle)."""
    weapon, armor = WEAPONS[me], ARMORS[1 - me]
    return tuple(
        tuple(
            (100 - p.attack_dice, p.attack_wiggle, 100 - p.defense_dice, p.defense_wiggle)
            for p in (melee_pools(100, 100, a, d, weapon.rating(a), armor.rating(a))
                      for d in DEF)
        )
        for a in ATT
    )


EFFECTS = (_effects(0), _effects(1))
# Undefended: weapon rating and poor armor only (dice lost, wiggle).
UNDEFENDED = tuple(
    tuple(
        (1 if WEAPONS[me].rating(a) == R.POOR else 0,
         (WEAPONS[me].rating(a) == R.EXCELLENT) + (ARMORS[1 - me].rating(a) == R.POOR))
        for a in ATT
    )
    for me in (0, 1)
)
_VALUES: dict = {}
_ROLLS: dict = {}
_ANSWERS: dict = {}
_FORMS: dict = {}


def _best(faces: list[int], points: int, stat: int):
    """The attacker's best result, cached by the sorted roll (the search sorts it anyway)."""
    key = (tuple(sorted(faces)), points, stat > 2, stat <= 1)
    found = _ROLLS.get(key)
    if found is None:
        found = _ROLLS[key] = best_roll(
            key[0], SIDES, points, crit_allowed=stat > 2, only_ones=stat <= 1
        ).result
    return found


def _answer(attack, faces: list[int], points: int, stat: int):
    """The defender's best answer to ``attack``, cached by the sorted roll."""
    key = (attack, tuple(sorted(faces)), points, stat > 2, stat <= 1)
    found = _ANSWERS.get(key)
    if found is None:
        found = _ANSWERS[key] = best_response(
            attack, key[1], SIDES, points, crit_allowed=stat > 2, only_ones=stat <= 1
        ).result
    return found


def _value(a, a_pts, a_stat, d, d_pts, d_stat) -> float:
    key = (a, a_pts, a_stat > 2, a_stat <= 1, d, d_pts, d_stat > 2, d_stat <= 1)
    v = _VALUES.get(key)
    if v is None:
        o = attack_odds(a, SIDES, a_pts, d, SIDES if d else 2, d_pts,
                        attack_crit_allowed=a_stat > 2, attack_only_ones=a_stat <= 1,
                        defense_crit_allowed=d_stat > 2 if d else True,
                        defense_only_ones=d_stat <= 1 if d else False).outcomes
        v = _VALUES[key] = (o[Outcome.HIT] + o[Outcome.CRIT_REDUCED]
                            + CRIT_NICKS * o[Outcome.CRITICAL_HIT])
    return v


def play_bare(seed: int, k: int) -> tuple[str, float]:
    """Play combat ``k`` of a run seeded with ``seed``; ``(winner, duration_s)``."""
    dice = Dice(seed, k)
    roll = dice.roll
    vigor = list(VIGOR)
    nicks = [0, 0]
    armed = [True, True]
    exposed = [0, 0]
    shaken = [0, 0]
    at_start: list[list] = [[], []]
    after: list[list] = [[], []]
    result = ["draw", ROUNDS * ROUND_S]
    env = simpy.Environment()
    state = {"end": 0.0, "over": False}

    def pool(who: int, form_roll: int) -> tuple[int, int]:
        """Dice and stat of a roll: 0..2 attack forms, 3 dodge, 4 block, 5 parry."""
        if form_roll in (3, 5):
            return AGILITY[who], AGILITY[who]
        stat = vigor[who]
        return (stat + SIZE[who] if stat > 0 else 0), stat

    def rolls(n: int) -> list[int]:
        return [roll(SIDES) for _ in range(n)]

    def allowed(who: int, a: int, d: int) -> bool:
        weapon = WEAPONS[who] if armed[who] else None
        return defense_allowed(DEF[d], ATT[a], armor=ARMORS[who], weapon=weapon)

    def harm(target: int, n: int, w: int) -> None:
        total = nicks[target] + n
        nicks[target] = total % 2
        w += total // 2
        if w:
            vigor[target] -= w
            if vigor[target] <= 0:
                state["over"] = True
                result[0] = NAMES[1 - target]
                result[1] = state["end"]
                for effect in at_start[target] + after[target]:
                    undo(effect)
                at_start[target].clear()
                after[target].clear()

    def undo(effect) -> None:
        who, e, s = effect
        exposed[who] -= e
        shaken[who] -= s

    def mark(owner: int, victim: int, e: int, s: int, later: bool) -> None:
        exposed[victim] += e
        shaken[victim] += s
        (after if later else at_start)[owner].append((victim, e, s))

    def table(me, other, xw, xl):
        values = [[0.0] * 3 for _ in range(3)]
        undefended = [0.0] * 3
        for a in range(3):
            n, stat = pool(me, a)
            lost, wig = UNDEFENDED[me][a]
            undefended[a] = _value(max(0, n - lost), wig + xw, stat, 0, 0, 3)
            for d in range(3):
                if allowed(other, a, d):
                    al, aw, dl, dw = EFFECTS[me][a][d]
                    nd, dstat = pool(other, 3 + d)
                    values[a][d] = _value(max(0, n - al), aw + xw, stat,
                                          max(0, nd - dl - xl), dw, dstat)
        return values, undefended

    def against(values, undefended, other, a, d):
        return values[a][d] if allowed(other, a, d) else undefended[a]

    def declare(me: int, other: int, xw: int, xl: int, first: bool) -> tuple:
        """Both forms by the exact odds; the lower in initiative declares first (maximin)."""
        values, undefended = table(me, other, xw, xl)
        if first:  # the defender (lower) declares first
            declarable = [d for d in range(3) if any(allowed(other, a, d) for a in range(3))]
            best = None
            for d in declarable:
                worst = max(against(values, undefended, other, a, d) for a in range(3))
                if best is None or worst < best:
                    best, dform = worst, d
            best = None
            for a in range(3):
                v = against(values, undefended, other, a, dform)
                if best is None or v > best:
                    best, aform = v, a
        else:
            best = None
            for a in range(3):
                answers = [values[a][d] for d in range(3) if allowed(other, a, d)]
                worst = min(answers) if answers else undefended[a]
                if best is None or worst > best:
                    best, aform = worst, a
            best = dform = None
            for d in range(3):
                if allowed(other, aform, d) and (best is None or values[aform][d] < best):
                    best, dform = values[aform][d], d
        return aform, dform

    def attack(me: int, other: int) -> None:
        xw, xl = exposed[other], shaken[other]
        first = order.index(me) < order.index(other)
        key = (me, first, vigor[me], vigor[other], armed[other], xw, xl)
        forms = _FORMS.get(key)
        if forms is None:
            forms = _FORMS[key] = declare(me, other, xw, xl, first)
        aform, dform = forms
        if dform is not None and not allowed(other, aform, dform):
            dform = None
        n, stat = pool(me, aform)
        if dform is None:
            lost, wig = UNDEFENDED[me][aform]
            na, wa = max(0, n - lost), wig + xw
        else:
            al, aw, dl, dw = EFFECTS[me][aform][dform]
            na, wa = max(0, n - al), aw + xw
            nd, dstat = pool(other, 3 + dform)
            nd = max(0, nd - dl - xl)
        while True:
            res = _best(rolls(na), wa, stat)
            if res.kind == Kind.NOTHING:
                outcome = Outcome.FUMBLE
            elif dform is None:
                outcome = resolve(res, NOTHING)
            else:
                outcome = resolve(res, _answer(res, rolls(nd), dw, dstat))
            if outcome != Outcome.TIE:
                break
        settle(me, other, outcome, dform)

    def settle(me: int, other: int, outcome: Outcome, dform: int | None) -> None:
        if outcome == Outcome.FUMBLE:
            face = roll(6)  # neither weapon is secured: a 1 drops it
            if face == 1:
                armed[me] = False
            elif face == 2:
                harm(me, 1, 0)
            elif face == 3:
                counter(other, me, dform == 2)
            elif face == 4:
                mark(me, me, 2, 0, False)
            elif face == 5:
                mark(me, me, 0, 1, False)
        elif outcome == Outcome.CRITICAL_DEFENSE:
            if dform == 1:
                mark(other, me, 0, 1, True)
            elif dform == 0:
                mark(other, me, 2, 0, False)
            else:
                counter(other, me, True)
        elif outcome == Outcome.CRITICAL_HIT:
            harm(other, 0, 1)
        elif outcome != Outcome.DEFENDED:
            harm(other, 1, 0)

    def counter(me: int, other: int, automatic: bool) -> None:
        if state["over"] or not armed[me]:
            return
        if not automatic:
            attack(me, other)
            return
        xw = exposed[other]
        best = None
        for a in range(3):
            n, stat = pool(me, a)
            lost, wig = UNDEFENDED[me][a]
            p = class_probabilities(max(0, n - lost), SIDES, wig + xw, crit_allowed=stat > 2,
                                    only_ones=stat <= 1)[Kind.TRIPLE]
            v = 1 + (CRIT_NICKS - 1) * p
            if best is None or v > best:
                best, aform = v, a
        n, stat = pool(me, aform)
        lost, wig = UNDEFENDED[me][aform]
        res = _best(rolls(max(0, n - lost)), wig + xw, stat)
        settle(me, other, Outcome.CRITICAL_HIT if res.kind == Kind.TRIPLE else Outcome.HIT,
               None)

    def initiative(group: list[int]) -> list[int]:
        ranks = [(read_roll(rolls(AGILITY[w])).rank, i) for i, w in enumerate(group)]
        ranks.sort(key=lambda r: (-r[0], r[1]))
        if len(group) == 2 and ranks[0][0] == ranks[1][0]:
            return initiative(group)
        return [group[i] for _, i in ranks]

    order = initiative([0, 1])

    def duel():
        for r in range(ROUNDS):
            state["end"] = (r + 1) * ROUND_S
            for me in tuple(order):
                for effect in at_start[me]:
                    undo(effect)
                at_start[me] = []
                closing, after[me] = after[me], []
                if not armed[me]:
                    armed[me] = True
                else:
                    attack(me, 1 - me)
                for effect in closing:
                    undo(effect)
                if state["over"]:
                    return
            yield env.timeout(ROUND_S * 10)

    env.process(duel())
    env.run()
    return result[0], result[1]


def main(combats: int = 5000) -> None:
    """Print the bare loop's combats per second."""
    start = time.perf_counter()
    for k in range(combats):
        play_bare(1, k)
    print(f"{combats / (time.perf_counter() - start):.0f} combats/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
