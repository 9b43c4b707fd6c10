"""Two bots in seat-swapped pairs of games (or seed by seed, for a one-player game; or, in a game
of more players, the first bot once in every seat and the second in the others, see
tools.arena.multiplayer), rated from the first one's point of view, with an SPRT that stops the
run as soon as it decides: what
``botarena match`` plays, callable from Python with a :class:`~tools.arena.settings.Settings`."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.api import UsageError
from tools import stats
from tools.arena.multiplayer import SeatGroups, group_count, match_lineup, pairwise_records
from tools.arena.schedule import Schedule, paired_jobs, solo_jobs
from tools.arena.settings import Settings
from tools.arena.solo import SoloComparisons
from tools.arena.tally import HeadToHead
from tools.arena.tournament import Tournament, every_seed_count, pair_count


@dataclass(frozen=True, slots=True)
class HeadToHeadResult:
    """``summary``: what ``match --json`` prints (with ``sprt`` when one ran); ``tally``: every
    figure behind it; ``status_lines``: the seed, where games ran, the results file and, after
    an interruption, how to resume."""

    summary: dict
    tally: HeadToHead
    status_lines: list[str]
    interrupted: bool
    players: int                            # seats a game


class _Sprt:
    """The sequential test over the pairs played so far: decided once, then it stays."""

    def __init__(self, settings: stats.SprtSettings, tally: HeadToHead):
        self.settings, self.tally = settings, tally
        self.verdict: str | None = None
        self.pairs: int | None = None           # pairs played when it decided

    def decided(self) -> bool:
        if self.verdict is None:
            self.verdict = stats.sprt_decision(self.tally.llr(self.settings), self.settings)
            if self.verdict is not None:
                self.pairs = sum(self.tally.pentanomial())
        return self.verdict is not None

    def summary(self) -> dict:
        lower, upper = self.settings.bounds
        return {**self.settings.to_json(), "llr": round(self.tally.llr(self.settings), 4),
                "llr_alt2": round(self.tally.llr_approximation(self.settings), 4),
                "bounds": [round(lower, 4), round(upper, 4)],
                "result": self.verdict, "decided_at_pairs": self.pairs}


def play_head_to_head(settings: Settings, bot_a: str, bot_b: str, *, games: int | None = 100,
                      sprt: stats.SprtSettings | None = None) -> HeadToHeadResult:
    """``bot_a`` against ``bot_b`` over ``games`` games (rounded up to whole pairs, or seed
    groups in a game of more players; with ``sprt``, the most); None: each seed of
    ``settings.seeds`` in every seating. Games already in the settings' results file count and
    are not played again. UsageError (one line) for a setting or a bot that cannot be played."""
    problem = sprt.problem() if sprt is not None else None
    if sprt is not None and problem is not None:
        raise UsageError(f"--sprt {','.join(f'{k}={v:g}' for k, v in sprt.to_json().items())}: "
                         f"{problem}")
    seed_count = every_seed_count(settings, games)
    if games is not None:
        pair_count(games)                         # checks the number of games
    with Tournament(settings, [bot_a, bot_b], "match") as tournament:
        first, second = tournament.bots
        tally = HeadToHead(first, second)
        test = _Sprt(sprt, tally) if sprt is not None else None
        feed: Callable[[dict], object]
        jobs: Schedule
        played = [0]                            # games of 3+ players, fed so far
        if tournament.solo:
            tally.solo = True
            feed = SoloComparisons([(first, second)], tally.add).add
            groups = seed_count or games or 0
            jobs = solo_jobs([first, second], groups, tournament.game_seeds)
        elif tournament.players > 2:
            lineup = match_lineup(first, second, tournament.players)
            groups = seed_count or group_count(games or 0, lineup)
            jobs = SeatGroups(lineup, groups, tournament.game_seeds)
            feed = _pairwise_feed(tally, played)
        else:
            feed = tally.add
            groups = seed_count or pair_count(games or 0)
            jobs = paired_jobs(first, second, groups, tournament.game_seeds)
        tournament.seed_groups = groups

        def decided() -> bool:
            return test is not None and test.decided()

        def on_record(record: dict) -> bool:
            feed(record)
            return decided()

        outcome = tournament.play(jobs, on_record, tally.progress_text, stop_before=decided)
        summary = tally.summary()
        if tournament.players > 2:          # the tally's "games" are pairwise results
            summary.update(results=summary["games"], games=played[0])
        summary.update(seed=tournament.base_seed, interrupted=outcome.interrupted,
                       players=tournament.players)
        if test is not None:
            summary["sprt"] = test.summary()
        return HeadToHeadResult(summary, tally, tournament.status_lines(outcome),
                                outcome.interrupted, tournament.players)


def _pairwise_feed(tally: HeadToHead, played: list[int]) -> Callable[[dict], None]:
    """A game of several seats counted as its seat-swapped pairwise results (``played[0]``
    counts the games themselves)."""
    def feed(record: dict) -> None:
        played[0] += 1
        for pair in pairwise_records(record, paired=True):
            tally.add(pair)
    return feed
