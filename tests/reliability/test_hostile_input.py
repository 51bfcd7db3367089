"""Hostile input of issue 27: keys that are not text, terminal escapes, odd files, a killed worker.

Each test here failed on main before its fix: a traceback, an escape sequence printed to the
terminal, a command that never returned, or a traceback with no hint of what to do next.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import shlex
import signal
import socket

import pandas as pd
import pytest

from sim import Execution, simulate
from sim.cli.app import VisibleStream, cli
from sim.engine.text import ANY_CONTROL, visible
from sim.run import parallel
from sim.run.api import replay
from sim.scenario.loader import load_scenario, parse_scenario, scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.conftest import SCENARIOS
from tests.fuzz.harness import Hang, hang_guard
from tests.reliability.support import (
    CHUNK,
    DUEL,
    clean_table,
    invoke,
    parts,
    run_args,
    streamed_table,
)

TWEAKS = SCENARIOS / "acs-duel-tweaks.yaml"
#: A control character a terminal would act on (C0 but tab and newline, DEL, C1).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _no_raw_control(output: str) -> None:
    assert not RAW_CONTROL.search(output), repr(output)


# -- 3. a key that is not text ---------------------------------------------------------------------


@pytest.mark.parametrize("key", ["true", "5", "1.5", "~", "on"])
@pytest.mark.parametrize("command", ["validate", "run", "compare"])
def test_a_variant_set_key_that_is_not_text_is_a_problem(tmp_path, command, key):
    text = DUEL.read_text(encoding="utf-8") + f"variants:\n  - name: v1\n    set: {{{key}: 5}}\n"
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.count("\n")
    args = [command, path] + (["--runs", "20", "--workers", "1"] if command != "validate" else [])
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert f"{path}:{line}: variants[0].set.{key}: found the key {key}, which YAML reads as" in (
        result.output
    )


def test_a_key_that_is_not_text_in_data_is_a_problem_too():
    """Data given as a dict (the library) and overrides are checked as a file is."""
    data = {**load_scenario(DUEL).data, "options": {True: 5}}
    with pytest.raises(ScenarioError, match=r"options\.True: found the key True"):
        scenario_from_dict(data)
    with pytest.raises(ScenarioError, match=r"True is not a dotted path"):
        load_scenario(DUEL, overrides={True: 5})


# -- 5. terminal escapes ------------------------------------------------------------------------


ESCAPED = r'"ACS duel\e]0;pwned\a"'


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("scenario", "name: ACS duel tweaks\n", f"name: {ESCAPED}\n"),
        ("combatant", "- name: Red swordsman\n", f"- name: {ESCAPED}\n"),
        ("description", "description: The even", r'description: "\x9b2J" #'),
        ("key", "  duplicates: slide", r'  "dup\rlicates": slide'),
    ],
)
def test_an_escaped_control_character_is_refused_with_a_located_problem(tmp_path, where, old, new):
    source = TWEAKS.read_text(encoding="utf-8")
    assert old in source
    path = tmp_path / "tweaks.yaml"
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    for command in (["validate", path], ["run", path, "--runs", "20"], ["compare", path]):
        result = invoke(command)
        assert result.exit_code == 2, (command, result.output)
        assert "control character" in result.output, result.output
        _no_raw_control(result.output)
    line = source[: source.index(old)].count("\n") + 1
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    [problem] = caught.value.problems
    assert problem.line == line and "printable characters" in problem.expected


def test_a_name_with_a_newline_or_tab_is_refused_and_a_description_may_hold_them():
    text = DUEL.read_text(encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"control character \\t"):
        parse_scenario(text.replace("name: ACS duel\n", 'name: "ACS\\tduel"\n'), "x")
    described = text.replace("description: Two", 'description: "Two\\n\\tlines:" #', 1)
    assert "\t" in parse_scenario(described, "x").description


def test_the_visible_function_shows_control_characters_and_keeps_layout():
    assert visible("a\x1b]0;x\x07b\tc\nd\r\x7f\x9b") == "a\\x1b]0;x\\x07b\tc\nd\\r\\x7f\\x9b"
    assert visible("a\tb\n", ANY_CONTROL) == "a\\tb\\n"
    assert visible("名前 [bold]x[/bold] é") == "名前 [bold]x[/bold] é"


def test_the_narration_shows_a_name_it_is_given_visibly():
    """The library's replay text, not only the command line, is safe to print."""
    scenario = dataclasses.replace(load_scenario(DUEL), name="duel\x1b]0;pwned\x07")
    text = replay(scenario, 1, seed=1)
    _no_raw_control(text.replace("\n", ""))
    assert text.startswith("duel\\x1b]0;pwned\\x07: combat 1")


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "x\x1b]0;pwned\x07.yaml"],
        ["run", "x\x1b]0;pwned\x07.yaml"],
        ["run", DUEL, "--runs", "x\x1b[2J\x07"],
        ["replay", DUEL, "--combat", "\x1b]0;pwned\x07"],
        ["compare", DUEL, "x\x1b]0;pwned\x07.yaml"],
        ["check", "x\x1b]0;pwned\x07"],
    ],
)
def test_every_message_shows_control_characters_of_what_it_quotes(args):
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "\\x1b" in result.output
    _no_raw_control(result.output)


def test_on_a_terminal_only_the_styles_rich_draws_pass():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    VisibleStream(out, r"\x1b\[[0-9;]*m").write("\x1b[1mbold\x1b[0m \x1b]0;t\x07\r\x1b[1A")
    assert out.getvalue() == "\x1b[1mbold\x1b[0m \\x1b]0;t\\x07\\r\\x1b[1A"
    plain = VisibleStream(io.StringIO(), r"\x1b\[[0-9;]*m")
    plain.write("\x1b[1mbold")
    assert plain._stream.getvalue() == "\\x1b[1mbold"


def test_a_run_table_and_replay_print_no_control_character():
    for args in (["run", DUEL, "--runs", "20"], ["replay", DUEL, "--combat", "3"]):
        result = invoke(args)
        assert result.exit_code == 0, result.output
        _no_raw_control(result.output)


def test_refused_names_are_said_with_the_escape_written_visibly(tmp_path):
    path = tmp_path / "duel.yaml"
    text = DUEL.read_text(encoding="utf-8").replace("name: ACS duel\n", f"name: {ESCAPED}\n")
    path.write_text(text, encoding="utf-8")
    result = invoke(["validate", path])
    assert result.exit_code == 2
    output = result.output
    assert r'found a name holding the control character \x1b ("ACS duel\x1b]0;pwned\x07")' in (
        output
    )


# -- 4. a worker killed (as the out-of-memory killer does) -------------------------------------

KILLED_AT = 200


REAL_PLAY_CHUNK = parallel.play_chunk


def _dies_at_200(spec, start, stop):
    """A pool worker's chunk that SIGKILLs its own process at combat 200, as the kernel would."""
    if start == KILLED_AT:
        os.kill(os.getpid(), signal.SIGKILL)
    return REAL_PLAY_CHUNK(spec, start, stop)


@pytest.fixture
def killing_pool(monkeypatch):
    """Pool workers forked from now on die at combat 200 (a fresh pool, closed afterwards).

    The pool pickles ``play_chunk`` by name and its workers are forked, so they play this one.
    """
    parallel.close_shared_pool()
    monkeypatch.setattr(parallel, "play_chunk", _dies_at_200)
    yield monkeypatch
    parallel.close_shared_pool()


KILLED = re.compile(
    r"error: the run stopped: worker process \d+ was killed by SIGKILL \(most "
    r"likely the system ran out of memory and killed it, or it was killed by hand\)"
)


def _pool_args(*args):
    return [*args, "--workers", "2", "--chunk-size", "50", "--quiet"]


def test_a_killed_worker_of_run_out_says_what_is_kept_and_how_to_resume(tmp_path, killing_pool):
    out = tmp_path / "run"
    result = invoke(_pool_args("run", DUEL, "--runs", "600", "--seed", "1", "--out", out))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert KILLED.search(result.output), result.output
    said = re.search(
        r"what was finished is kept in (.+)/, and `combatsim (.+)` plays only", result.output
    )
    assert said and said.group(1) == str(out), result.output
    again = shlex.split(said.group(2))
    assert again[-1] == "--resume" and again[:-1] == [
        str(a) for a in _pool_args("run", DUEL, "--runs", "600", "--seed", "1", "--out", out)
    ]
    assert parts(out), "the chunks finished before the kill are kept"
    parallel.close_shared_pool()
    killing_pool.setattr(parallel, "play_chunk", REAL_PLAY_CHUNK)
    resumed = invoke(again)
    assert resumed.exit_code == 0, resumed.output
    pd.testing.assert_frame_equal(streamed_table(out), clean_table(seed=1, runs=600))


@pytest.mark.parametrize(
    "args",
    [
        ["run", DUEL, "--runs", "600"],
        ["run", DUEL, "--runs", "600", "--json"],
        ["compare", SCENARIOS / "acs-duel-tweaks.yaml", "--runs", "600"],
        ["sweep", SCENARIOS / "acs-duel-hp-sweep.yaml", "--runs", "300"],
    ],
    ids=["run", "run-json", "compare", "sweep"],
)
@pytest.mark.parametrize("streamed", [False, True], ids=["memory", "out"])
def test_a_killed_worker_is_one_sentence_on_every_command(
    tmp_path, monkeypatch, killing_pool, args, streamed
):
    monkeypatch.chdir(tmp_path)  # a sweep without --out writes its folder where it is run
    args = [*args, "--out", tmp_path / "out"] if streamed else list(args)
    result = invoke(_pool_args(*args))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert KILLED.search(result.output), result.output
    command = cli.get_command(None, args[0])
    resumable = streamed and any(p.name == "resume" for p in command.params)
    if resumable:
        assert "plays only the rest" in result.output and "--resume`" in result.output
    else:
        assert "nothing of this run was kept; run the same command again" in result.output


def test_the_library_names_the_worker_that_died(killing_pool):
    with pytest.raises(parallel.WorkerLost, match=r"worker process \d+ was killed by SIGKILL"):
        simulate(DUEL, runs=600, seed=1, execution=Execution(workers=2, chunk_size=50))


# -- 6. a named pipe nobody writes, a device, a socket, a folder --------------------------------

#: Seconds after which a command given a pipe counts as hung (it used to wait forever).
HUNG_S = 60


def _not_a_file(path, kind):
    """Make ``path`` a named pipe, a socket or a folder (the devices are /dev's own)."""
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        return server
    else:
        path.mkdir()
    return None


def _unhung(args):
    try:
        with hang_guard(HUNG_S):
            return invoke(args)
    except Hang:
        pytest.fail(f"{args}: still waiting after {HUNG_S} s")


@pytest.mark.parametrize("kind", ["pipe", "socket", "folder"])
def test_a_scenario_that_is_not_a_file_is_refused_at_once(tmp_path, kind):
    path = tmp_path / "scenario.yaml"
    keep = _not_a_file(path, kind)
    said = {"pipe": "a named pipe", "socket": "a socket", "folder": "a folder"}[kind]
    for args in (["validate", path], ["run", path, "--runs", "20"], ["compare", DUEL, path]):
        result = _unhung(args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
        if kind == "folder":  # click refuses a folder as SCENARIO itself
            assert f"File '{path}' is a directory" in result.output, result.output
        else:
            assert f"{path}: (top level): found {said}, not a file" in result.output, result.output
    with pytest.raises(ScenarioError, match=f"found {said}, not a file; expected a scenario"):
        load_scenario(path)
    if keep is not None:
        keep.close()


def test_a_device_as_scenario_is_refused_not_read():
    for device in ("/dev/zero", "/dev/null"):
        result = _unhung(["validate", device])
        assert result.exit_code == 2
        assert f"{device}: (top level): found a device, not a file" in result.output


def test_a_pipe_as_baseline_is_refused_at_once(tmp_path):
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text(encoding="utf-8"), encoding="utf-8")
    os.mkfifo(tmp_path / "duel.baseline.json")
    for args in (
        ["check", tmp_path / "duel.baseline.json"],
        ["check", scenario],
        ["check", tmp_path],
    ):
        result = _unhung(args)
        assert result.exit_code == 2, (args, result.output)
        assert "duel.baseline.json: it is a named pipe, not a file" in result.output, result.output


@pytest.mark.parametrize("name", ["chunks.jsonl", ".combatsim.lock"])
@pytest.mark.parametrize("resume", [False, True], ids=["fresh", "resume"])
def test_a_pipe_in_a_results_folder_is_refused_at_once(tmp_path, name, resume):
    out = tmp_path / "run"
    assert invoke(run_args(out)).exit_code == 0
    (out / name).unlink()
    os.mkfifo(out / name)
    result = _unhung(run_args(out, *(["--resume"] if resume else [])))
    assert result.exit_code == 2, result.output
    assert f"{out / name}: it is a named pipe, not a file" in result.output, result.output


def test_a_pipe_named_like_the_manifest_of_an_unlocked_folder_is_not_waited_on(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    os.mkfifo(out / "run.json")
    result = _unhung(run_args(out))
    assert result.exit_code == 2, result.output
    assert "it holds files combatsim did not write (run.json)" in result.output, result.output


def test_a_pipe_as_the_manifest_of_a_run_to_resume_is_not_waited_on(tmp_path):
    """Without --chunk-size, --resume reads the run's chunk size from run.json first."""
    out = tmp_path / "run"
    assert invoke(run_args(out)).exit_code == 0
    (out / "run.json").unlink()
    os.mkfifo(out / "run.json")
    args = [a for a in run_args(out, "--resume") if a not in ("--chunk-size", str(CHUNK))]
    result = _unhung(args)
    assert result.exit_code == 2, result.output
    assert "no run.json: nothing to resume" in result.output, result.output


def _exits_at_200(spec, start, stop):
    """A pool worker's chunk that ends its process with exit code 3 (a crash, not a kill)."""
    if start == KILLED_AT:
        os._exit(3)
    return REAL_PLAY_CHUNK(spec, start, stop)


def test_a_worker_that_exits_is_named_with_its_exit_code(tmp_path, killing_pool):
    killing_pool.setattr(parallel, "play_chunk", _exits_at_200)
    with pytest.raises(parallel.WorkerLost, match=r"worker process \d+ exited with code 3") as lost:
        simulate(DUEL, runs=600, seed=1, execution=Execution(workers=2, chunk_size=50))
    assert not lost.value.killed
    parallel.close_shared_pool()
    result = invoke(_pool_args("run", DUEL, "--runs", "600"))
    assert result.exit_code == 2 and "exited with code 3 (killed, or it crashed)" in result.output
