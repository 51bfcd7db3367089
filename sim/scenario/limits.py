"""How big a scenario file may be, so that no file can make loading crash or hang.

A scenario is typed by a person; the largest bundled one is under 6 KB. These limits sit far
above anything a designer writes and far below what would exhaust memory, time or the numeric
types of NumPy, pandas and Arrow. Each is checked where it is cheapest: the file's size before
reading it, nesting and aliases while the YAML is composed (before any alias is expanded, so a
"billion laughs" file is refused in milliseconds), and the numbers and texts before any rule
model sees them. docs/scenarios.md lists them under "Limits".
"""

from __future__ import annotations

#: Largest file read, in bytes (1 MiB).
MAX_FILE_BYTES = 1024 * 1024
#: Deepest nesting of mappings and lists, aliases expanded.
MAX_DEPTH = 40
#: Most alias uses (``*name``) in one file.
MAX_ALIASES = 1000
#: Most values (mappings, lists and scalars) in the document, aliases expanded.
MAX_NODES = 100_000
#: Most keys in one mapping.
MAX_KEYS = 1000
#: Longest text value or key, in characters.
MAX_TEXT = 10_000
#: Longest number as written (digits, sign, point and exponent).
MAX_NUMBER_CHARS = 40
#: Largest magnitude of any number in a scenario (a rule model may ask for less). Sums of
#: thousands of such values stay exact in a 64-bit float and inside a 64-bit integer.
MAX_NUMBER = 10**12
#: Keys whose value may exceed :data:`MAX_NUMBER` (the seed is any 64-bit value).
LARGE_NUMBER_KEYS = ("seed",)
#: Most problems listed in one error; the rest are counted.
MAX_PROBLEMS_LISTED = 100
