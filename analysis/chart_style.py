"""The look every chart shares: colours that read on white, titles that wrap, honest intervals.

Side colours are matplotlib's ten with the pale ones darkened, so that every line has a contrast
of at least 3:1 on white (WCAG 2.1, graphical objects; :func:`contrast_on_white`); ordered series
use the dark part of viridis. Titles wrap to the figure's width instead of running off it. The
mean of single fights is shown with its Student's t interval (:func:`mean_interval`), a
parameter of whole numbers gets whole-number ticks, a swept parameter gets its ticks at the swept
values (:func:`value_ticks`), and every tick label reads the value at its tick: a percentage
shows as many decimals as its ticks need (:class:`PercentTicks`), never a rounded 2.5% as "2%".
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, Formatter, MaxNLocator
from scipy.stats import t as student_t

from sim.run.records import DRAW

#: File formats :func:`analysis.plots.save_figure` writes by default.
FORMATS = ("png", "svg")
#: Side colours, in scenario order: matplotlib's ten, with the pale ones (orange, pink, olive,
#: cyan) darkened until each has a contrast of at least 3:1 on white.
PALETTE = (
    "#1f77b4",
    "#c85200",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#c2258f",
    "#6b6b6b",
    "#7a7a00",
    "#0f7f8c",
)
DRAW_COLOR = "#757575"
#: The part of viridis used for ordered series (its light end is unreadable on white).
SERIES_RANGE = (0.0, 0.55)
CONFIDENCE = 0.95
#: Characters per title line on a figure 7 inches wide (wrapped beyond, never cut).
TITLE_CHARACTERS = 64


def side_colors(side_names: Sequence[str]) -> dict[str, str]:
    """A fixed color per side (in scenario order), grey for draws."""
    colors = {side: PALETTE[i % len(PALETTE)] for i, side in enumerate(side_names)}
    colors[DRAW] = DRAW_COLOR
    return colors


def series_color(i: int, count: int) -> Any:
    """The colour of the ``i``-th of ``count`` ordered series (dark to light viridis)."""
    low, high = SERIES_RANGE
    return matplotlib.colormaps["viridis"](low + (high - low) * i / max(count - 1, 1))


def contrast_on_white(color: Any) -> float:
    """WCAG 2.1 contrast ratio of a colour against white (1 to 21)."""
    channels = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        for c in matplotlib.colors.to_rgb(color)
    ]
    luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    return 1.05 / (luminance + 0.05)


def new_axes(width: float = 7.0, height: float = 4.2) -> tuple[Figure, Any]:
    """A figure with one axes, without pyplot: no display, no global figure state."""
    figure = Figure(figsize=(width, height), layout="constrained")
    return figure, figure.add_subplot()


#: The most decimals a percentage tick is shown with (ticks finer than that are not drawn).
MOST_DECIMALS = 4


def decimals_for(values: Sequence[float], most: int = MOST_DECIMALS) -> int:
    """The fewest decimals that write every one of ``values`` exactly (at most ``most``)."""
    for decimals in range(most + 1):
        if all(abs(v - round(v, decimals)) <= 1e-9 * max(1.0, abs(v)) for v in values):
            return decimals
    return most


class PercentTicks(Formatter):
    """Shares (0 to 1) as percentages, with the decimals the ticks on the axis need.

    matplotlib's ``PercentFormatter(decimals=0)`` writes a tick at 2.5% as "2%" and one at
    7.5% as "8%" (it rounds half to even): an axis of evenly spaced ticks that reads unevenly.
    Here all ticks of an axis share the fewest decimals that write each of them exactly: 0%,
    25%, 50%, or 0.0%, 2.5%, 5.0%.
    """

    def __init__(self) -> None:
        self.decimals = 0

    def set_locs(self, locs: Any) -> None:
        """Choose the decimals from the ticks about to be labelled."""
        super().set_locs(locs)
        self.decimals = decimals_for([100 * float(v) for v in locs])

    def __call__(self, x: float, pos: int | None = None) -> str:
        """The tick's value as a percentage with the axis's decimals."""
        value = 100 * float(x)
        if abs(value) < 0.5 * 10.0**-self.decimals:
            value = 0.0  # no "-0%"
        return f"{value:.{self.decimals}f}%"


def percent_axis(axis: Any) -> None:
    """Show shares (0 to 1) as percentages, each tick label the value at its tick."""
    axis.set_major_formatter(PercentTicks())


#: Ticks on a swept parameter's axis: every swept value up to this many, else every k-th.
MOST_VALUE_TICKS = 12


def value_ticks(axis: Any, values: Any, most: int = MOST_VALUE_TICKS) -> None:
    """Ticks at the swept values themselves (every k-th of many), never between them.

    A locator's round numbers (15, 30, 45 on a sweep of 20, 30, 40) would put the labels where
    no point was played; the designer reads the values the sweep played.
    """
    numbers = np.unique(np.asarray(values, dtype=float))
    numbers = numbers[np.isfinite(numbers)]
    if not len(numbers):
        return
    step = max(1, math.ceil(len(numbers) / most))
    shown = list(numbers[::step])
    axis.set_major_locator(FixedLocator(shown))
    axis.set_major_formatter(ValueTicks())


class ValueTicks(Formatter):
    """A swept value as it was written: 20, 0.5, 1.25 (no offset, no scientific notation)."""

    def __init__(self) -> None:
        self.decimals = 0

    def set_locs(self, locs: Any) -> None:
        """Choose the decimals from the ticks about to be labelled."""
        super().set_locs(locs)
        self.decimals = decimals_for([float(v) for v in locs], most=6)

    def __call__(self, x: float, pos: int | None = None) -> str:
        """The tick's value with the axis's decimals."""
        return f"{float(x):.{self.decimals}f}"


def wrapped_title(what: str, scenario: str | None, width: float = 7.0) -> str:
    """The title, wrapped to the figure's width: the scenario on its own line when long."""
    most = int(TITLE_CHARACTERS * width / 7.0)
    text = f"{what} — {scenario}" if scenario else what
    if len(text) <= most:
        return text
    lines = [what, scenario] if scenario else [what]
    return "\n".join(textwrap.fill(line, most, break_long_words=True) for line in lines)


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% Student's t interval."""
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, n - 1) * values.std(ddof=1) / math.sqrt(n))
    return mean, mean - half, mean + half


def whole_ticks(axis: Any, values: Any) -> None:
    """Whole-number ticks on an axis whose values are all whole numbers."""
    numbers = np.asarray(values, dtype=float)
    if len(numbers) and np.all(np.isfinite(numbers)) and np.all(numbers == np.round(numbers)):
        axis.set_major_locator(MaxNLocator(integer=True))
