"""The run layer: plays a scenario's combats in chunks, on every core or Dask, and keeps them.

Flat records, the outcome tables and their summary, streaming to a results folder and resume,
and the library API that :mod:`sim` exports (:mod:`sim.run.api`).
"""
