"""Hostile variations of the bundled scenarios, for the loader's fuzz tests.

Each mutation takes a bundled scenario (its text and its data) and a ``random.Random`` and
returns the bytes of a new file: a value deleted or given another type, a number made huge, tiny
or not a number, text with control characters or markup, an alias bomb, deep nesting, thousands
of keys, binary garbage. Hypothesis draws the ``Random`` (so a failure shrinks and replays), and
the CLI test and the long run use the same functions with a seeded ``Random``.
"""

from __future__ import annotations

import copy
import datetime
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

#: libyaml's loader and dumper when installed (the mutations parse and write many files).
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@dataclass(frozen=True)
class Bundled:
    """A bundled scenario: its file name, text and data."""

    name: str
    text: str
    data: Any


def bundled() -> list[Bundled]:
    """Every bundled scenario."""
    out = []
    for path in SCENARIOS:
        text = path.read_text(encoding="utf-8")
        out.append(Bundled(path.name, text, _load(text)))
    return out


#: Values swapped in for any value: wrong types, extreme and non-finite numbers, odd text.
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    "",
    "text",
    "[/]",
    "[bold]x[/bold]",
    "💥" * 20,
    "\u202e\u0000\u0007",
    "x" * 20_000,
    "9" * 5000,
    "1d6+" + "9" * 30,
    "100d1000",
    0,
    -1,
    1,
    2**31,
    2**63,
    -(2**63) - 1,
    10**30,
    0.5,
    1e-300,
    1e30,
    -1e30,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    [],
    {},
    [1, 2, 3],
    {"a": 1},
    [[[[[]]]]],
    {"resolution": {"a": 1}},
]


def _load(text: str) -> Any:
    return yaml.load(text, Loader=_SafeLoader)


def _fresh(base: Bundled) -> Any:
    return copy.deepcopy(base.data)


def _paths(data: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, (*path, i))
    return out


def _parent(data: Any, path: tuple) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


def _odd_value(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(ODD_VALUES))  # a later mutation may change it in place


def _nested(rng: random.Random) -> Any:
    value: Any = "deep"
    for _ in range(rng.choice([10, 39, 41, 60, 120])):
        value = [value] if rng.random() < 0.5 else {"k": value}
    return value


def _dump(data: Any) -> bytes:
    text = yaml.dump(data, Dumper=_SafeDumper, allow_unicode=True, sort_keys=False, width=10**9)
    return text.encode("utf-8")


# -- mutations of the data -----------------------------------------------------------------------


def delete_value(base: Bundled, rng: random.Random) -> bytes:
    """A key or list item removed (a required key missing, an empty side)."""
    data = _fresh(base)
    path = rng.choice(_paths(data)[1:])
    parent = _parent(data, path)
    del parent[path[-1]]
    return _dump(data)


def swap_value(base: Bundled, rng: random.Random) -> bytes:
    """A value replaced by one of another type or an extreme one."""
    data = _fresh(base)
    for _ in range(rng.choice([1, 1, 2, 5])):
        path = rng.choice(_paths(data))
        value = _nested(rng) if rng.random() < 0.1 else _odd_value(rng)
        if not path:
            data = value
            break
        _parent(data, path)[path[-1]] = value
    return _dump(data)


def scale_number(base: Bundled, rng: random.Random) -> bytes:
    """A number made huge, tiny, negative, fractional or not a number."""
    data = _fresh(base)
    numbers = [
        p
        for p in _paths(data)[1:]
        if isinstance(_parent(data, p)[p[-1]], (int, float))
        and not isinstance(_parent(data, p)[p[-1]], bool)
    ]
    if not numbers:
        return swap_value(base, rng)
    path = rng.choice(numbers)
    value = _parent(data, path)[path[-1]]
    factor = rng.choice([0, -1, 0.5, 10**3, 10**9, 10**12, 10**19, 10**400, 1e300])
    new = value * factor if not isinstance(factor, int) or factor < 10**300 else factor
    if rng.random() < 0.2:
        new = rng.choice([math.nan, math.inf, -math.inf, 2**63, 2**64, 10**13])
    _parent(data, path)[path[-1]] = new
    return _dump(data)


def add_keys(base: Bundled, rng: random.Random) -> bytes:
    """Unknown keys added to a mapping: one, a few, or thousands."""
    data = _fresh(base)
    mappings = [p for p in _paths(data) if isinstance(_parent(data, (*p, "x")), dict)]
    path = rng.choice(mappings)
    target = _parent(data, (*path, "x"))
    for k in range(rng.choice([1, 3, 900, 1001, 8000])):
        target[f"unknown_{k}"] = k
    return _dump(data)


def many_combatants(base: Bundled, rng: random.Random) -> bytes:
    """A combatant entry copied many times, or given a large count."""
    data = _fresh(base)
    sides = data.get("sides") or []
    if not sides or not sides[0].get("combatants"):
        return swap_value(base, rng)
    entries = sides[0]["combatants"]
    entry = entries[0]
    if rng.random() < 0.5:
        entries.extend(dict(entry, name=f"copy {k}") for k in range(rng.choice([10, 300])))
    else:
        for e in entries:
            e["count"] = rng.choice([1000, 1001, 10**6, 10**12])
    return _dump(data)


def rename(base: Bundled, rng: random.Random) -> bytes:
    """The scenario, a side or a combatant named with markup, unicode or control characters."""
    data = _fresh(base)
    name = rng.choice(["[/]", "[bold red]x", "\x1b[31mred", "名前", "a\u0000b", "x" * 300, "a.b"])
    where = rng.choice(["scenario", "side", "combatant"])
    if where == "scenario":
        data["name"] = name
    elif where == "side":
        data["sides"][0]["name"] = name
    else:
        data["sides"][0]["combatants"][0]["name"] = name
    return _dump(data)


#: Keys YAML reads as something other than text: a boolean, numbers, nothing, a date.
NON_TEXT_KEYS: list[Any] = [True, False, 5, 0, -1, 1.5, None, datetime.date(2001, 1, 1)]


def mappings(data: Any) -> list[tuple]:
    """The path of every mapping in ``data``, the top level's included."""
    return [p for p in _paths(data) if isinstance(_at(data, p), dict)]


def _at(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


def with_key(data: Any, path: tuple, key: Any, rename: bool) -> Any:
    """A copy of ``data`` with ``key`` added to its mapping at ``path``, or for its first key."""
    data = copy.deepcopy(data)
    mapping = _at(data, path)
    items = list(mapping.items())
    if rename and items:
        items[0] = (key, items[0][1])
    else:
        items.append((key, 5))
    mapping.clear()
    mapping.update(items)
    return data


def non_text_key(base: Bundled, rng: random.Random) -> bytes:
    """A key that YAML reads as a boolean, a number, null or a date, in any mapping."""
    data = _fresh(base)
    path = rng.choice(mappings(data))
    return _dump(with_key(data, path, rng.choice(NON_TEXT_KEYS), rng.random() < 0.5))


# -- mutations of the text -----------------------------------------------------------------------


def insert_bytes(base: Bundled, rng: random.Random) -> bytes:
    """Control characters, a NUL, a BOM, invalid UTF-8 or random bytes somewhere in the file."""
    raw = base.text.encode("utf-8")
    at = rng.randrange(len(raw) + 1)
    junk = rng.choice(
        [
            b"\x00",
            b"\x07",
            b"\x1b[31m",
            b"\x85",
            b"\xff\xfe",
            b"\xef\xbb\xbf",
            b"\t",
            b"\r",
            bytes(rng.randrange(256) for _ in range(rng.choice([1, 8, 64]))),
        ]
    )
    return raw[:at] + junk + raw[at:]


def edit_lines(base: Bundled, rng: random.Random) -> bytes:
    """A line deleted, duplicated, re-indented or cut short; the file truncated."""
    lines = base.text.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "indent", "cut", "truncate", "colon"])
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "indent":
        lines[i] = rng.choice([" ", "   ", "\t"]) + lines[i]
    elif kind == "cut":
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif kind == "colon":
        lines[i] = lines[i].replace(":", rng.choice(["", "::", ": :", ": &a", ": *a"]), 1)
    else:
        return base.text.encode("utf-8")[: rng.randrange(len(base.text))]
    return "".join(lines).encode("utf-8")


def alias_bomb(base: Bundled, rng: random.Random) -> bytes:
    """A "billion laughs" bomb, a recursive alias or a long alias chain, used or not."""
    kind = rng.choice(["laughs", "recursive", "chain", "merge"])
    if kind == "laughs":
        depth = rng.choice([3, 6, 9, 12])
        lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for k in range(1, depth):
            refs = ", ".join([f"*l{k - 1}"] * 10)
            lines.append(f"lol{k}: &l{k} [{refs}]")
        extra = "\n".join(lines) + "\n"
    elif kind == "recursive":
        extra = rng.choice(["loop: &r [1, *r]\n", "loop: &r {a: *r}\n", "loop: &r [[[*r]]]\n"])
    elif kind == "chain":
        count = rng.choice([10, 1001, 3000])
        extra = "chain0: &c0 [x]\n" + "".join(
            f"chain{k}: &c{k} [*c{k - 1}]\n" for k in range(1, 60)
        )
        extra += "uses: [" + ", ".join(["*c0"] * count) + "]\n"
    else:
        extra = "base: &b {hp: 3}\nmerged: {<<: [*b, *b], x: 1}\n"
    return (base.text + extra).encode("utf-8")


def deep_nesting(base: Bundled, rng: random.Random) -> bytes:
    """Mappings or lists nested tens to tens of thousands deep."""
    depth = rng.choice([30, 41, 100, 5000, 100_000])
    lists = rng.random() < 0.5
    nested = "[" * depth + "]" * depth if lists else "{a: " * depth + "1" + "}" * depth
    return (base.text + f"deep: {nested}\n").encode("utf-8")


def odd_scalars(base: Bundled, rng: random.Random) -> bytes:
    """Tags and scalars the safe loader may trip on: bad timestamps, huge numbers, binary."""
    extra = rng.choice(
        [
            "x: !!timestamp hello\n",
            "x: !!int abc\n",
            "x: !!float x\n",
            "x: !!binary '@@@'\n",
            "x: !!python/object:os.system ls\n",
            "x: !!set {a, b}\n",
            "x: !!omap [a, b]\n",
            "x: " + "9" * 5000 + "\n",
            "x: 0x" + "f" * 100 + "\n",
            "x: 1:2:3:4:5:6:7:8:9:10:11:12\n",
            "x: .nan\n",
            "x: 1e999\n",
            "x: 2001-13-45\n",
            "? [a, b]\n: c\n",
            "? {a: b}\n: c\n",
            "x: *undefined\n",
            "x: &a 1\ny: &a 2\n",
            "%YAML 1.1\n---\n",
            "--- \n...\n--- {a: 1}\n",
            "x: '" + "y" * 20_000 + "'\n",
        ]
    )
    if rng.random() < 0.5:
        return (base.text + extra).encode("utf-8")
    return (extra + base.text).encode("utf-8")


def garbage(base: Bundled, rng: random.Random) -> bytes:
    """Not a scenario at all: random bytes, UTF-16, an empty file, a lone value, a big file."""
    kind = rng.choice(["random", "utf16", "empty", "scalar", "list", "big"])
    if kind == "random":
        return bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 4000])))
    if kind == "utf16":
        return base.text.encode(rng.choice(["utf-16", "utf-16-le", "utf-32"]))
    if kind == "empty":
        return rng.choice([b"", b"\n", b"---\n", b"# only a comment\n"])
    if kind == "scalar":
        return rng.choice([b"42\n", b"hello\n", b"null\n", b"[1, 2]\n", b"~\n"])
    return base.text.encode("utf-8") + b"# " + b"x" * (1024 * 1024) + b"\n"


MUTATIONS: list[Callable[[Bundled, random.Random], bytes]] = [
    delete_value,
    swap_value,
    scale_number,
    add_keys,
    many_combatants,
    rename,
    non_text_key,
    insert_bytes,
    edit_lines,
    alias_bomb,
    deep_nesting,
    odd_scalars,
    garbage,
]


def mutate(base: Bundled, rng: random.Random) -> tuple[str, bytes]:
    """One to three mutations of ``base``: the name of the last one and the file's bytes."""
    mutation = rng.choice(MUTATIONS)
    raw = mutation(base, rng)
    chained = rng.choice([0, 0, 0, 1, 2]) if mutation in MUTATIONS[:7] else 0
    for _ in range(chained):
        try:
            text = raw.decode("utf-8")
            data = _load(text)
        except (UnicodeDecodeError, yaml.YAMLError, ValueError, RecursionError, AttributeError):
            break
        if not isinstance(data, dict) or len(text) > 200_000:
            break
        mutation = rng.choice(MUTATIONS[:7])
        try:
            raw = mutation(Bundled(base.name, text, data), rng)
        except (LookupError, TypeError, AttributeError, ValueError):
            break  # the first mutation left no place for the second one
    return mutation.__name__, raw
