"""The workbench's routes: pages rendered on the server, and a small JSON API for its script.

Every route is a thin view: it reads what the page sent, asks the library (through
:mod:`sim.web.workspace`, :mod:`sim.web.jobs`, and, for runs and results, :mod:`sim.web.studies`
and :mod:`sim.web.results_view`), and renders what came back. A refusal is a JSON ``{"error":
sentence}`` with status 400 (403 from :mod:`sim.web.guard`, 409 for a save over a changed file),
a bad scenario is its list of problems; no traceback ever reaches the page.

The modules over :mod:`analysis` (SciPy, Matplotlib, pandas: about two seconds of imports) are
loaded in a thread as soon as the server is up (:class:`Heavy`), so the server answers at once and
the first run or results page does not wait for them.
"""

from __future__ import annotations

import importlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sim.engine.errors import CommandError
from sim.rules import RESOLUTIONS, RULE_SYSTEMS
from sim.run.summary import DEFINITIONS
from sim.run.version import __version__
from sim.scenario.editor_schema import scenario_schema
from sim.scenario.limits import MAX_FILE_BYTES
from sim.scenario.loader import build_scenario
from sim.scenario.problems import ScenarioError
from sim.scenario.yamlsource import parse_source
from sim.web.guard import TOKEN_HEADER, Guard
from sim.web.jobs import Jobs
from sim.web.starters import starters
from sim.web.workspace import BUNDLED_PREFIX, Conflict, Workspace

HERE = Path(__file__).parent
#: The largest request body read (a scenario at the loader's limit, with room for its JSON).
MAX_BODY = 2 * MAX_FILE_BYTES + 4096
#: Every kind of job the page can start.
JOB_KINDS = ("run", "compare", "sweep", "balance", "tournament", "sensitivity", "tweak")
#: The largest number of combats a page's request may ask for.
MAX_RUNS = 10**7
#: Headers of every answer: no other site may frame the page or guess a content type.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'self'; "
    "form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Refused(CommandError):
    """A request the page should not have sent (a missing field, a number out of range)."""


class Heavy:
    """The modules over :mod:`analysis`, imported once in a thread after start-up."""

    NAMES = ("sim.web.studies", "sim.web.results_view")

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._modules: dict[str, Any] = {}
        self._error: BaseException | None = None
        self._started = False
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Start importing them in the background (safe to call again)."""
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._load, name="combatsim-import", daemon=True).start()

    def _load(self) -> None:
        try:
            for name in self.NAMES:
                # Deferred on purpose: these bring SciPy, Matplotlib and pandas (see above).
                self._modules[name] = importlib.import_module(name)
        except BaseException as exc:  # pragma: no cover - an installation without analysis
            self._error = exc
        finally:
            self._ready.set()

    def get(self, name: str) -> Any:
        """One of :data:`NAMES`, waiting for the import if it is under way."""
        self.warm()
        self._ready.wait()
        if self._error is not None:  # pragma: no cover
            raise self._error
        return self._modules[name]


@dataclass
class Workbench:
    """What one server serves: its folder, its jobs, its token and its templates."""

    workspace: Workspace
    token: str
    jobs: Jobs = field(default_factory=Jobs)
    heavy: Heavy = field(default_factory=Heavy)
    numbers: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
        )
        self._schema: dict | None = None
        self._outs = threading.Lock()

    @property
    def studies(self) -> Any:
        """:mod:`sim.web.studies`."""
        return self.heavy.get("sim.web.studies")

    @property
    def results_view(self) -> Any:
        """:mod:`sim.web.results_view`."""
        return self.heavy.get("sim.web.results_view")

    def schema(self) -> dict:
        """The JSON Schema ``combatsim schema`` prints (every rule system)."""
        if self._schema is None:
            self._schema = scenario_schema(dict(RULE_SYSTEMS), RESOLUTIONS)
        return self._schema

    def page(self, request: Request, name: str, **context: Any) -> HTMLResponse:
        """A page rendered from its template, with the token for its script."""
        template = self.templates.get_template(name)
        body = template.render(
            token=self.token, version=__version__, root=str(self.workspace.root), **context
        )
        return HTMLResponse(body, headers=SECURITY_HEADERS)

    def out_folder(self, scenario: str, kind: str) -> tuple[Path, str]:
        """A new results folder for a job: ``results/<scenario>-<kind>-<n>`` in the folder."""
        stem = Path(scenario.removeprefix(BUNDLED_PREFIX)).stem or "scenario"
        if kind == "tweak":
            stem = Path(scenario).name
        with self._outs:
            number = 1
            while True:
                shown = f"results/{stem}-{kind}-{number}"
                path = self.workspace.path(shown)
                if not path.exists():
                    path.mkdir(parents=True)
                    return path, shown
                number += 1


# -- reading requests --------------------------------------------------------------------------


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(f"a request of at most {MAX_BODY:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(f"a request of at most {MAX_BODY:,} bytes")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        raise Refused("the request is not JSON") from None
    if not isinstance(data, dict):
        raise Refused("the request is not a JSON object")
    return data


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise Refused(f"{key}: a text is needed")
    return value


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _text(data, key)


def _count(data: dict[str, Any], key: str, low: int = 1, high: int = MAX_RUNS) -> int | None:
    value = data.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{key}: a whole number from {low} to {high:,}, not {value!r}")
    return value


def _answer(handler: Callable[..., Any], bench: Workbench | None = None) -> Callable[..., Any]:
    """Turn a refusal into ``{"error": ...}`` and a bad scenario into its problems.

    With ``bench``, the route is a page, and the refusal a page that says it.
    """

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (ScenarioError, CommandError) as exc:
            problems = [str(p) for p in exc.problems] if isinstance(exc, ScenarioError) else []
            error = "the scenario cannot be used" if problems else str(exc)
            if bench is not None:
                page = bench.page(request, "error.html", error=error, problems=problems)
                page.status_code = 400
                return page
            body: dict[str, Any] = {"error": error}
            if problems:
                body["problems"] = problems
            return JSONResponse(body, status_code=400, headers=SECURITY_HEADERS)

    return wrapped


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


#: The kinds of file the page downloads from a results folder.
DOWNLOADS = (".html", ".json", ".csv", ".svg", ".png")
#: The policy of a report shown in the page's frame: no script, images from itself only.
REPORT_POLICY = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'"


# -- the routes ---------------------------------------------------------------------------------


class Routes:
    """The handlers of one workbench: pages first, then the API its script calls."""

    def __init__(self, bench: Workbench) -> None:
        self.bench = bench
        self.ws = bench.workspace

    # -- pages ------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        """The scenarios, the runs and the results folders."""
        return self.bench.page(
            request,
            "index.html",
            scenarios=await _threaded(self.ws.scenarios),
            results=await _threaded(self.ws.results),
            starters=starters(),
        )

    async def edit(self, request: Request) -> Response:
        """The editor of a file of the folder, a starter, or a new file."""
        name = request.query_params.get("path", "")
        starter = request.query_params.get("starter", "")
        if starter or name:
            self.ws.scenario_file(starter or name)  # refused here when it cannot be opened
        return self.bench.page(
            request, "editor.html", path=name, starter=starter, starters=starters()
        )

    async def results(self, request: Request) -> Response:
        """A results folder's page."""
        name = request.query_params.get("path", "")
        view = await _threaded(self.bench.results_view.view, self.ws, name)
        return self.bench.page(request, "results.html", view=view, definitions=DEFINITIONS)

    async def report_frame(self, request: Request) -> Response:
        """A folder's ``report.html``, for the page's sandboxed frame."""
        path = self.ws.path(request.query_params.get("path", ""), must_exist=True)
        if path.name != "report.html" or not path.is_file():
            raise Refused(f"{path.name}: not a report")
        headers = {**SECURITY_HEADERS, "Content-Security-Policy": REPORT_POLICY}
        return FileResponse(path, media_type="text/html", headers=headers)

    async def download(self, request: Request) -> Response:
        """A results file, as an attachment."""
        name = request.query_params.get("path", "")
        path = self.ws.path(name, must_exist=True)
        if not path.is_file() or path.suffix not in DOWNLOADS:
            raise Refused(f"{name}: not a file of results to download")
        return FileResponse(
            path,
            filename=path.name,
            media_type="text/html" if path.suffix == ".html" else None,
            headers={**SECURITY_HEADERS, "Content-Security-Policy": "sandbox"},
            content_disposition_type="attachment",
        )

    # -- files and checks -------------------------------------------------------------------

    async def schema(self, request: Request) -> Response:
        """The JSON Schema of scenario files, for the editor's completion and hover."""
        return _json(await _threaded(self.bench.schema))

    async def read_file(self, request: Request) -> Response:
        """A scenario file's text and version."""
        name = request.query_params.get("path", "")
        text, version = await _threaded(self.ws.read, name)
        readonly = name.startswith(BUNDLED_PREFIX)
        return _json({"path": name, "text": text, "version": version, "readonly": readonly})

    async def check(self, request: Request) -> Response:
        """The loader's problems with a text (as ``combatsim validate`` says them)."""
        data = await _body(request)
        name = _optional_text(data, "path") or "untitled.yaml"
        return _json(await _threaded(_check, _text(data, "text"), name))

    async def save(self, request: Request) -> Response:
        """Save a file over the version opened, or say it changed on disk (409)."""
        data = await _body(request)
        name, text = _text(data, "path"), _text(data, "text")
        try:
            new = await _threaded(self.ws.save, name, text, _optional_text(data, "version"))
        except Conflict as exc:
            body = {"error": str(exc), "conflict": True, "disk": exc.text, "version": exc.version}
            return _json(body, 409)
        return _json({"path": name, "version": new})

    # -- jobs -------------------------------------------------------------------------------

    async def start_job(self, request: Request) -> Response:
        """Start a run, comparison, sweep, balance, tournament, study or tweak."""
        data = await _body(request)
        kind, scenario = _text(data, "kind"), _text(data, "scenario")
        if kind not in JOB_KINDS:
            raise Refused(f"kind: one of {', '.join(JOB_KINDS)}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise Refused("options: a mapping")
        if kind == "tweak":
            self.ws.path(scenario, must_exist=True)  # a results folder
        else:
            self.ws.scenario_file(scenario)
        runs, seed = _count(data, "runs"), _count(data, "seed", 0, 2**63 - 1)
        studies = self.bench.studies
        out, shown = self.bench.out_folder(scenario, kind)
        ask = studies.Ask(scenario, out, runs, seed, options)
        work = studies.KINDS[kind]
        title = f"{kind} of {scenario}" if kind != "tweak" else f"change and run again: {scenario}"
        job = self.bench.jobs.start(
            kind, title, scenario, out, shown, lambda job: work(self.ws, job, ask)
        )
        return _json(job.to_dict())

    async def jobs(self, request: Request) -> Response:
        """Every job and how it is going."""
        return _json([job.to_dict() for job in self.bench.jobs.all()])

    async def job(self, request: Request) -> Response:
        """One job."""
        found = self.bench.jobs.get(request.path_params["number"])
        if found is None:
            raise Refused("no such job")
        return _json(found.to_dict())

    async def cancel(self, request: Request) -> Response:
        """Ask a job to stop."""
        found = self.bench.jobs.cancel(request.path_params["number"])
        if found is None:
            raise Refused("no such job")
        return _json(found.to_dict())

    # -- results ----------------------------------------------------------------------------

    async def replay(self, request: Request) -> Response:
        """The narration of one combat of a run (``combatsim replay``)."""
        name = request.query_params.get("path", "")
        combat = _count(dict(request.query_params), "combat", 0, 10**9) or 0
        text = await _threaded(self.bench.results_view.replay_text, self.ws, name, combat)
        return _json({"text": text})

    async def report(self, request: Request) -> Response:
        """Write a folder's ``report.html`` (``combatsim report``); its path."""
        data = await _body(request)
        written = await _threaded(self.bench.results_view.report, self.ws, _text(data, "path"))
        return _json({"file": written})

    def table(self) -> list[Route | Mount]:
        """The routes: pages answer refusals with a page, the API with JSON."""
        bench = self.bench
        pages = [
            ("/", self.index),
            ("/edit", self.edit),
            ("/results", self.results),
            ("/report", self.report_frame),
            ("/download", self.download),
        ]
        reads = [
            ("/api/schema", self.schema),
            ("/api/file", self.read_file),
            ("/api/jobs", self.jobs),
            ("/api/jobs/{number}", self.job),
            ("/api/replay", self.replay),
        ]
        writes = [
            ("/api/check", self.check),
            ("/api/save", self.save),
            ("/api/jobs", self.start_job),
            ("/api/jobs/{number}/cancel", self.cancel),
            ("/api/report", self.report),
        ]
        return [
            *(Route(path, _answer(handler, bench)) for path, handler in pages),
            *(Route(path, _answer(handler)) for path, handler in reads),
            *(Route(path, _answer(handler), methods=["POST"]) for path, handler in writes),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ]


def make_app(bench: Workbench, hosts: frozenset[str]) -> Starlette:
    """The ASGI application of one workbench, guarded (:class:`sim.web.guard.Guard`)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        bench.heavy.warm()
        yield
        bench.jobs.shutdown()

    return Starlette(
        routes=Routes(bench).table(),
        middleware=[Middleware(Guard, hosts=hosts, token=bench.token)],
        lifespan=lifespan,
    )


async def _threaded(function: Callable[..., Any], *args: Any) -> Any:
    """Run blocking work (a file, the loader, a chart) off the server's event loop."""
    return await run_in_threadpool(function, *args)


def _check(text: str, name: str) -> dict[str, Any]:
    """The loader's problems with a text, as ``combatsim validate`` says them, with their lines."""
    try:
        scenario = build_scenario(parse_source(text, name))
    except ScenarioError as exc:
        return {
            "ok": False,
            "problems": [{**p.to_dict(), "message": str(p)} for p in exc.problems],
        }
    return {
        "ok": True,
        "problems": [],
        "scenario": {
            "name": scenario.name,
            "rules": scenario.rules,
            "question": scenario.description,
            "runs": scenario.runs,
            "seed": scenario.seed,
            "sections": [
                k
                for k in ("variants", "sweep", "strategies", "sensitivity")
                if scenario.data.get(k)
            ],
        },
    }


__all__ = ["TOKEN_HEADER", "Workbench", "make_app"]
