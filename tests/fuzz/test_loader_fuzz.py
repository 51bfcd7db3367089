"""Fuzzing the loader: every mutated scenario loads, or is refused with located problems.

Hypothesis mutates every bundled scenario (see :mod:`tests.fuzz.mutations`) and each file must
either load or raise a :class:`ScenarioError` whose every problem names the file, a line, what
was found and what was expected; any other exception is a bug, and a load still running after
:data:`~tests.fuzz.harness.HANG_S` seconds is a hang. The normal run tries a bounded number of
files, derandomized so it never flakes; before a release run many more::

    COMBATSIM_FUZZ_EXAMPLES=10000 python -m pytest tests/fuzz -q

The limits themselves (a bomb refused, a deep file refused, thousands of unknown keys refused
quickly) are tested with exact files in ``tests/test_scenario_errors.py``.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli.app import cli
from tests.fuzz.harness import Hang, hang_guard, load_case, unlocated
from tests.fuzz.mutations import MUTATIONS, bundled, mutate

EXAMPLES = int(os.environ.get("COMBATSIM_FUZZ_EXAMPLES", "150"))
BUNDLED = bundled()

fuzz_settings = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_every_bundled_scenario_loads(tmp_path):
    for base in BUNDLED:
        path = tmp_path / base.name
        path.write_text(base.text, encoding="utf-8")
        outcome = load_case(path)
        assert outcome.loaded, [str(p) for p in outcome.problems]


@fuzz_settings
@given(base=st.sampled_from(BUNDLED), rng=st.randoms(use_true_random=False))
def test_mutated_scenario_loads_or_is_refused_with_located_problems(tmp_path_factory, base, rng):
    name, raw = mutate(base, rng)
    path = tmp_path_factory.mktemp("fuzz") / base.name
    path.write_bytes(raw)
    try:
        outcome = load_case(path)
    except Hang:
        pytest.fail(f"{name} of {base.name}: loading hangs")
    if not outcome.loaded:
        assert outcome.problems
        bad = unlocated(outcome.problems, str(path))
        assert not bad, f"{name} of {base.name}: " + "; ".join(str(p) for p in bad)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_each_mutation_is_tried(tmp_path, mutation):
    rng = random.Random(mutation.__name__)
    for base in rng.sample(BUNDLED, 2):
        path = tmp_path / base.name
        path.write_bytes(mutation(base, rng))
        try:
            outcome = load_case(path)
        except Hang:
            pytest.fail(f"{mutation.__name__} of {base.name}: loading hangs")
        assert not unlocated(outcome.problems, str(path)), base.name


#: Fuzzed files played through the real command line (a fixed sample: the CLI is slower).
CLI_SAMPLE = 16
#: Seconds after which a ``run --runs 2`` of a fuzzed file counts as a hang.
RUN_HANG_S = 60.0


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


def _clean(result, command: str) -> None:
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code in (0, 2), f"{command}: exit {result.exit_code}\n{output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{command}: {result.exception!r}"
    )
    assert "Traceback" not in output, f"{command}:\n{output}"


def test_cli_validate_and_run_on_fuzzed_files(tmp_path):
    rng = random.Random(10)
    ran = 0
    for k in range(CLI_SAMPLE):
        base = BUNDLED[k % len(BUNDLED)]
        name, raw = mutate(base, rng)
        path = tmp_path / f"{k}-{base.name}"
        path.write_bytes(raw)
        validated = _invoke("validate", str(path))
        _clean(validated, f"validate {name} of {base.name}")
        if validated.exit_code != 0:
            assert re.search(r":\d+: ", validated.output) or "problem" in validated.output
            continue
        ran += 1
        try:
            with hang_guard(RUN_HANG_S):
                played = _invoke("run", str(path), "--runs", "2", "--workers", "1")
        except Hang:
            pytest.fail(f"run {name} of {base.name}: still playing after {RUN_HANG_S} s")
        _clean(played, f"run {name} of {base.name}")
    assert ran, "no fuzzed file of the sample was valid: the run path went untested"
