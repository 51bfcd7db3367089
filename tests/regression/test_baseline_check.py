"""Baselines and `combatsim check`: an unchanged rule passes (exit 0), a changed one fails (1)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from analysis.baseline import (
    SUFFIX,
    baseline_path,
    check,
    decode_winners,
    encode_winners,
    find_baselines,
    read_baseline,
)
from tests.conftest import SCENARIOS
from tests.regression.conftest import assert_clean_exit, run_cli

RUNS = 300


@pytest.fixture
def recorded(tweaks_copy):
    """The tweaks scenario in a scratch directory with a baseline of 300 combats per arm."""
    result = run_cli("baseline", tweaks_copy, "--runs", RUNS)
    assert_clean_exit(result, 0)
    return tweaks_copy


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_baseline_file_sits_next_to_the_scenario(recorded):
    path = recorded.with_name("acs-duel-tweaks" + SUFFIX)
    assert baseline_path(recorded) == path and path.is_file()
    data = read_baseline(path)
    assert data["runs"] == RUNS and data["seed"] == 1 and data["sides"] == ["red", "blue"]
    assert data["scenario_file"] == recorded.name
    assert data["combatsim_version"]
    assert list(data["variants"]) == [
        "base",
        "control",
        "red-plus3",
        "reroll-duplicates",
        "no-free-action",
    ]
    base = data["variants"]["base"]
    assert base["options"]["duplicates"] == "slide"
    assert data["variants"]["reroll-duplicates"]["options"]["duplicates"] == "reroll"
    assert data["variants"]["red-plus3"]["overrides"] == {
        "sides.red.combatants.Red swordsman.attack_bonus": 3
    }
    winners = decode_winners(base["winners"], data["sides"])
    assert len(winners) == RUNS
    assert int((winners == "red").sum()) == base["summary"]["sides"]["red"]["wins"]


def test_check_passes_an_unchanged_scenario_with_exactly_zero_difference(recorded):
    result = run_cli("check", recorded.parent)
    assert_clean_exit(result, 0)
    assert "nothing moved" in result.stdout
    assert "unchanged" in result.stdout
    report = json.loads(run_cli("check", recorded, "--json").stdout)
    assert report["ok"] is True
    rows = report["scenarios"][0]["rows"]
    assert len(rows) == 5 * 2
    assert all(r["difference"] == 0.0 and r["p_value"] == 1.0 for r in rows)
    assert set(report["scenarios"][0]["changed_outcome"].values()) == {0}


def test_check_fails_on_a_changed_rule_and_says_what_moved(recorded):
    edit(recorded, "ambition_bonus: 1\n", "ambition_bonus: 1\n        attack_bonus: 10\n")
    result = run_cli("check", recorded.parent)
    assert_clean_exit(result, 1)
    text = " ".join(result.stdout.split())
    assert "MOVED: ACS duel tweaks (" in text
    assert "variant base, side red: win rate" in text
    assert "points" in text and "Holm p=" in text
    report = json.loads(run_cli("check", recorded.parent, "--json").stdout)
    assert report["ok"] is False
    moved = {(r["variant"], r["side"]) for r in report["moved"]}
    assert ("base", "red") in moved and ("base", "blue") in moved
    red = next(r for r in report["moved"] if (r["variant"], r["side"]) == ("base", "red"))
    assert red["difference"] > 0.05
    assert red["current_win_rate"] - red["baseline_win_rate"] == pytest.approx(red["difference"])


def test_check_notes_changed_options_and_tolerates_a_noise_level_change(recorded):
    edit(recorded, "  duplicates: slide ", "  duplicates: reroll ")
    report = check([recorded], min_change=0.5)
    assert not report.moved  # nothing moves by 50 points
    notes = " ".join(report.checks[0].notes)
    assert 'rule options changed in base, red-plus3, no-free-action: duplicates "slide" → ' in notes
    assert (
        "values differ from the baseline's in base, red-plus3, no-free-action: "
        'options.duplicates "slide" → "reroll"'
    ) in notes


def test_check_says_which_value_moved_from_what_to_what(recorded):
    edit(recorded, "ambition_bonus: 1\n", "ambition_bonus: 2\n")
    report = check([recorded])
    notes = " ".join(report.checks[0].notes)
    # Every arm moved the same way: one note names them all, the value and both numbers.
    assert (
        "the scenario's values differ from the baseline's in base, control, red-plus3, "
        "reroll-duplicates, no-free-action: sides.red.combatants.Red swordsman.ambition_bonus "
        "1 → 2"
    ) in notes


def test_an_old_baseline_without_values_says_how_to_see_them(recorded):
    path = baseline_path(recorded)
    data = json.loads(path.read_text())
    for arm in data["variants"].values():
        del arm["values"]
    path.write_text(json.dumps(data))
    edit(recorded, "ambition_bonus: 1\n", "ambition_bonus: 2\n")
    notes = " ".join(check([recorded]).checks[0].notes)
    assert "which ones is not recorded in this baseline" in notes
    assert f"combatsim baseline {recorded}" in notes


def test_every_bundled_scenario_has_a_baseline():
    files = find_baselines([SCENARIOS])
    missing = [
        s.name for s in SCENARIOS.glob("*.yaml") if not s.with_suffix(".baseline.json").exists()
    ]
    assert files and not missing, f"every bundled scenario has a baseline; not: {missing}"


@pytest.mark.parametrize(
    "scenario", sorted(SCENARIOS.glob("*.yaml")), ids=lambda path: path.stem
)
def test_check_of_the_bundled_baselines_passes(scenario):
    # `combatsim check scenarios/`, one scenario at a time so that the suite's workers share
    # the replays (the folder form is checked above, on a recorded copy).
    result = run_cli("check", scenario)
    assert_clean_exit(result, 0)
    assert "nothing moved" in result.stdout, result.stdout


def test_winners_round_trip_with_draws():
    winners = ["red", "draw", "blue", "blue", "red", "draw"]
    text = encode_winners(winners, ("red", "blue"))
    assert list(decode_winners(text, ("red", "blue"))) == winners
    assert decode_winners(encode_winners([], ("a", "b")), ("a", "b")).size == 0
    assert isinstance(decode_winners(text, ("red", "blue")), np.ndarray)


def test_check_bad_input_exits_2(tmp_path, recorded):
    # No baseline anywhere.
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli("check", empty)
    assert_clean_exit(result, 2)
    assert "no baseline files" in result.stderr
    # A scenario named without its baseline (every bundled one has one: use a copy).
    lone = tmp_path / "lone.yaml"
    shutil.copy(SCENARIOS / "acs-fast-vs-heavy.yaml", lone)
    result = run_cli("check", lone)
    assert_clean_exit(result, 2)
    assert "record one with `combatsim baseline" in result.stderr
    # A path that does not exist.
    result = run_cli("check", tmp_path / "nowhere")
    assert_clean_exit(result, 2)


def test_check_refuses_a_damaged_or_stale_baseline(recorded):
    path = baseline_path(recorded)
    good = path.read_text(encoding="utf-8")
    path.write_text("{not json", encoding="utf-8")
    result = run_cli("check", path)
    assert_clean_exit(result, 2)
    assert "not a readable JSON baseline" in result.stderr
    path.write_text(good.replace('"format": "combatsim-baseline/1"', '"format": "x"'), "utf-8")
    assert_clean_exit(run_cli("check", path), 2)
    path.write_text(good, encoding="utf-8")
    edit(recorded, "name: blue", "name: green")
    result = run_cli("check", path)
    assert_clean_exit(result, 2)
    assert "sides are now red, green" in result.stderr


def test_check_refuses_a_scenario_that_no_longer_validates(recorded):
    edit(recorded, "defense: 35", "defense: 350")
    result = run_cli("check", recorded)
    assert_clean_exit(result, 2)
    assert "defense" in result.stderr


def test_variants_added_or_removed_since_the_baseline_are_noted(recorded):
    edit(recorded, "  - name: control\n", "  - name: control2\n")
    report = check([recorded])
    notes = " ".join(report.checks[0].notes)
    assert "not in the scenario any more, not checked: control" in notes
    assert "no baseline yet, not checked: control2" in notes
    assert not report.moved
