"""Instructions per combat of each reference duel: a count that repeats, unlike CPU time.

``combatsim bench`` times CPU seconds, which move with the other load on the machine (on a
shared machine by 10% or more from run to run). This counts the machine instructions the
interpreter executes per combat, with Valgrind's callgrind, so that two versions of the engine
can be compared to a fraction of a percent; issue 11's ratios (engine / bare loop, each
reference duel) were checked this way::

    python benchmarks/instructions.py [--combats 400] [--only target10 acs prop3] [--json]

For each reference duel (:data:`driver.REFERENCES`) and path (the engine, the bare loop),
callgrind runs
a fresh interpreter twice on ``count_play.py``, with ``PYTHONHASHSEED=0``: once playing
``combats`` warm-up combats, once playing them and then the same combats again (the caches
full, as in a long run). The difference over ``combats`` is the count per combat. A count
repeats exactly for one checkout; another path to the same checkout, or an unrelated change,
moves it by up to about half a percent (object addresses change how dicts and sets lay out).
Needs ``valgrind`` on the PATH.

The interpreters run with one BLAS thread (:data:`QUIET`). NumPy's OpenBLAS otherwise starts a
worker thread at import that spins while it waits; callgrind counts the spinning, which moves
with the machine's load by ten million instructions or more per process (``import numpy``
alone: 394 M with one thread, exactly, against 396-408 M with two). That noise is the same
size as the whole difference of a cheap loop (the bare Target 10 loop: about 27 M over 100
combats), and once gave it 2,266 instructions per combat instead of about 270,000.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from benchmarks import driver  # noqa: E402 (after the checkout is on the path)

#: The paths counted: the engine as it runs, the bare loop.
MODES = ("engine", "bare")

#: The environment of the counted interpreters: hashes fixed, and one thread in the BLAS
#: libraries NumPy loads, so that no idle thread spins under callgrind (see the module text).
QUIET = {
    "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def collected(stderr: str) -> int:
    """The instruction count callgrind reports (its ``Collected : N`` line)."""
    found = _COLLECTED.findall(stderr)
    if not found:
        raise RuntimeError(f"callgrind reported no count:\n{stderr[-2000:]}")
    return int(found[-1])


def count(rules: str, mode: str, combats: int) -> int:
    """Instructions per combat of one path: callgrind's count with the combats, less without."""
    ref = next(r for r in driver.REFERENCES if r.rules == rules)
    what = ref.bare if mode == "bare" else ref.scenario
    assert what is not None
    return count_file(ROOT / what, mode, combats)


def total(command: list[str]) -> int:
    """The instructions callgrind counts in one run of ``command`` (a Python command line)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    env = {**os.environ, **QUIET}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return collected(done.stderr)


def count_file(path: Path, mode: str, combats: int) -> int:
    """Instructions per combat of ``path`` (a scenario, or a bare loop for ``mode`` bare).

    Raises RuntimeError when the combats cost nothing or less: the difference is then noise.
    """
    totals = [
        total([sys.executable, str(HERE / "count_play.py"), str(path), mode, str(combats), str(n)])
        for n in (0, combats)
    ]
    if totals[1] <= totals[0]:
        raise RuntimeError(
            f"{path.name} ({mode}): {combats} combats counted {totals[1] - totals[0]:,} "
            "instructions: the count is noise"
        )
    return round((totals[1] - totals[0]) / combats)


def main(argv: list[str] | None = None) -> int:
    """Count and print instructions per combat; 2 when valgrind is missing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combats", type=int, default=400, help="measured combats (400)")
    parser.add_argument("--only", nargs="+", choices=[r.rules for r in driver.REFERENCES])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("error: valgrind is not on the PATH (apt-get install valgrind)", file=sys.stderr)
        return 2
    rows = []
    for ref in driver.REFERENCES:
        if args.only and ref.rules not in args.only:
            continue
        counts = {mode: count(ref.rules, mode, args.combats) for mode in MODES}
        rows.append(
            {
                "label": ref.label,
                "rules": ref.rules,
                **counts,
                "ratio": counts["bare"] / counts["engine"],
            }
        )
    if args.json:
        print(json.dumps({"combats": args.combats, "references": rows}))
        return 0
    print(f"instructions per combat ({args.combats} combats after as many to warm up)")
    print(f"{'reference':<24}{'engine':>12}{'bare':>12}{'bare/engine':>13}")
    for row in rows:
        ratio = f"{row['ratio']:.3f}"
        print(f"{row['label']:<24}{row['engine']:>12,}{row['bare']:>12,}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
