"""The exact engine where a designer looks: run's default auto, plot, report, sensitivity.

Every fight here is a small Target 10 duel (2d6 hit points each): chains of a few hundred
states, solved in well under a second, so each exact figure is checked against the chain
solved on its own (:func:`sim.exact.fight.exact_fight`), not against itself.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from click.testing import CliRunner

import sim.exact.fight
from analysis.exact_sensitivity import exact_study
from analysis.exact_view import plot_exact_length, plot_exact_survival
from analysis.plots import TimeUnit
from analysis.results import read_results
from analysis.sensitivity_plan import plan_study
from analysis.sensitivity_plots import plot_tornado
from analysis.sensitivity_study import effects_frame
from sim.cli.app import cli
from sim.exact.errors import NotExact
from sim.exact.fight import exact_fight
from sim.run.exact import AUTO_CAP, choose_method
from sim.scenario.loader import load_scenario
from sim.web.results_view import view
from sim.web.workspace import Workspace

DUEL = {
    "name": "small duel",
    "rules": "target10",
    "runs": 60,
    "seed": 3,
    "time_limit": 600,
    "sides": [
        {
            "name": "soldier",
            "combatants": [
                {
                    "name": "Cole",
                    "hp": "2d6",
                    "hit_dice": 2,
                    "strength": 15,
                    "dexterity": 12,
                    "weapon": {"name": "saber", "bonus": 2, "damage": "1d6"},
                    "skill_level": "high",
                    "tactics": {"declare": {"movement": "hold", "action": "kill"}},
                }
            ],
        },
        {
            "name": "other",
            "combatants": [
                {
                    "name": "Francois",
                    "hp": "2d6",
                    "hit_dice": 2,
                    "strength": 14,
                    "dexterity": 15,
                    "weapon": {"name": "knife", "bonus": 1},
                    "skill_level": "high",
                    "tactics": {"declare": {"movement": "hold", "action": "kill"}},
                }
            ],
        },
    ],
}


def _write(tmp_path: Path, name: str = "duel.yaml", **extra) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({**DUEL, **extra}, sort_keys=False), encoding="utf-8")
    return path


def _cole_wins(path: Path) -> Fraction:
    solution = exact_fight(load_scenario(path)).solution
    return solution.probability(lambda e: e.winner == 0)


# -- run: the default auto ------------------------------------------------------------------------


def test_run_solves_a_duel_by_default_and_says_so(tmp_path):
    path = _write(tmp_path)
    shown = CliRunner().invoke(cli, ["run", str(path), "--json"])
    assert shown.exit_code == 0, shown.output
    assert "method: exact" in shown.stderr
    summary = json.loads(shown.stdout)
    assert summary["method"] == "exact"
    assert Fraction(summary["fractions"]["sides"]["soldier"]["win_rate"]) == _cole_wins(path)
    table = CliRunner().invoke(cli, ["run", str(path)])
    assert "small duel — exact (" in table.stdout


@pytest.mark.parametrize("flag", [["--runs", "40"], ["--seed", "9"], ["--detail"]])
def test_a_flag_that_asks_for_combats_samples_under_the_default(tmp_path, flag):
    shown = CliRunner().invoke(cli, ["run", str(_write(tmp_path)), "--json", *flag])
    assert shown.exit_code == 0, shown.output
    summary = json.loads(shown.stdout)
    assert "method" not in summary and summary["runs"] == (40 if "--runs" in flag else 60)
    assert summary["seed"] == (9 if "--seed" in flag else 3)
    assert shown.stderr == ""  # the default samples without a note: the title says combats


def test_explicit_auto_says_why_it_samples_and_exact_refuses_a_seed(tmp_path):
    path = _write(tmp_path)
    auto = CliRunner().invoke(cli, ["run", str(path), "--method", "auto", "--seed", "2"])
    assert auto.exit_code == 0 and "method: sample (--seed asks for combats)" in auto.stderr
    refused = CliRunner().invoke(cli, ["run", str(path), "--exact", "--seed", "2"])
    assert refused.exit_code == 2 and "not with --seed" in refused.output


def test_the_sampled_default_is_the_same_run_as_method_sample(tmp_path):
    path = _write(tmp_path)
    default = CliRunner().invoke(cli, ["run", str(path), "--runs", "50", "--json"])
    sample = CliRunner().invoke(
        cli, ["run", str(path), "--runs", "50", "--json", "--method", "sample"]
    )
    assert json.loads(default.stdout) == json.loads(sample.stdout)


def test_auto_refuses_by_estimate_before_solving_anything(tmp_path, monkeypatch):
    big = {**DUEL, "sides": [dict(s) for s in DUEL["sides"]]}
    for side in big["sides"]:
        side["combatants"] = [{**side["combatants"][0], "hp": 60}]
    path = tmp_path / "big.yaml"
    path.write_text(yaml.safe_dump(big, sort_keys=False), encoding="utf-8")

    def no_solve(*args, **kwargs):
        raise AssertionError("auto started solving a chain over its cap")

    monkeypatch.setattr(sim.exact.fight, "solve", no_solve)
    choice, fight = choose_method(load_scenario(path), "auto")
    assert fight is None and f"over auto's cap of {AUTO_CAP:,}" in choice.reason
    shown = CliRunner().invoke(cli, ["run", str(path), "--method", "auto", "--json"])
    assert shown.exit_code == 0 and "method: sample (about 3,721 states" in shown.stderr
    assert json.loads(shown.stdout)["runs"] == 60


# -- plot and report of an exact run ------------------------------------------------------------


def test_plot_and_report_of_an_exact_run(tmp_path):
    path, out = _write(tmp_path), tmp_path / "out"
    ran = CliRunner().invoke(cli, ["run", str(path), "--exact", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    assert not (out / "outcomes.parquet").exists()
    results = read_results(out)
    assert results.exact and results.kind == "run" and results.outcomes.empty
    plotted = CliRunner().invoke(cli, ["plot", str(out), "--format", "png"])
    assert plotted.exit_code == 0, plotted.output
    names = {Path(line).stem for line in plotted.stdout.split()}
    assert names == {"win_rates", "fight_length", "survival"}
    reported = CliRunner().invoke(cli, ["report", str(out)])
    assert reported.exit_code == 0, reported.output
    text = (out / "report.html").read_text(encoding="utf-8")
    rate = float(_cole_wins(path))
    assert "exact: the fight solved as a Markov chain" in text
    assert f"{rate:.1%}" in text and "zero width" in text
    assert "Win-rate intervals are 95% Wilson" not in text
    assert 'id="combatsim-run"' not in text  # nothing to play again


def test_the_exact_length_charts_draw_the_chains_law(tmp_path):
    path = _write(tmp_path)
    summary = json.loads(CliRunner().invoke(cli, ["run", str(path), "--exact", "--json"]).stdout)
    unit = TimeUnit(summary["round_s"])
    bars = plot_exact_length(summary, "x", unit).axes[0].patches
    assert sum(bar.get_height() for bar in bars) == pytest.approx(1.0, abs=1e-12)
    heights = {round(bar.get_x() + bar.get_width() / 2): bar.get_height() for bar in bars}
    for length, chance in summary["length"]["law"]:
        assert heights[round(length)] == pytest.approx(chance, abs=1e-12)
    line = plot_exact_survival(summary, "x", unit).axes[0].lines[0]
    still = np.asarray(line.get_ydata())
    assert still[0] == 1.0 and still[-1] == pytest.approx(0.0, abs=1e-12)
    assert np.all(np.diff(still) <= 1e-12)


# -- an exact sweep -----------------------------------------------------------------------------


def test_plot_and_report_of_an_exact_sweep(tmp_path):
    sweep = {"parameters": [{"path": "sides.soldier.combatants.Cole.weapon.bonus",
                             "label": "bonus", "values": [0, 3]}]}  # fmt: skip
    path, out = _write(tmp_path, sweep=sweep), tmp_path / "sw"
    ran = CliRunner().invoke(cli, ["sweep", str(path), "--method", "exact", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    assert {p.stem for p in (out / "plots").glob("*.png")} == {"win_rate_curve", "duration_curve"}
    assert (out / "meta.json").is_file() and (out / "scenario.yaml").is_file()
    reported = CliRunner().invoke(cli, ["report", str(out)])
    assert reported.exit_code == 0, reported.output
    text = (out / "report.html").read_text(encoding="utf-8")
    for bonus in (0, 3):
        data = {**DUEL, "sides": [dict(s) for s in DUEL["sides"]]}
        cole = {**DUEL["sides"][0]["combatants"][0]}
        cole["weapon"] = {**cole["weapon"], "bonus": bonus}
        data["sides"][0] = {**DUEL["sides"][0], "combatants": [cole]}
        point = tmp_path / f"p{bonus}.yaml"
        point.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        assert f"{float(_cole_wins(point)):.2%}" in text
    assert "exactly at every one of the 2 points" in text


# -- sensitivity --------------------------------------------------------------------------------

SENSITIVITY = {
    "side": "soldier",
    "runs": 20,
    "samples": 4,
    "oat_runs": 20,
    "parameters": [
        {"path": "sides.soldier.combatants.Cole.strength", "label": "STR", "low": 11, "high": 19},
        {"path": "sides.soldier.combatants.Cole.weapon.bonus", "label": "bonus", "low": 0,
         "high": 4},
    ],
}  # fmt: skip


def test_an_exact_study_has_the_exact_change_of_each_parameter(tmp_path):
    path = _write(tmp_path, sensitivity=SENSITIVITY)
    plan = plan_study(path)
    study, why = exact_study(plan, "exact")
    assert study is not None and why == ""
    for factor, found, (low, high) in zip(plan.factors, study.effects, plan.oat, strict=True):
        ends = [
            exact_fight(point.scenario).solution.probability(lambda e: e.winner == 0)
            for point in (low, high)
        ]
        assert found.change.estimate == float(ends[1] - ends[0])
        assert found.change.low == found.change.high == found.change.estimate
        assert study.summary["fractions"]["effects"][factor.label] == str(ends[1] - ends[0])
    assert study.effects[0].change.estimate > 0  # a stronger Cole hits harder


def test_sensitivity_method_exact_writes_a_study_that_plot_and_report_read(tmp_path):
    path, out = _write(tmp_path, sensitivity=SENSITIVITY), tmp_path / "st"
    ran = CliRunner().invoke(
        cli, ["sensitivity", str(path), "--method", "exact", "--out", str(out), "--json"]
    )
    assert ran.exit_code == 0, ran.output
    summary = json.loads(ran.stdout)
    assert summary["method"] == "exact" and summary["combats"] is None
    assert Fraction(summary["fractions"]["base"]) == _cole_wins(path)
    assert {p.stem for p in (out / "plots").glob("*.png")} == {"tornado", "sobol"}
    reported = CliRunner().invoke(cli, ["report", str(out)])
    assert reported.exit_code == 0, reported.output
    text = (out / "report.html").read_text(encoding="utf-8")
    assert "change, pts (exact)" in text and "a sensitivity study, solved exactly" in text


def test_sensitivity_auto_samples_a_study_with_a_point_no_chain_plays(tmp_path):
    moving = {**SENSITIVITY, "parameters": [
        *SENSITIVITY["parameters"],
        {"path": "sides.soldier.combatants.Cole.tactics.declare.movement", "label": "move",
         "values": ["hold", "advance"]},
    ]}  # fmt: skip
    path = _write(tmp_path, sensitivity=moving)
    with pytest.raises(NotExact, match="point p"):
        exact_study(plan_study(path), "exact")
    ran = CliRunner().invoke(
        cli,
        ["sensitivity", str(path), "--method", "auto", "--no-plots", "--out", str(tmp_path / "a")],
    )
    assert ran.exit_code == 0, ran.output
    assert "method: sample (point p" in ran.stderr
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert "method" not in summary and summary["combats"] > 0


def test_an_exact_tornado_has_no_whiskers_and_a_sampled_one_has(tmp_path):
    study, _ = exact_study(plan_study(_write(tmp_path, sensitivity=SENSITIVITY)), "exact")
    assert study is not None
    effects = effects_frame(study.plan.factors, study.effects)
    base = study.rate(study.plan.base)
    exact = plot_tornado(effects, base, "soldier", "x", exact=True).axes[0]
    assert not exact.collections  # no error bar: each change is exact
    assert all("(exact)" in t.get_text() for t in exact.texts)
    sampled = plot_tornado(effects, base, "soldier", "x").axes[0]
    assert len(sampled.collections) == len(effects)


def test_the_workbench_shows_an_exact_run(tmp_path):
    path, out = _write(tmp_path), tmp_path / "ws" / "exact-run"
    out.parent.mkdir()
    CliRunner().invoke(cli, ["run", str(path), "--exact", "--out", str(out)])
    page = view(Workspace(out.parent), "exact-run")
    assert page["kind"] == "run" and page["runs"] == 0 and not page["replay"]
    # Cole leads this duel (about 49% against 49%, the rest draws)
    assert page["verdict"].startswith(f"soldier wins {float(_cole_wins(path)):.1%} (exact")
    assert [c["stem"] for c in page["charts"][:3]] == ["win_rates", "fight_length", "survival"]
