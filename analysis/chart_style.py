"""The look every chart shares: colours that read on white, titles that wrap, honest intervals.

Side colours are matplotlib's ten with the pale ones darkened, so that every line has a contrast
of at least 3:1 on white (WCAG 2.1, graphical objects; :func:`contrast_on_white`); ordered series
use the dark part of viridis. Titles wrap to the figure's width instead of running off it. The
mean of single fights is shown with its Student's t interval (:func:`mean_interval`), and a
parameter of whole numbers gets whole-number ticks.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter
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


def percent_axis(axis: Any) -> None:
    """Show shares (0 to 1) as percentages."""
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


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
