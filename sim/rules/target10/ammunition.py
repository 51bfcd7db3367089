"""Shots, ammunition and reloading: what a ranged attack uses up.

The Target 10 text names "thrown items, spittle, pistols, muskets and bows" and gives no rule for
ammunition or reloading (issue and RULINGS: options, defaults documented in
``docs/rules/target10.md``):

- ammunition counts per combatant (``ranged.ammo``; none given: unlimited): every shot or throw,
  hit or miss, uses one; with none left the weapon cannot shoot (its range counts as 0);
- a firearm (``ranged.firearm: true``: a musket or a pistol) needs ``firearm_reload`` reloading
  actions after each shot before it shoots again. Default 0: "A round is roughly one minute
  long", and a musket of 1800 is loaded in well under a minute, so the text's one shot a round
  already includes the reload. A combatant whose firearm is not loaded reloads when it declares
  an attack it cannot make hand to hand, or when it declares ``reload``.
"""

from __future__ import annotations

from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.state import RoundState


def fire(rs: RoundState, f: T10Fighter) -> None:
    """``f`` has shot or thrown: one missile less, and a firearm must reload."""
    if f.ammo is not None:
        f.ammo = ammo = after_shot(f.ammo)
        if ammo <= 0:
            f.range = 0.0
    if f.stats.firearm:
        f.reload_left = rs.rules.firearm_reload


def after_shot(ammo: int) -> int:
    """Missiles left after a shot or a throw, hit or miss (at 0 the weapon cannot shoot).

    The round (:func:`fire`) and the ACS hybrid count ammunition here.
    """
    return ammo - 1 if ammo > 0 else 0


def reload(rs: RoundState, f: T10Fighter) -> None:
    """``f`` spends its action reloading its firearm (one of the reloading actions it needs)."""
    if f.reload_left <= 0:
        return
    f.reload_left -= 1
    if rs.tracing:
        rs.combat.emit("reload", f, loaded=f.reload_left == 0)
