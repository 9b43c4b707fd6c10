"""Games on a real Dask cluster (no mocks): a LocalCluster, and a ``dask scheduler`` with ``dask
worker`` processes started here on 127.0.0.1. Per-game results equal the local runner's; a
worker SIGKILLed mid-run loses no game and counts none twice; a run resumes; SPRT stops early and
leaves no task behind; a bot missing on a worker is an error naming that worker."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.api import TimeControl
from referee.games import load_game
from tests.conftest import ROOT, run_cli
from tools.arena.arena import Arena
from tools.arena.executor import open_executor
from tools.arena.schedule import GameJob
from tools.arena.settings import BotLimits

distributed = pytest.importorskip(
    "distributed", reason="Dask cluster tests skipped: distributed is not installed "
    "(pip install 'botarena[cluster]')")

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")
# a deterministic bot slow enough (30 ms a move) that a kill or a Ctrl-C lands mid-run
SLOW_BOT = """import sys, time
while True:
    sys.stdin.readline()
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    time.sleep(0.03)
    print(cells[len(cells) // 2], flush=True)
"""
GAME_FIELDS = ("seed", "turns", "reason", "winner", "commands")


def _records(path: Path) -> dict[tuple, dict]:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    keyed = {(record["pair"], tuple(record["seats"])): record for record in records}
    assert len(keyed) == len(records), "a game recorded twice"
    return keyed


def _games(path: Path) -> dict[tuple, tuple]:
    """What must not depend on where a game was played: outcome, scores, faults, commands."""
    return {key: (tuple(record.get(field) for field in GAME_FIELDS),
                  tuple((player["score"], player["rank"], player["fault"])
                        for player in record["players"]))
            for key, record in _records(path).items()}


class DaskProcesses:
    """A ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, ended at teardown."""

    def __init__(self, folder: Path):
        # as botarena's own local clusters: a game whose worker dies is retried by botarena
        self.folder, self.processes, self.workers = folder, [], []
        self.scheduler_file = folder / "scheduler.json"
        env = dict(os.environ, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
        self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address",
                     "127.0.0.1:0", "--scheduler-file", str(self.scheduler_file)], env=env)
        deadline = time.monotonic() + 60
        while not self.scheduler_file.exists() or not self.scheduler_file.read_text():
            assert time.monotonic() < deadline, "dask scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(self.scheduler_file.read_text())["address"]

    def _start(self, args: list[str], cwd: Path | None = None, env=None) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=cwd or ROOT,
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def add_worker(self, cwd: Path | None = None) -> subprocess.Popen:
        """One worker process of one thread; no nanny, so a SIGKILL ends it for good."""
        worker = self._start(["worker", self.address, "--nthreads", "1", "--nworkers", "1",
                              "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"], cwd=cwd)
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, count: int) -> None:
        with distributed.Client(self.address, timeout=30) as client:
            client.wait_for_workers(count, timeout=90)

    def scheduler_tasks(self) -> int:
        with distributed.Client(self.address, timeout=30) as client:
            return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))

    def close(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def dask_cluster(tmp_path):
    cluster = DaskProcesses(tmp_path)
    try:
        cluster.add_worker()
        cluster.add_worker()
        cluster.wait_for_workers(2)
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def slow_bot(tmp_path) -> Path:
    (tmp_path / "slow.py").write_text(SLOW_BOT)
    return tmp_path


def test_local_cluster_plays_the_same_games_as_local_threads(tmp_path):
    common = ("match", "tictactoe", "random --seed 1", "random", "-n", "20", "--seed", "4",
              *CALM, "--json")
    local = run_cli(*common, "--jobs", "2", "--out", str(tmp_path / "local.jsonl"))
    assert local.returncode == 0, local.stderr
    cluster = run_cli(*common, "--cluster", "local:2", "--out", str(tmp_path / "cluster.jsonl"))
    assert cluster.returncode == 0, cluster.stderr
    assert "2 worker(s)" in cluster.stderr and "dashboard " in cluster.stderr
    games = _games(tmp_path / "cluster.jsonl")
    assert len(games) == 20 and games == _games(tmp_path / "local.jsonl")
    summary, reference = json.loads(cluster.stdout), json.loads(local.stdout)
    for field in ("games", "wins", "draws", "losses", "pentanomial", "elo", "seed"):
        assert summary[field] == reference[field], field


def test_dask_scheduler_and_workers_play_a_league(dask_cluster, slow_bot):
    done = run_cli("league", "tictactoe", "random --seed 1", "random --seed 2", "slow.py",
                   "-n", "4", "--seed", "3", *CALM, "--json", "--cluster", dask_cluster.address,
                   "--workdir", str(slow_bot), "--out", str(slow_bot / "league.jsonl"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 12 and len(_records(slow_bot / "league.jsonl")) == 12
    assert not any(record.get("referee_error")
                   for record in _records(slow_bot / "league.jsonl").values())
    assert f"cluster {dask_cluster.address}: 2 worker(s), 2 thread(s); dashboard http://127.0.0.1:" \
        in done.stderr
    assert dask_cluster.scheduler_tasks() == 0, "no task left on the scheduler"


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while not path.exists() or len(path.read_text().splitlines()) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no games finished"
        time.sleep(0.05)


def _start_cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tools.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(dask_cluster, slow_bot):
    out = slow_bot / "games.jsonl"
    common = ("match", "tictactoe", "slow.py", "random --seed 1", "-n", "16", "--seed", "8",
              *CALM, "--json", "--workdir", str(slow_bot))
    run = _start_cli(*common, "--cluster", dask_cluster.address, "--out", str(out))
    _wait_for_lines(out, 2, run)
    dask_cluster.workers[0].send_signal(signal.SIGKILL)      # mid-game: games take ~0.3 s
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert json.loads(stdout)["games"] == 16
    local = run_cli(*common, "--jobs", "2", "--out", str(slow_bot / "local.jsonl"))
    assert local.returncode == 0, local.stderr
    assert _games(out) == _games(slow_bot / "local.jsonl"), "every game once, as played locally"


def test_an_interrupted_cluster_run_resumes(dask_cluster, slow_bot):
    out = slow_bot / "games.jsonl"
    command = ("match", "tictactoe", "slow.py", "random --seed 2", "-n", "12", "--seed", "9",
               *CALM, "--json", "--workdir", str(slow_bot), "--cluster", dask_cluster.address,
               "--out", str(out))
    run = _start_cli(*command)
    _wait_for_lines(out, 3, run)
    run.send_signal(signal.SIGINT)
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    first = json.loads(stdout)
    assert first["interrupted"] and first["games"] == len(_records(out)) < 12
    again = run_cli(*command)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["games"] == 12 and len(_records(out)) == 12


def test_sprt_stops_early_on_a_cluster_and_cancels_the_rest(dask_cluster, tmp_path):
    out = tmp_path / "games.jsonl"
    done = run_cli("match", "tictactoe", "alphabeta", "random --seed 1", "-n", "400",
                   "--sprt", "elo0=0,elo1=200", "--seed", "2", *CALM, "--json",
                   "--cluster", dask_cluster.address, "--out", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["sprt"]["result"] == "H1" and summary["games"] < 400
    assert len(_records(out)) == summary["games"]
    assert dask_cluster.scheduler_tasks() == 0, "the queued games were cancelled"


def test_a_bot_missing_on_a_worker_is_an_error_naming_it(tmp_path):
    with_bot, without = tmp_path / "a", tmp_path / "b"
    with_bot.mkdir(), without.mkdir()
    (with_bot / "slow.py").write_text(SLOW_BOT)
    cluster = DaskProcesses(tmp_path)
    try:
        cluster.add_worker(cwd=with_bot)
        cluster.add_worker(cwd=without)
        cluster.wait_for_workers(2)
        with distributed.Client(cluster.address) as client:
            pids = client.run(os.getpid)
        lacking = next(address for address, pid in pids.items()
                       if pid == cluster.workers[1].pid)
        done = run_cli("match", "tictactoe", "slow.py", "random", "-n", "2", *CALM,
                       "--cluster", cluster.address)
    finally:
        cluster.close()
    assert done.returncode == 2
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(f"botarena: on worker {lacking}: ") and "slow.py" in error, error
    assert "Traceback" not in done.stderr


def test_the_cluster_benchmark_runs_small_and_prints_its_figures():
    done = run_cli("bench", "cluster", "--games", "4", "--slow-games", "2", "--move-ms", "1",
                   "--latency-games", "2", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for title in ("instant games: 4 games", "~1 s games (1 ms a move): 2 games"):
        assert re.search(re.escape(title) + r"  local [\d.]+ games/s  cluster [\d.]+ games/s  "
                         r"ratio cluster/local [\d.]+", done.stdout), done.stdout
    assert len(re.findall(r"added by the scheduler -?[\d.]+ ms", done.stdout)) == 2, done.stdout


def test_a_game_no_worker_can_play_is_a_referee_error_naming_the_worker(tmp_path):
    """The bot file vanishes mid-run: each later game fails, is retried once, then is recorded
    (never dropped) as a referee error with the worker's address; the run still ends."""
    bot = tmp_path / "slow"
    bot.write_text(f"#!{sys.executable}\n" + SLOW_BOT)
    bot.chmod(0o755)
    out = tmp_path / "games.jsonl"
    cluster = DaskProcesses(tmp_path)
    try:
        cluster.add_worker()
        cluster.wait_for_workers(1)
        run = _start_cli("match", "tictactoe", "./slow", "random --seed 1", "-n", "10", *CALM,
                         "--json", "--workdir", str(tmp_path), "--cluster", cluster.address,
                         "--out", str(out))
        _wait_for_lines(out, 2, run)
        bot.unlink()
        stdout, stderr = run.communicate(timeout=300)
        with distributed.Client(cluster.address) as client:
            worker = next(iter(client.scheduler_info(n_workers=-1)["workers"]))
    finally:
        cluster.close()
    assert run.returncode == 0, stderr
    records = _records(out)
    failed = [record for record in records.values() if record.get("referee_error")]
    assert len(records) == 10 and failed, "games after the file vanished"
    summary = json.loads(stdout)
    assert summary["void"] == len(failed) and summary["games"] == 10 - len(failed)
    for record in failed:
        assert record["reason"].startswith(f"referee error: worker {worker}: "), record["reason"]
        assert "slow" in record["referee_error"]


class _NameIsCommand(dict):
    """A tuner's naming: every bot is called by its command, made up as the run goes."""

    def __missing__(self, name: str) -> str:
        return name


def test_a_producer_makes_up_bots_as_it_goes_on_a_cluster():
    """The seam a tuner uses: submit, collect, submit games of bots no one named at start."""
    game = load_game("tictactoe")
    arena = Arena(game, game.parse_options({}), TimeControl(30000, 30000), BotLimits(memory_mb=None),
                  {})
    seen = []
    with open_executor(arena, cluster="local:1", bot_texts=_NameIsCommand()) as executor:
        executor.submit(GameJob(0, ("random --seed 1", "random --seed 2"), 5))
        while executor.in_flight():
            for job, result in executor.finished(timeout=0.2):
                seen.append((job.seats, result.referee_error, [p.bot for p in result.players]))
                if len(seen) < 3:
                    seed = f"random --seed {len(seen) + 2}"
                    executor.submit(GameJob(len(seen), (seed, "random --seed 1"), 5))
    assert [seats for seats, _, _ in seen] == [
        ("random --seed 1", "random --seed 2"), ("random --seed 3", "random --seed 1"),
        ("random --seed 4", "random --seed 1")]
    assert all(error is None and bots == list(seats) for seats, error, bots in seen)


@pytest.mark.parametrize("address, message", [
    ("local:x", "botarena: --cluster 'local:x': write local or local:N (N worker processes)"),
    ("local:0", "botarena: --cluster 'local:0': N must be at least 1"),
    ("tcp://127.0.0.1:1", "botarena: --cluster tcp://127.0.0.1:1: no Dask scheduler answers there"),
])
def test_a_bad_cluster_address_is_one_line(address, message):
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", "--cluster", address)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(message), done.stderr
