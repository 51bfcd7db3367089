"""Each security rule of the workbench, one test each (docs/workbench.md, "Safety")."""

from __future__ import annotations

import urllib.error
import urllib.request

from sim.web.guard import TOKEN_HEADER, allowed_hosts, host_names, is_loopback
from tests.web.conftest import TEST_HOST, start_server

# -- DNS rebinding: the Host header must be the workbench's own -------------------------------


def test_a_request_whose_host_is_not_the_workbench_is_refused(client):
    assert client.get("/").status_code == 200
    refused = client.get("/", headers={"Host": "attacker.example:8765"})
    assert refused.status_code == 403
    assert "Host" in refused.json()["error"]
    # Every route, not only the page: a rebound name cannot read a file either.
    file = client.get("/api/file?path=scenarios/acs-duel.yaml", headers={"Host": "evil:80"})
    assert file.status_code == 403
    assert "name:" not in file.text


def test_the_hosts_answered_are_the_loopback_names_with_the_port():
    hosts = allowed_hosts(host_names("127.0.0.1"), 8765)
    assert hosts == {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}
    assert "127.0.0.1:8766" not in hosts  # another port is another server
    assert "192.168.1.10:8765" in allowed_hosts(host_names("192.168.1.10"), 8765)


# -- the per-session token for anything that changes state ------------------------------------


def test_a_state_changing_request_without_the_token_is_refused(client, folder):
    target = folder / "scenarios" / "new.yaml"
    body = {"path": "scenarios/new.yaml", "text": "name: x\n", "version": None}
    for headers in ({TOKEN_HEADER: ""}, {TOKEN_HEADER: "a-guess"}):
        refused = client.post("/api/save", json=body, headers=headers)
        assert refused.status_code == 403, headers
        assert "token" in refused.json()["error"]
        job = client.post(
            "/api/jobs",
            json={"kind": "run", "scenario": "scenarios/acs-duel.yaml"},
            headers=headers,
        )
        assert job.status_code == 403
    assert not target.exists()
    assert client.get("/api/jobs").json() == []  # nothing was started
    assert client.post("/api/save", json=body).status_code == 200  # with the token
    assert target.read_text() == "name: x\n"


def test_a_request_from_another_site_is_refused_even_with_the_token(client, folder):
    body = {"path": "scenarios/other.yaml", "text": "name: x\n", "version": None}
    refused = client.post("/api/save", json=body, headers={"Origin": "https://attacker.example"})
    assert refused.status_code == 403
    assert not (folder / "scenarios" / "other.yaml").exists()
    ours = client.post("/api/save", json=body, headers={"Origin": f"http://{TEST_HOST}"})
    assert ours.status_code == 200


def test_no_get_changes_anything(client):
    # Every route that writes or starts a run takes POST only: a link or an <img> cannot use it.
    for path in ("/api/save", "/api/jobs/1/cancel", "/api/report", "/api/check"):
        assert client.get(path).status_code in (404, 405), path
    assert client.get("/api/jobs").json() == []


def test_the_page_carries_the_token_and_forbids_other_sites_to_frame_it(client):
    page = client.get("/")
    assert 'name="combatsim-token" content="test-token-0123456789"' in page.text
    policy = page.headers["content-security-policy"]
    assert "frame-ancestors 'self'" in policy
    assert "script-src 'self'" in policy  # no inline script, no script from elsewhere


# -- listening on the loopback only, unless --host says otherwise (with a warning) -----------


def test_it_listens_on_the_loopback_by_default_and_warns_for_another_host(folder):
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0")
    served = start_server(folder)
    try:
        assert served.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(served.url, timeout=30) as answer:
            assert answer.status == 200
    finally:
        served.stop()
    assert "warning" not in served.stderr.read_text()
    wide = start_server(folder, "--host", "0.0.0.0", log=folder.parent / "wide.stderr")
    try:
        port = wide.url.rsplit(":", 1)[1].strip("/")
        request = urllib.request.Request(wide.url, headers={"Host": f"rebound.example:{port}"})
        try:
            urllib.request.urlopen(request, timeout=30)
            raise AssertionError("a foreign Host was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
    finally:
        wide.stop()
    warning = wide.stderr.read_text()
    assert "warning: listening on 0.0.0.0, not only on this machine" in warning
