"""The long fuzz run, for before a release: many mutated scenarios, and the numbers.

    PYTHONPATH=. python -m tests.fuzz.long_run --cases 10000 --seed 1

Each case is one mutated bundled scenario (:mod:`tests.fuzz.mutations`) loaded under the hang
guard (:mod:`tests.fuzz.harness`). The report counts loads, refusals, refusals with a problem
that is not located, tracebacks (any exception other than a ``ScenarioError``) and hangs, and
the slowest case; the files behind a traceback, a hang or an unlocated problem are kept in
``--keep`` to replay. It exits 1 when there is any traceback, hang or unlocated problem.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from tests.fuzz.harness import Hang, load_case, unlocated
from tests.fuzz.mutations import bundled, mutate


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print the report as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "fuzz-kept")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bases = bundled()
    counts: collections.Counter[str] = collections.Counter()
    by_mutation: collections.Counter[str] = collections.Counter()
    slowest = (0.0, "")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        for case in range(args.cases):
            base = rng.choice(bases)
            name, raw = mutate(base, rng)
            by_mutation[name] += 1
            path = Path(work) / f"case-{case}.yaml"
            path.write_bytes(raw)
            what = f"case {case}: {name} of {base.name}"
            try:
                outcome = load_case(path)
            except Hang:
                counts["hangs"] += 1
                _keep(args.keep, path, raw, what, "hang")
                continue
            except Exception:
                counts["tracebacks"] += 1
                _keep(args.keep, path, raw, what, traceback.format_exc())
                continue
            counts["loads" if outcome.loaded else "refusals"] += 1
            if unlocated(outcome.problems, str(path)):
                counts["unlocated"] += 1
                _keep(args.keep, path, raw, what, "\n".join(map(str, outcome.problems)))
            if outcome.seconds > slowest[0]:
                slowest = (outcome.seconds, what)
            if (case + 1) % 250 == 0:
                done = f"{case + 1} cases, {dict(counts)}, slowest {slowest[0]:.2f} s"
                print(done, file=sys.stderr, flush=True)
    report = {
        "cases": args.cases,
        "seed": args.seed,
        "loads": counts["loads"],
        "refusals": counts["refusals"],
        "unlocated": counts["unlocated"],
        "tracebacks": counts["tracebacks"],
        "hangs": counts["hangs"],
        "max_seconds_per_case": round(slowest[0], 3),
        "slowest_case": slowest[1],
        "wall_seconds": round(time.perf_counter() - started, 1),
        "by_mutation": dict(sorted(by_mutation.items())),
    }
    print(json.dumps(report, indent=2))
    return 1 if counts["tracebacks"] or counts["hangs"] or counts["unlocated"] else 0


def _keep(folder: Path, path: Path, raw: bytes, what: str, why: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / path.name).write_bytes(raw)
    (folder / f"{path.name}.txt").write_text(f"{what}\n{why}\n", encoding="utf-8")
    print(f"kept {what}: {why.strip().splitlines()[-1][:200]}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
