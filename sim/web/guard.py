"""Who may talk to the workbench: its own Host header, and a token for anything that changes state.

The server listens on the loopback address, but a page from any other site open in the same
browser can still send requests to it. Two rules keep such a page out:

- **The Host header must be the workbench's own** (``127.0.0.1:PORT``, ``localhost:PORT``,
  ``[::1]:PORT``, and the ``--host`` given). A DNS-rebinding attack points a name the attacker
  owns at 127.0.0.1, so the browser sends that name as the Host: it is refused, for every request.
- **A request that changes anything carries the session's token** (header :data:`TOKEN_HEADER`),
  a random secret made when the server starts and written only into the workbench's own pages.
  Another site cannot read those pages (the same-origin policy), so it cannot learn the token; a
  custom header also cannot be sent cross-site without a CORS preflight, which is never granted.
  An ``Origin`` header other than the workbench's own is refused as well. Only ``GET`` and
  ``HEAD`` are free of the token, and no ``GET`` changes anything.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import json
import secrets
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

#: The header that carries the session's token.
TOKEN_HEADER = "x-combatsim-token"
#: Methods that never change anything (and so need no token).
SAFE_METHODS = ("GET", "HEAD")
#: The names of this machine's loopback interface.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_token() -> str:
    """A fresh session token (256 random bits)."""
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface only."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_names(host: str) -> list[str]:
    """The names a browser may use for a server bound to ``host`` (as a Host header writes them).

    The loopback names always; the ``--host`` itself; for a wildcard address (``0.0.0.0``,
    ``::``), this machine's name and the addresses that name resolves to.
    """
    names = list(LOOPBACK_NAMES)
    given = [host]
    if host in ("0.0.0.0", "::", ""):
        given = [socket.gethostname(), socket.getfqdn()]
        with contextlib.suppress(OSError):
            given += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    for name in given:
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        if shown and shown not in names:
            names.append(shown)
    return names


def allowed_hosts(names: Iterable[str], port: int) -> frozenset[str]:
    """Every Host header the server answers: each name with the port (lower case)."""
    return frozenset(f"{name}:{port}".lower() for name in names)


class Guard:
    """ASGI middleware that enforces the two rules of the module docstring.

    Args:
        app: the application it guards.
        hosts: the Host headers answered (:func:`allowed_hosts`).
        token: the session's token.
    """

    def __init__(self, app: ASGIApp, hosts: frozenset[str], token: str) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token.encode("ascii")
        self.origins = frozenset(f"http://{host}" for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request that breaks a rule; pass the others on."""
        if scope["type"] == "websocket":  # the workbench has none
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan events
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v for k, v in scope.get("headers", [])}
        why = self.refusal(scope.get("method", "GET"), headers)
        if why is not None:
            await _refuse(send, why)
            return
        await self.app(scope, receive, send)

    def refusal(self, method: str, headers: dict[str, bytes]) -> str | None:
        """Why a request is refused, or None when it may go on."""
        host = headers.get("host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            return (
                f"this workbench does not answer to the Host {host!r}; open it at its own "
                "address (as `combatsim serve` printed it)"
            )
        origin = headers.get("origin")
        if origin is not None and origin.decode("latin-1").lower() not in self.origins:
            return "a request from another site is refused"
        if method.upper() in SAFE_METHODS:
            return None
        given = headers.get(TOKEN_HEADER, b"")
        if not hmac.compare_digest(given, self.token):
            return "this request needs the session's token: reload the workbench's page"
        return None


async def _refuse(send: Send, why: str) -> None:
    body = json.dumps({"error": why}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode("ascii")),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
