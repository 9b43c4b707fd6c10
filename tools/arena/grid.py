"""Bot parameters written into a bot's command: brace lists for a grid (``sweep``, ``tune --method
race``) and ranges for a continuous search (``tune --method spsa``).

``"hybrid --depth {1,2,3} --c {0.5,1}"`` is a grid of six points; ``{1..5}`` and ``{0..20..5}``
are integer lists. ``"hybrid --depth {1..8} --c {0.1..4 log}"`` is a search space: an integer
range (both ends integers) and a real one searched on a log scale. A parameter is named after
the ``--flag`` just before its braces, else ``p1``, ``p2``...
"""
from __future__ import annotations

import itertools
import math
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from referee.api import UsageError

_BRACES = re.compile(r"\{([^{}]*)\}")
_NUMBER = r"(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
_SPAN = re.compile(rf"^\s*{_NUMBER}\s*\.\.\s*{_NUMBER}\s*(?:\.\.\s*(\d+)\s*)?(log)?\s*$")
_INTEGER = re.compile(r"-?\d+")
# Past this many points a grid is refused before anything is built: sweep and race hold every
# point (and its tallies) in memory, and a typo such as {1..100000000} would otherwise fill it.
MAX_GRID_POINTS = 10_000


@dataclass(frozen=True, slots=True)
class Span:
    """A brace range ``{LOW..HIGH}``, ``{LOW..HIGH..STEP}`` or ``{LOW..HIGH log}``, as written."""

    low: str
    high: str
    step: str | None
    log: bool

    @property
    def integer(self) -> bool:
        return bool(_INTEGER.fullmatch(self.low) and _INTEGER.fullmatch(self.high))


def read_span(body: str, template: str, command: str) -> Span | None:
    """The range ``body`` writes (None when it is no range); UsageError for an empty one. The one
    reader of ranges: ``sweep``, ``tune --method race`` and ``tune`` (SPSA) refuse the same ones."""
    match = _SPAN.match(body)
    if not match:
        return None
    span = Span(match.group(1), match.group(2), match.group(3), bool(match.group(4)))
    try:
        low, high = (int(span.low), int(span.high)) if span.integer else \
            (float(span.low), float(span.high))
    except ValueError:                  # an integer of more than 4,300 digits
        raise UsageError(f"{command} {template!r}: {{{body}}}: a number too long to read") \
            from None
    if not low < high:
        raise UsageError(f"{command} {template!r}: {{{body}}} is an empty range; LOW must be "
                         "below HIGH")
    return span


@dataclass(frozen=True)
class GridPoint:
    values: tuple[str, ...]
    bot: str


def expand_grid(template: str, command: str = "sweep") -> tuple[list[str], list[GridPoint]]:
    """Parameter names and the cartesian grid of a template with brace lists; UsageError past
    ``MAX_GRID_POINTS`` points, counted before any point is made."""
    groups, names = _groups(template, f"{command} {template!r}: no brace list to sweep; write "
                            "e.g. \"hybrid --depth {1,2,3}\"")
    if len(set(names)) != len(names):
        names = [f"{name}{number}" for number, name in enumerate(names, 1)]
    choices = [_brace_values(group.group(1), template, command) for group in groups]
    size = math.prod(map(_count, choices))
    if size > MAX_GRID_POINTS:
        raise UsageError(f"{command} {template!r}: a grid of {size:,} points; at most "
                         f"{MAX_GRID_POINTS:,} can be played: narrow the ranges or use a step "
                         "({0..1000..100})")
    texts = [tuple(map(str, values)) for values in itertools.product(*choices)]
    return names, [GridPoint(values, fill(template, values)) for values in texts]


def fill(template: str, values: Sequence[str]) -> str:
    """``template`` with its brace groups replaced, in order, by ``values``."""
    pieces, last = [], 0
    for group, value in zip(_BRACES.finditer(template), values):
        pieces += [template[last:group.start()], value]
        last = group.end()
    return "".join(pieces + [template[last:]])


def _groups(template: str, missing: str) -> tuple[list[re.Match], list[str]]:
    """The brace groups of ``template`` and their names; UsageError ``missing`` when none."""
    groups = list(_BRACES.finditer(template))
    if not groups:
        raise UsageError(missing)
    return groups, _names(template, groups)


def _names(template: str, groups: list[re.Match]) -> list[str]:
    names = []
    for number, group in enumerate(groups, 1):
        before = template[:group.start()].split()
        flag = before[-1] if before and before[-1].startswith("-") and group.start() > 0 \
            and template[group.start() - 1].isspace() else ""
        names.append(flag.lstrip("-") or f"p{number}")
    return names


def _count(values: Sequence) -> int:
    """How many values: ``len`` fails on a range longer than sys.maxsize."""
    if isinstance(values, range):
        return max(0, (values.stop - values.start + values.step - 1) // values.step)
    return len(values)


def _brace_values(body: str, template: str, command: str) -> Sequence[int | str]:
    """The values of one brace group: a ``range`` (lazy: counted without being built) or a list."""
    span = read_span(body, template, command)
    if span is not None:
        if span.log or not span.integer:
            raise UsageError(f"{command} {template!r}: {{{body}}}: a grid's range takes integer "
                             "ends ({1..8}, {0..20..5}); list other values: {0.1,0.5,1}")
        step = int(span.step or 1)
        if step <= 0:
            raise UsageError(f"{command} {template!r}: {{{body}}} needs a positive step")
        return range(int(span.low), int(span.high) + 1, step)
    values = [value.strip() for value in body.split(",")]
    if len(values) < 2 or not all(values):
        raise UsageError(f"{command} {template!r}: {{{body}}} should list two or more values, "
                         "comma separated ({1,2,3}), or be a range ({1..8})")
    return values


def check_flags_once(template: str, command: str) -> None:
    """A ``--flag`` written twice (a fixed value and a range, say) is a mistake: which one would
    the bot take? Refused with the flag named."""
    try:
        words = shlex.split(_BRACES.sub("{}", template))
    except ValueError as error:
        raise UsageError(f"{command} {template!r}: {error}") from None
    flags = [word.split("=", 1)[0] for word in words if word.startswith("--") and word != "--"]
    for flag in flags:
        if flags.count(flag) > 1:
            raise UsageError(f"{command} {template!r}: {flag} is given twice; give each parameter "
                             "once, fixed or as a range")


# -- ranges for a continuous search -----------------------------------------------------------

@dataclass(frozen=True)
class Parameter:
    """One searched parameter. Searches work in internal units: the value itself, or its
    logarithm on a log scale; play-time values are clipped to the range, integers rounded."""

    name: str
    low: float
    high: float
    integer: bool
    log: bool

    def to_internal(self, value: float) -> float:
        return math.log(value) if self.log else value

    def from_internal(self, unit: float) -> float:
        return math.exp(unit) if self.log else unit

    @property
    def bounds(self) -> tuple[float, float]:
        return self.to_internal(self.low), self.to_internal(self.high)

    def clip(self, unit: float) -> float:
        low, high = self.bounds
        return min(max(unit, low), high)

    def play_value(self, unit: float) -> float | int:
        value = min(max(self.from_internal(self.clip(unit)), self.low), self.high)
        return int(round(value)) if self.integer else float(f"{value:.4g}")

    def text(self, unit: float) -> str:
        value = self.play_value(unit)
        return str(value) if self.integer else f"{value:g}"


def parse_ranges(template: str, command: str = "tune") -> list[Parameter]:
    """The ranges of a search template; UsageError for a list, an empty range, a bad log scale."""
    groups, names = _groups(template, f"{command} {template!r}: no range to tune; write e.g. "
                            "\"hybrid --depth {1..8} --c {0.1..4}\"")
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise UsageError(f"{command} {template!r}: parameter {twice!r} is given twice")
    parameters = []
    for name, group in zip(names, groups):
        body = group.group(1)
        span = read_span(body, template, command)
        if span is None or span.step is not None:
            raise UsageError(f"{command} {template!r}: {{{body}}} should be a range {{LOW..HIGH}} "
                             "(add ' log' for a log scale: {0.01..10 log})")
        low, high = float(span.low), float(span.high)
        if span.log and low <= 0:
            raise UsageError(f"{command} {template!r}: {{{body}}}: a log scale needs LOW above 0")
        parameters.append(Parameter(name, low, high, span.integer, span.log))
    return parameters
