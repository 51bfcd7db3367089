"""The shape of the code: one-way layers, no import cycles, and a command line that starts fast."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from sim.cli.app import CommandGroup, cli
from sim.cli.commands import COMMANDS
from tests.conftest import ROOT

# -- the import graph ----------------------------------------------------------------------------
#
# Every module of sim/ and analysis/ is parsed with ``ast`` (nothing is imported). An edge goes
# from a module to each of our modules it imports, at module level or inside a function; imports
# under ``if TYPE_CHECKING:`` are for types only and do not count. ``from package import name``
# points at ``package.name`` when that is a module, else at the package.

#: The layers, lowest first (the team's layer drawing, ``shared/layers.json``: engine <- rules <-
#: scenario <- exact <- run <- analysis <- face; exact: the exact answers built on the rule
#: systems' exchange laws, issue 23), each a folder: a module's layer is the folder it lives
#: in. A module may import its own layer and those below it. The package's two top-level files
#: are its faces: ``sim/__init__.py`` is the library (``simulate``, ``load_scenario``: the run
#: layer's API) and ``sim/__main__.py`` is ``python -m sim`` (the command line).
FOLDERS: dict[str, str] = {
    "sim/engine/": "Engine",
    "sim/rules/": "Rules",
    "sim/scenario/": "Scenario",
    "sim/exact/": "Exact",
    "sim/run/": "Run",
    "analysis/": "Analysis",
    "sim/cli/": "Face",
    "sim/web/": "Face",
}
TOP_LEVEL: dict[str, str] = {"sim/__init__.py": "Run", "sim/__main__.py": "Face"}
LAYERS: dict[str, tuple[str, ...]] = {}
for _folder, _name in FOLDERS.items():
    LAYERS.setdefault(_name, ())
    LAYERS[_name] += (_folder,)
for _file, _name in TOP_LEVEL.items():
    LAYERS[_name] += (_file,)
ORDER = list(LAYERS)

#: layers.json's "never" arrows: each must be an upward import in ORDER, so the order checks them.
NEVER = (
    ("Engine", "Rules"),
    ("Engine", "Analysis"),
    ("Rules", "Scenario"),
    ("Rules", "Run"),
    ("Rules", "Analysis"),
    ("Scenario", "Run"),
    ("Run", "Analysis"),
    ("Analysis", "Face"),
)

#: The only modules of sim that may import analysis: the command line and the workbench.
MAY_IMPORT_ANALYSIS = ("sim/cli/", "sim/web/", "sim/__main__.py")

# Known violations on main, in code other helpers are rewriting (the loader's sim/scenario/,
# the rule systems' sim/rules/). The integrator empties these lists as their work lands; an
# entry that no longer happens fails the test too, so the lists stay exact. Never add to them:
# fix the code instead.
# On main at db5b8aa: the scenario schema and the rule systems import each other (loader and
# registry helpers), and Prop. Three's fight/melee/missiles (Prop. Three helper). The rule
# systems no longer import the scenario layer (registry helper): the loader's own cycle is left.
ALLOWED_CYCLES: set[frozenset[str]] = set()
ALLOWED_UPWARD: set[tuple[str, str]] = set()
ALLOWED_LOCAL: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Import:
    """One import of one of our modules."""

    source: str  #: the importing module, as a path (``sim/run/api.py``)
    target: str  #: the imported module, as a path
    line: int
    local: bool  #: inside a function


def _path_of(module: str) -> str | None:
    """The file of a dotted module name of ours, or None (third-party or a name in a module)."""
    base = ROOT.joinpath(*module.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py").relative_to(ROOT).as_posix()
    if (base / "__init__.py").is_file():
        return (base / "__init__.py").relative_to(ROOT).as_posix()
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(path: Path) -> list[Import]:
    source = path.relative_to(ROOT).as_posix()
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:
            anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{anchor}.{base}" if base else anchor
        names = []
        for alias in node.names:
            names.append(f"{base}.{alias.name}" if _path_of(f"{base}.{alias.name}") else base)
        return names

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other, local)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in targets(child):
                    target = _path_of(name)
                    if target is not None and target != source:
                        found.append(Import(source, target, child.lineno, local))
                continue
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), False)
    return found


def _modules() -> list[Path]:
    return sorted([*(ROOT / "sim").rglob("*.py"), *(ROOT / "analysis").rglob("*.py")])


def _imports() -> list[Import]:
    return [found for path in _modules() for found in _imports_of(path)]


def _layer(path: str) -> str:
    for layer, members in LAYERS.items():
        if any(path == m or (m.endswith("/") and path.startswith(m)) for m in members):
            return layer
    raise AssertionError(f"{path} belongs to no layer: add it to LAYERS")


def _cycles(imports: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for found in imports:
        graph.setdefault(found.source, set()).add(found.target)
        graph.setdefault(found.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(components)


def _report(title: str, new: list[str], stale: list[str]) -> str:
    lines = []
    if new:
        lines += [f"{title}:", *(f"  {line}" for line in new)]
    if stale:
        lines += [f"allowed but gone (remove from the allow-list): {title}:"]
        lines += [f"  {line}" for line in stale]
    return "\n".join(lines)


def test_every_module_belongs_to_one_layer_and_the_order_forbids_the_never_arrows():
    for path in _modules():
        _layer(path.relative_to(ROOT).as_posix())
    # No flat modules: besides the two faces, every module of sim/ lives in a layer's folder.
    loose = sorted(p.name for p in (ROOT / "sim").glob("*.py") if f"sim/{p.name}" not in TOP_LEVEL)
    assert not loose, f"modules outside the layer folders: {loose}"
    for folder in FOLDERS:
        assert (ROOT / folder).is_dir(), folder
    for low, high in NEVER:
        assert ORDER.index(low) < ORDER.index(high), (low, high)


def _shortest_cycle(members: frozenset[str], edges: dict[tuple[str, str], Import]) -> list[Import]:
    """One shortest circle of imports through a strongly connected set of modules."""
    best: list[Import] = []
    known = set().union(*ALLOWED_CYCLES)
    # A circle through a module outside the known cycles shows what is new.
    for start in sorted(members - known) or sorted(members):
        # Breadth-first from ``start`` back to itself, inside the set.
        paths: dict[str, list[Import]] = {start: []}
        queue = [start]
        while queue:
            node = queue.pop(0)
            for (source, target), edge in sorted(edges.items()):
                if source != node or target not in members:
                    continue
                if target == start:
                    if not best or len(paths[node]) + 1 < len(best):
                        best = [*paths[node], edge]
                    queue = []
                    break
                if target not in paths:
                    paths[target] = [*paths[node], edge]
                    queue.append(target)
    return best


def test_no_import_cycles():
    imports = _imports()
    cycles = {frozenset(c): c for c in _cycles(imports)}
    edges: dict[tuple[str, str], Import] = {}
    for found in imports:
        edges.setdefault((found.source, found.target), found)
    new = []
    for key, members in cycles.items():
        if key in ALLOWED_CYCLES:
            continue
        circle = " -> ".join(
            f"{e.source}:{e.line}{' (in a function)' if e.local else ''}"
            for e in _shortest_cycle(key, edges)
        )
        new.append(f"{len(members)} modules ({', '.join(members)}), e.g. {circle} -> back")
    stale = [", ".join(sorted(c)) for c in ALLOWED_CYCLES if c not in cycles]
    assert not new and not stale, _report("import cycles", new, stale)


def test_layers_only_import_downwards():
    upward = {}
    for found in _imports():
        source, target = _layer(found.source), _layer(found.target)
        if ORDER.index(target) > ORDER.index(source):
            upward.setdefault((found.source, found.target), found)
    new = [
        f"{s}:{f.line} ({_layer(s)}) imports {t} ({_layer(t)})"
        for (s, t), f in sorted(upward.items())
        if (s, t) not in ALLOWED_UPWARD
    ]
    stale = [f"{s} -> {t}" for s, t in sorted(ALLOWED_UPWARD - set(upward))]
    assert not new and not stale, _report("imports against the layer order", new, stale)


def test_nothing_in_sim_below_the_command_line_imports_analysis():
    offenders = sorted(
        f"{found.source}:{found.line} imports {found.target}"
        for found in _imports()
        if found.source.startswith("sim/")
        and found.target.startswith("analysis/")
        and not any(
            found.source == m or (m.endswith("/") and found.source.startswith(m))
            for m in MAY_IMPORT_ANALYSIS
        )
        and (found.source, found.target) not in ALLOWED_UPWARD
    )
    assert not offenders, _report("sim below the command line imports analysis", offenders, [])


def test_no_function_local_imports_of_our_modules():
    local = {}
    for found in _imports():
        if found.local:
            local.setdefault((found.source, found.target), found)
    new = [
        f"{s}:{f.line} imports {t} inside a function"
        for (s, t), f in sorted(local.items())
        if (s, t) not in ALLOWED_LOCAL
    ]
    stale = [f"{s} -> {t}" for s, t in sorted(ALLOWED_LOCAL - set(local))]
    assert not new and not stale, _report("function-local imports of our modules", new, stale)


# -- the command table ---------------------------------------------------------------------------


def test_the_command_table_says_what_each_command_says():
    for name, entry in COMMANDS.items():
        command = getattr(importlib.import_module(entry.module), name)
        assert isinstance(command, click.Command)
        assert command.name == name
        assert command.get_short_help_str(10**6) == entry.summary, name


def _listing(group: click.Group) -> str:
    context = click.Context(group, info_name="combatsim")
    formatter = context.make_formatter()
    group.format_commands(context, formatter)
    return formatter.getvalue()


def test_help_lists_the_commands_as_if_they_were_all_loaded():
    own = {name: command for name, command in cli.commands.items() if name not in COMMANDS}
    lazy = CommandGroup("combatsim", commands=own)
    listed = _listing(lazy)
    assert not set(lazy.commands) & set(COMMANDS), "listing the commands imported them"
    context = click.Context(cli)
    every = {name: cli.get_command(context, name) for name in cli.list_commands(context)}
    eager = _listing(click.Group("combatsim", commands=every))
    assert set(COMMANDS) < set(every)
    assert listed == eager


def test_the_command_line_starts_without_scipy_matplotlib_or_pandas():
    code = (
        "import sys, sim.cli.app; "
        "print(sorted(m for m in ('scipy', 'matplotlib', 'pandas') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert found.stdout.strip() == "[]"
