r"""Text for a terminal: control characters shown, never obeyed.

A terminal acts on control characters instead of showing them: ESC starts a sequence that sets
the window's title, moves the cursor, clears the screen or writes to the clipboard; CR goes back
to the start of the line and writes over it; BEL rings. A name, a file name given on the command
line or a value read from a results file may hold them, so everything combatsim prints passes
through :func:`visible`, which writes each as its Python escape (ESC as ``\x1b``): a reader
sees what the text holds and the terminal does nothing it was not asked to by combatsim itself.
The scenario loader refuses them in a scenario's text (``sim.scenario.limits``), with the same
escapes in its message.
"""

from __future__ import annotations

import re

#: The control characters (Unicode's category Cc: C0, DEL and C1), tab and newline excepted.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Every control character, tab and newline included (what a one-line name may not hold).
ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def escape(char: str) -> str:
    r"""One control character as its escape: ``"\x1b"`` for ESC, ``"\n"`` for a newline."""
    return repr(char)[1:-1]


def visible(text: str, pattern: re.Pattern[str] = CONTROL) -> str:
    r"""``text`` with each character ``pattern`` matches (control characters) as its escape.

    Tabs and newlines are kept (they lay out combatsim's own output) unless ``pattern`` is
    :data:`ANY_CONTROL`. Backslashes are left as they are: ``\x1b`` written in a name as four
    characters reads the same as the character, which is never in a valid scenario.
    """
    return pattern.sub(lambda match: escape(match.group()), text)


def first_control(text: str, pattern: re.Pattern[str] = CONTROL) -> str | None:
    """The first control character in ``text`` (see :func:`visible`), or None."""
    match = pattern.search(text)
    return match.group() if match else None
