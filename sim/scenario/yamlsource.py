"""Reading a scenario file: YAML text to plain data, remembering the line of every key.

Only PyYAML's safe constructors are used (with libyaml's parser when it is installed). While the
YAML is composed, nesting and aliases are counted, and before anything is constructed the node
graph is measured as it would be once its aliases are expanded, so that no file (deep nesting, a
recursive alias, a "billion laughs" bomb, a number of 5,000 digits) can crash or hang the loader:
each is refused as a problem with its line (see :mod:`sim.scenario.limits`). We also record, for
each YAML path (a tuple of mapping keys and list indices), the line it starts on, so that a later
validation error can point at the line. Duplicate keys, which YAML silently lets the last one
win, are reported as problems: in a scenario they are always a mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from sim.engine.reading import NotAFile, read_regular
from sim.scenario.limits import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_KEYS,
    MAX_NODES,
    MAX_NUMBER_CHARS,
    MAX_TEXT,
)
from sim.scenario.problems import Problem, ScenarioError

try:
    from yaml._yaml import CParser as _Parser  # libyaml: parses a large file several times faster
except ImportError:  # pragma: no cover - PyYAML built without libyaml

    class _Parser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[no-redef]
        """PyYAML's pure-Python reader, scanner and parser, for the same events."""

        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)


YamlPath = tuple[str | int, ...]

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


@dataclass
class Source:
    """A loaded YAML document with the line of each path in it."""

    file: str
    data: Any
    lines: dict[YamlPath, int] = field(default_factory=dict)
    #: The file as written (comments kept), when the data was parsed from text; results
    #: folders keep it byte for byte (its UTF-8 encoding is the file's bytes).
    text: str | None = field(default=None, repr=False)

    def line_of(self, path: YamlPath) -> int | None:
        """The line of ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)


def load_source(path: str | Path) -> Source:
    """Load a YAML file safely.

    The file is read without blocking on anything that is not a regular file (a named pipe
    nobody writes would hang the command): see :mod:`sim.engine.reading`.

    Raises:
        ScenarioError: the file is missing, not a regular file, unreadable, too large, not
            YAML, past a limit, or has duplicate keys or keys that are not text.
    """
    file = str(path)
    try:
        raw = read_regular(path, MAX_FILE_BYTES + 1)
    except NotAFile as exc:
        raise ScenarioError(
            [Problem(file, (), None, f"{exc.kind}, not a file", "a scenario YAML file")]
        ) from None
    except FileNotFoundError:
        raise ScenarioError(
            [Problem(file, (), None, "no such file", "a scenario YAML file")]
        ) from None
    except OSError as exc:
        raise ScenarioError(
            [Problem(file, (), None, f"an unreadable file ({exc})", "a UTF-8 text file")]
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError(
            [
                Problem(
                    file,
                    (),
                    None,
                    f"a file of more than {MAX_FILE_BYTES:,} bytes",
                    f"a scenario of at most {MAX_FILE_BYTES:,} bytes (1 MiB)",
                )
            ]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(
            [Problem(file, (), line, f"bytes that are not UTF-8 ({exc.reason})", "UTF-8 text")]
        ) from None
    return parse_source(text, file)


def parse_source(text: str, file: str = "<string>") -> Source:
    """Parse YAML text into a :class:`Source` (see :func:`load_source`)."""
    if len(text) > MAX_FILE_BYTES:
        found = f"a text of {len(text):,} characters"
        raise ScenarioError([Problem(file, (), None, found, f"at most {MAX_FILE_BYTES:,}")])
    loader = None
    try:
        loader = _Loader(text, file)
        node = loader.get_single_node()
        if node is not None:
            _measure(node, file)
            source = Source(file, None)
            problems: list[Problem] = []
            _walk(node, (), source.lines, problems, file)
            if problems:
                raise ScenarioError(problems)
            loader.root = node
            source.data = loader.construct_document(node)
        else:
            source = Source(file, None)
    except _Limit as exc:
        raise ScenarioError([exc.problem]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = " ".join(p for p in (exc.context, exc.problem) if p) or "invalid YAML"
        raise ScenarioError(
            [Problem(file, (), line, f"a YAML syntax error: {what}", "well-formed YAML")]
        ) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, max(exc.position, 0)) + 1 if exc.position <= len(text) else None
        char = exc.character
        code = char if isinstance(char, int) else ord(str(char)[:1] or " ")
        found = f"the character U+{code:04X}, which YAML does not allow"
        expected = "printable text (no control characters other than tab and newline)"
        raise ScenarioError([Problem(file, (), line, found, expected)]) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(
            [Problem(file, (), None, f"invalid YAML ({exc})", "well-formed YAML")]
        ) from None
    finally:
        if loader is not None:
            loader.dispose()
    source.text = text
    return source


class _Limit(Exception):
    """A limit of :mod:`sim.scenario.limits` passed; carries the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


class _Loader(Composer, _Parser, SafeConstructor, Resolver):
    """PyYAML's safe loader, composing with the limits on nesting, aliases and values.

    The composer is PyYAML's own (it runs in Python, so it can count); the parser is libyaml's
    when available. Every value a constructor cannot make (``!!timestamp hello``, ``!!int x``)
    is a located error instead of the constructor's own exception.
    """

    def __init__(self, text: str, file: str) -> None:
        _Parser.__init__(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.file = file
        #: The YAML path being composed (the root's step is None).
        self.path: list[str | int | None] = []
        self.aliases = 0
        self.nodes = 0
        self.root: yaml.Node | None = None

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        mark = event.start_mark if event is not None else None
        line = mark.line + 1 if mark is not None else None
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise self._limit(
                    line,
                    f"more than {MAX_ALIASES:,} aliases (*name)",
                    f"at most {MAX_ALIASES:,} aliases in a scenario",
                )
            return super().compose_node(parent, index)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self._limit(
                line,
                f"more than {MAX_NODES:,} values",
                f"at most {MAX_NODES:,} values (mappings, lists and scalars) in a scenario",
            )
        is_key = isinstance(parent, yaml.MappingNode) and index is None
        if is_key and parent is not None:
            if len(parent.value) >= MAX_KEYS:
                found = f"a mapping of more than {MAX_KEYS:,} keys"
                raise self._limit(line, found, f"at most {MAX_KEYS:,} keys in one mapping")
            return super().compose_node(parent, index)  # a key: its value holds the path step
        step = index.value if isinstance(index, yaml.ScalarNode) else index
        self.path.append(step if isinstance(step, int | str) else "<key>")
        try:
            if len(self.path) > MAX_DEPTH:
                raise self._limit(line, *_TOO_DEEP)
            return super().compose_node(parent, index)
        finally:
            self.path.pop()

    def _limit(self, line: int | None, found: str, expected: str) -> _Limit:
        path = tuple(p for p in self.path[1:] if p is not None)
        return _Limit(Problem(self.file, path, line, found, expected))

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (_Limit, yaml.YAMLError):
            raise
        except (ValueError, TypeError, AttributeError, ArithmeticError, LookupError) as exc:
            shown = node.value if isinstance(node, yaml.ScalarNode) else ""
            kind = node.tag.rsplit(":", 1)[-1]
            raise _Limit(
                Problem(
                    self.file,
                    path_to(self.root, node) if self.root is not None else (),
                    node.start_mark.line + 1,
                    f"{str(shown)[:60]!r}, which is not a valid {kind} ({type(exc).__name__})",
                    f"a value the tag !!{kind} can read, or no tag",
                )
            ) from None


def _measure(root: yaml.Node, file: str) -> None:
    """Refuse a node graph that is recursive, or too big or deep once its aliases are expanded.

    Each node is measured once (an alias is the same node object as its anchor), so this takes
    time in proportion to the file, however large the expansion would be. The recursion follows
    the file's own nesting, which the composer has already held to
    :data:`~sim.scenario.limits.MAX_DEPTH`: an alias always names a node measured before.

    Raises:
        _Limit: with the problem, at the line of the alias or value at fault.
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()

    def fail(node: yaml.Node, found: str, expected: str) -> _Limit:
        line = node.start_mark.line + 1
        return _Limit(Problem(file, path_to(root, node), line, found, expected))

    def visit(node: yaml.Node) -> None:
        key = id(node)
        if key in size:
            return
        if key in open_nodes:
            raise fail(
                node,
                "a recursive alias (a value that contains itself)",
                "aliases to values defined before and outside them",
            )
        if isinstance(node, yaml.ScalarNode):
            problem = _scalar_problem(node)
            if problem:
                raise fail(node, *problem)
            size[key], depth[key] = 1, 0
            return
        open_nodes.add(key)
        children = _children(node)
        for child in children:
            visit(child)
        open_nodes.discard(key)
        size[key] = 1 + sum(size[id(c)] for c in children)
        depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
        if size[key] > MAX_NODES:
            raise fail(
                node,
                f"a value that expands to {size[key]:,} values through its aliases",
                f"at most {MAX_NODES:,} values in a scenario, aliases expanded",
            )
        if depth[key] > MAX_DEPTH:
            raise fail(node, *_TOO_DEEP)

    visit(root)


def path_to(root: yaml.Node, target: yaml.Node) -> YamlPath:
    """The first YAML path at which ``target`` appears under ``root`` (for a problem's path).

    Each node is entered once, so a graph with aliases is searched in time proportional to the
    file, not to its expansion.
    """
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, YamlPath]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            items = list(enumerate(node.value))
            stack.extend((item, (*path, i)) for i, item in reversed(items))
        elif isinstance(node, yaml.MappingNode):
            for key_node, value_node in reversed(node.value):
                stack.append((value_node, (*path, _key(key_node))))
                stack.append((key_node, (*path, _key(key_node))))
    return ()


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return [child for pair in node.value for child in pair]


_TOO_DEEP = (
    f"mappings and lists nested more than {MAX_DEPTH} deep",
    f"at most {MAX_DEPTH} levels of nesting (aliases expanded)",
)


def _scalar_problem(node: yaml.ScalarNode) -> tuple[str, str] | None:
    """``(found, expected)`` for a number written too long or a text too long, else None."""
    length = len(node.value)
    if node.tag in _NUMBER_TAGS and length > MAX_NUMBER_CHARS:
        return (
            f"a number written with {length:,} characters",
            f"a number of at most {MAX_NUMBER_CHARS} characters",
        )
    if length > MAX_TEXT:
        return f"a text of {length:,} characters", f"at most {MAX_TEXT:,} characters"
    return None


def _key(key_node: yaml.Node) -> str:
    if isinstance(key_node, yaml.ScalarNode):
        return key_node.value
    return f"<{type(key_node).__name__.removesuffix('Node').lower()} key>"


#: Tags of a key that is read as text: a string, and the merge key ``<<`` and value key ``=``
#: that PyYAML's own mapping construction resolves.
_TEXT_KEY_TAGS = (
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:merge",
    "tag:yaml.org,2002:value",
)
#: What YAML makes of a plain key that is not text, by tag.
_KEY_READ_AS = {
    "tag:yaml.org,2002:bool": "a boolean (as it reads true, false, yes, no, on and off)",
    "tag:yaml.org,2002:int": "a whole number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:null": "nothing (null)",
    "tag:yaml.org,2002:timestamp": "a date",
}


def _not_text(key_node: yaml.Node) -> tuple[str, str] | None:
    """``(found, expected)`` for a key that is not text, else None.

    YAML lets any value be a key (``true: 5``, ``1: x``, ``? [a, b]``), but every mapping of a
    scenario is keyed by names, dotted paths or stats, so such a key is always a mistake;
    refusing it here, once, spares every later step a key it would trip on.
    """
    if isinstance(key_node, yaml.ScalarNode):
        if key_node.tag in _TEXT_KEY_TAGS:
            return None
        read_as = _KEY_READ_AS.get(key_node.tag, f"a value tagged {key_node.tag}")
        shown = key_node.value or "(empty)"
        return (
            f"the key {shown}, which YAML reads as {read_as}, not as text",
            f'a key that is text (write it in quotes, "{key_node.value}", to mean it as text)',
        )
    kind = "a list" if isinstance(key_node, yaml.SequenceNode) else "a mapping"
    return f"{kind} as a key", "a key that is text: a name, a dotted path or a stat"


def _walk(node: yaml.Node, path: YamlPath, lines: dict, problems: list, file: str) -> None:
    """Record the line of every path, and report keys that are not text or given twice.

    Only called on a graph :func:`_measure` accepted, so the recursion is at most
    :data:`~sim.scenario.limits.MAX_DEPTH` deep and visits at most
    :data:`~sim.scenario.limits.MAX_NODES` values.
    """
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = _key(key_node)
            line = key_node.start_mark.line + 1
            not_text = _not_text(key_node)
            if not_text:
                problems.append(Problem(file, (*path, key), line, *not_text))
                continue
            if key in seen:
                problems.append(
                    Problem(
                        file,
                        (*path, key),
                        line,
                        f"key {key!r} a second time (first on line {seen[key]})",
                        "each key once in a mapping",
                    )
                )
                continue
            seen[key] = line
            lines[(*path, key)] = line
            _walk(value_node, (*path, key), lines, problems, file)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, problems, file)
