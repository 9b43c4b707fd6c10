"""The executor seam with local threads: a producer submits game jobs one at a time and gets each
finished game back once; cancel drops what is in flight. (The Dask executor: test_cluster.py.)"""
from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
import sys
import threading

import pytest

from referee.api import TimeControl
from referee.games import load_game
from tests.conftest import ROOT, run_cli
from tests.fixtures.hostile import bot_processes_of
from tools.arena.arena import Arena
from tools.arena.botspec import resolve_bot
from tools.arena.executor import LocalExecutor
from tools.arena.runner import GameJob, paired_jobs, run_jobs
from tools.arena.settings import BotLimits

CALM = TimeControl(first_turn_ms=30000, turn_ms=30000)


def tictactoe_arena(**bots: str) -> Arena:
    game = load_game("tictactoe")
    players = {name: dataclasses.replace(resolve_bot("tictactoe", text), name=name)
               for name, text in bots.items()}
    return Arena(game, game.parse_options({}), CALM, BotLimits(memory_mb=None), players)


def test_a_producer_submits_after_each_result_and_gets_every_game_once():
    """The shape of a tuner: the next job depends on the last result."""
    arena = tictactoe_arena(a="random --seed 1", b="random --seed 2")
    seen: list[tuple] = []
    with LocalExecutor(arena, 2) as executor:
        assert executor.capacity() == 3 and executor.description == "jobs 2"   # 2 + 1 waiting
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


@pytest.mark.parametrize("cores", [1, 2])
def test_run_jobs_stops_scheduling_when_on_result_says_so(cores):
    """Real bots; with a core to spare the game in line has started its bots when the stop
    comes: they are closed with it, none is left running."""
    arena = tictactoe_arena(a="random --seed 1", b="random --seed 2")
    played = []
    with LocalExecutor(arena, 1, cores=cores) as executor:
        outcome = run_jobs(executor, paired_jobs("a", "b", 5, base_seed=3),
                           on_result=lambda job, result: played.append(job) or len(played) == 3)
    # the 4th game starts as the 3rd has its last answer, before its result says stop
    assert outcome.stopped and outcome.played == len(played) and 3 <= len(played) <= 4
    assert bot_processes_of(os.getpid()) == []


class _RecordingArena:
    """Stands in for Arena.play: records when each game plays and when it is cleaned up."""

    def __init__(self):
        self.events: list[str] = []
        self.next_started = threading.Event()
        self.next_bots_started = threading.Event()
        self.hold_first = threading.Event()

    def play(self, job, on_turns_done=None, on_bots_started=None):
        self.events.append(f"bots {job.pair}")
        if job.pair == 1:
            self.next_bots_started.set()
        if on_bots_started is not None:
            on_bots_started()               # waits for the turn to play (or raises: dropped)
        self.events.append(f"play {job.pair}")
        if job.pair == 1:
            self.next_started.set()
        if job.pair == 0:
            self.hold_first.wait(10)
        on_turns_done()
        self.events.append(f"turns done {job.pair}")
        if job.pair == 0:          # cleaning up: the next game starts meanwhile, not after
            self.next_started.wait(10)
        self.events.append(f"end {job.pair}")
        return job.pair


def _results(executor: LocalExecutor) -> list:
    """Every result still in flight, in the order they come back."""
    results = []
    while executor.in_flight():
        results += [result for _, result in executor.finished(timeout=0.2)]
    return results


def test_the_next_game_starts_while_the_last_one_cleans_up_never_two_playing():
    arena = _RecordingArena()
    with LocalExecutor(arena, 1, cores=1) as executor:
        assert not executor.start_early
        executor.submit(GameJob(0, ("a", "b"), 1))
        executor.submit(GameJob(1, ("b", "a"), 2))
        arena.hold_first.set()
        results = _results(executor)
    assert sorted(results) == [0, 1]
    assert arena.events.index("play 1") > arena.events.index("turns done 0")      # one at a time
    assert arena.events.index("play 1") < arena.events.index("end 0")             # overlapped
    assert arena.events.index("bots 1") > arena.events.index("turns done 0")      # all cores busy


def test_with_a_core_to_spare_the_next_game_starts_its_bots_while_the_last_one_plays():
    arena = _RecordingArena()
    with LocalExecutor(arena, 1, cores=2) as executor:
        assert executor.start_early
        executor.submit(GameJob(0, ("a", "b"), 1))
        executor.submit(GameJob(1, ("b", "a"), 2))
        assert arena.next_bots_started.wait(10)           # while game 0 is held
        assert "play 1" not in arena.events and "turns done 0" not in arena.events
        arena.hold_first.set()
        results = _results(executor)
    assert sorted(results) == [0, 1]
    assert arena.events.index("play 1") > arena.events.index("turns done 0")      # one at a time


@pytest.mark.parametrize("cores", [1, 2])
def test_a_stop_drops_the_game_waiting_for_its_turn(cores):
    arena = _RecordingArena()
    with LocalExecutor(arena, 1, cores=cores) as executor:
        executor.submit(GameJob(0, ("a", "b"), 1))
        executor.submit(GameJob(1, ("b", "a"), 2))        # waits: game 0 is held
        if executor.start_early:
            assert arena.next_bots_started.wait(10)       # its bots up, waiting for its turn
        executor.drop_waiting()
        arena.next_started.set()
        arena.hold_first.set()
        results = _results(executor)
        assert results == [0] and "play 1" not in arena.events
        executor.cancel()                   # as run_jobs ends: the executor serves the next batch
        executor.submit(GameJob(2, ("a", "b"), 3))
        results += _results(executor)
    assert results == [0, 2]


def test_cluster_without_distributed_says_in_one_line_how_to_install_it():
    """Dask is an optional extra: hidden here (an import of it fails) whether or not installed."""
    code = ("import sys; sys.modules['distributed'] = None; from tools.cli.main import main; "
            "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "match", "tictactoe", "random", "random",
                           "-n", "2", "--cluster", "local:2"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "botarena: --cluster needs Dask's distributed package: "
        f"{shlex.quote(sys.executable)} -m pip install distributed"]


def test_jobs_and_cluster_together_is_a_usage_error():
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", "--jobs", "1",
                   "--cluster", "local:1")
    assert done.returncode == 2 and "--jobs is for games on this machine" in done.stderr


class _UncertainArena:
    """Stands in for Arena.play: the game on seed 12 is of uncertain timing its first
    ``uncertain_plays`` times, every other game a sure result."""

    def __init__(self, uncertain_plays: int):
        self.left = uncertain_plays
        self.plays: list[int] = []

    def play(self, job, on_turn=None, on_turns_done=None, on_bots_started=None):
        from referee.result import MatchResult
        self.plays.append(job.seed)
        uncertain = job.seed == 12 and self.left > 0
        self.left -= uncertain
        if on_bots_started is not None:
            on_bots_started()
        if on_turns_done is not None:
            on_turns_done()
        return MatchResult("tictactoe", job.seed, {}, 5, "three in a row", 0, [],
                           timing_uncertain=uncertain)


@pytest.mark.parametrize("uncertain_plays, handed_on_uncertain", [(1, False), (5, True)])
def test_a_game_of_uncertain_timing_is_played_again_a_bounded_number_of_times(
        uncertain_plays, handed_on_uncertain):
    """Played again on the same seed until sure, at most TIMING_REPLAYS more times; then handed
    on as it is (marked uncertain, for the tallies to keep apart); every other game once."""
    from tools.arena.runner import TIMING_REPLAYS
    arena = _UncertainArena(uncertain_plays)
    results = []
    with LocalExecutor(arena, 1, cores=1) as executor:    # (a stand-in: no bots to start)
        outcome = run_jobs(executor, [GameJob(n, ("a", "b"), 11 + n) for n in range(3)],
                           on_result=lambda job, result: results.append(result) and False)
    replays = min(uncertain_plays, TIMING_REPLAYS)
    assert sorted(arena.plays) == sorted([11, 12, 13] + [12] * replays)
    assert outcome.played == 3 and outcome.replayed == replays
    assert [result.seed for result in results if result.timing_uncertain] == \
        ([12] if handed_on_uncertain else [])
