"""Analysis of combat outcomes: pandas tables, win rates with confidence intervals, and more.

Nothing in :mod:`sim`'s engine or rules imports this package; it works on the flat records the
engine produces.
"""
