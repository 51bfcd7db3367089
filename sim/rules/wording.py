"""Small grammar for the sentences the simulator writes about named things.

Side and combatant names are whatever a scenario calls them: ``red``, ``knights``, ``Kronzer``.
Some are plural, some singular, and nothing tells which, so the sentences follow two rules that
read right either way:

- a side is the subject of a verb as *side NAME*: "side knights wins", "side red wins";
- the possessive of a name adds ``'s``, or only ``'`` when the name ends in *s*: "Kronzer's
  armor", "knights' win rate".

Counts agree with their noun: "1 nick", "2 wounds", never "1 nick(s)".
"""

from __future__ import annotations


def side(name: str) -> str:
    """A side as the subject of a sentence: ``side knights`` (then a singular verb)."""
    return f"side {name}"


def possessive(name: str | None) -> str:
    """``Kronzer's``; ``knights'`` for a name ending in s."""
    text = str(name)
    return f"{text}'" if text.endswith(("s", "S")) else f"{text}'s"


def counted(count: float, noun: str, plural: str | None = None, grouped: bool = False) -> str:
    """``1 nick``, ``0 nicks``, ``2000 combats``, ``1.5 paces`` (a count and its noun, agreeing).

    The one helper for every count the simulator writes, from a replay's nicks to a run's
    combats: a whole number is written in full (never ``1e+06``).

    Args:
        count: how many (a whole number, or a distance such as 1.5).
        noun: the singular.
        plural: the plural when it is not ``noun + "s"``.
        grouped: thousands separated (``2,000 combats``), as long-run messages write them.
    """
    word = noun if count == 1 else (plural or f"{noun}s")
    whole = isinstance(count, int) or float(count).is_integer()
    if whole:
        return f"{int(count):,} {word}" if grouped else f"{int(count)} {word}"
    return f"{count:g} {word}"
