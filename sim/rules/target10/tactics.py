"""Tactics without code: the YAML vocabulary of declarations.

Every round each combatant declares one movement and one action (Target 10 text, "Combat Tests":
"The first step ... is for all players to declare their actions for the round"). A designer
describes how a combatant chooses, under ``tactics:`` of its stat block, either as a fixed
declaration::

    declare: {movement: hold, action: kill}

or as an ordered list of rules, the first whose condition holds wins, ending with ``else``::

    rules:
      - if: {hp_below: 0.25}
        then: {movement: flee}
      - if: distance > reach
        then: {movement: charge, action: kill}
      - else: {movement: hold, action: kill}

A condition is a flag word (``on_ground``), a comparison of two quantities or a quantity and a
number (``distance > reach``, ``round >= 3``), ``{hp_below: F}`` / ``{opponent_hp_below: F}``
(a fraction of the starting hit points), or ``{not: C}``, ``{all: [C, ...]}``, ``{any: [C, ...]}``.
"The opponent" is the combatant's current target. Declarations are simultaneous, so conditions
see the fight as the round starts: what opponents did is what they declared *last* round.
There is no ``eval``: words are looked up in :data:`FLAGS` and :data:`QUANTITIES`, and an unknown
word is a validation error that lists the known ones.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from sim.rules.target10.actions import ACTION_WORDS, DEFEND
from sim.rules.target10.movements import CHARGE, FLEE, MOVEMENTS

if TYPE_CHECKING:
    from sim.rules.target10.combatant import T10Fighter
    from sim.rules.target10.state import RoundState

INF = math.inf

#: A compiled condition: ``(me, opponent or None, round index from 0, round process) -> bool``.
Condition = Callable[["T10Fighter", "T10Fighter | None", int, "RoundState"], bool]
#: A quantity a comparison reads, with the same arguments.
Quantity = Callable[["T10Fighter", "T10Fighter | None", int, "RoundState"], float]
#: Compiled rules: ``(me, opponent or None, round, round process) -> (movement, action)``.
Decide = Callable[["T10Fighter", "T10Fighter | None", int, "RoundState"], tuple[int, int]]


def _distance(me: T10Fighter, t: T10Fighter | None, r: int, rp: RoundState) -> float:
    return abs(me.pos - t.pos) if t is not None else INF


def _range(me: T10Fighter, t: T10Fighter | None, r: int, rp: RoundState) -> float:
    return me.range if me.weapon_at is None else 0.0


#: Quantities a comparison may name, with what they measure.
QUANTITIES: dict[str, tuple[str, Quantity]] = {
    "distance": ("paces to the opponent", _distance),
    "reach": ("own melee reach in paces", lambda me, t, r, rp: me.stats.reach),
    "range": ("own ranged weapon's range in paces (0 without one in hand)", _range),
    "speed": ("own speed in paces", lambda me, t, r, rp: me.stats.speed),
    "charge": (
        "paces covered by a charge or a flight",
        lambda me, t, r, rp: me.stats.speed * rp.rules.run_multiplier,
    ),
    "hp": ("own hit points", lambda me, t, r, rp: me.hp),
    "max_hp": ("own starting hit points", lambda me, t, r, rp: me.max_hp),
    "hp_fraction": ("own hit points / starting hit points", lambda me, t, r, rp: me.hp / me.max_hp),
    "opponent_hp": ("the opponent's hit points", lambda me, t, r, rp: t.hp if t is not None else 0),
    "opponent_hp_fraction": (
        "the opponent's hit points / its starting hit points",
        lambda me, t, r, rp: t.hp / t.max_hp if t is not None else 0.0,
    ),
    "round": ("the round number, from 1", lambda me, t, r, rp: r + 1),
    "enemies": ("able enemies", lambda me, t, r, rp: rp.count_enemies(me)),
    "allies": ("able allies, not counting itself", lambda me, t, r, rp: rp.count_allies(me)),
    "luck": ("own luck points left", lambda me, t, r, rp: me.luck),
    "ammo": (
        "own shots or missiles left (a large number when unlimited)",
        lambda me, t, r, rp: me.ammo if me.ammo is not None else 1_000_000,
    ),
}


def _in_range(me: T10Fighter, t: T10Fighter | None, r: int, rp: RoundState) -> bool:
    return (
        t is not None and me.weapon_at is None and me.range > 0 and abs(me.pos - t.pos) <= me.range
    )


#: Flag words, with what they mean.
FLAGS: dict[str, tuple[str, Condition]] = {
    "always": ("always true", lambda me, t, r, rp: True),
    "first_round": ("the first round of the fight", lambda me, t, r, rp: r == 0),
    "on_ground": ("is on the ground (tripped)", lambda me, t, r, rp: me.on_ground),
    "pinned": ("is pinned by a grapple", lambda me, t, r, rp: me.pinned_by is not None),
    "pinning": ("holds someone pinned", lambda me, t, r, rp: me.pinning is not None),
    "disarmed": ("has lost its weapon", lambda me, t, r, rp: me.weapon_at is not None),
    "held": ("is held off by a negotiation", lambda me, t, r, rp: me.held_until >= r),
    "has_luck": ("has a luck point left", lambda me, t, r, rp: me.luck > 0),
    "has_ranged": (
        "has a ranged weapon in hand",
        lambda me, t, r, rp: me.range > 0 and me.weapon_at is None,
    ),
    "loaded": (
        "its ranged weapon is in hand, loaded and has ammunition",
        lambda me, t, r, rp: me.range > 0 and me.weapon_at is None and not me.reload_left,
    ),
    "in_reach": (
        "the opponent is within melee reach",
        lambda me, t, r, rp: t is not None and abs(me.pos - t.pos) <= me.stats.reach,
    ),
    "in_range": ("the opponent is within range of its ranged weapon in hand", _in_range),
    "outnumbered": (
        "more able enemies than able allies and itself",
        lambda me, t, r, rp: rp.count_enemies(me) > rp.count_allies(me) + 1,
    ),
    "opponent_fleeing": (
        "the opponent fled last round and is still in the fight",
        lambda me, t, r, rp: t is not None and t.last_move == FLEE,
    ),
    "opponent_charging": (
        "the opponent charged last round",
        lambda me, t, r, rp: t is not None and t.last_move == CHARGE,
    ),
    "opponent_defending": (
        "the opponent defended last round",
        lambda me, t, r, rp: t is not None and t.last_act == DEFEND,
    ),
    "opponent_on_ground": (
        "the opponent is on the ground",
        lambda me, t, r, rp: t is not None and t.on_ground,
    ),
    "opponent_pinned": (
        "the opponent is pinned",
        lambda me, t, r, rp: t is not None and t.pinned_by is not None,
    ),
    "opponent_disarmed": (
        "the opponent has lost its weapon",
        lambda me, t, r, rp: t is not None and t.weapon_at is not None,
    ),
    "opponent_ranged": (
        "the opponent has a ranged weapon in hand",
        lambda me, t, r, rp: t is not None and t.range > 0 and t.weapon_at is None,
    ),
}

#: Mapping conditions that take a fraction of the starting hit points.
FRACTIONS = ("hp_below", "opponent_hp_below")
#: Mapping conditions that combine others.
COMBINERS = ("not", "all", "any")

_COMPARISON = re.compile(r"^\s*([A-Za-z_]+)\s*(<=|>=|==|!=|<|>)\s*([A-Za-z_]+|-?\d+(?:\.\d+)?)\s*$")
_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def known_words() -> str:
    """A sentence listing every condition word, for error messages."""
    return (
        f"a flag ({', '.join(FLAGS)}), a comparison '<quantity> <op> <quantity or number>' "
        f"with quantities {', '.join(QUANTITIES)} and op one of {' '.join(_OPERATORS)}, "
        f"or a mapping {{{'|'.join(FRACTIONS)}: fraction}} or {{{'|'.join(COMBINERS)}: ...}}"
    )


def parse_condition(raw: object) -> tuple:
    """Check a condition from YAML and return it as a plain tuple tree.

    Raises:
        ValueError: naming the unknown word and listing the known ones.
    """
    if isinstance(raw, str):
        word = raw.strip()
        if word in FLAGS:
            return ("flag", word)
        match = _COMPARISON.match(word)
        if match is None:
            raise ValueError(f"a known condition ({raw!r} is not one): {known_words()}")
        left, op, right = match.group(1), match.group(2), match.group(3)
        if left not in QUANTITIES:
            raise ValueError(
                f"a known quantity ({left!r} in {raw!r} is not one): {', '.join(QUANTITIES)}"
            )
        if right[0].isalpha() or right[0] == "_":
            if right not in QUANTITIES:
                raise ValueError(
                    f"a known quantity ({right!r} in {raw!r} is not one): {', '.join(QUANTITIES)}"
                )
            return ("compare", left, op, ("q", right))
        return ("compare", left, op, ("n", float(right)))
    if isinstance(raw, dict) and len(raw) == 1:
        ((key, value),) = raw.items()
        if key in FRACTIONS:
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value <= 1
            ):
                raise ValueError(f"{key}: a fraction from 0 to 1 (not {value!r})")
            return (key, float(value))
        if key == "not":
            return ("not", parse_condition(value))
        if key in ("all", "any"):
            if not isinstance(value, list) or not value:
                raise ValueError(f"{key}: a non-empty list of conditions")
            return (key, tuple(parse_condition(v) for v in value))
        raise ValueError(f"a known condition ({key!r} is not one): {known_words()}")
    raise ValueError(f"a condition ({raw!r} is not one): {known_words()}")


def compile_condition(tree: tuple) -> Condition:
    """A fast function for a parsed condition."""
    kind = tree[0]
    if kind == "flag":
        return FLAGS[tree[1]][1]
    if kind == "compare":
        left = QUANTITIES[tree[1]][1]
        op = _OPERATORS[tree[2]]
        side, value = tree[3]
        if side == "n":
            return lambda me, t, r, rp: op(left(me, t, r, rp), value)
        right = QUANTITIES[value][1]
        return lambda me, t, r, rp: op(left(me, t, r, rp), right(me, t, r, rp))
    if kind == "hp_below":
        fraction = tree[1]
        return lambda me, t, r, rp: me.hp < fraction * me.max_hp
    if kind == "opponent_hp_below":
        fraction = tree[1]
        return lambda me, t, r, rp: t is not None and t.hp < fraction * t.max_hp
    if kind == "not":
        inner = compile_condition(tree[1])
        return lambda me, t, r, rp: not inner(me, t, r, rp)
    parts = tuple(compile_condition(c) for c in tree[1])
    if kind == "all":
        return lambda me, t, r, rp: all(c(me, t, r, rp) for c in parts)
    return lambda me, t, r, rp: any(c(me, t, r, rp) for c in parts)


def declaration_codes(movement: str, action: str) -> tuple[int, int]:
    """The movement and action codes of a declaration.

    A fleer keeps its action here: whether it may act is the option ``fleer_acts``, read by the
    round when it declares.
    """
    return MOVEMENTS.index(movement), ACTION_WORDS.index(action)


#: What a combatant declares when its stat block gives no tactics.
DEFAULT_RULES: tuple[tuple[str | None, dict[str, str]], ...] = (
    ("disarmed", {"movement": "hold", "action": "recover"}),
    ("on_ground", {"movement": "stand", "action": "kill"}),
    ("pinned", {"movement": "hold", "action": "grapple"}),
    ("in_reach", {"movement": "hold", "action": "kill"}),
    ("in_range", {"movement": "hold", "action": "kill"}),
    (None, {"movement": "advance", "action": "kill"}),
)


def compile_rules(rules: list[tuple[tuple | None, tuple[int, int]]]) -> Decide:
    """A function ``(me, opponent, round, process) -> (movement, action)`` for a rule list."""
    compiled = tuple((compile_condition(c) if c is not None else None, d) for c, d in rules)

    def decide(
        me: T10Fighter, t: T10Fighter | None, r: int, rp: RoundState
    ) -> tuple[int, int]:
        for condition, declared in compiled:
            if condition is None or condition(me, t, r, rp):
                return declared
        return compiled[-1][1]

    return decide
