"""Facing multiple opponents: ally wiggle in a melee cluster, and focused missile fire.

``rules/combat-proposition-three.txt``, "FACING MULTIPLE OPPONENTS", as RULINGS part C ("Many
opponents") reads it:

- "the members of each party adds a bonus of one wiggle point to their attack for each party
  member who has previously successfully attacked in that round": a melee attack gets +1 wiggle
  per *other* member of the attacker's side who has landed a melee hit this round (option
  ``cluster_scope``: any hit by the side, or only hits on the same target). The round's hits are
  forgotten when the next round starts (on the ACS clock: the next second).
- focused fire ("receive the same bonus even if their targets dodge"): a side's missile attack
  gets +1 wiggle per successful missile attack roll (a pair or better, hit or dodged) the side
  made before it this round (option ``focused_fire_span: fight``: this fight), and the count
  starts again when a missile strikes one of its members ("wiggle bonuses only accrue for as long
  as they are not themselves struck"). The text's example: after two successful shots, the
  second, third and fourth arrows get 1, 2 and 3 points; a javelin that strikes a hamster resets
  the hamsters' count. The enemy is always taken as one "tightly-clustered group".
"""

from __future__ import annotations

from sim.engine.combatant import Fighter


class Cluster:
    """The many-opponents counters of one fight.

    Attributes:
        hits: ``(ally, target)`` for each melee hit landed this round.
        volleys: per side, successful missile attack rolls since the side was last struck.
    """

    __slots__ = ("hits", "volleys")

    def __init__(self, sides: int) -> None:
        self.hits: list[tuple[Fighter, Fighter]] = []
        self.volleys = [0] * sides

    def new_round(self, volleys: bool = True) -> None:
        """Forget the melee hits of the round that ended (and the volleys, if they only last it)."""
        if self.hits:
            self.hits = []
        if volleys:
            self.volleys = [0] * len(self.volleys)

    def ally_bonus(self, me: Fighter, target: Fighter, same_target: bool) -> int:
        """Wiggle for ``me``'s melee attack: other members of its side who hit this round."""
        if not self.hits:
            return 0
        side = me.side
        allies = {
            id(ally)
            for ally, hit in self.hits
            if ally is not me and ally.side == side and (not same_target or hit is target)
        }
        return len(allies)

    def hit(self, me: Fighter, target: Fighter) -> None:
        """Record a melee hit."""
        self.hits.append((me, target))

    def volley_bonus(self, side: int) -> int:
        """Wiggle for a missile attack of ``side``."""
        return self.volleys[side]

    def volley(self, side: int) -> None:
        """A successful missile attack roll of ``side`` (hit or not)."""
        self.volleys[side] += 1

    def struck(self, side: int) -> None:
        """A missile struck a member of ``side``: its focused-fire bonus is lost."""
        self.volleys[side] = 0
