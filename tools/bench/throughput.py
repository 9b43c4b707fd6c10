"""Games per second against the physical bound: ``botarena bench throughput [--games N]``.

Two xmas_rush bots that answer at once (``tools/bench/instant_bot.py``) play N games in a real
``botarena match --jobs 1``. What cannot be avoided is starting the bots and moving the bytes;
both are measured in the same run, with the same bot:

  start-up     from spawning the bot to its first answer (median of several)
  round trip   one full input block written to the bot and its answer read back, over plain
               pipes with blocking reads (median of many)
  bound        games x start-up + answers x round trip
  actual       the match's wall time; bound / actual is the figure (target >= 0.75)

The referee's own CPU per answer is the match process's CPU time (every thread: codec, rules,
harness, spawning and cleanup; the bots are other processes) over the answers it read
(target <= 25 us). Figures are printed with the load average; nothing is asserted.

The floor, measured in the same run: as many games (same codec and rules) played by the
least a Python referee can do, in this process: two plain ``Popen`` bots, then per answer one
write, one poll and one read, and nothing else (no time limit, fault, record, watchdog, cgroup
or memory cap; the bots' exit not waited for). Its figures tell what the harness costs from
what CPython and the pipes cost.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.games import load_game
from referee.games.xmas_rush import codec
from referee.games.xmas_rush.rules import XmasRushState
from tools.bench.pipes import pipes_of

INSTANT_BOT = Path(__file__).resolve().with_name("instant_bot.py")
# Runs the real command line in a child and reports that process's own CPU time (all threads,
# not the bots') and the wall time of the command itself, after the interpreter's start-up.
_MEASURED_MATCH = (
    "import json, sys, time\n"
    "from tools.cli.main import main\n"
    "cpu, wall = time.process_time(), time.perf_counter()\n"
    "code = main(sys.argv[1:])\n"
    "figures = {'cpu_s': time.process_time() - cpu, 'wall_s': time.perf_counter() - wall}\n"
    "print(json.dumps(figures), file=sys.stderr)\n"
    "sys.exit(code)\n")


def _bot_argv() -> list[str]:
    return [sys.executable, str(INSTANT_BOT)]


def sample_blocks(count: int, seed: int = 1) -> list[bytes]:
    """Real input blocks (PUSH and MOVE turns) of a random xmas_rush game, as bytes on the wire."""
    rng = random.Random(seed)
    blocks: list[bytes] = []
    state = XmasRushState.new_game(seed)
    while len(blocks) < count:
        if state.is_over():
            state = XmasRushState.new_game(rng.randrange(2**31))
        blocks.append(("\n".join(codec.turn_lines(state, 0)) + "\n").encode())
        state.apply([rng.choice(state.legal_actions(seat)) for seat in (0, 1)])
    return blocks


def _read_answer(fd: int) -> bytes:
    data = os.read(fd, 256)
    while not data.endswith(b"\n"):
        more = os.read(fd, 256)
        if not more:
            raise RuntimeError("the instant bot stopped answering")
        data += more
    return data


def start_up_s(block: bytes, samples: int) -> float:
    """Median seconds from spawning the bot to its first answer."""
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        child = subprocess.Popen(_bot_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, bufsize=0)
        stdin, stdout = pipes_of(child)
        os.write(stdin.fileno(), block)
        _read_answer(stdout.fileno())
        times.append(time.perf_counter() - started)
        stdin.close()
        child.wait()
        stdout.close()
    return statistics.median(times)


def round_trip_s(blocks: list[bytes]) -> float:
    """Median seconds of one input block out and one answer back, plain blocking pipes."""
    child = subprocess.Popen(_bot_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
    stdin, stdout = pipes_of(child)
    write_fd, read_fd = stdin.fileno(), stdout.fileno()
    clock = time.perf_counter
    times = []
    try:
        os.write(write_fd, blocks[0])
        _read_answer(read_fd)
        for block in blocks:
            started = clock()
            os.write(write_fd, block)
            _read_answer(read_fd)
            times.append(clock() - started)
    finally:
        stdin.close()
        child.wait()
        stdout.close()
    return statistics.median(times)


def _floor_game(game, options: dict, seed: int) -> tuple[float, float, int]:
    """(wall s from spawn to last answer, this thread's CPU s, answers) of one game played
    by the minimal referee (see the module's docstring)."""
    wall, cpu = time.perf_counter(), time.thread_time()
    bots = [subprocess.Popen(_bot_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0) for _ in range(2)]
    pipes = []
    for bot in bots:
        stdin, stdout = pipes_of(bot)
        poller = select.poll()
        poller.register(stdout.fileno(), select.POLLIN)
        pipes.append((stdin.fileno(), stdout.fileno(), poller))
    state, answers = game.new_state(seed, options), 0
    first = [True, True]
    while not state.is_over():
        actions = []
        for seat in state.acting_seats():
            lines = game.turn_lines(state, seat)
            if first[seat]:
                lines, first[seat] = game.init_lines(state, seat) + lines, False
            write_fd, read_fd, poller = pipes[seat]
            os.write(write_fd, ("\n".join(lines) + "\n").encode())
            poller.poll(5000)
            answer = _read_answer(read_fd)
            actions.append(game.parse_action(state, seat, answer[:-1].decode()))
            answers += 1
        state.apply(actions)
    wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    for bot in bots:
        pipes_of(bot)[0].close()
    for bot in bots:
        bot.wait()
        pipes_of(bot)[1].close()
    return wall, cpu, answers


def floor_games(games: int) -> tuple[float, float, int]:
    """(wall s, CPU s, answers) of ``games`` games played by the minimal referee (seeds 1 to
    ``games``; the instant bots make every game last its 150 turns, whatever the seed)."""
    game = load_game("xmas_rush")
    options = game.parse_options({})
    wall = cpu = 0.0
    answers = 0
    for index in range(games):
        game_wall, game_cpu, game_answers = _floor_game(game, options, 1 + index)
        wall, cpu, answers = wall + game_wall, cpu + game_cpu, answers + game_answers
    return wall, cpu, answers


def measured_match(games: int, folder: Path) -> tuple[dict, int]:
    """(cpu_s and wall_s of ``botarena match --jobs 1``, answers read) for ``games`` games."""
    bot = " ".join(_bot_argv())
    out = folder / "throughput.jsonl"
    argv = ["match", "xmas_rush", bot, bot, "-n", str(games), "--jobs", "1", "--seed", "1",
            "--quiet", "--out", str(out)]
    done = subprocess.run([sys.executable, "-c", _MEASURED_MATCH, *argv], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2])
    if done.returncode != 0:
        raise RuntimeError(f"the match failed: {done.stderr.strip()[-400:]}")
    figures = json.loads(done.stderr.strip().splitlines()[-1])
    answers = 0
    with out.open() as lines:
        for line in lines:
            answers += sum(len(values) for values in json.loads(line)["latencies_ms"])
    return figures, answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="botarena bench throughput", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games in the match (default 100)")
    parser.add_argument("--starts", type=int, default=20, help="bot start-ups timed (default 20)")
    parser.add_argument("--trips", type=int, default=2000, help="round trips timed (default 2000)")
    args = parser.parse_args(argv)
    if min(args.games, args.starts, args.trips) < 1:
        parser.error("--games, --starts and --trips must be at least 1")
    blocks = sample_blocks(min(args.trips, 600))
    trips = (blocks * (args.trips // len(blocks) + 1))[:args.trips]
    print(f"throughput: xmas_rush, two instant bots, match --jobs 1, {args.games} games "
          f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    start = start_up_s(blocks[0], args.starts)
    trip = round_trip_s(trips)
    print(f"  bot start-up (spawn to first answer, median of {args.starts}): {start * 1e3:.2f} ms")
    print(f"  round trip with a full input block (median of {args.trips}): {trip * 1e6:.1f} us")
    with tempfile.TemporaryDirectory(prefix="botarena-throughput-") as folder:
        figures, answers = measured_match(args.games, Path(folder))
    bound = args.games * start + answers * trip
    wall, cpu = figures["wall_s"], figures["cpu_s"]
    print(f"  match: {args.games} games, {answers} answers in {wall:.2f} s "
          f"({args.games / wall:.1f} games/s, {wall / args.games * 1e3:.1f} ms a game)")
    print(f"  bound: {args.games} x {start * 1e3:.2f} ms + {answers} x {trip * 1e6:.1f} us = "
          f"{bound:.2f} s")
    print(f"  bound / actual: {bound / wall:.2f}   (target >= 0.75)")
    print(f"  referee CPU per answer: {cpu / answers * 1e6:.1f} us   (target <= 25 us; "
          f"{cpu:.2f} s CPU in the match process)")
    floor_wall, floor_cpu, floor_answers = floor_games(args.games)
    print(f"  floor (as many games, a minimal referee: write, poll, read, codec and rules only): "
          f"{floor_wall / args.games * 1e3:.1f} ms a game, {floor_cpu / floor_answers * 1e6:.1f} us "
          f"CPU per answer; bound / floor "
          f"{(args.games * start + floor_answers * trip) / floor_wall:.2f}")
    print(f"  load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
