"""Critical defenses and their lasting effects in Combat Proposition Three.

``rules/combat-proposition-three.txt``, "CRITICAL HITS, DODGES, AND FAILURES": "If you roll or
wiggle your way to triple numbers on a defense, you critically defend", by defense form
(RULINGS part C for the durations):

- Block: "your solid defense stuns and staggers your opponent. He loses a die on all of his
  defense checks until your next action": the attacker loses one defense die until the blocker's
  next action is over, so the blocker's own next attack profits (option ``block_effect_ends``:
  ``at_next_action`` ends it when that action starts);
- Dodge: "All who attack this person gain two wiggle points on their attacks against her. This
  bonus is lost at the start of your next action": everyone attacking the attacker, allies of the
  dodger included, gets 2 wiggle until the dodger's next action starts;
- Parry: "you automatically hit with your counter-attack. You may roll normally to see if you can
  critically hit": an immediate free counter-attack that hits, critically on a triple.

Effects last "until the next action" of the combatant who caused them; one who leaves the fight
takes its effects with it. Effects stack: two critical blocks cost two dice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from sim.rules.prop3.character import BLOCK, DODGE, PARRY, F
from sim.rules.prop3.consequences import ATTACKER, DEFENDER, Counter, Mark

if TYPE_CHECKING:
    from sim.rules.prop3.fight import Fight

BLOCK_DICE = 1
"""Defense dice an attacker loses to a critical block (the text: a die)."""

DODGE_WIGGLE = 2
"""Wiggle points everyone attacking a critically dodged attacker gets (the text: two)."""

CRITICAL_DEFENSES = {DODGE: "dodge", BLOCK: "block", PARRY: "parry"}
"""Roll index of each defense form, by name."""


def critical_defense(fight: Fight[F], attacker: F, defender: F, form: int) -> None:
    """Apply the effect of ``defender``'s critical defense (form index 0..2) on ``attacker``."""
    roll = DODGE + form
    if fight.tracing:
        fight.combat.emit("critical_defense", defender, attacker, form=CRITICAL_DEFENSES[roll])
    fight.apply(critical_effect(form, fight.rules.block_after), attacker, defender)


@lru_cache(maxsize=8)
def critical_effect(form: int, block_after: bool) -> Mark | Counter:
    """What a critical defense of form index ``form`` (0..2) does to the attacker.

    ``block_after``: a critical block lasts until the blocker's next action is over (option
    ``block_effect_ends``), not until it starts.
    """
    roll = DODGE + form
    if roll == BLOCK:
        return Mark(DEFENDER, ATTACKER, shaken=BLOCK_DICE, after=block_after)
    if roll == DODGE:
        return Mark(DEFENDER, ATTACKER, exposed=DODGE_WIGGLE)
    return Counter(DEFENDER, True)
