"""``sweep --plot``: Elo (or a success rate, or the mean score) against a parameter, every played
point drawn: an infinite Elo (all won or all lost) sits on the frame and an unbounded end of an
interval is an arrow to the frame, so no point vanishes and no warning is printed."""
from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path
from typing import Any

from referee.api import UsageError

# the pip of the Python botarena runs in: a bare 'pip' is often another Python's (or refused by
# Debian's externally-managed system Python) when botarena runs from the quickstart's .venv
PLOT_HINT = f"{shlex.quote(sys.executable)} -m pip install matplotlib"
_INFINITE_MARKER = {1: "^", -1: "v"}       # an estimate of +inf / -inf, on the frame


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def check_plot_format(path: str) -> None:
    """Refuse, before any game, a file name whose extension matplotlib cannot write."""
    from matplotlib.backend_bases import FigureCanvasBase
    suffix = Path(path).suffix.lower().lstrip(".")
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix and suffix not in formats:
        raise UsageError(f"--plot {path!r}: matplotlib cannot write .{suffix} files; use one of "
                         f"{', '.join('.' + name for name in sorted(formats))}")


def plot_sweep(path: str, names: list[str], rows: list[dict], best: str | None, args,
               opponent: dict | None = None) -> None:
    """Draw the sweep (see :func:`draw_sweep`) into ``path``; UsageError when it cannot be
    written."""
    save_figure(draw_sweep(names, rows, best, args, opponent), path)


def save_figure(figure, path: str) -> None:
    """Save and close a matplotlib figure; UsageError (one line) when it cannot be written."""
    from matplotlib import pyplot
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise UsageError(f"--plot {path!r}: {error}") from None
    finally:
        pyplot.close(figure)


def draw_sweep(names: list[str], rows: list[dict], best: str | None, args,
               opponent: dict | None = None):
    """``--plot-y`` against ``--plot-x`` (default: the first parameter), one line per value of
    the rest, 95 % error bars; for Elo the best point starred, for the others the opponent's
    figure dashed. Returns the matplotlib figure."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    metric, across = args.plot_y, args.plot_x or names[0]
    labels = list(dict.fromkeys(row[across] for row in rows))
    numeric = all(_is_number(label) for label in labels)
    def x_of(row: dict) -> float:
        return float(row[across]) if numeric else labels.index(row[across])
    values = {row["bot"]: _plot_value(row, metric) for row in rows}
    frame = _frame([value for value in values.values() if value is not None], metric == "elo")
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    rest = [name for name in names if name != across]
    series: dict[tuple[Any, ...], list[tuple[float, tuple[float, float, float]]]] = {}
    for row in rows:
        value = values[row["bot"]]
        if value is not None:
            series.setdefault(tuple(row[name] for name in rest), []).append((x_of(row), value))
    for key, points in series.items():
        label = ", ".join(f"{name}={value}" for name, value in zip(rest, key)) or None
        _draw_series(axes, sorted(points), frame, label)
    if metric == "elo":
        for row in rows:
            value = values[row["bot"]]
            if row["bot"] == best and value is not None:
                axes.plot([x_of(row)], [_clip(value[0], frame)], marker="*",
                          markersize=16, color="goldenrod", linestyle="none", label="best",
                          zorder=3, clip_on=False)
        axes.axhline(0, color="grey", linewidth=0.8)
    elif opponent is not None and opponent.get(metric) is not None:
        axes.axhline(opponent[metric], color="grey", linestyle="--", linewidth=1,
                     label=f"{opponent['bot']}")
    if frame is not None:
        axes.set_ylim(*frame)
    _label_axes(axes, metric, across, labels, numeric, args)
    figure.tight_layout()
    return figure


def _plot_value(row: dict, metric: str) -> tuple[float, float, float] | None:
    """(value, low, high) of a row's ``metric``, None when it has none (no games). Elo's value or
    ends may be infinite (a JSON None): all won, all lost."""
    if metric == "mean_score":
        return None if row.get("mean_score") is None else (row["mean_score"],) * 3
    if metric == "success":
        if row.get("success") is None:
            return None
        return row["success"], row["success_low"], row["success_high"]
    if not row["games"]:
        return None
    value = row["elo"] if row["elo"] is not None else \
        (math.inf if row["score"] > 0.5 else -math.inf)
    low = row["elo_low"] if row["elo_low"] is not None else -math.inf
    high = row["elo_high"] if row["elo_high"] is not None else math.inf
    return value, low, high


def _frame(values: list[tuple[float, float, float]],
           unbounded: bool) -> tuple[float, float] | None:
    """The y range that holds every finite figure (and 0) with room for the arrows of infinite
    ones; None (matplotlib's own) when nothing is infinite."""
    if not unbounded or all(math.isfinite(figure) for value in values for figure in value):
        return None
    finite = [figure for value in values for figure in value if math.isfinite(figure)] + [0.0]
    bottom, top = min(finite), max(finite)
    room = max(0.15 * (top - bottom), 50.0)
    return bottom - room, top + room


def _clip(value: float, frame: tuple[float, float] | None) -> float:
    if frame is None:
        return value
    return min(max(value, frame[0]), frame[1])


def _draw_series(axes, points: list[tuple[float, tuple[float, float, float]]],
                 frame: tuple[float, float] | None, label: str | None) -> None:
    """One line with error bars; an infinite estimate is a triangle on the frame, and an
    unbounded end of an interval ends in an arrowhead on the frame."""
    xs = [x for x, _ in points]
    ys = [_clip(value[0], frame) for _, value in points]
    lows = [_clip(value[1], frame) for _, value in points]
    highs = [_clip(value[2], frame) for _, value in points]
    line = axes.errorbar(xs, ys, yerr=[[y - low for y, low in zip(ys, lows)],
                                       [high - y for y, high in zip(ys, highs)]],
                         marker="o", capsize=4, label=label)
    color = line.lines[0].get_color()
    for x, (_, value) in zip(xs, points):
        for figure, size in ((value[0], 10), (value[1], 7), (value[2], 7)):
            if math.isinf(figure):
                axes.plot([x], [_clip(figure, frame)], marker=_INFINITE_MARKER[1 if figure > 0 else -1],
                          markersize=size, color=color, linestyle="none", clip_on=False, zorder=3)


def _label_axes(axes, metric: str, across: str, labels: list[str], numeric: bool, args) -> None:
    if not numeric:
        axes.set_xticks(range(len(labels)), labels)
        axes.set_xlim(-0.5, len(labels) - 0.5)
    else:
        values = sorted({float(label) for label in labels})
        logarithmic = values[0] > 0 and values[-1] >= 20 * values[0]
        if logarithmic:
            axes.set_xscale("log")                 # budgets like 2, 5, 20, 50 or 100 ... 10,000
            axes.minorticks_off()
        if len(labels) <= 20:
            axes.set_xticks(values, labels=sorted(labels, key=float))
        axes.set_xlim(*_x_limits(values, logarithmic))    # no point on the frame, half cut
    axes.set_xlabel(across)
    if metric == "elo":
        axes.set_ylabel("Elo" + (f" vs {args.vs}" if args.vs and not args.league else "")
                        + " (95 % interval)")
    else:
        axes.set_ylabel(f"success rate (score >= {args.success_score:g}, 95 % interval)"
                        if metric == "success" else "mean score")
    axes.set_title(f"{args.game}: {args.template}", fontsize=10)
    if axes.get_legend_handles_labels()[1]:
        axes.legend(fontsize=8)


def _x_limits(values: list[float], logarithmic: bool) -> tuple[float, float]:
    """The first and last values with a margin of 6 % of the span (on the axis's own scale)."""
    if logarithmic:
        low, high = math.log(values[0]), math.log(values[-1])
        margin = 0.06 * (high - low)
        return math.exp(low - margin), math.exp(high + margin)
    low, high = values[0], values[-1]
    margin = 0.06 * (high - low) if high > low else 0.5
    return low - margin, high + margin


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
