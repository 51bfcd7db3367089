"""The Target 10 duel without luck points, solved one combatant at a time.

Without luck on either side (:meth:`~sim.exact.target10.Duel._luckless`), each attack of a round
reads only its target's hit points at the round's start, and both attack in every round both
start standing: whatever the order, a round that leaves both standing took each one's hit
points by its own attacker's blow, drawn apart. When a blow landing together with the other's
leaves the same hit points as a blow landing alone (so it does with no luck to cancel it), the
law of a round both survive is the product of the two blows' laws, and so the law of both
combatants' hit points while both stand is the product of two laws of one combatant's hit
points, each stepped on its own. A round's endings are sums over one of the
two at a time: nothing here walks the pairs of hit points, which is what the chain over pairs
(:func:`~sim.exact.chain.solve`) does.

Every number is the chain's own: the blows are :meth:`~sim.exact.target10.Duel.blows_on`
(the round's own attack law and landing), the orders of the round are the initiative law's
(:meth:`~sim.exact.target10.Duel.order_weights`), the endings the duel's
(:func:`~sim.exact.target10.victory`, :data:`~sim.exact.target10.MUTUAL`). The answer is a
:class:`~sim.exact.chain.Solution` with one block a round (:meth:`Solution.of_rounds`), so
every question is asked of it as of the chain's. ``tests/exact/test_target10_luckless.py``
checks that both give the same fractions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter

from sim.exact.chain import Ending, Solution
from sim.exact.target10 import MUTUAL, Blows, Duel, DuelState, victory
from sim.exact.weights import Weights
from sim.rules.acs.percentile import damage_law

#: How a blow lands, as the hit points it leaves and their weights (:class:`Blows`' fields).
Landing = Callable[[Blows], tuple[tuple[int, int], ...]]
#: A blow in turn (a miss leaves the hit points as they were), alone with the other missing,
#: together with the other's hit.
IN_TURN: Landing = attrgetter("law")
ALONE: Landing = attrgetter("alone")
WITH_HIT: Landing = attrgetter("both")


def applies(duel: Duel) -> bool:
    """Whether the duel is one to solve here (see the module).

    No luck on either side, both starting with hit points, and every blow that leaves its
    target standing leaves the same hit points landing alone or with the other's hit.
    """
    if any(duel.luck) or min(hp.minimum for hp in duel.hp) < 1:
        return False
    for me, target in ((0, 1), (1, 0)):
        blows = [duel.blows_on(me, hp) for hp in range(1, duel.hp[target].maximum + 1)]
        if len({b.denominator for b in blows}) != 1:  # one law of the attack, whatever the hp
            return False
        if any(_standing(b.alone) != _standing(b.both) for b in blows):
            return False
    return True


def solve(duel: Duel) -> Solution:
    """The duel's exact endings, one round at a time (see the module).

    Only for a duel :func:`applies` to.
    """
    laws = [Weights.of(damage_law(hp)) for hp in duel.hp]
    most = [hp.maximum for hp in duel.hp]
    # on[x][h]: the other's blow on x at h hit points.
    on = [[duel.blows_on(1 - x, h) if h else _NO_BLOW for h in range(most[x] + 1)] for x in (0, 1)]
    together, first0, first1 = duel.order_weights()
    orders = duel.orders.denominator
    scale = orders * on[0][1].denominator * on[1][1].denominator
    standing = [_by_hp(law, most[x]) for x, law in enumerate(laws)]
    met = [0] * (most[0] + 1)  # by 0's hit points, a bit for each of 1's met with them
    rows: list[dict[Ending, int]] = []
    carried = 1  # the pairs' mass besides both laws: the orders' weights of the rounds so far
    while True:
        _meet(met, standing)
        if len(rows) == duel.steps or not (any(standing[0]) and any(standing[1])):
            break
        ended, standing = _round(standing, on, (together, first0, first1))
        rows.append({e: carried * m for e, m in ended.items()})
        carried *= orders
    timed_out: dict[Ending, int] = {}
    if len(rows) == duel.steps:
        for h0, m0 in enumerate(standing[0]):
            for h1, m1 in enumerate(standing[1]):
                if m0 and m1:
                    ending = replace(duel.timeout(DuelState(h0, h1, 0, 0)), within=0)
                    timed_out[ending] = timed_out.get(ending, 0) + carried * m0 * m1
    return Solution.of_rounds(
        rows,
        timed_out,
        denominator=laws[0].denominator * laws[1].denominator,
        scale=scale,
        limit=duel.steps,
        states=sum(bin(bits).count("1") for bits in met),
    )


def _round(
    standing: list[list[int]], on: list[list[Blows]], orders: tuple[int, int, int]
) -> tuple[dict[Ending, int], list[list[int]]]:
    """One round: its endings over the round's scale, and both standing laws after it.

    ``on[x][h]`` is the other's blow on ``x`` at ``h`` hit points; ``orders`` the weights of
    both together, 0 first and 1 first (as :meth:`~sim.exact.target10.Duel._luckless` reads
    them). Each ending's weight is a product of sums over one combatant's hit points; each
    standing law after the round is over its blow's denominator more.
    """
    together, first = orders[0], orders[1:]
    after = [_after(standing[x], on[x], IN_TURN) for x in (0, 1)]
    # Per side x, summed over its hit points: the weight of being taken out by a blow landing
    # alone, by one landing with x's own hit, and by a blow in turn.
    out_alone = [_out(standing[x], on[x], ALONE) for x in (0, 1)]
    out_both = [_out(standing[x], on[x], WITH_HIT) for x in (0, 1)]
    out_turn = [_out(standing[x], on[x], IN_TURN) for x in (0, 1)]
    ended: dict[Ending, int] = {}
    for x in (0, 1):
        y = 1 - x
        blow_back = on[x][1].denominator  # the law of the blow on x that never comes
        wins: list[int] = [0] * len(standing[x])
        for h, m in enumerate(standing[x]):
            if m:
                # Together, x's hit alone taking y out and y missing; or x first, y out at once.
                wins[h] += m * (
                    together * out_alone[y] * on[x][h].miss + first[x] * out_turn[y] * blow_back
                )
        # Together, both hit, x standing; y first, x standing, then x takes y out.
        for h, m in enumerate(_after(standing[x], on[x], WITH_HIT)):
            wins[h] += together * out_both[y] * m
        for h, m in enumerate(after[x]):
            wins[h] += first[y] * out_turn[y] * m
        for h, w in enumerate(wins):
            if w:
                ended[victory(x, h)] = w
    if out_both[0] and out_both[1] and together:
        ended[MUTUAL] = together * out_both[0] * out_both[1]
    return ended, after


def _after(law: list[int], blows: list[Blows], which: Landing) -> list[int]:
    """By hit points: the weight of standing after the blow as ``which`` lands it."""
    out = [0] * len(law)
    for h, m in enumerate(law):
        if m:
            for left, w in which(blows[h]):
                if left > 0:
                    out[left] += m * w
    return out


def _out(law: list[int], blows: list[Blows], which: Landing) -> int:
    """The weight, over every hit points, of the blow as ``which`` lands it taking them out."""
    return sum(
        m * sum(w for left, w in which(blows[h]) if left <= 0)
        for h, m in enumerate(law)
        if m
    )


def _meet(met: list[int], standing: list[list[int]]) -> None:
    """Mark every pair of hit points both laws give some weight (a live state met)."""
    bits = sum(1 << h for h, m in enumerate(standing[1]) if m)
    for h, m in enumerate(standing[0]):
        if m:
            met[h] |= bits


def _standing(pairs: tuple[tuple[int, int], ...]) -> dict[int, int]:
    return {left: w for left, w in pairs if left > 0}


def _by_hp(law: Weights[int], most: int) -> list[int]:
    weights = [0] * (most + 1)
    for hp, w in law.pairs:
        weights[hp] += w
    return weights


#: A blow on a combatant at 0 hit points (never asked: it is out).
_NO_BLOW = Blows(1, 1, (), (), ())
