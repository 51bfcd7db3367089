"""``combatsim serve``: bind the address, print it, serve until Ctrl-C, then stop every run.

The socket is bound here, before uvicorn starts, so the port is known (``--port 0`` picks a free
one) and the Host headers the guard answers are those of the real address. The server runs
uvicorn on that socket in this, the main thread; Ctrl-C (or SIGTERM) stops it, and its shutdown
stops every job (:meth:`sim.web.jobs.Jobs.shutdown`): runs end at their next block or chunk and
what they wrote stays.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

import uvicorn

from sim.web.app import Workbench, make_app
from sim.web.guard import allowed_hosts, host_names, is_loopback, new_token
from sim.web.workspace import Workspace

#: The port tried first.
DEFAULT_PORT = 8765


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (``port`` 0: any free port).

    Raises:
        OSError: the address cannot be used (the port is taken, the host is not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def address(host: str, port: int) -> str:
    """The page's address."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/"


def serve(
    folder: str | Path,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    open_browser: bool = False,
    say: Callable[[str], None] = print,
    warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> None:
    """Serve the workbench over ``folder`` until interrupted.

    The server's current folder becomes ``folder``, so that files are named in the page, in
    results and in the loader's messages as ``combatsim`` names them when run there.
    """
    workspace = Workspace(folder)
    os.chdir(workspace.root)
    if not is_loopback(host):
        warn(
            f"warning: listening on {host}, not only on this machine: anyone who can reach "
            "this address and learns the page's token can run and write in "
            f"{workspace.root}. Use the default (127.0.0.1) unless you mean it."
        )
    sock = bind(host, port)
    port = sock.getsockname()[1]
    bench = Workbench(workspace, new_token())
    app = make_app(bench, allowed_hosts(host_names(host), port))
    config = uvicorn.Config(
        app,
        log_level="warning",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    url = address(host, port)
    say(f"combatsim workbench on {url} for {workspace.root} (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    late = bench.jobs.shutdown(wait_s=1)
    if late:
        warn(f"stopped; {len(late)} run(s) did not stop in time")
