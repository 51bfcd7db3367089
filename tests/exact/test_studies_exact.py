"""Studies answered exactly: compare's arms solved as chains (analysis.exact_arms, --method)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from analysis.baseline import render_baseline
from analysis.compare import compare, comparison_arms
from analysis.exact_arms import arm_answer, exact_comparison
from sim.cli.app import cli
from sim.exact.errors import NotExact

BUNDLED = Path(__file__).parents[2] / "scenarios" / "t10-cole-variants.yaml"


def _small(tmp_path: Path, extra: list[dict] | None = None) -> Path:
    """The bundled variant study with 2d6 hit points and 5 rounds: chains of a few states."""
    data = yaml.safe_load(BUNDLED.read_text())
    for side in data["sides"]:
        side["combatants"][0]["hp"] = "2d6"
    data["time_limit"] = 300
    data["variants"] = [v for v in data["variants"] if v["name"] != "stronger-cole"]
    data["variants"] += extra or []
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


ADVANCING = {
    "name": "advancing",
    "set": {"sides.soldier.combatants.Captain Cole.tactics.declare.movement": "advance"},
}


def test_exact_comparison_says_moved_for_a_tweak_and_not_for_a_no_op(tmp_path):
    arms, title = comparison_arms(_small(tmp_path))
    result, why = exact_comparison(arms, "exact", title)
    assert result is not None and why == ""
    moved = {(w.variant, w.side): w for w in result.wins}
    sharper = moved[("sharper-saber", "soldier")]
    assert sharper.moved and sharper.difference > 0  # a better saber helps Cole
    assert moved[("sharper-saber", "leatherstocking")].difference < 0
    assert not moved[("same-saber", "soldier")].moved
    assert not moved[("same-saber", "leatherstocking")].moved
    data = result.to_dict()
    assert data["method"] == "exact"
    assert data["arms"]["base"]["method"] == "exact"


def test_exact_arms_agree_with_the_sampled_comparison_within_four_se(tmp_path):
    path = _small(tmp_path)
    arms, title = comparison_arms(path, ["sharper-saber"])
    exact, _ = exact_comparison(arms, "exact", title)
    assert exact is not None
    runs = 800
    sampled = compare(path, runs=runs, seed=3, variants=["sharper-saber"])
    assert sampled.wins
    for w in sampled.wins:
        (e,) = [x for x in exact.wins if x.side == w.side]
        for got, want in ((w.base_rate, e.base_rate), (w.variant_rate, e.variant_rate)):
            p = float(want)
            se = math.sqrt(p * (1 - p) / runs)
            assert abs(got - p) <= 4 * se, (w.side, got, p)


def test_an_arm_without_a_chain_is_sampled_under_auto_and_refused_under_exact(tmp_path):
    arms, title = comparison_arms(_small(tmp_path, [ADVANCING]), ["advancing"])
    assert arm_answer("base", arms["base"], "auto").method == "exact"
    answer = arm_answer("advancing", arms["advancing"], "auto")
    assert answer.method == "sample" and "moves" in answer.reason
    result, why = exact_comparison(arms, "auto", title)
    assert result is None and "arm advancing" in why and "samples every arm" in why
    with pytest.raises(NotExact):
        exact_comparison(arms, "exact", title)


def test_compare_cli_method_exact(tmp_path):
    path = _small(tmp_path)
    runner = CliRunner()
    shown = runner.invoke(
        cli, ["compare", str(path), "--variant", "same-saber", "--method", "exact"]
    )
    assert shown.exit_code == 0, shown.output
    assert "did not" in shown.output and "method: exact" in shown.output
    as_json = runner.invoke(
        cli, ["compare", str(path), "--variant", "sharper-saber", "--method", "exact", "--json"]
    )
    data = json.loads(as_json.output)
    assert [w["moved"] for w in data["wins"]] == [True, True]
    refused = runner.invoke(
        cli, ["compare", str(path), "--method", "exact", "--out", str(tmp_path / "o")]
    )
    assert refused.exit_code == 2 and "not with --out" in refused.output


def test_compare_defaults_to_sampling():
    flag = next(p for p in cli.commands["compare"].params if p.name == "method")
    assert flag.default == "sample"


def test_render_baseline_keeps_bracketed_arm_names():
    baseline = {
        "scenario": "s",
        "runs": 10,
        "seed": 1,
        "variants": {
            "sweep[strength=17]": {
                "summary": {"sides": {"red[a]": {"win_rate": 0.5, "ci95": [0.4, 0.6]}}}
            }
        },
    }
    out = io.StringIO()
    render_baseline(baseline, Path("b.json"), Console(file=out, width=200))
    assert "sweep[strength=17]" in out.getvalue() and "red[a]" in out.getvalue()
