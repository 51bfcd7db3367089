"""The ``--method`` option the study commands share: compare, sweep, balance, tournament, ...

They are compare, sweep, balance, tournament, sensitivity and baseline. The default is
``sample``: it keeps every study's printed answer as it was (``run`` has its own option,
default ``auto``). ``auto`` answers a study exactly when every arm's fight has a chain that
fits ``auto``'s cap, and samples otherwise, saying which and why on stderr; ``exact`` refuses
a study it cannot solve, in one sentence.
"""

from __future__ import annotations

import click

from sim.run.exact import METHODS

method_option = click.option(
    "--method",
    type=click.Choice(METHODS),
    default="sample",
    show_default=True,
    help="sample: play combats; exact: solve every arm as a Markov chain (docs/exact.md); "
    "auto: exact when every arm allows it, else sample (says which).",
)


def sampled_only(method: str, flags: dict[str, bool]) -> bool:
    """Whether a study must sample because of a flag that asks for combats.

    Under ``exact`` such a flag is refused; under ``auto`` the study samples and says so.

    Raises:
        click.UsageError: ``exact`` with a flag that asks for combats.
    """
    given = [flag for flag, on in flags.items() if on]
    if not given or method == "sample":
        return method == "sample"
    if method == "exact":
        raise click.UsageError(f"an exact study plays no combat: not with {given[0]}")
    click.echo(f"method: sample ({given[0]} asks for combats)", err=True)
    return True


__all__ = ["method_option", "sampled_only"]
