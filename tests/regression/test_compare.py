"""Paired comparisons of real tweaks: what matters is found, what does not is exactly 0.

Fixed seeds throughout; the run counts are modest on purpose (pairing is what makes them enough).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analysis.compare import compare, compare_arms, newcombe_interval
from sim.scenario.loader import load_scenario, scenario_from_dict
from sim.scenario.variants import arms
from tests.conftest import SCENARIOS
from tests.regression.conftest import TWEAKS, assert_clean_exit, run_cli


@pytest.fixture(scope="module")
def tweaks_800():
    return compare(TWEAKS, runs=800, seed=1)


def wins_of(comparison, variant, side="red"):
    return next(w for w in comparison.wins if w.variant == variant and w.side == side)


def test_a_plus_three_attack_bonus_is_found_thanks_to_pairing(tweaks_800):
    w = wins_of(tweaks_800, "red-plus3")
    assert w.difference > 0 and w.ci95[0] > 0
    assert w.significant and w.p_holm < 0.01
    assert w.variant_only > 2 * w.base_only
    # Two independent runs of the same size could not tell: their interval straddles 0.
    low, high = newcombe_interval(w.base_wins, w.runs, w.variant_wins, w.runs)
    assert low < 0 < high
    blue = wins_of(tweaks_800, "red-plus3", "blue")
    assert blue.significant and blue.difference == pytest.approx(-w.difference)


def test_pairing_narrows_the_interval(tweaks_800):
    # (Not no-free-action: it shifts the dice of every second, so half the combats change and
    # its arms are hardly correlated; pairing gains nothing there, see docs/regression.md.)
    for variant in ("red-plus3", "reroll-duplicates"):
        w = wins_of(tweaks_800, variant)
        paired = w.ci95[1] - w.ci95[0]
        low, high = newcombe_interval(w.base_wins, w.runs, w.variant_wins, w.runs)
        assert paired < high - low, variant
    # And it is the pairing: the same variant's outcomes, taken in another order, lose it.
    table = tweaks_800.outcomes
    base = table[table["variant"] == "base"]["winner"].to_numpy() == "red"
    plus3 = table[table["variant"] == "red-plus3"]["winner"].to_numpy() == "red"
    from analysis.compare import paired_win_difference

    shuffled = paired_win_difference(base, plus3[::-1])
    paired = wins_of(tweaks_800, "red-plus3")
    assert shuffled.base_only + shuffled.variant_only > 3 * (paired.base_only + paired.variant_only)
    assert shuffled.half_width > 1.5 * paired.half_width


def test_the_control_variant_changes_no_combat(tweaks_800):
    for side in ("red", "blue"):
        w = wins_of(tweaks_800, "control", side)
        assert (w.base_only, w.variant_only, w.difference, w.p_value) == (0, 0, 0.0, 1.0)
        assert not w.significant
    effect = next(e for e in tweaks_800.effects if e.variant == "control")
    assert effect.changed_outcome == 0 and effect.duration_difference == 0.0
    table = tweaks_800.outcomes
    base = table[table["variant"] == "base"].drop(columns="variant").reset_index(drop=True)
    same = table[table["variant"] == "control"].drop(columns="variant").reset_index(drop=True)
    pd.testing.assert_frame_equal(base, same)


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_every_option_at_its_default_is_never_flagged(seed):
    base = load_scenario(SCENARIOS / "acs-fast-vs-heavy.yaml")
    defaults = {f"options.{k}": v for k, v in base.option_values().items()}
    data = {**base.data, "variants": [{"name": "defaults", "set": defaults}]}
    scenario = scenario_from_dict(data)
    result = compare_arms(arms(scenario), runs=150, seed=seed)
    assert all(w.difference == 0.0 and w.p_value == 1.0 for w in result.wins)
    assert result.effects[0].changed_outcome == 0


def test_arms_differ_in_real_tweaks(tweaks_800):
    changed = {e.variant: e.changed_outcome for e in tweaks_800.effects}
    assert changed["control"] == 0
    assert changed["red-plus3"] > 0 and changed["no-free-action"] > changed["red-plus3"]
    # A variant's combats are the base's combats: same indices, same seed.
    table = tweaks_800.outcomes
    for name, rows in table.groupby("variant"):
        assert list(rows["combat"]) == list(range(800)), name
        assert set(rows["seed"]) == {1}


def test_holm_is_over_variants_times_sides(tweaks_800):
    assert len(tweaks_800.wins) == 4 * 2
    ordered = sorted(tweaks_800.wins, key=lambda w: w.p_value)
    assert ordered[0].p_holm == pytest.approx(min(1.0, 8 * ordered[0].p_value))
    methods = tweaks_800.to_dict()["methods"]
    assert "Holm" in methods["correction"] and "8 win-rate tests" in methods["correction"]


def test_two_files_compare_like_a_variant(tmp_path):
    duel = SCENARIOS / "acs-duel.yaml"
    other = tmp_path / "duel-plus3.yaml"
    text = duel.read_text(encoding="utf-8")
    other.write_text(
        text.replace("ambition_bonus: 1\n", "ambition_bonus: 1\n        attack_bonus: 3\n", 1),
        encoding="utf-8",
    )
    by_files = compare(duel, runs=300, seed=1, others=[other])
    by_variant = compare(TWEAKS, runs=300, seed=1, variants=["red-plus3"])
    assert [a for a in by_files.arms] == ["base", "duel-plus3"]
    for a, b in zip(by_files.wins, by_variant.wins, strict=True):
        assert (a.base_only, a.variant_only, a.ci95) == (b.base_only, b.variant_only, b.ci95)


def test_compare_json_and_table():
    result = run_cli("compare", TWEAKS, "--runs", 200, "--seed", 5, "--json")
    assert_clean_exit(result, 0)
    summary = json.loads(result.stdout)
    assert summary["runs"] == 200 and summary["seed"] == 5
    assert summary["variants"] == ["control", "red-plus3", "reroll-duplicates", "no-free-action"]
    row = summary["win_rate"][0]
    assert {"variant", "side", "difference", "ci95", "p_value", "p_holm", "significant"} <= set(row)
    assert summary["methods"]["test"].startswith("McNemar exact")
    assert summary["arms"]["base"]["sides"]["red"]["wins"] == row["base_wins"]
    table = run_cli("compare", TWEAKS, "--runs", 200, "--seed", 5)
    assert_clean_exit(table, 0)
    for words in ("red-plus3", "Tango", "McNemar", "Holm correction over the 8 win-rate tests"):
        assert words in " ".join(table.stdout.split()), words


def test_compare_out_directory(tmp_path):
    result = run_cli("compare", TWEAKS, "--runs", 50, "--variant", "control", "--out", tmp_path)
    assert_clean_exit(result, 0)
    saved = pd.read_parquet(tmp_path / "outcomes.parquet")
    assert list(saved["variant"].unique()) == ["base", "control"] and len(saved) == 100
    assert json.loads((tmp_path / "comparison.json").read_text())["runs"] == 50


@pytest.mark.parametrize("command", ["compare", "baseline", "check"])
def test_every_command_has_help(command):
    result = run_cli(command, "--help")
    assert_clean_exit(result, 0)
    assert "Usage:" in result.stdout and len(result.stdout.splitlines()) > 5
