"""The names a scenario gives its sides and variants.

Side names become column names (``survivors_red``) and variant names become labels in tables
and file names, so both are short and plain: a letter, then letters, digits, ``_`` or ``-``.
"""

from __future__ import annotations

#: What a side or variant name looks like.
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]{0,39}$"
#: The same, said to the person who wrote the file.
NAME_RULE = "a short name: a letter, then letters, digits, _ or - (40 at most)"
