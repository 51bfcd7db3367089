"""Why the exact engine does not answer a scenario (it is sampled instead, or refused)."""

from __future__ import annotations


class NotExact(ValueError):
    """A scenario whose fight is not one of the chains of :mod:`sim.exact` (the reason says why)."""
