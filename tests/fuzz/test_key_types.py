"""A key that is not text, at every mapping of every bundled scenario, is one located problem.

YAML reads ``true:``, ``5:``, ``1.5:``, ``~:`` and ``2001-01-01:`` as a boolean, numbers, null
and a date. Every mapping of a scenario is keyed by names, dotted paths or stats, so each such
key must be refused where the file is read, naming the file, the path of the key, its line, what
YAML read and what was expected, before anything else uses it (a variant's ``set: {true: 5}``
used to end in ``AttributeError: 'bool' object has no attribute 'split'``).

Every mapping of every bundled scenario gets such a key, added or in place of its first key, the
kinds of keys taken in turn; ``COMBATSIM_FUZZ_EXAMPLES`` above 1000 tries every kind at every
mapping (what a release run does, see :mod:`tests.fuzz.test_loader_fuzz`).
"""

from __future__ import annotations

import itertools
import os

import pytest
import yaml

from tests.fuzz.harness import Hang, load_case, unlocated
from tests.fuzz.mutations import NON_TEXT_KEYS, _dump, bundled, mappings, with_key

BUNDLED = bundled()
EVERY_KIND = int(os.environ.get("COMBATSIM_FUZZ_EXAMPLES", "150")) > 1000


def _written(key) -> str:
    """How the YAML dumper writes ``key`` (the step the problem's path names)."""
    return yaml.safe_dump({key: 1}).split(":", 1)[0] if key is not None else "null"


def _cases(base):
    kinds = itertools.cycle(NON_TEXT_KEYS)
    for k, path in enumerate(mappings(base.data)):
        keys = NON_TEXT_KEYS if EVERY_KIND else [next(kinds)]
        for key in keys:
            yield path, key, bool(k % 2)


def test_the_mappings_tried_cover_every_section():
    """The walk reaches the sections the issue names, so the test below cannot pass vacuously."""
    sections = {path[0] for base in BUNDLED for path in mappings(base.data) if path}
    assert {"options", "templates", "sides", "variants", "sweep", "strategies"} <= sections
    assert "sensitivity" in sections
    nested = {path[:1] + path[2:3] for base in BUNDLED for path in mappings(base.data)}
    assert ("variants", "set") in nested and ("sides", "combatants") in nested


@pytest.mark.parametrize("base", BUNDLED, ids=lambda b: b.name)
def test_a_key_that_is_not_text_is_refused_where_it_is(tmp_path, base):
    tried = 0
    for path, key, rename in _cases(base):
        case = tmp_path / f"{tried}-{base.name}"
        case.write_bytes(_dump(with_key(base.data, path, key, rename)))
        try:
            outcome = load_case(case)
        except Hang:
            pytest.fail(f"{base.name}: a key {key!r} at {path} hangs the loader")
        where = f"{base.name}: key {key!r} {'for the first key' if rename else 'added'} at {path}"
        assert not outcome.loaded, where
        assert not unlocated(outcome.problems, str(case)), where
        step = _written(key)
        mine = [p for p in outcome.problems if p.path == (*path, step)]
        assert mine, f"{where}: " + "; ".join(str(p) for p in outcome.problems)
        assert all("which YAML reads as" in p.found and "text" in p.expected for p in mine)
        tried += 1
    assert tried >= len(mappings(base.data))
