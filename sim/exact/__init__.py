"""Exact answers built on the rule systems' own exchanges (a layer above ``sim/scenario``).

- :mod:`sim.exact.matchups`: for a loaded scenario, every attacker and defender pair, each way
  the attacker can strike, with the rule system's own input of that exchange and its exact law;
- :mod:`sim.exact.odds`: what one exchange of each matchup does (the outcomes' chances, the
  damage) and how many exchanges it takes to put the defender out;
- :mod:`sim.exact.chain`, :mod:`sim.exact.fight` and a module per rule system
  (:mod:`sim.exact.target10`, :mod:`sim.exact.acs`,
  :mod:`sim.exact.prop3`): whole fights as absorbing Markov chains over combat states,
  offered by the run layer as ``simulate(..., method="exact")`` (``docs/exact.md``).

Nothing here writes a rule: every law comes from the rule system's exchange function
(Target 10's ``exchange.distribution``, Proposition Three's ``exchange.exchange_law``, the ACS
``percentile.distribution``), and every blow lands by the system's own function.
"""
