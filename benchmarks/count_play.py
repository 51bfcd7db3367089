"""What ``instructions.py`` runs under callgrind: warm-up combats, then the measured ones.

``python benchmarks/count_play.py FILE MODE WARM MEASURED`` plays ``WARM`` combats of a
reference (``FILE``: its scenario, or its bare loop for ``MODE`` ``bare``), then combats 0 to
``MEASURED`` - 1 again, each the bench's (seed 1, index k); ``MODE`` is ``engine`` or
``bare``. It imports only what
a combat needs: a heavier interpreter (pandas, the CLI) would make the garbage collector's full
passes, and so the count, larger and less steady.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sim.run.runner import run_chunk  # noqa: E402 (after the checkout is on the path)
from sim.scenario.loader import load_scenario  # noqa: E402

#: The seed of every benchmark combat (benchmarks/driver.py's SEED).
SEED = 1


def play(path: Path, mode: str, warm: int, measured: int) -> int:
    """Play the warm-up and the measured combats of ``path`` on ``mode``; how many in all."""
    if mode == "bare":
        spec = importlib.util.spec_from_file_location("combatsim_counted_bare", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for count in (warm, measured):
            for k in range(count):
                module.play_bare(SEED, k)
        return warm + measured
    scenario = load_scenario(path)
    run_chunk(scenario, SEED, 0, warm)
    if measured:
        run_chunk(scenario, SEED, 0, measured)
    return warm + measured


if __name__ == "__main__":
    file, mode, warm, measured = sys.argv[1:5]
    play(Path(file), mode, int(warm), int(measured))
