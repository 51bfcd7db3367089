"""``combatsim bench``: how fast the engine is, next to the bare SimPy loop of each duel.

The measurements and targets live with the benchmarks (``benchmarks/driver.py``); this command
finds them in the source tree (the current directory, or the checkout combatsim was installed
from in editable mode) and prints their result as tables, or as one JSON object.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import click
from rich.console import Console

import sim
from sim.cli import handles_bad_input
from sim.errors import CommandError

DRIVER = Path("benchmarks") / "driver.py"


def find_root() -> Path | None:
    """The source tree holding ``benchmarks/driver.py`` and ``scenarios/``, if any."""
    for candidate in (Path.cwd(), Path(sim.__file__).resolve().parent.parent):
        if (candidate / DRIVER).is_file() and (candidate / "scenarios").is_dir():
            return candidate
    return None


def load_driver(root: Path) -> ModuleType:
    """Import ``benchmarks/driver.py`` from the source tree."""
    name = "combatsim_bench_driver"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, root / DRIVER)
    if spec is None or spec.loader is None:
        raise CommandError(f"cannot load the benchmark driver {root / DRIVER}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option(
    "--combats",
    type=click.IntRange(10, 10**8),
    default=20_000,
    show_default=True,
    help="Combats per reference for each measurement.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 4096),
    default=None,
    help="Workers of the all-cores speed-up (default: every core).",
)
@click.option(
    "--speedup-combats",
    type=click.IntRange(10, 10**9),
    default=200_000,
    show_default=True,
    help="Combats of the two-workers target.",
)
@click.option(
    "--memory-combats",
    type=click.IntRange(10, 10**9),
    default=1_000_000,
    show_default=True,
    help="Target 10 combats of the memory target (streamed to a temporary directory).",
)
@handles_bad_input
def bench(
    as_json: bool, combats: int, workers: int | None, speedup_combats: int, memory_combats: int
) -> None:
    """Measure combats per second, SimPy events, speed-up and memory against the targets.

    For the reference duel of each rule system (and a 5-against-5 ACS melee): combats per
    second on one core, next to the duel's bare SimPy loop, and their ratio; SimPy events per
    combat; the speed-up of every core; peak memory. Then the targets of issue 7, pass or fail.
    With the default sizes it takes a few minutes. It needs the source tree (benchmarks/ and
    scenarios/): run it from a checkout.
    """
    root = find_root()
    if root is None:
        raise CommandError(
            "combatsim bench needs the source tree (benchmarks/driver.py and scenarios/); "
            "run it from a checkout of combatsim"
        )
    driver = load_driver(root)
    status = Console(stderr=True)
    say = None if as_json or not sys.stderr.isatty() else (lambda text: status.log(text))
    result = driver.run_bench(
        combats=combats,
        workers=workers,
        speedup_combats=speedup_combats,
        memory_combats=memory_combats,
        root=root,
        say=say,
    )
    if as_json:
        click.echo(json.dumps(result))
    else:
        driver.render(result, Console())
