"""Pydantic's validation errors, said as "found ...; expected ..." about the scenario file.

Each error of a rule model or of the top-level model becomes one problem: an unknown key with
the closest known key suggested (:func:`did_you_mean`), a missing key, a value out of range with
the bound it broke.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Collection, Mapping
from typing import Any, get_args, get_origin

from pydantic import BaseModel

from sim.rules.wording import counted
from sim.scenario.names import NAME_PATTERN, NAME_RULE

#: Unknown keys in one mapping beyond which no "did you mean" is looked for: a block of pasted
#: junk gains nothing from suggestions, and each one costs a fuzzy match against every known key.
MAX_SUGGESTED = 20
#: Words designers use for one thing, and what it is: a word of a group that the model does not
#: know suggests the word of the group it does (``hitpoints`` -> ``hp``; in Proposition Three,
#: whose hit points are its Vigor, ``hp`` -> ``vigor``).
SAME_THING: tuple[tuple[frozenset[str], str], ...] = (
    (
        frozenset({"hp", "hit_points", "hitpoints", "hits", "health", "life", "vigor", "wounds"}),
        "the hit points",
    ),
)


def _plain(word: str) -> str:
    """A word without case, spaces or punctuation: ``Target-10`` and ``target10`` alike."""
    return "".join(c for c in word.casefold() if c.isalnum())


def did_you_mean(
    word: str, known: Collection[str], titles: Mapping[str, str] | None = None
) -> str | None:
    """The known word a mistyped ``word`` most likely means, with why when it is not obvious.

    In order: the same letters and digits (``Target10``, ``target-10`` for ``target10``); a word
    for the same thing (:data:`SAME_THING`); a known word whose title holds it (``Proposition
    Three`` for ``prop3``, through ``titles``); then the closest spelling (difflib).
    """
    plain = _plain(word)
    by_plain = {_plain(k): k for k in known}
    if plain in by_plain:
        return repr(by_plain[plain])
    for group, what in SAME_THING:
        if plain in {_plain(g) for g in group}:
            same = [k for k in known if k in group]
            if len(same) == 1:
                return f"{same[0]!r}, which holds {what} here"
    if titles and len(plain) >= 3:
        holding = [k for k, title in titles.items() if plain in _plain(title)]
        if len(holding) == 1:
            return repr(holding[0])
    close = difflib.get_close_matches(plain, list(by_plain), n=1)
    return repr(by_plain[close[0]]) if close else None


def describe_error(
    error: Mapping[str, Any], model: type[BaseModel], loc: tuple, suggest: bool = True
) -> tuple[str, str]:
    """``(found, expected)`` for one pydantic error (``suggest``: look for a close known key)."""
    kind = error["type"]
    message = str(error.get("msg", ""))
    value = error.get("input")
    if kind == "missing":
        return "nothing", f"a value for the required key {loc[-1]!r}"
    if kind == "extra_forbidden":
        allowed = _sorted_keys(model, loc[:-1])
        key = str(loc[-1])
        close = did_you_mean(key, allowed) if suggest else None
        hint = f" (did you mean {close}?)" if close else ""
        return f"unknown key {key!r}", f"one of the known keys: {', '.join(allowed)}{hint}"
    if kind == "string_pattern_mismatch" and NAME_PATTERN in message:
        return show(value), NAME_RULE
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    if message.startswith("Input should be "):
        message = message[len("Input should be ") :]
    if kind == "too_short" and isinstance(value, (list, dict)):
        least = (error.get("ctx") or {}).get("min_length", 1)
        return counted(len(value), "item"), f"at least {counted(least, 'item')}"
    return show(value), message


@functools.lru_cache(maxsize=256)
def _sorted_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys the model accepts at ``loc``, sorted (cached: asked once per unknown key)."""
    return sorted(_allowed_keys(model, loc))


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys the model accepts at ``loc`` (list indices are skipped)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not _is_model(current) or part not in current.model_fields:
            return []
        current = _model_in(current.model_fields[part].annotation)
    return list(current.model_fields) if _is_model(current) else []


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if _is_model(annotation):
        return annotation
    if get_origin(annotation) is not None:
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def show(value: Any) -> str:
    """A value as a problem quotes it: short, and never the whole of a large mapping or list."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, dict):
        text = (
            "a mapping {" + ", ".join(map(str, list(value)[:5])) + ("…}" if len(value) > 5 else "}")
        )
    elif isinstance(value, list):
        text = f"a list of {counted(len(value), 'item')}"
    else:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"
