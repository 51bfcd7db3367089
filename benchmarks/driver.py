"""The benchmarks behind ``combatsim bench`` (issue 7), and their targets.

For the reference duel of every rule system that has one (the table :data:`REFERENCES`) and for
the 5-against-5 ACS melee, it measures:

- combats per second on one core: the engine playing chunks in this process, and side by side
  (interleaved rounds on the same combats) the duel's bare SimPy loop ``play_bare(seed, k)``
  from this folder, and the ratio engine / bare loop. Rates are CPU seconds of this process,
  the best round of several, so other load on the machine counts as little as possible (the
  Target 10 duel plays its general round: it has no other path since issue 22);
- SimPy events per combat, engine and bare loop: counted on a benchmark-only subclass of
  ``simpy.Environment`` (the events each combat's environment processed), never in the engine;
- the speed-up of every core over one worker: wall clock, the same combats, each run as
  :func:`sim.run.api.simulate` plays it (chunks, records, the outcome table and its summary);
- peak memory (resident) of ``combatsim run --out`` on the same combats in one process.

Then the issue's targets: each duel at least half its bare loop; two workers at least 1.7x one
worker on 200,000 combats; one million Target 10 combats streamed to a directory under 200 MB,
within 15% of the peak at 150,000 (:data:`sim.cli.commands.bench.TARGETS`).

A rule system gets its row by adding a line to :data:`REFERENCES` (its scenario and its bare
loop); rows whose rule system is not registered, or whose files are missing, are left out.
"""

from __future__ import annotations

import importlib.util
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from types import ModuleType
from typing import Any, ClassVar
from unittest.mock import patch

import simpy
from rich.table import Table

import sim.engine.combat
from sim.cli.commands.bench import TARGETS, Target
from sim.engine.combat import CombatEnvironment
from sim.rules import RULE_SYSTEMS
from sim.run.api import Execution, simulate
from sim.run.parallel import available_cores
from sim.run.runner import DEFAULT_CHUNK, run_chunk
from sim.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Reference:
    """A reference scenario of the benchmarks.

    Attributes:
        label: its name in the table.
        rules: the rule system it belongs to (the row is left out unless it is registered).
        scenario: the scenario file, relative to the repository.
        bare: the bare SimPy loop with ``play_bare(seed, k)``, relative to the repository, or
            None (no yardstick: the melee).
    """

    label: str
    rules: str
    scenario: str
    bare: str | None = None


#: The reference duel of each rule system, with its bare loop.
REFERENCES: tuple[Reference, ...] = (
    Reference("ACS duel", "acs", "scenarios/acs-duel.yaml", "benchmarks/bare_acs.py"),
    Reference(
        "Target 10 duel",
        "target10",
        "scenarios/t10-cole-vs-francois.yaml",
        "benchmarks/bare_target10.py",
    ),
    # Its yardstick is an independent plain-Python loop (issue 26): bare_prop3.py calls the
    # engine's own rule functions, so it costs what they cost and measures nothing against them.
    Reference(
        "Proposition Three duel",
        "prop3",
        "scenarios/p3-moonbelly-vs-kronzer.yaml",
        "benchmarks/plain_prop3.py",
    ),
)

#: The many-combatant Proposition Three fight of issue 26's speed target (engine only).
HAMSTERS = "scenarios/p3-hamsters-vs-rats.yaml"
#: Its instructions per combat on main at 27deda1 (``benchmarks/instructions.py``, 20 combats
#: after as many to warm up), the "today" of the issue's "at least 3x faster".
HAMSTERS_BEFORE_INSTRUCTIONS = 9_212_769
#: Its combats per CPU second the issue measured on main (another day's machine and load: the
#: fallback where valgrind is missing is only indicative).
HAMSTERS_BEFORE_PER_S = 140.0
#: Combats of each hamsters count under callgrind (one combat is about 200 of the duel).
HAMSTER_COMBATS = 20

#: The many-combatant reference (engine only).
MELEE = Reference("ACS melee 5v5", "acs", "scenarios/acs-melee-5v5.yaml")

#: The sizes of the targets' runs (the targets themselves: ``TARGETS``, one table).
SPEEDUP_COMBATS = 200_000
MEMORY_COMBATS = 1_000_000

SEED = 1


def references(root: Path = ROOT) -> list[Reference]:
    """The references whose rule system is registered and whose files exist, then the melee."""
    found = []
    for ref in (*REFERENCES, MELEE):
        if ref.rules not in RULE_SYSTEMS or not (root / ref.scenario).is_file():
            continue
        if ref.bare is not None and not (root / ref.bare).is_file():
            continue
        found.append(ref)
    return found


def load_bare(path: Path) -> ModuleType:
    """Import a bare loop module from its file."""
    name = f"combatsim_bare_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the bare loop {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# -- measurements ---------------------------------------------------------------------------------


def one_core_rates(scenario: Any, play_bare: Any, combats: int, rounds: int = 7) -> dict:
    """Combats per CPU second of the engine and of the bare loop, in interleaved rounds.

    Each round plays the same combats with the engine, then with the bare loop, so load on a
    shared machine falls on both alike. Rates are medians over the rounds; ``ratio`` is the
    median of the rounds' engine / bare ratios and ``spread`` their lowest and highest (how far
    one round can be trusted).
    """
    per_round = max(combats // rounds, 1)

    def rate(play: Any) -> float:
        start = time.process_time()
        play()
        return per_round / max(time.process_time() - start, 1e-9)

    engine: list[float] = []
    bare: list[float] = []
    for _ in range(rounds):
        engine.append(rate(lambda: run_chunk(scenario, SEED, 0, per_round)))
        if play_bare is not None:
            bare.append(rate(lambda: [play_bare(SEED, k) for k in range(per_round)]))
    ratios = [e / b for e, b in zip(engine, bare, strict=True)] if bare else []
    return {
        "engine": median(engine),
        "bare": median(bare) if bare else None,
        "ratio": median(ratios) if ratios else None,
        "spread": [min(ratios), max(ratios)] if ratios else None,
        "rounds": rounds,
    }


class _CountingEnvironment(CombatEnvironment):
    """A combat's environment (a ``simpy.Environment``) that remembers itself and counts events.

    Every event processed goes through ``step`` (the engine and the bare loops run with
    ``env.run``); one that finds the queue empty processes none.
    """

    made: ClassVar[list[_CountingEnvironment]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.processed = 0
        _CountingEnvironment.made.append(self)

    def step(self) -> None:
        if self.peek() != math.inf:
            self.processed += 1
        super().step()


def events_per_combat(scenario: Any, play_bare: Any, combats: int) -> dict:
    """SimPy events processed per combat by the engine and by the bare loop."""
    counts: dict[str, float | None] = {}
    with (
        patch.object(simpy, "Environment", _CountingEnvironment),
        patch.object(sim.engine.combat, "CombatEnvironment", _CountingEnvironment),
    ):
        for name, play in (("engine", None), ("bare", play_bare)):
            if name == "bare" and play_bare is None:
                counts[name] = None
                continue
            _CountingEnvironment.made = []
            if play is None:
                run_chunk(scenario, SEED, 0, combats)
            else:
                for k in range(combats):
                    play(SEED, k)
            made = _CountingEnvironment.made
            processed = sum(env.processed for env in made)
            counts[name] = processed / max(len(made), 1)
    _CountingEnvironment.made = []
    return counts


#: Interleaved rounds of the two-workers target (the median of their ratios is judged).
SPEEDUP_ROUNDS = 3

#: Interleaved rounds of the memory targets (the smaller and the larger run, in turn). A polled
#: peak is the run's own need plus what the allocator and the timing of chunks add in passing
#: (the same 1,000,000 combats peaked at 120 and at 133 MB on one machine), so each size is
#: judged on its lowest peak, and the spread shows the highest.
MEMORY_ROUNDS = 2


def wall_rate(scenario: Any, combats: int, workers: int) -> float:
    """Combats per wall-clock second of :func:`sim.run.api.simulate` with ``workers``.

    Chunks are the default size, or smaller for a short run, so that every worker gets several.
    The worker processes are started before the clock starts (a run reuses them).
    """
    chunk = max(50, min(DEFAULT_CHUNK, combats // (workers * 8)))
    if workers > 1:
        simulate(
            scenario,
            runs=2 * workers,
            seed=SEED,
            execution=Execution(workers=workers, chunk_size=1),
        )
    start = time.perf_counter()
    simulate(
        scenario, runs=combats, seed=SEED, execution=Execution(workers=workers, chunk_size=chunk)
    )
    return combats / (time.perf_counter() - start)


def peak_memory(scenario_file: Path, combats: int, workers: int) -> dict:
    """Peak resident memory (MB) of ``combatsim run SCENARIO --out DIR``, in a fresh process.

    The command line itself is measured (what a user runs: it picks Arrow's allocator, see
    ``sim.cli.app.ARROW_POOL``), with seed 1 and ``--workers``. Returns the run process's peak,
    the largest worker's, and the peak of all together.
    """
    # psutil is not a declared dependency (dask[distributed] brings it): only this target needs it.
    import psutil

    with tempfile.TemporaryDirectory(prefix="combatsim-bench-") as out:
        command = [sys.executable, "-m", "sim", "run", str(scenario_file), "--runs", str(combats)]
        command += ["--seed", "1", "--out", str(Path(out) / "run"), "--workers", str(workers)]
        proc = subprocess.Popen([*command, "--quiet"], stdout=subprocess.DEVNULL)
        main = psutil.Process(proc.pid)
        peak_main = peak_worker = peak_total = 0
        while proc.poll() is None:
            try:
                rss_main = main.memory_info().rss
                workers_rss = [c.memory_info().rss for c in main.children(recursive=True)]
            except psutil.Error:
                break
            peak_main = max(peak_main, rss_main)
            peak_worker = max([peak_worker, *workers_rss])
            peak_total = max(peak_total, rss_main + sum(workers_rss))
            time.sleep(0.05)
        proc.wait()
        if proc.returncode != 0:
            raise RuntimeError(f"the memory run failed (exit code {proc.returncode})")
    mb = 1024 * 1024
    return {
        "main_mb": peak_main / mb,
        "worker_mb": peak_worker / mb if peak_worker else None,
        "total_mb": peak_total / mb,
        "runs": combats,
    }


# -- the whole bench ------------------------------------------------------------------------------

#: Combats each instruction count plays under callgrind (after as many to warm up).
INSTRUCTION_COMBATS = 100


def instruction_counts(root: Path, combats: int, say: Any) -> dict[str, dict[str, int]]:
    """Instructions per combat of the judged paths (``benchmarks/instructions.py``), by rules."""
    counter = load_bare(root / "benchmarks" / "instructions.py")
    paths = {
        "acs": ("engine", "bare"),
        "target10": ("engine", "bare"),
        "prop3": ("engine", "bare"),
    }
    counts: dict[str, dict[str, int]] = {}
    for rules, modes in paths.items():
        if rules not in RULE_SYSTEMS:
            continue
        for mode in modes:
            say(f"instructions: {rules} {mode} ({combats} combats under callgrind)")
            counts.setdefault(rules, {})[mode] = counter.count(rules, mode, combats)
    if "prop3" in RULE_SYSTEMS and (root / HAMSTERS).is_file():
        say(f"instructions: hamsters against rats ({HAMSTER_COMBATS} combats under callgrind)")
        counts["hamsters"] = {
            "engine": counter.count_file(root / HAMSTERS, "engine", HAMSTER_COMBATS)
        }
    return counts


def hamster_rate(root: Path, combats: int, rounds: int) -> dict | None:
    """Combats per CPU second of the hamsters against rats, median of ``rounds`` rounds.

    Each round plays new combats (its fight caches fill over thousands of combats, so the same
    combats again would run faster than a run does).
    """
    if "prop3" not in RULE_SYSTEMS or not (root / HAMSTERS).is_file():
        return None
    scenario = load_scenario(root / HAMSTERS)
    rates = []
    for r in range(rounds):
        start = time.process_time()
        run_chunk(scenario, SEED, r * combats, (r + 1) * combats)
        rates.append(combats / max(time.process_time() - start, 1e-9))
    return {
        "per_s": median(rates),
        "spread": [min(rates), max(rates)],
        "combats": combats,
        "rounds": rounds,
    }


#: How far an instruction ratio may stray from the CPU-time ratio of the same run before the
#: count is rejected as broken (a factor: they agreed within 20% on every reference so far).
PLAUSIBLE = 2.0


def plausible(instruction_ratio: float, cpu_ratio: float | None) -> bool:
    """Whether an instruction ratio (bare / engine) can be right, next to the CPU-time ratio.

    Instructions and CPU time measure the same work, so their ratios agree to a few tens of
    percent; a count that is off by more than :data:`PLAUSIBLE` is broken (a bare loop once
    counted 2,266 instructions per combat instead of about 270,000: ratio 0.003 against a CPU
    ratio of 0.41), and the bench judges the target on CPU time instead, saying why.
    """
    if cpu_ratio is None or cpu_ratio <= 0 or instruction_ratio <= 0:
        return cpu_ratio is None and instruction_ratio > 0
    return 1 / PLAUSIBLE <= instruction_ratio / cpu_ratio <= PLAUSIBLE


def run_bench(
    combats: int = 20_000,
    workers: int | None = None,
    speedup_combats: int = SPEEDUP_COMBATS,
    memory_combats: int = MEMORY_COMBATS,
    root: Path = ROOT,
    say: Any = None,
    rounds: int = 7,
    instructions: bool = False,
    instruction_combats: int = INSTRUCTION_COMBATS,
) -> dict[str, Any]:
    """Measure every reference and judge the targets (:data:`TARGETS`); the result is JSON-ready.

    The result: ``machine`` (cores, Python, SimPy, platform, load average), ``combats``,
    ``references`` (one mapping per reference: label, rules, scenario, bare_loop, combats,
    engine_per_s, bare_per_s, ratio, ratio_spread,
    events_per_combat, bare_events_per_combat, workers, one_worker_per_s, all_cores_per_s,
    speedup, peak_memory_mb; the bare loop's are None for the melee), ``instructions`` (per
    combat, by rule system and path, or None when not counted) and ``targets`` (one per row
    of :data:`TARGETS`: key, target, measured, limit, unit, measure, spread, passed: True,
    False, or None with ``why`` when it could not be measured).

    Args:
        combats: combats per reference for each measurement.
        workers: the "all cores" of the speed-up (default: every core).
        speedup_combats: combats of the two-workers target.
        memory_combats: Target 10 combats of the memory targets.
        root: the repository (scenarios and bare loops are found from there).
        say: called with a line of text as each step starts (progress), or None.
        rounds: interleaved rounds of the CPU-time ratios (their median is judged).
        instructions: count instructions per combat with callgrind (the ratios are judged on
            them, which repeat exactly, instead of CPU time).
        instruction_combats: combats of each instruction count.
    """
    say = say or (lambda text: None)
    cores = available_cores()
    workers = workers or cores
    rows = []
    for ref in references(root):
        scenario = load_scenario(root / ref.scenario)
        play_bare = load_bare(root / ref.bare).play_bare if ref.bare else None
        say(f"{ref.label}: one core, {rounds} interleaved rounds")
        rates = one_core_rates(scenario, play_bare, combats, rounds=rounds)
        say(f"{ref.label}: events")
        events = events_per_combat(scenario, play_bare, min(combats, 2000))
        say(f"{ref.label}: 1 and {workers} workers")
        serial = wall_rate(scenario, combats, 1)
        parallel = wall_rate(scenario, combats, workers) if workers > 1 else serial
        say(f"{ref.label}: memory")
        memory = peak_memory(root / ref.scenario, combats, 1)
        rows.append(
            {
                "label": ref.label,
                "rules": ref.rules,
                "scenario": ref.scenario,
                "bare_loop": ref.bare,
                "combats": combats,
                "engine_per_s": rates["engine"],
                "bare_per_s": rates["bare"],
                "ratio": rates["ratio"],
                "ratio_spread": rates["spread"],
                "events_per_combat": events["engine"],
                "bare_events_per_combat": events["bare"],
                "workers": workers,
                "one_worker_per_s": serial,
                "all_cores_per_s": parallel,
                "speedup": parallel / serial,
                "peak_memory_mb": memory["main_mb"],
                "rounds": rounds,
            }
        )
    counts = instruction_counts(root, instruction_combats, say) if instructions else None
    say("hamsters against rats: one core")
    hamsters = hamster_rate(root, max(10, combats // 200), rounds)
    targets = _targets(rows, cores, speedup_combats, memory_combats, root, say, counts)
    targets.insert(
        3, _hamsters_target(next(t for t in TARGETS if t.key == "hamsters_speed"), hamsters, counts)
    )
    return {
        "machine": {
            "cores": cores,
            "python": platform.python_version(),
            "simpy": simpy.__version__,
            "platform": platform.platform(),
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        },
        "combats": combats,
        "references": rows,
        "instructions": counts,
        "targets": targets,
    }


def _judged(
    target: Target,
    measured: float,
    spread: Any,
    measure: str,
    limit: float | None = None,
    unit: str | None = None,
    **extra: Any,
) -> dict:
    """A target's verdict; ``limit`` and ``unit`` are the target's unless a count decides it."""
    return {
        "key": target.key,
        "target": target.text,
        "measured": measured,
        "limit": target.limit if limit is None else limit,
        "unit": target.unit if unit is None else unit,
        "measure": measure,
        "spread": spread,
        "passed": target.passes(measured, extra.get("instructions_per_combat")),
        **extra,
    }


def _cpu(rounds: int) -> str:
    return f"CPU time, median of {rounds} interleaved rounds (spread: lowest and highest round)"


def _ratio_target(target: Target, row: dict | None, counts: dict | None) -> dict:
    """A floor of engine / bare loop: on instruction counts where counted, else CPU time."""
    if row is None or row["ratio"] is None:
        return _not_measured(target, "no reference duel with a bare loop for these rules")
    engine = "engine"
    counted = (counts or {}).get(row["rules"], {})
    cpu_ratio, cpu_spread = row["ratio"], row["ratio_spread"]
    if engine in counted and "bare" in counted:
        counted_ratio = counted["bare"] / counted[engine]
        if not plausible(counted_ratio, cpu_ratio):
            return _judged(
                target,
                cpu_ratio,
                cpu_spread,
                _cpu(row["rounds"]) + " (the instruction count was rejected)",
                instructions_rejected=(
                    f"bare / engine {counted_ratio:.3f} in instructions ({counted['bare']:,} / "
                    f"{counted[engine]:,}) against {cpu_ratio:.3f} in CPU time: more than "
                    f"{PLAUSIBLE:g}x apart, so the count is broken"
                ),
            )
        if target.alternative is not None:  # the count itself decides: show it, not the share
            return _judged(
                target,
                counted[engine],
                None,
                "instructions per combat (callgrind), at most the limit; they repeat exactly",
                limit=target.alternative,
                unit="instructions",
                instructions_per_combat=counted[engine],
                bare_instructions_per_combat=counted["bare"],
                bare_ratio=counted_ratio,
                cpu_ratio=cpu_ratio,
                cpu_spread=cpu_spread,
            )
        return _judged(
            target,
            counted_ratio,
            None,
            "instructions per combat (callgrind), bare / engine; they repeat exactly",
            instructions_per_combat=counted[engine],
            bare_instructions_per_combat=counted["bare"],
            cpu_ratio=cpu_ratio,
            cpu_spread=cpu_spread,
        )
    return _judged(target, cpu_ratio, cpu_spread, _cpu(row["rounds"]))


def _hamsters_target(target: Target, rate: dict | None, counts: dict | None) -> dict:
    """Hamsters against rats: how many times faster than on main at 27deda1."""
    if rate is None:
        return _not_measured(target, "no Proposition Three or no hamsters scenario")
    counted = (counts or {}).get("hamsters", {}).get("engine")
    cpu = rate["per_s"] / HAMSTERS_BEFORE_PER_S
    if counted:
        return _judged(
            target,
            HAMSTERS_BEFORE_INSTRUCTIONS / counted,
            None,
            "instructions per combat (callgrind) on main at 27deda1 over this checkout's",
            instructions_per_combat=counted,
            before_instructions_per_combat=HAMSTERS_BEFORE_INSTRUCTIONS,
            per_s=rate["per_s"],
        )
    low, high = rate["spread"]
    return _judged(
        target,
        cpu,
        [low / HAMSTERS_BEFORE_PER_S, high / HAMSTERS_BEFORE_PER_S],
        f"combats per CPU second, median of {rate['rounds']} rounds, over the issue's "
        f"{HAMSTERS_BEFORE_PER_S:g} on main (another day's load: indicative only)",
        per_s=rate["per_s"],
    )


def _targets(
    rows: list[dict],
    cores: int,
    speedup_combats: int,
    memory_combats: int,
    root: Path,
    say: Any,
    counts: dict | None,
) -> list[dict]:
    by_key = {t.key: t for t in TARGETS}
    by_rules = {row["rules"]: row for row in rows if row["bare_per_s"] is not None}
    targets = [
        _ratio_target(by_key["acs_floor"], by_rules.get("acs"), counts),
        _ratio_target(by_key["target10_floor"], by_rules.get("target10"), counts),
        _ratio_target(by_key["prop3_speed"], by_rules.get("prop3"), counts),
    ]
    t10 = by_rules.get("target10")
    peak, flat = by_key["memory_peak"], by_key["memory_flat"]
    if t10 is None:
        targets += [_not_measured(t, "no Target 10 reference") for t in (peak, flat)]
    else:
        small = max(10, round(memory_combats * 0.15))
        found: dict[int, list[dict]] = {small: [], memory_combats: []}
        for _ in range(MEMORY_ROUNDS):
            for runs in (small, memory_combats):
                say(f"memory: {runs:,} combats of the {t10['label']} streamed to a directory")
                found[runs].append(peak_memory(root / t10["scenario"], runs, cores))
        big = min(found[memory_combats], key=_largest)
        largest, before = _largest(big), min(map(_largest, found[small]))
        highest = max(map(_largest, found[memory_combats]))
        measure = (
            "peak resident memory of the largest process (polled every 50 ms), the lowest of "
            f"{MEMORY_ROUNDS} interleaved runs (spread: lowest and highest)"
        )
        extra = {"combats": memory_combats, "workers": cores}
        targets.append(
            _judged(
                peak,
                largest,
                [largest, highest],
                measure,
                run_process_mb=big["main_mb"],
                largest_worker_mb=big["worker_mb"],
                all_processes_mb=big["total_mb"],
                **extra,
            )
        )
        targets.append(
            _judged(
                flat,
                largest / before,
                [largest / max(map(_largest, found[small])), highest / before],
                measure,
                smaller_combats=small,
                smaller_peak_mb=before,
                peak_mb=largest,
                **extra,
            )
        )
    targets.append(
        _speedup_target(by_key["two_workers"], by_rules, cores, speedup_combats, root, say)
    )
    return targets


def _largest(memory: dict) -> float:
    """The peak of the largest process of a memory run (:func:`peak_memory`), in MB."""
    return max(memory["main_mb"], memory["worker_mb"] or 0.0)


def _speedup_target(
    target: Target, by_rules: dict, cores: int, combats: int, root: Path, say: Any
) -> dict:
    """Two workers against one, wall clock, in interleaved rounds (the median is judged)."""
    heavy = by_rules.get("target10") or by_rules.get("acs")
    if heavy is None:
        return _not_measured(target, "no Target 10 or ACS reference")
    if cores < 2:
        return _not_measured(target, "this machine has 1 core")
    scenario = load_scenario(root / heavy["scenario"])
    say(f"two workers on {combats:,} combats of the {heavy['label']}")
    ones, twos = [], []
    for _ in range(SPEEDUP_ROUNDS):
        ones.append(wall_rate(scenario, combats, 1))
        twos.append(wall_rate(scenario, combats, 2))
    ratios = [two / one for one, two in zip(ones, twos, strict=True)]
    return _judged(
        target,
        median(ratios),
        [min(ratios), max(ratios)],
        f"wall clock, median of {SPEEDUP_ROUNDS} interleaved rounds (only as good as the idle "
        "cores of the machine)",
        reference=heavy["label"],
        combats=combats,
        one_worker_per_s=median(ones),
        two_workers_per_s=median(twos),
    )


def _not_measured(target: Target, why: str) -> dict:
    return {
        "key": target.key,
        "target": target.text,
        "measured": None,
        "limit": target.limit,
        "unit": target.unit,
        "measure": None,
        "spread": None,
        "passed": None,
        "why": why,
    }


def failed(result: dict[str, Any]) -> list[str]:
    """The keys of the targets measured and missed (the bench's exit code says whether any)."""
    return [t["key"] for t in result["targets"] if t["passed"] is False]


def render(result: dict[str, Any], console: Any) -> None:
    """Print a bench result as two tables (references, then targets)."""
    machine = result["machine"]
    load = machine.get("load_average")
    table = Table(
        title=f"combatsim bench — {machine['cores']} cores, Python {machine['python']}, "
        f"SimPy {machine['simpy']}" + (f", load {load[0]:.2f}" if load else ""),
        title_justify="left",
    )
    workers = result["references"][0]["workers"] if result["references"] else 1
    for name in (
        "reference",
        "1 core/s",
        "bare/s",
        "eng/bare",
        "events",
        "bare ev.",
        f"x{workers}",
        "peak MB",
    ):
        table.add_column(name, justify="left" if name == "reference" else "right")
    for row in result["references"]:
        bare_events = row["bare_events_per_combat"]
        table.add_row(
            row["label"],
            f"{row['engine_per_s']:,.0f}",
            "" if row["bare_per_s"] is None else f"{row['bare_per_s']:,.0f}",
            "" if row["ratio"] is None else f"{row['ratio']:.0%}",
            f"{row['events_per_combat']:.1f}",
            "" if bare_events is None else f"{bare_events:.1f}",
            f"{row['speedup']:.2f}",
            f"{row['peak_memory_mb']:.0f}",
        )
    console.print(table)
    console.print(
        f"combats/s: CPU time of one process, median of {result['references'][0]['rounds']} "
        "interleaved rounds; eng/bare: median of the rounds' ratios; events: SimPy events "
        "per combat; "
        f"x{workers}: wall-clock speed-up with {workers} workers; peak MB: resident memory of "
        "one process streaming the run to a directory"
    )
    targets = Table(title="targets", title_justify="left")
    for name in ("target", "measured", "spread", "limit", "result"):
        targets.add_column(name, justify="left" if name == "target" else "right")
    for target in result["targets"]:
        if target["passed"] is None:
            targets.add_row(target["target"], "", "", "", f"not measured: {target['why']}")
            continue
        if target["measured"] is None:  # missed without a measure: an exact solve refused
            targets.add_row(target["target"], "", "", "", "[red]FAIL[/red] (refused: see below)")
            continue
        unit = target["unit"]

        def show(value: float, unit: str = unit) -> str:
            if unit == "ratio":
                return f"{value:.0%}"
            if unit == "instructions":
                return f"{value:,.0f} instr."
            if unit == "s":
                return f"{value:.3f} s"
            return f"{value:.3f}x" if unit == "x" else f"{value:.0f} MB"  # 1.151x is not 1.150x

        spread = target["spread"]
        shown = "" if spread is None else f"{show(spread[0])}-{show(spread[1])}"
        measured = show(target["measured"])
        if "instructions_per_combat" in target and unit != "instructions":
            measured += f" ({target['instructions_per_combat']:,} instr.)"
        verdict = "[green]pass[/green]" if target["passed"] else "[red]FAIL[/red]"
        targets.add_row(target["target"], measured, shown, show(target["limit"]), verdict)
    console.print(targets)
    measures = sorted({t["measure"] for t in result["targets"] if t["measure"]})
    console.print("measured as: " + "; ".join(measures))
