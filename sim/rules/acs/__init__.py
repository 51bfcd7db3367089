"""The Ambition Combat System (Raven c.s. McCracken, 2007): the engine's clock.

Modules: :mod:`~sim.rules.acs.ambition` (who goes first), :mod:`~sim.rules.acs.action_dice`
(on which segments), :mod:`~sim.rules.acs.clock` (the SimPy processes), :mod:`~sim.rules.acs.
percentile` (the default to-hit and defense rolls), :mod:`~sim.rules.acs.resolution` (what can
resolve attacks on this clock), :mod:`~sim.rules.acs.system` (the rule system object).
"""
