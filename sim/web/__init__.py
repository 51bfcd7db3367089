"""The workbench: ``combatsim serve``, a local web page to write, run, compare and share scenarios.

A page is a view, as the command line is: every check, run, statistic, chart and narration it
shows comes from the same functions the commands call (the loader, :func:`sim.run.api.simulate`,
:mod:`analysis`, :func:`sim.run.api.replay`); the page adds none of its own. ``docs/workbench.md``
says why the stack is Starlette, uvicorn, Jinja2 and CodeMirror, and how the page is kept safe.

- :mod:`sim.web.guard`: the Host header, the per-session token and the Origin of every request.
- :mod:`sim.web.workspace`: the working folder, the only place the page reads or writes.
- :mod:`sim.web.jobs`: runs in threads, with progress, cancel and one writer per results folder.
- :mod:`sim.web.runapi`: the one adapter between the page and the run API.
- :mod:`sim.web.studies` and :mod:`sim.web.results_view`: what a run does and what it shows, over
  :mod:`analysis` (imported after the server is up, so that it starts at once).
- :mod:`sim.web.app` and :mod:`sim.web.server`: the routes, and the server that serves them.
"""
