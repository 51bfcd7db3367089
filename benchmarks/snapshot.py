"""Write a snapshot of how every bundled scenario plays, to diff two trees byte for byte.

For every scenario of ``scenarios/`` (its base, each variant and each tournament cell), the
outcome table and the per-combatant table of ``--runs`` combats at ``--seed``, and the narrated
replays of its first two combats, one file each in ``OUT``. A restructuring that must not change
behaviour leaves the snapshot byte for byte the same::

    python benchmarks/snapshot.py /tmp/before        # on the old tree
    python benchmarks/snapshot.py /tmp/after         # on the new tree
    diff -r /tmp/before /tmp/after                   # nothing

It calls only the library's public face (``load_scenario``, ``simulate``, ``replay``) and the
scenario layer's variants and strategies, so it runs unchanged across a move of the run layer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim import Execution, load_scenario, replay, simulate
from sim.scenario.loader import scenario_from_dict
from sim.scenario.strategies import cell_data, strategies_of
from sim.scenario.variants import arms

ROOT = Path(__file__).resolve().parent.parent


def _arms(path: Path):
    scenario = load_scenario(path)
    yield from arms(scenario).items()
    if scenario.data.get("strategies"):
        rows, columns = strategies_of(scenario)
        for row in rows:
            for column in columns:
                data = cell_data(scenario.data, row, column)
                yield f"{row.name}-{column.name}", scenario_from_dict(data, file=scenario.file)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", nargs="*", help="scenario file stems to snapshot")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        if args.only and path.stem not in args.only:
            continue
        for arm, scenario in _arms(path):
            stem = f"{path.stem}.{arm}"
            result = simulate(
                scenario,
                runs=args.runs,
                seed=args.seed,
                detail=True,
                execution=Execution(workers=1),
            )
            result.outcomes.to_csv(args.out / f"{stem}.outcomes.csv", index=False)
            assert result.combatants is not None
            result.combatants.to_csv(args.out / f"{stem}.combatants.csv", index=False)
            for k in (0, 1):
                text = replay(scenario, k, seed=args.seed)
                (args.out / f"{stem}.replay{k}.txt").write_text(text, encoding="utf-8")
        print(path.stem, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
