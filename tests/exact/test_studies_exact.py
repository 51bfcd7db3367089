"""Studies answered exactly: compare's arms solved as chains (analysis.exact_arms, --method)."""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from analysis.balance import find_balance
from analysis.baseline import (
    baseline_path,
    check,
    record_baseline,
    render_baseline,
    write_baseline,
)
from analysis.compare import compare, comparison_arms
from analysis.exact_arms import arm_answer, exact_comparison, exact_sweep
from analysis.exact_balance import exact_balance
from analysis.exact_tournament import exact_tournament
from analysis.sweep import Parameter, plan_sweep, run_sweep
from analysis.tournament import plan_tournament, run_tournament
from sim.cli.app import cli
from sim.exact.errors import NotExact
from sim.exact.fight import exact_fight
from sim.scenario.loader import load_scenario

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


# -- baseline and check ---------------------------------------------------------------------


def _one_arm(tmp_path: Path, name: str = "duel.yaml", **changes) -> Path:
    """The small duel without variants (one exact arm), with ``changes`` to Francois's knife."""
    data = yaml.safe_load(_small(tmp_path).read_text())
    data.pop("variants")
    data["sides"][1]["combatants"][0]["weapon"] |= changes
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_an_exact_baseline_records_exact_fight_figures_and_check_says_did_not_move(tmp_path):
    path = _one_arm(tmp_path)
    recorded = record_baseline(path, runs=50, method="auto")
    arm = recorded["variants"]["base"]
    assert arm["method"] == "exact" and "winners" not in arm and recorded["method"] == "auto"
    fight = exact_fight(load_scenario(path))
    won = fight.solution.probability(lambda e: e.winner == 0)
    assert arm["summary"]["fractions"]["sides"]["soldier"]["win_rate"] == str(won)
    write_baseline(recorded, baseline_path(path))
    report = check([path])
    assert not report.moved and not report.rows
    assert [r.method for r in report.exact_rows] == ["exact", "exact"]
    assert all(r.difference == 0 and r.p_value is None for r in report.exact_rows)
    shown = CliRunner().invoke(cli, ["check", str(path)])
    assert (
        shown.exit_code == 0 and "did not move" in shown.output and "method: exact" in shown.output
    )


def test_check_of_an_exact_baseline_says_moved_as_a_fact(tmp_path):
    path = _one_arm(tmp_path)
    write_baseline(record_baseline(path, runs=50, method="exact"), baseline_path(path))
    _one_arm(tmp_path, bonus=2)  # Francois's knife one better: the same file, moved
    report = check([path])
    moved = {r.side: r for r in report.moved}
    assert set(moved) == {"soldier", "leatherstocking"}
    assert moved["soldier"].current < moved["soldier"].baseline
    data = moved["soldier"].to_dict()
    assert data["method"] == "exact" and data["p_value"] is None
    sampled_keys = check([_sampled_copy(tmp_path)]).rows[0].to_dict()
    assert set(data) - {"method", "fractions"} == set(sampled_keys)
    shown = CliRunner().invoke(cli, ["check", str(path)])
    assert shown.exit_code == 1 and "MOVED" in shown.output and "exact win rate" in shown.output


def test_an_exact_baseline_no_chain_plays_now_is_sampled_and_tested(tmp_path):
    path = _one_arm(tmp_path)
    write_baseline(record_baseline(path, runs=400, method="exact"), baseline_path(path))
    data = yaml.safe_load(path.read_text())
    data["sides"][0]["combatants"][0]["tactics"]["declare"]["movement"] = "advance"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    report = check([path])
    rows = report.exact_rows
    assert [r.method for r in rows] == ["sample", "sample"] and "moves" in rows[0].reason
    assert all(r.runs == 400 and r.p_holm is not None for r in rows)


def _sampled_copy(tmp_path: Path) -> Path:
    path = _one_arm(tmp_path, "sampled.yaml")
    write_baseline(record_baseline(path, runs=20), baseline_path(path))
    return path


def test_a_sampled_baseline_is_checked_as_before(tmp_path):
    path = _one_arm(tmp_path)
    runs = 400
    recorded = record_baseline(path, runs=runs, seed=8)
    assert "method" not in recorded and "winners" in recorded["variants"]["base"]
    exact = record_baseline(path, method="exact")["variants"]["base"]["summary"]["fractions"]
    for side, values in recorded["variants"]["base"]["summary"]["sides"].items():
        p = float(Fraction(exact["sides"][side]["win_rate"]))
        assert abs(values["win_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs), side
    write_baseline(recorded, baseline_path(path))
    report = check([path])
    assert len(report.rows) == 2 and not report.exact_rows and not report.moved


def test_baseline_auto_samples_an_arm_without_a_chain(tmp_path):
    recorded = record_baseline(_small(tmp_path, [ADVANCING]), runs=50, method="auto")
    arms = recorded["variants"]
    assert arms["advancing"].get("method") is None and "winners" in arms["advancing"]
    assert arms["base"]["method"] == "exact"


# -- balance ----------------------------------------------------------------------------------

BONUS = "sides.soldier.combatants.Captain Cole.weapon.bonus"


def test_exact_balance_brackets_the_crossing_with_exact_fight_figures(tmp_path):
    scenario = load_scenario(_one_arm(tmp_path))
    result, why = exact_balance(scenario, BONUS, 0.5, low=0, high=8, points=5, method="exact")
    assert result is not None and why == ""
    assert result.high.value - result.low.value == 1
    assert result.low.rate < Fraction(1, 2) < result.high.rate
    for probe in (result.low, result.high):
        point = plan_sweep(scenario, [Parameter(BONUS, BONUS, (probe.value,))], runs=1)
        fight = exact_fight(point.points[0].scenario)
        assert probe.rate == fight.solution.probability(lambda e: e.winner == 0)
    data = result.to_dict()
    assert data["method"] == "exact" and data["ci95"] == [result.low.value, result.high.value]
    sampled = find_balance(scenario, BONUS, 0.5, low=0, high=8, points=5, runs=300, seed=5)
    assert sampled.value is not None
    assert set(data) - {"states", "fractions"} == set(sampled.to_dict())
    assert abs(sampled.value - data["value"]) <= 4 * sampled.se


def test_exact_balance_under_auto_samples_when_a_value_has_no_chain(tmp_path):
    data = yaml.safe_load(_one_arm(tmp_path).read_text())
    data["sides"][0]["combatants"][0]["tactics"]["declare"]["movement"] = "advance"
    scenario = load_scenario(_write(tmp_path, data))
    result, why = exact_balance(scenario, BONUS, 0.5, low=0, high=8, points=3, method="auto")
    assert result is None and why.startswith("value ") and "moves" in why
    with pytest.raises(NotExact):
        exact_balance(scenario, BONUS, 0.5, low=0, high=8, points=3, method="exact")


def test_balance_cli_says_its_method(tmp_path):
    path = _one_arm(tmp_path)
    args = ["balance", str(path), "--param", BONUS, "--range", "0", "8", "--points", "3"]
    shown = CliRunner().invoke(cli, [*args, "--method", "exact"])
    assert shown.exit_code == 0, shown.output
    assert "exact" in shown.output and "crossed between" in shown.output
    data = json.loads(CliRunner().invoke(cli, [*args, "--method", "auto", "--json"]).output)
    assert data["method"] == "exact" and data["fractions"]["value"]


# -- tournament -------------------------------------------------------------------------------


def _tournament(tmp_path: Path) -> Path:
    data = yaml.safe_load(_one_arm(tmp_path).read_text())
    cole, francois = (
        "sides.soldier.combatants.Captain Cole",
        "sides.leatherstocking.combatants.Francois",
    )
    data["strategies"] = {
        "soldier": [
            {"name": "saber", "set": {}},
            {"name": "heavy-saber", "set": {f"{cole}.weapon.bonus": 4}},
        ],
        "leatherstocking": [
            {"name": "knife", "set": {}},
            {"name": "sharp-knife", "set": {f"{francois}.weapon.bonus": 3}},
        ],
    }
    return _write(tmp_path, data, "tour.yaml")


def _write(tmp_path: Path, data: dict, name: str = "edited.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_exact_tournament_matrix_is_exact_fight_figures_and_its_equilibrium_is_exact(tmp_path):
    plan = plan_tournament(_tournament(tmp_path))
    result, why = exact_tournament(plan, "exact")
    assert result is not None and why == "" and result.exact is not None
    for i, row in enumerate(plan.cells):
        for j, cell in enumerate(row):
            solution = exact_fight(cell).solution
            won = solution.probability(lambda e: e.winner == 0)
            drawn = solution.probability(lambda e: e.winner is None)
            assert result.exact_payoff[i][j] == won + drawn / 2
    x, y, v = result.exact.rows, result.exact.columns, result.exact.value
    a = result.exact_payoff
    assert sum(x) == 1 == sum(y)
    assert all(sum(x[i] * a[i][j] for i in range(2)) >= v for j in range(2))
    assert all(sum(a[i][j] * y[j] for j in range(2)) <= v for i in range(2))
    data = result.to_dict()
    assert data["method"] == "exact" and data["fractions"]["value"] == str(v)
    sampled = run_tournament(plan, runs=300, seed=4, resamples=50)
    assert set(data) - {"method", "states", "fractions"} == set(sampled.to_dict())
    for i in range(2):
        for j in range(2):
            p = float(a[i][j])
            assert abs(sampled.payoff[i, j] - p) <= 4 * math.sqrt(p * (1 - p) / 300)


def test_exact_tournament_auto_samples_a_pairing_without_a_chain(tmp_path):
    data = yaml.safe_load(_tournament(tmp_path).read_text())
    data["strategies"]["soldier"].append(
        {"name": "advance", "set": {ADVANCING["set"].popitem()[0]: "advance"}}
    )
    plan = plan_tournament(_write(tmp_path, data, "tour2.yaml"))
    result, why = exact_tournament(plan, "auto")
    assert result is None and why.startswith("pairing advance.vs.") and "moves" in why


def test_tournament_cli_says_its_method(tmp_path):
    path = _tournament(tmp_path)
    out = tmp_path / "out"
    shown = CliRunner().invoke(
        cli, ["tournament", str(path), "--method", "exact", "--out", str(out)]
    )
    assert shown.exit_code == 0, shown.output
    assert "method: exact" in shown.output and "solved exactly" in shown.output
    assert json.loads((out / "summary.json").read_text())["method"] == "exact"
    assert (out / "plots" / "payoff.png").exists()
    report = CliRunner().invoke(cli, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert "every pairing solved exactly" in (out / "report.html").read_text()


# -- sweep ------------------------------------------------------------------------------------


def _swept(tmp_path: Path, movement: str = "hold") -> Path:
    data = yaml.safe_load(_one_arm(tmp_path).read_text())
    data["sides"][0]["combatants"][0]["tactics"]["declare"]["movement"] = movement
    data["sweep"] = {"parameters": [{"path": BONUS, "values": [1, 3], "label": "bonus"}]}
    return _write(tmp_path, data, f"sweep-{movement}.yaml")


def test_exact_sweep_points_are_exact_fight_figures_and_sampling_agrees(tmp_path):
    plan = plan_sweep(_swept(tmp_path), runs=400)
    summary, why = exact_sweep(plan, "exact")
    assert summary is not None and why == "" and summary["method"] == "exact"
    sampled = run_sweep(plan, seed=6)
    assert set(summary) - {"method"} == set(sampled.summary)
    for point, played in zip(summary["points"], sampled.point_summaries, strict=True):
        solution = exact_fight(plan.points[point["point"]].scenario).solution
        won = solution.probability(lambda e: e.winner == 0)
        assert point["summary"]["fractions"]["sides"]["soldier"]["win_rate"] == str(won)
        p, got = float(won), played["summary"]["sides"]["soldier"]["win_rate"]
        assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / 400)


def test_sweep_auto_samples_when_a_point_has_no_chain_and_says_so(tmp_path):
    path = _swept(tmp_path, "advance")
    summary, why = exact_sweep(plan_sweep(path), "auto")
    assert summary is None and why.startswith("point bonus=1") and "moves" in why
    out = tmp_path / "o"
    shown = CliRunner().invoke(
        cli,
        ["sweep", str(path), "--method", "auto", "--runs", "20", "--no-plots", "--out", str(out)],
    )
    assert shown.exit_code == 0 and "method: sample (--runs asks for combats)" in shown.stderr
    exact = CliRunner().invoke(
        cli, ["sweep", str(_swept(tmp_path)), "--method", "exact", "--out", str(tmp_path / "e")]
    )
    assert exact.exit_code == 0 and "method: exact" in exact.output
