"""The starter scenarios of ``combatsim new`` and the workbench's "new from a starter".

A designer's first file: every key a first scenario needs, each with a comment saying what it
does and where the docs say more, a stat block per side written in the rule system's own words
(gear from its armory where the text names it), and a variant to compare. Each starter
validates and runs as written (``tests/test_cli_new.py`` runs every one); the designer then
changes the numbers. One copy, here in the scenario layer, so both faces (``sim/cli`` and
``sim/web``) take the same text.
"""

from __future__ import annotations

from sim.engine.errors import CommandError
from sim.scenario.describe import did_you_mean

_HEAD = """\
# A starter scenario from `combatsim new {rules}`: change the numbers, keep the shape.
# Validate it with `combatsim validate FILE`, play it with `combatsim run FILE`, read every key
# in docs/scenarios.md and the rules and their options in docs/rules/{doc}.
# An editor completes keys as you type with the schema: `combatsim schema > scenario.schema.json`
# and a first line `# yaml-language-server: $schema=scenario.schema.json`.
"""

_ACS = """\
name: My ACS duel
description: Two swordsmen; the red one is one point of ambition ahead. Is that worth much?
rules: acs
options:
  duplicates: slide          # equal action dice: slide to the next free segment (or reroll)
runs: 2000                   # combats per run (--runs changes it)
seed: 1                      # the same seed gives the same combats on any machine
time_limit: 60               # game seconds; a fight still going then is a draw
templates:
  swordsman:                 # a stat block shared by the combatants that name it
    hp: 24                   # hit points
    actions: 2               # action dice a second (d10 each)
    to_hit: 45               # the d100 roll that hits
    defense: 35              # chance (%) to avoid a hit with a defensive action
    damage: 1d8
sides:
  - name: red
    combatants:
      - name: Red swordsman
        template: swordsman
        ambition_bonus: 1    # added to the d12 ambition roll each second
  - name: blue
    combatants:
      - name: Blue swordsman
        template: swordsman
        tactics: {target: weakest}   # whom to attack: weakest, strongest, nearest, focus, random
variants:                    # `combatsim compare FILE` plays each on the same combats as the base
  - name: red-plus3
    description: Red's sword gets +3 on the d100 attack roll.
    set:
      sides.red.combatants.Red swordsman.attack_bonus: 3
"""

_TARGET10 = """\
name: My Target 10 duel
description: A soldier with a saber against a scout with a knife, fought to the end.
rules: target10
options:
  combat_target: 12          # a FIGHT/SHOOT test succeeds on d20 + modifier of at least this
runs: 2000                   # combats per run (--runs changes it)
seed: 1                      # the same seed gives the same combats on any machine
time_limit: 3600             # game seconds: 60 rounds of one minute, then a draw
sides:
  - name: soldier
    combatants:
      - name: Soldier
        hp: 6d6              # rolled once per combat
        hit_dice: 6
        strength: 15         # +3 to FIGHT and melee damage
        dexterity: 12        # +1 to DEFENSE
        weapon: saber        # the text's Saber (+2): docs/rules/target10.md, "Armory"
        skill_level: high    # caps the luck points (low 3, mid 1, high 0)
        tactics:
          declare: {movement: hold, action: kill}
  - name: scout
    combatants:
      - name: Scout
        hp: 7d6
        hit_dice: 7
        strength: 14
        dexterity: 15
        weapon: {base: knife, reach: 1}   # the text's Knife (+1), a field changed
        skill_level: mid
        tactics:
          declare: {movement: hold, action: kill}
variants:
  - name: heavier-saber
    description: The soldier's saber deals 1d8.
    set:                     # a named weapon is replaced whole: start from the armory's again
      sides.soldier.combatants.Soldier.weapon: {base: saber, damage: 1d8}
"""

_PROP3 = """\
name: My Proposition Three duel
description: A greatsword against a club and a shield; does full plate turn the fight?
rules: prop3
options:
  round_s: 6                 # game seconds in a round (the text does not say)
runs: 2000                   # combats per run (--runs changes it)
seed: 1                      # the same seed gives the same combats on any machine
time_limit: 600              # game seconds: 100 rounds of 6 s, then a draw
sides:
  - name: blade
    combatants:
      - name: Greta
        vigor: 6             # Vigor dice: the hit points and the strength of attacks
        agility: 5           # Agility dice: initiative and defenses
        skills: {slash: good, bash: average, parry: average}
        weapon: greatsword   # from the armory: docs/rules/prop3.md, "Armory"
        armor: chain mail
        tactics: {attack: best, defense: best}   # forms by the exact odds (or a form, or random)
  - name: maul
    combatants:
      - name: Otto
        vigor: 5
        agility: 4
        skills: {bash: good, block: average}
        weapon: {base: club, slash: poor}       # the armory's club, one rating changed
        armor: leather armor
        shield: true         # can block
variants:
  - name: full-plate
    description: Otto fights in full plate (heavy, so he cannot dodge).
    set:
      sides.maul.combatants.Otto.armor: full plate
"""

_TARGET10_ON_ACS = """\
name: My Target 10 duel on the ACS clock
description: Target 10's combat tests, timed by ACS's ambition and action dice.
rules: acs
options:
  resolution: target10       # ACS decides who acts when; Target 10 what an attack does
  hybrid_defense: defend     # passive DEFENSE only (no ACS defensive actions)
runs: 2000                   # combats per run (--runs changes it)
seed: 1                      # the same seed gives the same combats on any machine
time_limit: 120              # game seconds (ACS counts seconds of ten segments)
sides:
  - name: soldier
    combatants:
      - name: Soldier
        hp: 6d6
        actions: 2           # ACS action dice a second
        ambition_bonus: 1    # ACS ambition: here the DEX bonus
        hit_dice: 6
        strength: 15
        dexterity: 12
        weapon: saber
        skill_level: high
  - name: scout
    combatants:
      - name: Scout
        hp: 7d6
        actions: 2
        ambition_bonus: 3
        hit_dice: 7
        strength: 14
        dexterity: 15
        weapon: knife
        skill_level: mid
variants:
  - name: three-actions
    description: The soldier rolls three action dice a second.
    set:
      sides.soldier.combatants.Soldier.actions: 3
"""

_PROP3_ON_ACS = """\
name: My Proposition Three duel on the ACS clock
description: Proposition Three's pools and forms, timed by ACS's ambition and action dice.
rules: acs
options:
  resolution: prop3          # ACS decides who acts when; Proposition Three what an attack does
runs: 2000                   # combats per run (--runs changes it)
seed: 1                      # the same seed gives the same combats on any machine
time_limit: 60               # game seconds
sides:
  - name: blade
    combatants:
      - name: Greta
        actions: 2           # ACS action dice a second
        ambition_bonus: 1
        vigor: 5
        agility: 5
        skills: {slash: good, parry: average}
        weapon: greatsword
        armor: chain mail
  - name: maul
    combatants:
      - name: Otto
        actions: 2
        vigor: 6             # Vigor dice: the hit points and the strength of attacks
        agility: 4           # Agility dice: defenses
        skills: {bash: good, block: average}
        weapon: club         # the armory's club: excellent at bashing
        armor: leather armor # poor against bashes
        shield: true         # can block
variants:
  - name: one-action
    description: Otto rolls one action die a second.
    set:
      sides.maul.combatants.Otto.actions: 1
"""

#: The starters by the name ``combatsim new`` takes, with the docs page of their rules.
STARTERS: dict[str, tuple[str, str]] = {
    "acs": (_ACS, "acs.md"),
    "target10": (_TARGET10, "target10.md"),
    "prop3": (_PROP3, "prop3.md"),
    "target10-on-acs": (_TARGET10_ON_ACS, "target10.md"),
    "prop3-on-acs": (_PROP3_ON_ACS, "prop3.md"),
}


def starter(rules: str) -> str:
    """The starter scenario of ``rules`` (a key of :data:`STARTERS`), as text.

    Raises:
        CommandError: no starter of that name (with the closest one).
    """
    if rules not in STARTERS:
        close = did_you_mean(rules, list(STARTERS))
        hint = f" (did you mean {close}?)" if close else ""
        raise CommandError(
            f"no starter scenario {rules!r}; one of {', '.join(STARTERS)}{hint}"
        )
    body, doc = STARTERS[rules]
    return _HEAD.format(rules=rules, doc=doc) + body
