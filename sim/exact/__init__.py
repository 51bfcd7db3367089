"""Exact answers without sampling: fights as absorbing Markov chains over combat states.

Layer: above :mod:`sim.scenario` (it reads loaded scenarios), below :mod:`sim.run` (which
offers it as ``simulate(..., method="exact")``). See ``docs/exact.md``.
"""
