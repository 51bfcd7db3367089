"""Combat Proposition Three (``rules/combat-proposition-three.txt``): keep the lowest dice.

A roll is a pool of one to twelve dice (the stat) of d4 to d12 (the proficiency); pairs succeed,
triples are criticals, lower is better, and "wiggle" points move dice a face at a time. The pure
dice maths lives in ``pool`` (sizing and reading a roll, resolving an attack), ``wiggle``
(spending wiggle points), ``exact`` and ``roll_tables`` (exact probabilities), ``forms`` (the
attack and defense form table, weapons and armor) and ``ranged`` (range, aiming, size, missile
defense).

The combat: ``models`` (scenario models and options), ``character`` (stats to pools), ``fight``
(what every attack needs), ``declaring`` (forms and pools of a melee attack), ``exchange`` (one
exchange of rolls as a pure function, and its exact law), ``spending`` (what each side counts),
``melee`` and ``missiles`` (one attack), ``outcomes``, ``fumbles``,
``criticals``, ``counters`` (counter-attacks), ``damage`` (the damage track), ``cluster`` (many
opponents), ``tactics`` (form choice), ``initiative``, ``round`` (the round process), ``system``
(``rules: prop3``), ``hybrid`` (the ``prop3`` resolution of the ACS clock) and ``narration``.
Nothing is imported here, so loading the package stays cheap.
"""
