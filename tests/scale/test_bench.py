"""``combatsim bench``: the documented shape of its JSON and its table (never its timings)."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner
from rich.console import Console

from sim.cli.app import cli
from sim.cli.commands.bench import find_root, load_driver, render_exact, render_plans

ROW_KEYS = {
    "label",
    "rules",
    "scenario",
    "bare_loop",
    "combats",
    "engine_per_s",
    "bare_per_s",
    "ratio",
    "events_per_combat",
    "bare_events_per_combat",
    "workers",
    "one_worker_per_s",
    "all_cores_per_s",
    "speedup",
    "peak_memory_mb",
}
TARGET_KEYS = {"target", "measured", "limit", "unit", "passed"}
PLAN_KEYS = {
    "label",
    "combats",
    "workers",
    "chunk_size",
    "one_core_per_s",
    "reason",
    "chosen_s",
    "one_worker_s",
    "speedup",
}


def test_bench_json_has_the_documented_shape():
    args = ["bench", "--json", "--combats", "30", "--workers", "2"]
    args += ["--speedup-combats", "60", "--memory-combats", "60"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"machine", "combats", "references", "targets", "plans", "exact"}
    assert {"cores", "python", "simpy", "platform", "load_average"} <= set(report["machine"])
    rows = {row["label"]: row for row in report["references"]}
    assert {"ACS duel", "ACS melee 5v5"} <= set(rows)
    for row in rows.values():
        assert set(row) == ROW_KEYS
        assert row["engine_per_s"] > 0 and row["events_per_combat"] > 0
        assert row["peak_memory_mb"] > 0 and row["workers"] == 2
    duel = rows["ACS duel"]
    assert duel["bare_per_s"] > 0 and duel["bare_events_per_combat"] > 0
    assert duel["ratio"] == duel["engine_per_s"] / duel["bare_per_s"]
    assert rows["ACS melee 5v5"]["bare_per_s"] is None
    names = [target["target"] for target in report["targets"]]
    assert any(name.startswith("ACS duel >= 50%") for name in names)
    assert any("two workers" in name for name in names)
    assert any("Target 10 combats with --out" in name for name in names)
    for target in report["targets"]:
        assert set(target) >= TARGET_KEYS
        assert target["passed"] in (True, False, None)

    # The work plan of a short and a longer run of each reference, against one worker.
    plans = {(row["label"], row["combats"]): row for row in report["plans"]}
    assert set(plans) >= {("ACS duel", 10), ("ACS duel", 30)}
    for row in plans.values():
        assert set(row) == PLAN_KEYS
        assert row["workers"] >= 1 and row["chunk_size"] >= 1 and row["one_core_per_s"] > 0
        assert row["speedup"] == row["one_worker_s"] / row["chosen_s"]
    # 10 combats of a duel are far below the 2 s that call for a pool.
    assert plans[("ACS duel", 10)]["workers"] == 1

    # The exact engine's time next to the sampler's to reach ±0.5 points (the Target 10 duel).
    exact = {row["label"]: row for row in report["exact"]}
    assert "Target 10 duel" in exact
    for row in exact.values():
        assert set(row) == {"label", "states", "exact_s", "sample_combats", "sample_s"}
        assert row["states"] > 0 and row["exact_s"] > 0 and row["sample_combats"] > 0

    # The same result as tables, with pass or fail per target.
    out = io.StringIO()
    console = Console(file=out, width=160)
    load_driver(find_root()).render(report, console)
    render_plans(report["plans"], console)
    render_exact(report["exact"], console)
    text = out.getvalue()
    assert "ACS duel" in text and "targets" in text
    assert ("pass" in text) or ("FAIL" in text)
    assert "work plan" in text and "--workers 1" in text
    assert "exact engine against the sampler" in text


def test_bench_has_help_that_says_what_the_targets_are():
    result = CliRunner().invoke(cli, ["bench", "--help"])
    assert result.exit_code == 0 and "--combats" in result.output and "--json" in result.output
    text = " ".join(result.output.split())
    assert "issue 7" not in text
    assert "at least 50% as fast as its bare SimPy loop" in text
    assert "at least 1.7 times as fast as one on 200,000 combats" in text
    assert "one million Target 10 combats" in text and "under 250 MB" in text
    driver = load_driver(find_root())  # the help's numbers are the driver's targets
    assert (driver.BARE_RATIO, driver.TWO_WORKER_SPEEDUP) == (0.5, 1.7)
    assert (driver.SPEEDUP_COMBATS, driver.MEMORY_COMBATS) == (200_000, 1_000_000)
    assert driver.MEMORY_LIMIT_MB == 250.0
