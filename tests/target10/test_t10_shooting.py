"""Ranged weapons: point-blank shooting, ranged damage, reloading, ammunition, cover.

Text, "Combat Tests": "When attacking with thrown items, spittle, pistols, muskets and bows, the
attacker compares their SHOOT to the defender's DEFENSE"; "Damage": "adding ... Dexterity modifier
if using a ranged weapon". Reloading, ammunition and cover are not in the text (options).
"""

from __future__ import annotations

from sim.rules.target10.combat_rolls import MELEE, RANGED, cover_modifier, weapon_for
from tests.target10.t10_helpers import d6, d20, man, of, run, t10

PISTOL = {"name": "pistol", "bonus": 2, "range": 20}


def _gunman(**extra):
    tactics = extra.pop("tactics", {"declare": {"movement": "hold", "action": "kill"}})
    return man("A", dexterity=14, ranged=dict(PISTOL, **extra.pop("ranged", {})),
               tactics=tactics, **extra)


def test_the_weapon_decides_not_the_distance():
    assert weapon_for(1, 1, 20, True) == RANGED   # point-blank: shoot
    assert weapon_for(1, 1, 20, False) == MELEE   # tactics.point_blank: fight
    assert weapon_for(5, 1, 20, False) == RANGED  # beyond reach: shoot either way
    assert weapon_for(1, 1, 0, True) == MELEE     # no ranged weapon ready
    assert weapon_for(25, 1, 20, True) is None


def test_a_pistol_in_reach_shoots_with_shoot_and_ranged_damage():
    # SHOOT 1 + 2 + 2 = 5 against DEFENSE 1: +4; damage d6 = 3 plus the DEX modifier 2.
    _, trace, f = run(t10([_gunman()], [man("B", action="none")]), d6(6, 1) + d20(8) + d6(3))
    attack = of(trace, "attack")[0]
    assert attack.data["ranged"] and attack.data["modifier"] == 4
    assert f["B"].hp == 10 - 5


def test_fighting_hand_to_hand_uses_fight_and_melee_damage():
    tactics = {"declare": {"movement": "hold", "action": "kill"}, "point_blank": "fight"}
    _, trace, f = run(t10([_gunman(tactics=tactics, strength=12)], [man("B", action="none")]),
                      d6(6, 1) + d20(11) + d6(3))
    attack = of(trace, "attack")[0]
    assert not attack.data["ranged"] and attack.data["modifier"] == 1  # FIGHT 1 + 1 vs 1
    assert f["B"].hp == 10 - 4


def test_a_firearm_reloads_for_firearm_reload_rounds():
    a = _gunman(ranged={"firearm": True, "range": 50})
    data = t10([a], [man("B", action="none", hp=50)], options={"start_distance": 10,
                                                                "firearm_reload": 1},
               time_limit=180)
    # Round 1 shoots (hit for 1 + 2); round 2 reloads (no d20); round 3 shoots again.
    _, trace, f = run(data, d6(6, 1) + d20(20) + d6(1) + d6(6, 1) + d6(6, 1) + d20(20) + d6(1))
    assert [e.t // 600 for e in of(trace, "attack")] == [0, 2]
    assert [(e.t // 600, e.data["loaded"]) for e in of(trace, "reload")] == [(1, True)]
    assert f["B"].hp == 44
    # Default 0: a shot every round (a round is a minute).
    data["options"].pop("firearm_reload")
    _, trace, _ = run(data, (d6(6, 1) + d20(1)) * 3)
    assert len(of(trace, "attack")) == 3 and not of(trace, "reload")


def test_an_unloaded_firearm_in_reach_fights_hand_to_hand():
    a = _gunman(ranged={"firearm": True})
    data = t10([a], [man("B", action="none", hp=50)], options={"firearm_reload": 2},
               time_limit=120)
    _, trace, f = run(data, d6(6, 1) + d20(1) + d6(6, 1) + d20(1))
    assert [e.data["ranged"] for e in of(trace, "attack")] == [True, False]
    assert f["A"].reload_left == 2


def test_reload_action_and_the_loaded_flag():
    tactics = {"rules": [{"if": {"not": "loaded"}, "then": {"movement": "hold",
                                                            "action": "reload"}},
                         {"else": {"movement": "hold", "action": "kill"}}]}
    a = _gunman(ranged={"firearm": True}, tactics=tactics)
    data = t10([a], [man("B", action="none", hp=50)], options={"firearm_reload": 1},
               time_limit=180)
    _, trace, _ = run(data, d6(6, 1) + d20(1) + d6(6, 1) + d6(6, 1) + d20(1))
    assert [e.data["action"] for e in of(trace, "declare", "A")] == ["kill", "reload", "kill"]
    assert [e.data["ranged"] for e in of(trace, "attack")] == [True, True]


def test_ammunition_runs_out():
    tactics = {"rules": [{"if": "ammo < 1", "then": {"movement": "hold", "action": "defend"}},
                         {"else": {"movement": "hold", "action": "kill"}}]}
    a = _gunman(ranged={"ammo": 1}, tactics=tactics)
    data = t10([a], [man("B", action="none")], options={"start_distance": 5}, time_limit=120)
    _, trace, f = run(data, d6(6, 1) + d20(1) + d6(6, 1))
    assert len(of(trace, "attack")) == 1 and f["A"].ammo == 0 and f["A"].range == 0
    assert of(trace, "declare", "A")[1].data["action"] == "defend"
    # In reach, with no shots left, it fights hand to hand.
    a = _gunman(ranged={"ammo": 1})
    _, trace, _ = run(t10([a], [man("B", action="none")], time_limit=120),
                      d6(6, 1) + d20(1) + d6(6, 1) + d20(1))
    assert [e.data["ranged"] for e in of(trace, "attack")] == [True, False]


def test_cover_is_a_situational_penalty_on_shots():
    assert cover_modifier(2, True, False) == -2 and cover_modifier(2, False, False) == 0
    assert cover_modifier(2, False, True) == -2 and cover_modifier(0, True, True) == 0
    b = man("B", action="none", cover=2)
    # Shot: +4 - 2. Within the +/-3 of all situational modifiers: with situational -2, -3.
    _, trace, _ = run(t10([_gunman()], [b]), d6(6, 1) + d20(1))
    assert of(trace, "attack")[0].data["modifier"] == 2
    _, trace, _ = run(t10([_gunman(situational=-2)], [b]), d6(6, 1) + d20(1))
    assert of(trace, "attack")[0].data["modifier"] == 4 - 3
    # Melee: no cover by default; cover_against: all counts it.
    _, trace, _ = run(t10([man("A")], [b]), d6(6, 1) + d20(1))
    assert of(trace, "attack")[0].data["modifier"] == 0
    _, trace, _ = run(t10([man("A")], [b], options={"cover_against": "all"}), d6(6, 1) + d20(1))
    assert of(trace, "attack")[0].data["modifier"] == -2
