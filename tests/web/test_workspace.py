"""The working folder: paths confined to it, files saved whole and never over a changed file."""

from __future__ import annotations

import os

import pytest

from sim.scenario.limits import MAX_FILE_BYTES
from sim.scenario.loader import validate_file
from sim.web.workspace import Conflict, PathRefused, Workspace
from tests.conftest import SCENARIOS

# -- nothing outside the working folder ---------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "../outside.yaml",
        "scenarios/../../outside.yaml",
        "scenarios\\..\\..\\outside.yaml",
        "C:/Windows/win.ini",
        "scenarios/acs-duel.yaml\x00.txt",
        "",
    ],
)
def test_a_path_out_of_the_folder_is_refused(folder, path):
    with pytest.raises(PathRefused):
        Workspace(folder).path(path)


def test_no_symbolic_link_is_followed_out_of_the_folder_or_in_it(folder, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("name: secret\n")
    (folder / "link.yaml").symlink_to(secret)
    (folder / "linked").symlink_to(tmp_path)
    (folder / "inside.yaml").symlink_to(folder / "scenarios" / "acs-duel.yaml")
    workspace = Workspace(folder)
    for path in ("link.yaml", "linked/secret.yaml", "inside.yaml"):
        with pytest.raises(PathRefused, match="symbolic link"):
            workspace.read(path)
        with pytest.raises(PathRefused, match="symbolic link"):
            workspace.save(path, "name: x\n", None)
    assert secret.read_text() == "name: secret\n"
    listed = [entry.path for entry in workspace.scenarios()]
    assert "link.yaml" not in listed and "inside.yaml" not in listed


def test_the_page_refuses_paths_out_of_the_folder(client, folder):
    for path in ("../x.yaml", "/etc/hostname", "..%2Fx.yaml"):
        answer = client.get(f"/api/file?path={path}")
        assert answer.status_code == 400, path
    saved = client.post("/api/save", json={"path": "../escape.yaml", "text": "x: 1\n"})
    assert saved.status_code == 400
    assert not (folder.parent / "escape.yaml").exists()
    job = client.post("/api/jobs", json={"kind": "run", "scenario": "/etc/passwd"})
    assert job.status_code == 400


def test_only_scenario_and_results_files_are_served(client, folder):
    (folder / "notes.txt").write_text("private")
    assert client.get("/download?path=notes.txt").status_code == 400
    assert client.get("/api/file?path=notes.txt").status_code == 400


# -- the loader's size limit on anything posted ----------------------------------------------


def test_a_posted_scenario_past_the_loaders_limit_is_refused(client, folder):
    big = "# " + "x" * MAX_FILE_BYTES + "\n"
    saved = client.post("/api/save", json={"path": "scenarios/big.yaml", "text": big})
    assert saved.status_code == 400
    assert f"{MAX_FILE_BYTES:,} bytes" in saved.json()["error"]
    assert not (folder / "scenarios" / "big.yaml").exists()
    checked = client.post("/api/check", json={"text": big}).json()
    assert not checked["ok"]
    assert "at most 1,048,576" in checked["problems"][0]["message"]
    huge = b'{"text": "' + b"x" * (3 * MAX_FILE_BYTES) + b'"}'
    answer = client.post("/api/check", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert "at most" in answer.json()["error"]


# -- saving: whole, atomically, never over a file changed since it was opened -----------------


def test_a_save_never_overwrites_a_file_changed_on_disk_since_it_was_opened(folder):
    workspace = Workspace(folder)
    name = "scenarios/acs-duel.yaml"
    text, opened = workspace.read(name)
    mine = text.replace("hp: 24", "hp: 30", 1)
    theirs = text + "# changed in another editor\n"
    (folder / name).write_text(theirs)
    with pytest.raises(Conflict) as refused:
        workspace.save(name, mine, opened)
    assert (folder / name).read_text() == theirs  # untouched
    assert refused.value.text == theirs  # the page offers both: the file on disk...
    assert "changed on disk" in str(refused.value)
    # ... and, when the designer says so, replaces it (saving over the version now on disk).
    workspace.save(name, mine, refused.value.version)
    assert (folder / name).read_text() == mine


def test_a_new_file_is_not_written_over_one_that_appeared_meanwhile(folder):
    workspace = Workspace(folder)
    (folder / "scenarios" / "taken.yaml").write_text("name: first\n")
    with pytest.raises(Conflict):
        workspace.save("scenarios/taken.yaml", "name: second\n", None)
    assert (folder / "scenarios" / "taken.yaml").read_text() == "name: first\n"


def test_a_save_keeps_the_text_as_written_and_leaves_no_temporary_file(client, folder):
    text = (SCENARIOS / "acs-duel.yaml").read_text()
    text = text.replace("hp: 24", "hp: 26  # a comment the editor keeps", 1)
    opened = client.get("/api/file?path=scenarios/acs-duel.yaml").json()
    saved = client.post(
        "/api/save",
        json={"path": "scenarios/acs-duel.yaml", "text": text, "version": opened["version"]},
    )
    assert saved.status_code == 200
    assert (folder / "scenarios" / "acs-duel.yaml").read_bytes() == text.encode("utf-8")
    assert sorted(os.listdir(folder / "scenarios")) == ["acs-duel-tweaks.yaml", "acs-duel.yaml"]
    stale = client.post(
        "/api/save",
        json={"path": "scenarios/acs-duel.yaml", "text": "x", "version": opened["version"]},
    )
    assert stale.status_code == 409
    assert stale.json()["conflict"] and stale.json()["disk"] == text


def test_a_bundled_scenario_is_read_only(client):
    listed = client.get("/").text
    assert "bundled:acs-duel.yaml" in listed
    opened = client.get("/api/file?path=bundled:acs-duel.yaml").json()
    assert opened["readonly"] and opened["text"] == (SCENARIOS / "acs-duel.yaml").read_text()
    saved = client.post("/api/save", json={"path": "bundled:acs-duel.yaml", "text": "x"})
    assert saved.status_code == 400
    assert client.get("/api/file?path=bundled:../pyproject.toml").status_code == 400


# -- checked by the same loader as `combatsim validate` --------------------------------------


def test_the_check_gives_the_loaders_problems_at_their_lines(client, folder, monkeypatch):
    text = (SCENARIOS / "acs-duel.yaml").read_text().replace("to_hit: 45", "to_hit: lots", 1)
    (folder / "scenarios" / "broken.yaml").write_text(text)
    monkeypatch.chdir(folder)  # the loader names the file as given, as `validate` run here does
    expected = [str(p) for p in validate_file("scenarios/broken.yaml")]
    checked = client.post("/api/check", json={"path": "scenarios/broken.yaml", "text": text}).json()
    assert not checked["ok"]
    assert [p["message"] for p in checked["problems"]] == expected
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "to_hit: lots" in row)
    assert checked["problems"][0]["line"] == line
    fine = client.post(
        "/api/check", json={"path": "x.yaml", "text": (SCENARIOS / "acs-duel.yaml").read_text()}
    )
    assert fine.json()["ok"] and fine.json()["scenario"]["rules"] == "acs"


def test_bad_yaml_is_shown_as_its_problem_never_a_traceback(client):
    for text in ("name: [unclosed\n", "a: 1\na: 2\n", "\t- oops", "*alias\n"):
        answer = client.post("/api/check", json={"text": text})
        assert answer.status_code == 200, text
        assert not answer.json()["ok"]
        assert "Traceback" not in answer.text


def test_a_page_that_cannot_be_shown_says_why(client, folder):
    (folder / "empty").mkdir()
    for url in ("/results?path=empty", "/results?path=../x", "/edit?path=nothing.yaml"):
        answer = client.get(url)
        assert answer.status_code == 400, url
        assert 'id="error"' in answer.text and "Traceback" not in answer.text
