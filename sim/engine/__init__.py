"""The engine layer: the SimPy clock of a combat, fighters, their line, dice streams, tactics.

It knows no rule: the rule systems (:mod:`sim.rules`) build on it, and nothing here imports them.
"""
