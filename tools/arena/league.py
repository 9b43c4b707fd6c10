"""A round robin (or a gauntlet) rated by a Bradley-Terry fit: what ``botarena league`` plays,
callable from Python with a :class:`~tools.arena.settings.Settings`."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.api import UsageError
from tools import stats
from tools.arena.settings import Settings
from tools.arena.standings import Standings, round_robin
from tools.arena.standings import gauntlet as gauntlet_of
from tools.arena.tournament import Tournament, every_seed_count, pair_count


@dataclass(frozen=True, slots=True)
class LeagueResult:
    """``ratings`` best first (``anchor`` rated 0, or their mean 0); ``standings`` holds every
    game's figures (``to_json``, ``table_lines``, ``matrix_lines``, ``win_matrix_lines``);
    ``players``: seats a game (more than two: lineups rotated through the seats, each game
    counted as its seats' pairwise results, see tools.arena.multiplayer)."""

    game: str
    standings: Standings
    ratings: list[stats.Rating]
    anchor: str | None
    matchups: int
    seed: int
    status_lines: list[str]
    interrupted: bool
    players: int

    def to_json(self) -> dict:
        """What ``league --json`` prints."""
        summary = self.standings.to_json(self.ratings)
        summary.update(seed=self.seed, anchor=self.anchor, interrupted=self.interrupted,
                       players=self.players)
        return summary


def play_league(settings: Settings, bots: Sequence[str], *, games: int | None = 20,
                gauntlet: str | None = None, anchor: str | None = None) -> LeagueResult:
    """Every bot against every other, ``games`` games a matchup (rounded up to whole pairs, or
    seed groups in a game of more players; None: each seed of ``settings.seeds`` in every
    seating); with ``gauntlet``, only that bot's matchups (it joins if not among ``bots``). A bot
    given twice plays as two ("NAME #2"). UsageError (one line) for what cannot be played."""
    texts = list(bots)
    if gauntlet is not None and gauntlet not in texts:
        texts.insert(0, gauntlet)
    if len(texts) < 2:
        raise UsageError("league needs at least two bots")
    seed_count = every_seed_count(settings, games)
    if games is not None:
        pair_count(games)                         # checks the number of games
    with Tournament(settings, texts, "league") as tournament:
        names = list(tournament.bots)
        anchor_name = _named(anchor, texts, names, "--anchor") if anchor is not None else None
        if gauntlet is not None:
            matchups = gauntlet_of(_named(gauntlet, texts, names, "--gauntlet"), names)
        else:
            matchups = round_robin(names)
        standings = Standings(names, matchups, solo=tournament.solo,
                              players=tournament.players)
        tournament.seed_groups = standings.seed_groups(games, seed_count)
        outcome = tournament.play(standings.jobs(games, tournament.game_seeds,
                                                 seed_count=seed_count),
                                  standings.add, standings.progress_text)
        return LeagueResult(tournament.game.name, standings, standings.ratings(anchor_name),
                            anchor_name, len(matchups), tournament.base_seed,
                            tournament.status_lines(outcome), outcome.interrupted,
                            tournament.players)


def _named(text: str, texts: list[str], names: list[str], flag: str) -> str:
    """The name of the bot given as ``text`` (the first copy when repeated)."""
    if text not in texts:
        raise UsageError(f"{flag} {text!r} is not one of the bots ({', '.join(texts)})")
    return names[texts.index(text)]
