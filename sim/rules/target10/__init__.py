"""Target 10 (American Empires): every test is d20 + modifier against 10, combat against 12.

Modules, one per concept of the rule text (``rules/target-10.txt``) as RULINGS part B reads it:
:mod:`~sim.rules.target10.values` (ability modifiers, FIGHT, SHOOT, DEFENSE, the clamp),
:mod:`~sim.rules.target10.skill_tests` (the test roll and the maths of tests: chances, test
values, tester order, the exact extended-test Markov chain),
:mod:`~sim.rules.target10.combat_rolls` (the combat test's modifier and damage),
:mod:`~sim.rules.target10.exchange` (one attack, a pure function of frozen inputs and the dice,
and its exact law: the one copy the round and the hybrid call),
:mod:`~sim.rules.target10.luck` (luck points),
:mod:`~sim.rules.target10.movements` and :mod:`~sim.rules.target10.actions` (what each of the seven
movements and seven actions does), :mod:`~sim.rules.target10.tactics` (the YAML vocabulary of
declarations), :mod:`~sim.rules.target10.models` (scenario models), :mod:`~sim.rules.target10.
combatant` (the hot-path fighter), :mod:`~sim.rules.target10.round` (the round process) with
:mod:`~sim.rules.target10.state`, :mod:`~sim.rules.target10.moving`,
:mod:`~sim.rules.target10.attacks`, :mod:`~sim.rules.target10.effects`,
:mod:`~sim.rules.target10.conditions` and :mod:`~sim.rules.target10.parley` (its concerns),
:mod:`~sim.rules.target10.extended` (scenarios of tests outside combat), :mod:`~sim.rules.target10.
hybrid` (Target 10 resolution on the ACS clock), :mod:`~sim.rules.target10.system` (the rule system
object) and :mod:`~sim.rules.target10.narration` (sentences for ``combatsim replay``).
"""
