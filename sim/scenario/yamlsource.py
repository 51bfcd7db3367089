"""Reading a scenario file: YAML text to plain data, remembering the line of every key.

Only PyYAML's safe loader is used. While loading we walk the node tree once to record, for each
YAML path (a tuple of mapping keys and list indices), the line it starts on, so that a later
validation error can point at the line. Duplicate keys, which YAML silently lets the last one
win, are reported as problems: in a scenario they are always a mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sim.scenario.problems import Problem, ScenarioError

YamlPath = tuple[str | int, ...]


@dataclass
class Source:
    """A loaded YAML document with the line of each path in it."""

    file: str
    data: Any
    lines: dict[YamlPath, int] = field(default_factory=dict)

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

    Raises:
        ScenarioError: the file is missing, unreadable, not YAML, or has duplicate keys.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(
            [Problem(file, (), None, "no such file", "a scenario YAML file")]
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(
            [Problem(file, (), None, f"an unreadable file ({exc})", "a UTF-8 text file")]
        ) from None
    return parse_source(text, file)


def parse_source(text: str, file: str = "<string>") -> Source:
    """Parse YAML text into a :class:`Source` (see :func:`load_source`)."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = " ".join(p for p in (exc.context, exc.problem) if p) or "invalid YAML"
        raise ScenarioError(
            [Problem(file, (), line, f"a YAML syntax error: {what}", "well-formed YAML")]
        ) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(
            [Problem(file, (), None, f"invalid YAML ({exc})", "well-formed YAML")]
        ) from None
    finally:
        loader.dispose()
    source = Source(file, data)
    problems: list[Problem] = []
    if node is not None:
        _walk(node, (), source.lines, problems, file)
    if problems:
        raise ScenarioError(problems)
    return source


def _walk(node: yaml.Node, path: YamlPath, lines: dict, problems: list, file: str) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
            line = key_node.start_mark.line + 1
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
