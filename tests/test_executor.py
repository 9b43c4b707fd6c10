"""The executor seam with local threads: a producer submits game jobs one at a time and gets each
finished game back once; cancel drops what is in flight. (The Dask executor: test_cluster.py.)"""
from __future__ import annotations

import dataclasses
import subprocess
import sys

from referee.api import TimeControl
from referee.games import load_game
from tests.conftest import ROOT, run_cli
from tools.arena.botspec import resolve_bot
from tools.arena.executor import LocalExecutor
from tools.arena.runner import Arena, GameJob, paired_jobs, run_jobs

CALM = TimeControl(first_turn_ms=30000, turn_ms=30000)


def tictactoe_arena(**bots: str) -> Arena:
    game = load_game("tictactoe")
    players = {name: dataclasses.replace(resolve_bot("tictactoe", text), name=name)
               for name, text in bots.items()}
    return Arena(game, game.parse_options({}), CALM, None, players)


def test_a_producer_submits_after_each_result_and_gets_every_game_once():
    """The shape of a tuner: the next job depends on the last result."""
    arena = tictactoe_arena(a="random --seed 1", b="random --seed 2")
    seen: list[tuple] = []
    with LocalExecutor(arena, 2) as executor:
        assert executor.capacity() == 2 and executor.description == "jobs 2"
        executor.submit(GameJob(0, ("a", "b"), 11))
        while executor.in_flight():
            for job, result in executor.finished(timeout=0.2):
                seen.append((job.key, result.seed))
                if len(seen) < 5:
                    executor.submit(GameJob(len(seen), ("b", "a"), 11 + len(seen)))
    assert [key for key, _ in seen] == [(0, ("a", "b"))] + [(n, ("b", "a")) for n in range(1, 5)]
    assert [seed for _, seed in seen] == [11, 12, 13, 14, 15]


def test_cancel_drops_the_games_in_flight_and_their_bots():
    arena = tictactoe_arena(a="random --seed 1", b="random --seed 2")
    with LocalExecutor(arena, 2) as executor:
        for job in paired_jobs("a", "b", 1, base_seed=3):
            executor.submit(job)
        executor.cancel()
        assert executor.in_flight() == 0 and executor.finished(timeout=0) == []


def test_run_jobs_stops_scheduling_when_on_result_says_so():
    arena = tictactoe_arena(a="random --seed 1", b="random --seed 2")
    played = []
    with LocalExecutor(arena, 1) as executor:
        outcome = run_jobs(executor, paired_jobs("a", "b", 5, base_seed=3),
                           on_result=lambda job, result: played.append(job) or len(played) == 3)
    assert outcome.stopped and outcome.played == 3 and len(played) == 3


def test_cluster_without_distributed_says_in_one_line_how_to_install_it():
    """Dask is an optional extra: hidden here (an import of it fails) whether or not installed."""
    code = ("import sys; sys.modules['distributed'] = None; from tools.cli.main import main; "
            "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "match", "tictactoe", "random", "random",
                           "-n", "2", "--cluster", "local:2"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "botarena: --cluster needs Dask's distributed package: pip install 'botarena[cluster]' "
        "(or: pip install distributed)"]


def test_jobs_and_cluster_together_is_a_usage_error():
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", "--jobs", "1",
                   "--cluster", "local:1")
    assert done.returncode == 2 and "--jobs is for games on this machine" in done.stderr
