"""Baselines hold every arm: a tournament's cells, a sweep's points and a study's arms.

So ``combatsim check`` sees a rule change anywhere in them, not only in the scenario as written.
The sections' arms are Holm-corrected as a family of their own: recording them changes no verdict
of the base and the variants.
"""

from __future__ import annotations

import json
import shutil

import pytest

from analysis.baseline import (
    SECTIONS,
    VARIANTS,
    baseline_path,
    check,
    decode_winners,
    read_baseline,
    section_arms,
)
from sim import load_scenario
from tests.conftest import ROOT, SCENARIOS
from tests.regression.conftest import assert_clean_exit, run_cli

TOURNAMENT = SCENARIOS / "acs-builds-tournament.yaml"
SWEEP = SCENARIOS / "acs-duel-hp-sweep.yaml"
STUDY = ROOT / "tests" / "sensitivity" / "known.yaml"


def copy(source, folder):
    target = folder / source.name
    shutil.copy(source, target)
    return target


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def record(path, *extra):
    result = run_cli("baseline", path, "--runs", 150, "--section-runs", 150, *extra)
    assert_clean_exit(result, 0)
    return read_baseline(baseline_path(path))


def test_a_tournament_baseline_records_every_cell(tmp_path):
    path = copy(TOURNAMENT, tmp_path)
    data = record(path)
    plan = [arm.name for arm in section_arms(load_scenario(path))]
    assert list(data["variants"]) == ["base", *plan]
    assert len(plan) == 9 and all(name.startswith("cell[") for name in plan)
    for name in plan:
        arm = data["variants"][name]
        assert arm["section"] == "strategies" and arm["runs"] == 150
        assert len(decode_winners(arm["winners"], data["sides"])) == 150


def test_check_sees_a_change_in_one_strategy_that_the_base_arm_does_not_play(tmp_path):
    path = copy(TOURNAMENT, tmp_path)
    record(path)
    assert not check([path]).moved  # nothing changed yet
    # Red's more-defense strategy now defends 95% of the time instead of 55%: only the cells
    # where red plays it change; the base arm (the file as written) never plays it.
    edit(path, "Red swordsman.defense: 55", "Red swordsman.defense: 95")
    report = check([path])
    moved = {row.variant for row in report.moved}
    assert moved
    assert moved <= {f"cell[more-defense.vs.{blue}]" for blue in ("more-actions", "more-to-hit",
                                                                  "more-defense")}  # fmt: skip
    assert all(row.family == SECTIONS for row in report.moved)
    result = run_cli("check", path)
    assert_clean_exit(result, 1)
    assert "MOVED" in result.stdout and "cell[more-defense.vs." in result.stdout


def test_a_sweep_baseline_records_every_point_at_its_runs(tmp_path):
    path = copy(SWEEP, tmp_path)
    result = run_cli("baseline", path, "--runs", 100, "--section-runs", 40)
    assert_clean_exit(result, 0)
    data = read_baseline(baseline_path(path))
    points = [name for name in data["variants"] if name.startswith("sweep[")]
    assert len(points) == 9 and points[0].startswith("sweep[red hp=")
    assert {data["variants"][name]["runs"] for name in points} == {40}
    assert "runs" not in data["variants"]["base"] and data["runs"] == 100
    report = json.loads(run_cli("check", path, "--json").stdout)
    rows = report["scenarios"][0]["rows"]
    assert len(rows) == 10 * 2 and all(r["difference"] == 0.0 for r in rows)


def test_a_study_baseline_records_its_arms(tmp_path):
    path = copy(STUDY, tmp_path)
    data = record(path)
    scenario = load_scenario(path)
    names = [name for name in data["variants"] if name.startswith("study[")]
    factors = scenario.data["sensitivity"]["parameters"]
    assert len(names) == 1 + 2 * len(factors)
    assert names[0] == "study[as written]"
    assert data["variants"][names[1]]["overrides"]  # each end sets its parameter


def test_the_sections_do_not_change_a_variants_verdict(tmp_path):
    tweaks = copy(SCENARIOS / "acs-duel-tweaks.yaml", tmp_path)
    plain = tmp_path / "plain"
    plain.mkdir()
    alone = copy(tweaks, plain)
    sweep = "sweep:\n  parameters:\n    - path: options.prepared_bonus\n      values: [0, 1]\n"
    tweaks.write_text(tweaks.read_text(encoding="utf-8") + sweep, encoding="utf-8")
    record(tweaks)
    record(alone)
    for path in (tweaks, alone):
        edit(path, "ambition_bonus: 1\n", "ambition_bonus: 1\n        attack_bonus: 8\n")
    with_sections, without = check([tweaks]), check([alone])
    variants = [(r.variant, r.side, r.diff.p_holm, r.moved) for r in with_sections.rows]
    kept = [row for row in variants if not row[0].startswith("sweep[")]
    assert kept == [(r.variant, r.side, r.diff.p_holm, r.moved) for r in without.rows]
    assert {r.family for r in with_sections.rows} == {VARIANTS, SECTIONS}


@pytest.mark.parametrize(
    "name",
    sorted(
        path.name
        for path in SCENARIOS.glob("*.yaml")
        if any(
            key in path.read_text(encoding="utf-8")
            for key in ("\nsweep:", "\nstrategies:", "\nsensitivity:")
        )
    ),
)
def test_every_bundled_baseline_records_every_section_arm(name):
    path = SCENARIOS / name
    recorded = read_baseline(baseline_path(path))["variants"]
    expected = [arm.name for arm in section_arms(load_scenario(path))]
    assert expected and [n for n in recorded if n in expected] == expected
