"""A shield-bearer declaring first against a greatsword: the parry a bash makes impossible.

Reported as a tactic that looks weak: in a duel of a greatsword against sword and shield, the
shield-bearer, declaring first, declared a parry again and again, and the greatsword answered
with a bash, against which a one-handed sword cannot parry (``parry_bash_needs_two_hands``), so
the shield-bearer stood undefended. The docs say ``best`` accounts for this. It does: declaring
first, ``best`` takes for each defense form the attacker's best answer to it, an impossible
defense valued as no defense at all (or as the defense redeclared, with ``impossible_defense:
redeclare``), and declares the form whose worst case is least. Against this greatsword the
parry's worst case, an undefended bash, costs fewer expected nicks than the block's, a slash
against the shield: a weak-looking choice that is the right one. These tests hold the engine's
own choice, in the fight, to that maximin over the engine's own table of exact values.
"""

from __future__ import annotations

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.declaring import form_values, matchup
from sim.rules.prop3.melee import melee_attack
from sim.scenario.loader import scenario_from_dict

BASH, SLASH, THRUST = 0, 1, 2
DODGE, BLOCK, PARRY = 0, 1, 2
FORMS = {"bash": BASH, "slash": SLASH, "thrust": THRUST}
DEFENSES = {"dodge": DODGE, "block": BLOCK, "parry": PARRY}

GREATSWORD = {
    "name": "Greta",
    "vigor": 5,
    "agility": 5,
    "skills": {"bash": "good", "slash": "good", "thrust": "average", "parry": "average"},
    "weapon": {"name": "greatsword", "bash": "average", "slash": "excellent",
               "thrust": "average", "two_handed": True},
    "armor": {"name": "mail"},
}  # fmt: skip
SWORD_AND_SHIELD = {
    "name": "Sven",
    "vigor": 5,
    "agility": 5,
    "skills": {"slash": "good", "block": "good", "parry": "average"},
    "weapon": {"name": "sword", "bash": "poor", "slash": "excellent", "thrust": "average"},
    "armor": {"name": "mail"},
    "shield": True,
}


#: A two-hander that bashes better than it cuts (a maul): the undefended bash is costly.
MAUL = dict(GREATSWORD, weapon={"name": "maul", "bash": "excellent", "slash": "average",
                                "thrust": "average", "two_handed": True})  # fmt: skip


def _exchange(options: dict, vigor: int = 5, seed: int = 0, attacker: dict = GREATSWORD):
    """Greta attacks Sven, who declares first; the declaration traced, and the engine's table."""
    sven = dict(SWORD_AND_SHIELD, vigor=vigor)
    data = {
        "name": "greatsword against sword and shield",
        "rules": "prop3",
        "options": options,
        "sides": [
            {"name": "great", "combatants": [attacker]},
            {"name": "shield", "combatants": [sven]},
        ],
    }
    scenario = scenario_from_dict(data)
    prepared = scenario.system.prepare(scenario)
    dice = Dice(seed, 0)
    trace: list = []
    combat = Combat(prepared.spawn(dice), scenario.side_names, dice, 600, trace)
    rounds = prepared.rounds(combat)
    greta, sven_f = combat.fighters
    rounds.set_order([greta, sven_f])  # Sven is lower: he declares first
    m = matchup(greta.state.profile, sven_f.state.profile, True, rounds.fight.rules)
    values = form_values(rounds.fight, greta, sven_f, m, 0, 0)
    melee_attack(rounds.fight, greta, sven_f)
    declared = next(e for e in trace if e.kind == "declare").data
    return declared, m, values


def _worst(m, values, d: int, redeclare: bool) -> float:
    """The attacker's best answer to declared defense ``d``, by brute force."""
    answers = []
    for a in m.attacks:
        if m.allowed[a][d]:
            answers.append(values.values[a][d])
        elif redeclare:
            answers.append(min(values.values[a][e] for e in range(3) if m.allowed[a][e]))
        else:
            answers.append(values.undefended[a])
    return max(answers)


@pytest.mark.parametrize("attacker", [GREATSWORD, MAUL], ids=["greatsword", "maul"])
@pytest.mark.parametrize("vigor", [3, 4, 5, 6])
def test_declaring_first_the_shield_bearer_takes_the_least_bad_worst_case(vigor, attacker):
    declared, m, values = _exchange({}, vigor, attacker=attacker)
    assert declared["first"] == "Sven"
    assert not m.allowed[BASH][PARRY] and m.allowed[SLASH][PARRY]  # a one-handed sword
    worst = {d: _worst(m, values, d, redeclare=False) for d in m.declarable}
    chosen = DEFENSES[declared["declared"]]
    assert worst[chosen] == min(worst.values()), (declared, worst)
    # The greatsword's answer is the best against what was declared.
    attack = FORMS[declared["attack"]]
    best = {
        a: values.values[a][chosen] if m.allowed[a][chosen] else values.undefended[a]
        for a in m.attacks
    }
    assert best[attack] == max(best.values())


def test_the_parry_is_declared_because_an_undefended_bash_costs_less_than_a_blocked_slash():
    """The reported exchange, at full Vigor: the parry looks weak and is the best declaration."""
    declared, m, values = _exchange({}, vigor=5)
    assert declared["declared"] == "parry"
    undefended_bash = values.undefended[BASH]
    assert _worst(m, values, PARRY, False) >= undefended_bash
    assert _worst(m, values, BLOCK, False) == values.values[SLASH][BLOCK] > _worst(
        m, values, PARRY, False
    )
    if declared["attack"] == "bash":
        assert declared["defense"] is None  # undefended, as the option says


def test_with_redeclare_a_parry_made_impossible_becomes_the_best_other_defense():
    declared, m, values = _exchange({"impossible_defense": "redeclare"}, vigor=5)
    worst = {d: _worst(m, values, d, redeclare=True) for d in m.declarable}
    assert worst[DEFENSES[declared["declared"]]] == min(worst.values())
    if declared["attack"] == "bash" and declared["declared"] == "parry":
        assert declared["defense"] in ("dodge", "block")


def test_against_a_maul_the_shield_bearer_blocks_rather_than_stand_undefended():
    """A tactic blind to the bash that makes a parry impossible would parry here (its table
    holds no value for a parry against a bash); ``best`` sees the undefended bash and blocks."""
    declared, m, values = _exchange({}, vigor=5, attacker=MAUL)
    assert declared["declared"] == "block"
    blind = max(values.values[a][PARRY] for a in m.attacks if m.allowed[a][PARRY])
    assert blind < _worst(m, values, BLOCK, False) < _worst(m, values, PARRY, False)
