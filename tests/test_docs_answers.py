"""Every answer the README and docs/ state is the tool's answer, at the size and seed they state.

A sentence that states what a run found (a win rate, a verdict, a balance point, the lever that
moves a fight most) carries an HTML comment, which Markdown does not show, naming the command
that finds it and the words of the sentence that the command must print:

    <!-- answer: combatsim compare scenarios/acs-caster-and-guards.yaml --runs 1000
         | "83.7% → 80.1%" "-6.6 to -0.6" -->
    ... the party wins 83.7% → 80.1% without the spell (95% CI -6.6 to -0.6) ...

Each quoted string must be in the paragraph (or table) that follows the comment and in what the
command prints (spaces and line breaks count as one space, capitals as small letters);
``"wins all 2000" = "gerbil │ 2000 │ 100.0%"`` pairs what the sentence says with what the tool
prints where the two are worded differently. The command runs exactly as written,
at its full size: when a rule change moves the answer, this test fails and the sentence is
rewritten with the new answer.

A block of output under ``<!-- answer -->`` is compared with what its ``$`` commands print, or,
under ``<!-- answer: COMMAND -->``, with what COMMAND prints; ``...`` in the block stands for
anything. A source may also be ``python: EXPRESSION``, evaluated with the helpers below, for an
answer no command prints (shots fired before contact, a check after an edit).

Every command runs once however many sentences cite it, in a scratch copy of ``scenarios/``.
The last tests make sure nothing is left unchecked: a paragraph that names a seed or a measured
percentage, and a block that shows what a command printed, carry an answer comment (or, for a
block, a ``doctest: skip`` with its reason).
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from analysis.compare import compare, newcombe_interval
from analysis.verdict import run_verdict as verdict_of_run
from sim import simulate
from sim.cli.app import cli
from sim.rules.target10.skill_tests import extended_chance, success_chance
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import ROOT
from tests.target10.test_clock_range import _shots_before_contact
from tests.test_docs_blocks import BLOCKS, DOCS, Block, _joined, blocks_of

_OPEN = "<!-- answer"
_FENCE = re.compile(r"^ *```")


@dataclass
class Answer:
    """One answer comment and the claim under it (a paragraph, a table or a block)."""

    file: Path
    line: int
    source: str
    strings: list[str]
    claim: str
    block: Block | None = None
    runs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        where = self.file.relative_to(ROOT) if self.file.is_relative_to(ROOT) else self.file
        return f"{where}:{self.line}"


def answers_of(path: Path) -> list[Answer]:
    """The answer comments of a Markdown file, each with the claim it stands over."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = {b.line: b for b in blocks_of(path)}
    found: list[Answer] = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(_OPEN):
            i += 1
            continue
        start = i
        while "-->" not in lines[i]:
            i += 1
        body = " ".join(line.strip() for line in lines[start : i + 1])
        body = body[body.index(_OPEN) + len(_OPEN) : body.rindex("-->")].strip()
        source, _, said = body.removeprefix(":").partition(" | ")
        after = _after_comments(lines, i + 1)
        answer = Answer(path, start + 1, source.strip(), shlex.split(said), "")
        if after < len(lines) and _FENCE.match(lines[after]):
            answer.block = blocks[after + 1]
        else:
            end = after
            while end < len(lines) and lines[end].strip():
                end += 1
            answer.claim = "\n".join(lines[after:end])
        found.append(answer)
        i += 1
    return found


def _after_comments(lines: list[str], i: int) -> int:
    """The first line at or after ``i`` that is not part of an HTML comment."""
    while i < len(lines) and lines[i].lstrip().startswith("<!--"):
        while "-->" not in lines[i]:
            i += 1
        i += 1
    return i


ANSWERS = [answer for path in DOCS for answer in answers_of(path)]


# -- running the sources, once each ------------------------------------------------------------


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("answers")
    shutil.copytree(ROOT / "scenarios", root / "scenarios")
    shutil.copytree(ROOT / "schema", root / "schema")
    return root


_PRINTED: dict[str, str] = {}


def printed(source: str, workdir: Path, monkeypatch) -> str:
    """What a source prints (a ``combatsim`` command, or ``python: EXPRESSION``), once each."""
    if source not in _PRINTED:
        monkeypatch.chdir(workdir)
        monkeypatch.setenv("COLUMNS", "200")
        if source.startswith("python:"):
            _PRINTED[source] = str(eval(source.removeprefix("python:"), dict(HELPERS)))
        else:
            words = shlex.split(source)
            assert words[0] == "combatsim", f"{source!r}: a source is a combatsim command"
            result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
            assert result.exit_code == 0, f"{source}\n{result.output}"
            _PRINTED[source] = result.stdout
    return _PRINTED[source]


def flat(text: str) -> str:
    """Text with every run of spaces and line breaks as one space, in lower case (a sentence
    may open with a word the tool prints in the middle of its line)."""
    return " ".join(text.split()).casefold()


def shows(expected: str, output: str) -> bool:
    """Whether ``output`` prints ``expected``, where ``...`` in it stands for anything."""
    parts = [re.escape(part.strip()) for part in flat(expected).split("...")]
    return re.search(r"\s?.*?\s?".join(parts), flat(output), re.S) is not None


def expected_outputs(answer: Answer) -> list[tuple[str, str]]:
    """``(source, what it prints)`` for a block: each ``$`` command and the lines under it."""
    assert answer.block is not None
    lines = _joined(answer.block.text.splitlines())
    if not any(line.startswith("$ ") for line in lines):
        assert answer.source, f"{answer.name}: name the command whose output the block shows"
        return [(answer.source, answer.block.text)]
    assert not answer.source, f"{answer.name}: the block's own $ commands are its sources"
    pairs: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            pairs.append((line[2:].split("  #")[0].strip(), []))
        else:
            pairs[-1][1].append(line)
    return [(command, "\n".join(shown)) for command, shown in pairs]


# -- helpers for answers no single command prints ------------------------------------------------


def shots_before_contact(path: str, combats: int, **options) -> str:
    """Mean shots per musketeer before the first warrior strikes (seed 11), two decimals."""
    scenario = load_scenario(path)
    if options:
        written = scenario.data.get("options", {})
        scenario = scenario_from_dict(dict(scenario.data, options={**written, **options}))
    return f"{_shots_before_contact(scenario, combats):.2f} shots per musketeer"


def check_after_edit(path: str, runs: int, edit: tuple[str, str]) -> str:
    """What ``combatsim check`` prints when ``edit`` (old, new text) changes a recorded file."""
    scratch = Path.cwd() / "edited"
    shutil.rmtree(scratch, ignore_errors=True)
    (scratch / "scenarios").mkdir(parents=True)
    copy = scratch / path
    shutil.copyfile(path, copy)
    runner = CliRunner()
    recorded = runner.invoke(cli, ["baseline", str(copy), "--runs", str(runs)])
    assert recorded.exit_code == 0, recorded.output
    old, new = edit
    text = copy.read_text(encoding="utf-8")
    assert old in text, f"{path} does not hold {old!r}"
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    checked = runner.invoke(cli, ["check", str(copy)])
    assert checked.exit_code == 1, checked.output
    return checked.stdout.replace(str(copy), path)


def unpaired_interval(path: str, variant: str, runs: int, side: str = "red") -> str:
    """The interval two independent runs with the paired comparison's win rates would give."""
    wins = next(
        w for w in compare(path, runs=runs).wins if w.variant == variant and w.side == side
    )
    low, high = newcombe_interval(wins.base_wins, wins.runs, wins.variant_wins, wins.runs)
    return f"{100 * low:+.1f} to {100 * high:+.1f} points"


def run_verdict(path: str, runs: int, seed: int) -> str:
    """The one-line verdict a run's report opens with."""
    scenario = load_scenario(path)
    return verdict_of_run(simulate(scenario, runs=runs, seed=seed).outcomes, scenario.side_names)


def exact_extended_chance(tv: int, successes: int, failures: int, testers: int = 2) -> str:
    """An extended test's exact chance (Target 10), as a fraction and a percentage."""
    chance = extended_chance([success_chance(tv, 10)] * testers, successes, failures)
    return f"{chance.numerator}/{chance.denominator} ≈ {float(chance):.2%}"


def exact_changed(path: str, vigor: int, time_limit: int) -> str:
    """A bundled duel with every combatant at this Vigor and time limit, solved exactly."""
    data = yaml.safe_load((ROOT / path).read_text())
    for side in data["sides"]:
        for combatant in side["combatants"]:
            combatant["vigor"] = vigor
    data["time_limit"] = time_limit
    summary = simulate(scenario_from_dict(data), method="exact").summary
    rates = " ".join(f"{name} {s['win_rate']:.1%}" for name, s in summary["sides"].items())
    return (
        f"{summary['states']} states {rates} draw {summary['draw_rate']:.1%} "
        f"{summary['mean_duration_rounds']:.2f} rounds"
    )


HELPERS = {
    "exact_changed": exact_changed,
    "shots_before_contact": shots_before_contact,
    "check_after_edit": check_after_edit,
    "unpaired_interval": unpaired_interval,
    "run_verdict": run_verdict,
    "exact_extended_chance": exact_extended_chance,
}


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda a: a.name)
def test_the_stated_answer_is_the_tools(answer, workdir, monkeypatch):
    if answer.block is not None:
        for source, expected in expected_outputs(answer):
            output = printed(source, workdir, monkeypatch)
            assert shows(expected, output), (
                f"{answer.name}: {source} no longer prints what the docs show.\n"
                f"--- docs ---\n{expected}\n--- prints ---\n{output}"
            )
        return
    assert answer.source and answer.strings, f"{answer.name}: name a source and what it says"
    output = printed(answer.source, workdir, monkeypatch)
    for said, shown in pairs(answer.strings):
        assert flat(said) in flat(answer.claim), (
            f"{answer.name}: the sentence does not say {said!r}:\n{answer.claim}"
        )
        assert flat(shown) in flat(output), (
            f"{answer.name}: {answer.source} does not print {shown!r} (the docs say it does); "
            f"rewrite the sentence with what it prints:\n{output}"
        )


def pairs(strings: list[str]) -> list[tuple[str, str]]:
    """``(in the sentence, in the output)``: a string alone is both; ``"A" = "B"`` says A
    where the tool prints B (a sentence's "wins all 2000" for a table's "2000 │ 100.0%")."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(strings):
        if i + 2 < len(strings) and strings[i + 1] == "=":
            found.append((strings[i], strings[i + 2]))
            i += 3
        else:
            found.append((strings[i], strings[i]))
            i += 1
    return found


#: What a measured answer looks like in a sentence: a percentage with decimals, a named seed,
#: a Sobol index, "wins 85%" or "wins all 2000" (inline code, a command, is not a sentence).
MEASURED = re.compile(
    r"\d+\.\d+ ?%|\bseed \d+|\d+ of \d+ seeds|\bindex \d\.\d\d|\bwins? (all \d|\d+(\.\d+)? ?%)"
)
_INLINE_CODE = re.compile(r"`[^`]*`")


def measured(text: str) -> re.Match | None:
    """The first measured answer a paragraph states, outside inline code."""
    return MEASURED.search(_INLINE_CODE.sub("", text))


def prose_paragraphs(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, text, checked)`` for each paragraph outside code blocks; ``checked`` when an
    answer comment stands just above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    i, fenced, marked = 0, False, False
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
            marked = False
            i += 1
            continue
        if fenced:
            i += 1
            continue
        if line.lstrip().startswith(_OPEN):
            while "-->" not in lines[i]:
                i += 1
            marked = True
            i += 1
            continue
        if line.lstrip().startswith("<!--") or not line.strip():
            marked = marked and line.lstrip().startswith("<!--")
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].strip() and not _FENCE.match(lines[i]):
            i += 1
        text = "\n".join(lines[start:i])
        if not all(line.startswith("    ") for line in lines[start:i]):  # not indented code
            found.append((start + 1, text, marked))
        marked = False
    return found


def test_every_sentence_that_states_a_measured_answer_is_checked():
    unchecked = [
        f"{path.relative_to(ROOT)}:{line}: {found[0]!r}"
        for path in DOCS
        for line, text, checked in prose_paragraphs(path)
        if not checked and (found := measured(text))
    ]
    assert not unchecked, (
        "these paragraphs state what a run found without an answer comment naming the command "
        "(see this module's docstring):\n" + "\n".join(unchecked)
    )


def _shows_output(block: Block) -> bool:
    """Whether a block shows what a command printed (a line under a ``$`` command, or a table)."""
    lines = _joined(block.text.splitlines())
    if any(line.startswith("$ ") for line in lines):
        after = lines[next(i for i, line in enumerate(lines) if line.startswith("$ ")) :]
        return any(
            line.strip() and not line.startswith(("$ ", "...")) for line in after
        )  # a "...step..." line narrates, it is not output
    return block.lang in ("text", "console", "") and bool(re.search(r"[┏│]|\d+\.\d%", block.text))


def test_every_block_of_printed_output_is_checked_or_says_why_not():
    unchecked = [
        b.name for b in BLOCKS if _shows_output(b) and b.answer is None and b.skip is None
    ]
    assert not unchecked, (
        "these blocks show what a command prints without an answer comment (or a "
        "'doctest: skip: REASON'):\n" + "\n".join(unchecked)
    )


def test_shows_reads_ellipses_and_line_breaks():
    assert shows("a b\n...\nc", "x a  b\nstuff\nc y")
    assert shows("winner 53.8% ... 46.2%", "winner 53.8% then 46.2%")
    assert not shows("53.8% → 57.5%", "53.8% → 57.4%")


def test_the_parser_finds_answers_and_their_claims(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- answer: combatsim run x.yaml\n  | \"53.8%\" \"red\" -->\nRed wins 53.8%.\n\n"
        "<!-- answer -->\n<!-- doctest: skip: never -->\n```text\n$ combatsim x\nout\n```\n",
        encoding="utf-8",
    )
    prose, block = answers_of(page)
    assert (prose.source, prose.strings, prose.claim) == (
        "combatsim run x.yaml", ["53.8%", "red"], "Red wins 53.8%."
    )
    assert block.block is not None and expected_outputs(block) == [("combatsim x", "out")]
    assert pairs(["a", "b", "=", "c", "d"]) == [("a", "a"), ("b", "c"), ("d", "d")]
    assert len(ANSWERS) >= 20

