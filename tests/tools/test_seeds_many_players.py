"""``match`` and ``league --seeds FILE`` in games of 3 or more players (issue 31, item 2): every
seed of the file is played, in every seating its group of games needs (each bot of a lineup
once in each seat); ``-n`` caps the run and the output says how many of the seeds it played."""
from __future__ import annotations

import collections
import json

import pytest

from tests.conftest import run_cli
from tests.referee.external.gamefiles import brutal_game, digit_bot, sdk_game
from tools.arena.seeds import SeedList
from tools.arena.standings import Standings, round_robin


def _seeds(tmp_path, *seeds: int):
    path = tmp_path / f"seeds{len(seeds)}.txt"
    path.write_text("".join(f"{seed}\n" for seed in seeds))
    return str(path)


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_match_plays_every_seed_in_every_seat_with_three_players(tmp_path):
    game = sdk_game(tmp_path, players="3", parameters={"turns": 1})
    out = tmp_path / "runs.jsonl"
    a, b = digit_bot("--digit", "6"), digit_bot("--digit", "3")
    process = run_cli("match", str(game), a, b, "--seeds", _seeds(tmp_path, 11, 22, 33),
                      "--jobs", "2", "--out", str(out), "--quiet")
    assert process.returncode == 0, process.stderr
    records = _records(out)
    assert collections.Counter(record["seed"] for record in records) == {11: 3, 22: 3, 33: 3}
    for seed in (11, 22, 33):
        assert sorted(record["seats"].index(a) for record in records
                      if record["seed"] == seed) == [0, 1, 2]
    assert "-n caps" not in process.stdout


@pytest.mark.parametrize("bots, players", [("abc", 3), ("ab", 4), ("abcde", 4)])
def test_a_league_schedule_holds_every_seed_in_every_seating(bots, players):
    """The first tier's sibling of the next test (a league of game-file games: ~4 s)."""
    seeds = SeedList((11, 22, 33, 44, 55), "five")
    standings = Standings(list(bots), round_robin(bots), players=players)
    jobs = list(standings.jobs(None, seeds, seed_count=len(seeds)))
    seatings = {seats for lineup in standings.lineups for seats in
                (tuple(lineup[shift:] + lineup[:shift]) for shift in range(players))}
    for seed in seeds.seeds:
        assert {job.seats for job in jobs if job.seed == seed} == seatings
    assert len(jobs) == len(seeds) * len(seatings)
    assert standings.seed_groups(None, len(seeds)) == 5


@pytest.mark.full
def test_league_plays_every_seed_with_four_players_and_n_caps_and_says_so(tmp_path):
    game = brutal_game(tmp_path, "--turns", "1", players="4")
    out = tmp_path / "runs.jsonl"
    bots = [digit_bot("--digit", str(digit)) for digit in (1, 5)]
    seeds = _seeds(tmp_path, 7, 8)
    process = run_cli("league", str(game), *bots, "--seeds", seeds, "--jobs", "2",
                      "--out", str(out), "--quiet")
    assert process.returncode == 0, process.stderr
    # two bots, four seats: the lineups 1 5 1 5 (two distinct seatings) and 1 5 5 1 (four)
    records = _records(out)
    assert collections.Counter(record["seed"] for record in records) == {7: 6, 8: 6}
    for seed in (7, 8):
        assert len({tuple(record["seats"]) for record in records if record["seed"] == seed}) == 6
    capped = run_cli("match", str(game), *bots, "--seeds", _seeds(tmp_path, 1, 2, 3, 4, 5),
                     "-n", "8", "--jobs", "2", "--quiet")
    assert capped.returncode == 0, capped.stderr
    assert "-n caps the run: 2 of the 5 seeds of" in capped.stdout
