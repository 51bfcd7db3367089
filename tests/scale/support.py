"""Helpers shared by the scale tests."""

from __future__ import annotations

import math


def assert_close(found, expected, rel=1e-12, path="summary"):
    """Nested mappings and lists equal, real numbers to ``rel`` (sums added in another order)."""
    if isinstance(expected, dict):
        assert isinstance(found, dict) and found.keys() == expected.keys(), path
        for key in expected:
            assert_close(found[key], expected[key], rel, f"{path}.{key}")
    elif isinstance(expected, list | tuple):
        assert len(found) == len(expected), path
        for i, (a, b) in enumerate(zip(found, expected, strict=True)):
            assert_close(a, b, rel, f"{path}[{i}]")
    elif isinstance(expected, float) and not isinstance(found, bool):
        assert math.isclose(found, expected, rel_tol=rel) or (
            math.isnan(found) and math.isnan(expected)
        ), f"{path}: {found} != {expected}"
    else:
        assert found == expected, f"{path}: {found!r} != {expected!r}"
