"""Single-player games (number_maze...): every bot plays each seed alone, and two bots are
compared seed by seed: the higher score wins, equal scores draw, a bot that faulted loses.

A league needs each bot's game on a seed once, whatever the number of opponents. The comparison
is fed to the same tallies as a game between the two bots would be, so ``match``, ``league``
and ``sweep`` report it alike (per game, since there are no seats to swap).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from referee.match import rank_seats

# the jobs: tools.arena.schedule.SoloJobs; re-exported for callers of this module


def combine(first: dict, second: dict) -> dict:
    """Two solo games on one seed as one record of a game between the two bots."""
    players = [first["players"][0], second["players"][0]]
    ranks = rank_seats([player["score"] for player in players],
                       [player["fault"] is not None for player in players])
    return {"pair": first["pair"], "seats": [first["seats"][0], second["seats"][0]],
            **{key: first[key] for key in ("game", "seed", "options", "time_control") if key in first},
            "players": [{**player, "rank": rank} for player, rank in zip(players, ranks)],
            "latencies_ms": [(record.get("latencies_ms") or [[]])[0] for record in (first, second)],
            "referee_error": first.get("referee_error") or second.get("referee_error"),
            "timing_uncertain": bool(first.get("timing_uncertain")
                                     or second.get("timing_uncertain"))}


class SoloComparisons:
    """Collects solo records and feeds ``feed`` one combined record per matchup and seed."""

    def __init__(self, matchups: Sequence[tuple[str, str]], feed: Callable[[dict], object]):
        self._feed = feed
        self._partners: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for first, second in matchups:
            self._partners[first].append((first, second))
            self._partners[second].append((first, second))
        self._seen: dict[int, dict[str, dict]] = defaultdict(dict)
        self.faults: dict[str, Counter] = defaultdict(Counter)    # per bot, each game once

    def add(self, record: dict) -> bool:
        """Take one solo game; False (an on_record callback that never stops the run)."""
        name = record["seats"][0]
        fault = record["players"][0].get("fault")
        if fault:
            self.faults[name][fault["kind"]] += 1
        seen = self._seen[record["pair"]]
        seen[name] = record
        for first, second in self._partners[name]:
            other = second if name == first else first
            if other in seen:
                self._feed(combine(seen[first], seen[second]))
        if len(seen) == len(self._partners):      # every bot has played this seed: let it go
            del self._seen[record["pair"]]
        return False
