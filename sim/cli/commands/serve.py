"""``combatsim serve``: the workbench, a local web page over a working folder.

A thin click layer over :func:`sim.web.server.serve`; ``docs/workbench.md`` describes the page.
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.app import handles_bad_input
from sim.engine.errors import CommandError
from sim.web.server import DEFAULT_PORT
from sim.web.server import serve as serve_workbench


@click.command()
@click.argument(
    "directory",
    required=False,
    default=".",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="[DIR]",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="The port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on. Anything but this machine's loopback lets other machines "
    "reach the page (a warning says so).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@handles_bad_input
def serve(directory: Path, port: int, host: str, open_browser: bool) -> None:
    """Open the workbench: a local web page to write, run, compare and share scenarios.

    DIR is the working folder (default: the current one): the page lists its scenario files and
    the bundled ones, edits them (checked as you type by the loader `validate` uses), runs,
    compares, sweeps and studies them with live progress, and shows and reports their results.
    It reads and writes only inside DIR; results go to DIR/results/, in the folders the other
    commands write. Ctrl-C stops the server and its runs (what they wrote stays).
    """
    if not directory.is_dir():
        raise CommandError(f"{directory}: no such folder")
    try:
        serve_workbench(directory, host, port, open_browser, say=click.echo)
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        pass
