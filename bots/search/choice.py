"""What every search returns: the chosen action with the statistics behind it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ActionStats:
    """One root action as the search saw it: how often it was tried and its mean value."""

    action: Any
    visits: int
    value: float


@dataclass(frozen=True, slots=True)
class Choice:
    """A search's answer.

    ``iterations`` counts the algorithm's unit of work (nodes, playouts, tree iterations or
    passes: each function says which), ``depth`` how deep it looked (plies or turns from the
    root), ``value`` the chosen action's value for the searching seat, and ``stats`` the
    root actions (in legal-action order) when the algorithm keeps them.
    """

    action: Any
    iterations: int
    depth: int
    value: float
    stats: tuple[ActionStats, ...] = ()

