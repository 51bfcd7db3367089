"""Every code block of the README and docs/ that is a command or Python runs, and works.

A block is found by its fence. Python runs in a fresh namespace; a command (a ``$ `` line in
any block, or a line of an ``sh`` block or of a block without a language that starts with a
program's name) runs through the command line in-process and must succeed (a command two
blocks show alike runs once). Both run in a scratch copy of ``scenarios/`` so that nothing they
write lands in the checkout. A complete
scenario in a ``yaml`` block is validated.

A block that must not run says so on the line just above its fence, in an HTML comment that
Markdown does not show, with its reason; the same comment can shrink a long run:

- ``<!-- doctest: skip: REASON -->``: an output sample, a synopsis, a job for another machine.
- ``<!-- doctest: excerpt PATH -->``: Python quoted from the file ``PATH`` (whose own tests
  run it): its classes and functions must be the file's, with the same parameters, and it must
  run in that file's namespace.
- ``<!-- doctest: replace "OLD" "NEW" ... -->``: run the block with ``OLD`` replaced by ``NEW``
  (fewer combats, a narrower scope). Each ``OLD`` must be in the block.
- ``<!-- doctest: runs N -->``: every command that plays combats plays ``N`` a time (its
  ``--runs``, ``--max-runs`` and ``--refine-runs`` set to ``N``; in Python, ``runs=``,
  ``max_runs=`` and ``refine_runs=``), so that a block written for a million combats runs in
  seconds.
- ``<!-- doctest: ignore "TEXT" -->``: a command line holding ``TEXT`` is not run (``git add``
  in a walk-through).

A block under an ``<!-- answer ... -->`` comment shows what a command prints: it is run at the
size written, and its output compared, by ``tests/test_docs_answers.py``, not here.

The test fails on a block it does not know how to run and that is not marked, so a new
command in the docs is run or explicitly declined.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shlex
import shutil
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sim.cli.app import cli
from sim.scenario.loader import parse_scenario
from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: Programs a command block may start with; only ``combatsim`` is run here.
PROGRAMS = ("combatsim", "pip", "python", "git", "dask", "pytest")
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\s*$")
_DIRECTIVE = re.compile(
    r"^\s*<!-- doctest: (?P<kind>skip|excerpt|replace|ignore|runs)\b(?P<rest>.*?)-->\s*$"
)
#: A one-line answer comment above a block: its output is checked (tests/test_docs_answers.py).
_ANSWER = re.compile(r"^\s*<!-- answer(?::(?P<source>.*?))?\s*-->\s*$")


@dataclass
class Block:
    """One fenced code block and what the comment above it says."""

    file: Path
    line: int
    lang: str
    text: str
    skip: str | None = None
    excerpt: str | None = None
    replace: list[tuple[str, str]] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    runs: int | None = None
    #: Under an answer comment: the source it names ("" when the block's own commands).
    answer: str | None = None

    @property
    def name(self) -> str:
        where = self.file.relative_to(ROOT) if self.file.is_relative_to(ROOT) else self.file
        return f"{where}:{self.line}"

    def commands(self) -> list[str]:
        """The command lines of the block (continuations joined), as written."""
        lines = _joined(self.text.splitlines())
        if any(line.startswith("$ ") for line in lines):
            return [line[2:].strip() for line in lines if line.startswith("$ ")]
        if self.lang in ("sh", "bash", "shell", "console") or (
            self.lang == "" and any(_is_command(line) for line in lines)
        ):
            return [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        return []


def _joined(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def _is_command(line: str) -> bool:
    return line.split(" ", 1)[0] in PROGRAMS


def blocks_of(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with the directives just above each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        block = Block(path, i + 1, match["lang"], "\n".join(lines[i + 1 : end]) + "\n")
        above = i - 1
        while above >= 0:
            if directive := _DIRECTIVE.match(lines[above]):
                _read_directive(block, directive["kind"], directive["rest"].strip())
            elif answer := _ANSWER.match(lines[above]):
                block.answer = (answer["source"] or "").strip()
            else:
                break
            above -= 1
        found.append(block)
        i = end + 1
    return found


def _read_directive(block: Block, kind: str, rest: str) -> None:
    if kind == "skip":
        reason = rest.lstrip(":").strip()
        assert reason, f"{block.name}: a skipped block says why"
        block.skip = reason
    elif kind == "excerpt":
        block.excerpt = rest
    elif kind == "runs":
        block.runs = int(rest)
    elif kind == "replace":
        words = shlex.split(rest)
        assert words and len(words) % 2 == 0, f"{block.name}: replace takes pairs"
        block.replace += list(zip(words[::2], words[1::2], strict=True))
    else:
        block.ignore += shlex.split(rest)


BLOCKS = [block for path in DOCS for block in blocks_of(path)]


def runnable(block: Block) -> bool:
    """A block this module runs (an answer's block runs, at full size, in test_docs_answers)."""
    return (
        block.skip is None
        and block.answer is None
        and (block.lang == "python" or bool(block.commands()))
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A copy of the scenarios (and the schema they point at), shared by the blocks.

    Shared, so that a command two pages show alike (the README's tour and the guide both sweep
    the goblins into ``goblins/``) runs once: see :data:`_DONE`.
    """
    root = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "scenarios", root / "scenarios")
    shutil.copytree(ROOT / "schema", root / "schema")
    return root


#: Commands (as run, after ``runs``) that already succeeded in :func:`workdir`.
_DONE: set[tuple[str, ...]] = set()


@pytest.fixture
def scratch(workdir, monkeypatch) -> Path:
    """The shared copy as the working directory of one block."""
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("COLUMNS", "200")
    return workdir


def source_of(block: Block) -> str:
    text = block.text
    for old, new in block.replace:
        assert old in text, f"{block.name}: replace {old!r}, which the block does not hold"
        text = text.replace(old, new)
    if block.runs is not None and block.lang == "python":
        text = re.sub(r"\b(runs|max_runs|refine_runs)=[\d_]+", rf"\g<1>={block.runs}", text)
    return text


#: The commands that play combats, and so take ``--runs``.
PLAYING = ("run", "compare", "baseline", "sweep", "balance", "tournament", "sensitivity")
_RUN_OPTIONS = ("--runs", "--max-runs", "--refine-runs")


def with_runs(words: list[str], runs: int | None) -> list[str]:
    """A command's words with its number of combats set to ``runs`` (None: as written)."""
    if runs is None or len(words) < 2 or words[1] not in PLAYING:
        return words
    out = [
        w for i, w in enumerate(words) if w not in _RUN_OPTIONS and words[i - 1] not in _RUN_OPTIONS
    ]
    if "--precision" in out:  # it excludes --runs: the loop plays up to --max-runs
        out += ["--max-runs", str(runs)]
    else:
        out += ["--runs", str(runs)]
    if words[1] == "balance":
        out += ["--refine-runs", str(runs)]
    if words[1] == "sensitivity":  # its other sizes; the Sobol design needs a power of two
        out += ["--oat-runs", str(runs), "--samples", "4"]
    if words[1] == "tournament":  # fewer bootstrap resamples for the value's interval
        out += ["--resamples", "50"]
    return out


@pytest.mark.parametrize(
    "block", [b for b in BLOCKS if runnable(b) and not b.excerpt], ids=lambda b: b.name
)
def test_the_block_runs(block, scratch):
    text = source_of(block)
    if block.lang == "python":
        exec(compile(textwrap.dedent(text), block.name, "exec"), {"__name__": "__doc_block__"})
        return
    ran = 0
    for command in Block(block.file, block.line, block.lang, text).commands():
        if any(word in command for word in block.ignore):
            continue
        words = shlex.split(command, comments=True)
        assert words[0] == "combatsim", (
            f"{block.name}: {command!r} is not a combatsim command: run it here, or mark the "
            "block (doctest: skip / ignore) with the reason"
        )
        out = None
        if ">" in words:
            at = words.index(">")
            words, out = words[:at], words[at + 1]
        words = with_runs(words, block.runs)
        ran += 1
        if out is None and tuple(words) in _DONE:
            continue  # the same command, in the same folder, ran for another block
        result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
        assert result.exit_code == 0, f"{block.name}: {command}\n{result.output}"
        if out is not None:
            Path(out).write_text(result.stdout, encoding="utf-8")
        _DONE.add(tuple(words))
    assert ran, f"{block.name}: no command ran"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.excerpt], ids=lambda b: b.name)
def test_a_quoted_excerpt_is_in_its_file(block):
    """The classes and functions an excerpt shows are the file's, with the same parameters.

    An excerpt may leave out annotations, docstrings and lines (``...``) to read better; what
    it cannot do is show a method the file does not have, or other parameters. It also runs in
    the file's own namespace, so every name it uses at definition time exists there.
    """
    assert block.lang == "python" and block.skip is None
    path = ROOT / block.excerpt
    code = textwrap.dedent(block.text)
    shown = _definitions(ast.parse(code))
    real = _definitions(ast.parse(path.read_text(encoding="utf-8")))
    assert shown, f"{block.name}: no class or function in the excerpt"
    wrong = {
        name: params for name, params in shown.items() if params not in _candidates(real, name)
    }
    assert not wrong, f"{block.name}: not as in {block.excerpt}: {wrong}"
    spec = importlib.util.spec_from_file_location("_excerpt_source", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    exec(compile(code, block.name, "exec"), dict(vars(module)))


def _candidates(real: dict[str, tuple[str, ...]], name: str) -> list[tuple[str, ...]]:
    """The parameters of ``name`` in the file (a function shown alone may be a method there)."""
    if name in real:
        return [real[name]]
    return [params for key, params in real.items() if key.endswith("." + name)]


def _definitions(tree: ast.AST) -> dict[str, tuple[str, ...]]:
    """``Class.method`` or ``function`` -> its parameter names, for every definition."""
    found: dict[str, tuple[str, ...]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                found[prefix + child.name] = ()
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = child.args
                every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
                found[prefix + child.name] = tuple(a.arg for a in every)

    visit(tree, "")
    return found


@pytest.mark.parametrize(
    "block",
    [b for b in BLOCKS if b.lang == "yaml" and b.skip is None and "\nrules:" in "\n" + b.text],
    ids=lambda b: b.name,
)
def test_a_whole_scenario_in_the_docs_is_valid(block):
    data = yaml.safe_load(block.text)
    assert {"name", "rules", "sides"} <= set(data), f"{block.name}: not a whole scenario"
    parse_scenario(block.text, file=block.name)


def test_the_parser_finds_the_blocks_of_the_docs():
    """Every fence is read (a parser that found none would pass every test above)."""
    fences = sum(
        1 for path in DOCS for line in path.read_text("utf-8").splitlines() if _FENCE.match(line)
    )
    assert fences == 2 * len(BLOCKS)  # an opening and a closing fence each
    assert sum(runnable(b) for b in BLOCKS) >= 15
    assert any(b.name == "docs/regression.md:155" or b.lang == "python" for b in BLOCKS)


def test_a_skip_without_a_reason_and_a_stale_replace_are_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        '<!-- doctest: replace "--runs 9" "--runs 1" -->\n```console\n'
        "$ combatsim validate scenarios/acs-duel.yaml\n```\n",
        encoding="utf-8",
    )
    (block,) = blocks_of(page)
    with pytest.raises(AssertionError, match="does not hold"):
        source_of(block)
    page.write_text("<!-- doctest: skip -->\n```python\nprint(1)\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="says why"):
        blocks_of(page)
    page.write_text("```\npip install -e coinflip/\n```\n", encoding="utf-8")
    (block,) = blocks_of(page)
    assert block.commands() == ["pip install -e coinflip/"] and runnable(block)


def test_runs_sets_every_count_of_combats():
    words = shlex.split("combatsim compare x.yaml --precision 0.01 --max-runs 50000 --runs 9")
    assert with_runs(words, 50) == [
        "combatsim",
        "compare",
        "x.yaml",
        "--precision",
        "0.01",
        "--max-runs",
        "50",
    ]
    assert with_runs(["combatsim", "check", "scenarios/"], 50) == [
        "combatsim",
        "check",
        "scenarios/",
    ]
    block = Block(ROOT, 1, "python", "simulate(s, runs=5000)\nloop(max_runs=100_000)\n", runs=7)
    assert source_of(block) == "simulate(s, runs=7)\nloop(max_runs=7)\n"
