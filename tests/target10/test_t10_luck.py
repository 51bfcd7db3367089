"""Luck points: caps by skill level, and the spending policies."""

from __future__ import annotations

import pytest

from sim.rules.target10.luck import cancel_hits, luck_cap
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.target10.t10_helpers import d6, d20, man, of, run, t10


def test_caps_by_skill_level():
    assert [luck_cap(level) for level in ("low", "mid", "high", None)] == [3, 1, 0, 0]
    assert luck_cap("mid", {"low": 5, "mid": 2, "high": 1}) == 2


def test_more_luck_than_the_cap_is_a_problem():
    with pytest.raises(ScenarioError, match="at most 1 for mid"):
        scenario_from_dict(t10([man("A", skill_level="mid", luck=2)], [man("B")]))
    scenario_from_dict(t10([man("A", skill_level="low", luck=3)], [man("B")]))
    scenario_from_dict(t10([man("A", skill_level="mid", luck=2)], [man("B")],
                           options={"luck_caps": {"mid": 2}}))


def _two_hits(policy: str):
    victim = man("B", action="none", hp=3, skill_level="low",
                 tactics={"declare": {"movement": "hold", "action": "none"}, "luck": policy})
    dice = d6(6, 1) + d20(20) + d6(5) + d6(6, 1) + d20(20) + d6(1)
    return run(t10([man("A")], [victim], time_limit=120), dice)


def test_save_ignores_only_a_hit_that_would_take_it_out():
    _, trace, f = _two_hits("save")
    assert f["B"].hp == 2 and f["B"].luck == 2 and len(of(trace, "luck")) == 1


def test_always_ignores_every_hit_and_never_none():
    _, _trace, f = _two_hits("always")
    assert f["B"].hp == 3 and f["B"].luck == 1
    _combat, _, f = run(t10([man("A")], [man("B", action="none", hp=3, skill_level="low",
                                             tactics={"declare": {"action": "none"},
                                                      "luck": "never"})]),
                       d6(6, 1) + d20(20) + d6(5))
    assert f["B"].out == "dead" and f["B"].luck == 3


def test_simultaneous_hits_cancel_the_largest_first():
    assert cancel_hits(6, [3, 4], 1, "save") == [1]      # 3 left: survives
    assert cancel_hits(6, [7, 7], 1, "save") == []       # one point cannot save it: keep it
    assert cancel_hits(6, [7, 7], 2, "save") == [0, 1]
    assert cancel_hits(6, [2, 3], 3, "save") == []       # not lethal
    assert cancel_hits(6, [2, 3], 1, "always") == [1]
    assert cancel_hits(6, [9], 1, "never") == []
