"""Benchmarks of the bot harness: ``python -m tools.bench.harness MODE``.

  overhead  the harness's cost per turn in a match (BotProcess.send + read_line) against a raw
            pipe echo round trip with the same child interpreter, measured in the same run;
            beside it, a turn kept for a replay (+ take_stderr), the raw round trip with the
            least a time limit needs (a poll with a timeout before the read), and the raw round
            trip to a child in a session of its own, as bots run (with the scheduler's
            autogroups on, a new session is a new scheduling group)
  flood     the same per-turn cost when the bot writes 64 KB of stderr every turn
  latency   a bot that answers after 40 ms of a 50 ms budget, over N turns per game, with
            --jobs games at once: timeouts, latency distribution, margin, run-queue waits
  soak      N tic-tac-toe games between random bots in this one process (the match runner):
            open file descriptors, threads and memory as the games go by
  interrupt Ctrl-C and SIGTERM to `botarena play` with hanging, daemon-forking bots: seconds
            until every bot process is gone

Figures are printed; nothing is asserted (timings never go into tests).
"""
from __future__ import annotations

import argparse
import os
import re
import select
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from referee.api import Game, InvalidAction, TimeControl, TurnOrder
from referee.harness.process import BotFault, BotProcess
from referee.match import PlayerSpec, latency_summary, play_match
from tools.bench.pipes import pipes_of

ECHO = ("import sys\nr, w, f = sys.stdin.readline, sys.stdout.write, sys.stdout.flush\n"
        "while True:\n l = r()\n if not l: break\n w(l); f()\n")
FLOOD_ECHO = ("import sys\nr, w, f = sys.stdin.readline, sys.stdout.write, sys.stdout.flush\n"
              "e = sys.stderr; junk = 'x' * 65535 + '\\n'\n"
              "while True:\n l = r()\n if not l: break\n e.write(junk); e.flush(); w(l); f()\n")
# Burns CPU (like a search bot) until 40 ms after its turn's first input line arrived.
BUSY_BOT = ("import sys, time\nclock = time.perf_counter\n"
            "while True:\n l = sys.stdin.readline()\n if not l: break\n t = clock() + {ms} / 1000\n"
            " n = 0\n while clock() < t: n += 1\n sys.stdout.write('ok\\n'); sys.stdout.flush()\n")
# Sleeps instead: what is left is the wake-up latency of the bot and of the harness.
SLEEPY_BOT = ("import sys, time\n"
              "while True:\n l = sys.stdin.readline()\n if not l: break\n time.sleep({ms} / 1000)\n"
              " sys.stdout.write('ok\\n'); sys.stdout.flush()\n")


# -- overhead ---------------------------------------------------------------------------------

class _RawEcho:
    """A child behind plain pipes: blocking write, blocking read (the floor for any harness)."""

    def __init__(self, code: str, session: bool = False):
        self.child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0,
                                      start_new_session=session)
        stdin, stdout = pipes_of(self.child)
        self.write_fd, self.read_fd = stdin.fileno(), stdout.fileno()
        self.poller = select.poll()
        self.poller.register(self.read_fd, select.POLLIN)

    def round_trip(self, line: bytes = b"-1 -1\n") -> None:
        os.write(self.write_fd, line)
        data = os.read(self.read_fd, 64)
        while not data.endswith(b"\n"):
            data += os.read(self.read_fd, 64)

    def deadline_round_trip(self, line: bytes = b"-1 -1\n") -> None:
        """The least a harness with a time limit does: the write, then a poll with a timeout
        before each read (a blocking read has no deadline)."""
        os.write(self.write_fd, line)
        data = b""
        while not data.endswith(b"\n"):
            if not self.poller.poll(1000):
                raise RuntimeError("the echo child did not answer within 1 s")
            data += os.read(self.read_fd, 64)

    def close(self) -> None:
        self.child.kill()
        self.child.wait()


def _placements() -> dict[str, tuple[set[int], set[int]] | None]:
    """CPU sets (this process, the children) per placement: both on one core, or one core each.

    A round trip costs ~12 us when parent and child share a core and 50-65 us when they do not,
    so a ratio is only fair when raw and harness turns see the same placement.
    """
    cpus = sorted(os.sched_getaffinity(0))
    same = ({cpus[0]}, {cpus[0]})
    cross = ({cpus[0]}, {cpus[1]}) if len(cpus) > 1 else None
    return {"same core": same, "cross core": cross}


_BLOCK = 20                     # turns of one kind in a row


def paired_round_trips(code: str, turns: int,
                       placement: tuple[set[int], set[int]] | None = None
                       ) -> tuple[list[float], list[float], list[float], list[float], list[float]]:
    """Per-turn seconds of a raw round trip, a raw one with a deadline (``deadline_round_trip``),
    a match turn, a recorded turn and a raw round trip to a child in a session of its own, in
    turn.

    A match turn is what a game without a replay does (send, read_line); a recorded turn
    also takes the turn's stderr for the replay. Short blocks of each kind in turn make all
    three see the same machine at about the same moment, each in its steady state (turn by
    turn, the first after a switch pays for the other child's cache misses: with three
    kinds that is not fair to all); medians of the per-turn times then ignore the turns
    where another process took the CPU. ``placement`` pins this process and the children to CPU
    sets (parent's, children's) for the run.
    """
    before = os.sched_getaffinity(0)
    if placement:
        os.sched_setaffinity(0, placement[0])
    raw, own_session = _RawEcho(code), _RawEcho(code, session=True)
    bot = BotProcess([sys.executable, "-c", code], name="echo")
    if placement:
        for pid in (raw.child.pid, own_session.child.pid, bot.pid):
            os.sched_setaffinity(pid, placement[1])
    clock = time.perf_counter

    def raw_turn() -> None:
        raw.round_trip()

    def deadline_turn() -> None:
        raw.deadline_round_trip()

    def match_turn() -> None:
        bot.read_line(bot.send(["-1 -1"], 1), 1)

    def recorded_turn() -> None:
        bot.read_line(bot.send(["-1 -1"], 1), 1)
        bot.take_stderr()

    kinds: tuple[tuple[Callable[[], object], list[float]], ...] = (
        (raw_turn, []), (deadline_turn, []), (match_turn, []), (recorded_turn, []),
        (own_session.round_trip, []))
    try:
        raw.round_trip()
        own_session.round_trip()
        bot.read_line(bot.send(["-1 -1"], 5), 5)       # both children are up
        for _ in range(0, turns, _BLOCK):
            for turn, times in kinds:
                turn()                                  # (the switch from the other kind)
                for _ in range(_BLOCK):
                    started = clock()
                    turn()
                    times.append(clock() - started)
    finally:
        raw.close()
        own_session.close()
        bot.close()
        os.sched_setaffinity(0, before)
    return kinds[0][1], kinds[1][1], kinds[2][1], kinds[3][1], kinds[4][1]


def run_overhead(turns: int, rounds: int, code: str = ECHO, label: str = "echo",
                 target: str = "(target <= 1.3)") -> None:
    print(f"{label}: {turns} turns x {rounds} rounds, raw, match and recorded turns alternating "
          f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    for name, placement in _placements().items():
        if placement is None:
            print(f"  {name}: skipped (one usable CPU)")
            continue
        print(f"  {name} (this process on CPU {min(placement[0])}, the bots on CPU "
              f"{min(placement[1])}), p50 in us:")
        print(f"  {'round':>5} {'raw':>7} {'raw+poll':>9} {'match turn':>11} {'ratio':>6} "
              f"{'recorded turn':>14} {'ratio':>6} {'raw, session':>13}")
        ratios, recorded_ratios, deadline_ratios, session_costs = [], [], [], []
        for number in range(1, rounds + 1):
            raw, deadline, harness, recorded, session = paired_round_trips(code, turns, placement)
            session_costs.append((statistics.median(session) - statistics.median(raw)) * 1e6)
            raw_p50 = statistics.median(raw) * 1e6
            deadline_ratios.append(statistics.median(harness) / statistics.median(deadline))
            harness_p50, recorded_p50 = (statistics.median(harness) * 1e6,
                                         statistics.median(recorded) * 1e6)
            ratios.append(harness_p50 / raw_p50)
            recorded_ratios.append(recorded_p50 / raw_p50)
            print(f"  {number:>5} {raw_p50:>7.1f} {statistics.median(deadline) * 1e6:>9.1f} "
                  f"{harness_p50:>11.1f} {ratios[-1]:>6.2f} "
                  f"{recorded_p50:>14.1f} {recorded_ratios[-1]:>6.2f} "
                  f"{statistics.median(session) * 1e6:>13.1f}")
        verdict = target if name == "same core" else "(for reference: the ratio is taken on one core)"
        print(f"  {name}: ratio harness/raw (median of rounds): {statistics.median(ratios):.2f}"
              f"   {verdict}; a recorded turn: {statistics.median(recorded_ratios):.2f}; "
              f"match turn / raw with a deadline (write, poll, read): "
              f"{statistics.median(deadline_ratios):.2f}  load average {os.getloadavg()[0]:.2f}")
        print(f"  {name}: a session of its own (as bots run: no terminal) costs "
              f"{statistics.median(session_costs):+.1f} us a raw round trip (median of rounds; "
              f"autogroups {_autogroups()})")


def _autogroups() -> str:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as handle:
            return "on" if handle.read().strip() == "1" else "off"
    except OSError:
        return "not in this kernel"


# -- latency ----------------------------------------------------------------------------------

class CountingGame(Game):
    """Two bots alternate for a fixed number of turns; any answer 'ok' is legal."""

    name = "counting"
    turn_order = TurnOrder.ALTERNATING

    def __init__(self, turns: int, clock: TimeControl):
        self.turns, self.time_control = turns, clock

    def new_state(self, seed, options):
        return _CountingState(self.turns)

    def turn_lines(self, state, seat):
        return [f"turn {state.turn}"]

    def parse_action(self, state, seat, line):
        if line != "ok":
            raise InvalidAction(f"expected 'ok', got {line!r}")
        return line


class _CountingState:
    def __init__(self, turns: int):
        self.turn, self.turns = 0, turns

    def acting_seats(self):
        return (self.turn % 2,)

    def apply(self, actions):
        self.turn += 1

    def is_over(self):
        return self.turn >= self.turns

    def scores(self):
        return (0, 0)

    def end_reason(self):
        return "turn limit"


def run_latency(turns: int, jobs: int, answer_ms: int, budget_ms: int, grace_ms: int,
                sleep: bool = False) -> None:
    """Each job plays games until it has measured ``turns`` answers (a timeout ends a game, the
    next game goes on), so timeouts are counted over that many turns."""
    clock = TimeControl(first_turn_ms=1000, turn_ms=budget_ms, grace_ms=grace_ms)
    code = (SLEEPY_BOT if sleep else BUSY_BOT).format(ms=answer_ms)
    bot = PlayerSpec(f"{'sleepy' if sleep else 'busy'} {answer_ms} ms", (sys.executable, "-c", code))
    results = []
    def one(index: int) -> None:
        measured = 0
        while measured < turns:
            game = CountingGame(turns - measured + 2, clock)      # +2: the first answers
            result = play_match(game, [bot, bot], seed=index, record=False)
            results.append(result)
            measured += sum(max(0, len(player.latencies_ms) - 1) for player in result.players)
    print(f"latency: {jobs} job(s) at once, {turns} measured turns each, bots "
          f"{'sleep' if sleep else 'compute'} and answer after "
          f"{answer_ms} ms of {budget_ms} ms (+{grace_ms} ms grace); {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    threads = [threading.Thread(target=one, args=(index,)) for index in range(jobs)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies, cpu, waits, faults, margins = [], [], [], [], []
    warnings = set()
    for result in results:
        for player in result.players:
            latencies += player.latencies_ms[1:]       # the first turn includes start-up
            cpu += [value for value in player.cpu_ms[1:] if value is not None]
            margins.append(player.margin_ms)
            waits.append(player.max_wait_ms)
            if player.fault is not None:
                faults.append(f"{player.fault.kind.value}: {player.fault.detail}")
        warnings.update(result.warnings)
    summary = latency_summary(latencies)
    ordered = sorted(latencies)
    print(f"  wall {time.perf_counter() - started:.1f} s; games {len(results)}; turns measured "
          f"{len(latencies)}; faults {len(faults)}; load average at the end {os.getloadavg()[0]:.2f}")
    starved = [fault for fault in faults
               if _waited_ms(fault) >= grace_ms or "waiting for a CPU at the deadline" in fault]
    print(f"  timeouts in a turn where the bot waited >= the {grace_ms} ms grace for a CPU, or was "
          f"still waiting for one at the deadline (an overloaded machine): {len(starved)} of "
          f"{len(faults)}")
    for fault in [fault for fault in faults if fault not in starved][:5] or faults[:3]:
        print(f"    {fault}")
    print(f"  latency ms: min {ordered[0]:.2f}  p50 {summary['p50']:.2f}  p90 "
          f"{ordered[int(0.9 * len(ordered))]:.2f}  p99 {summary['p99']:.2f}  p99.9 "
          f"{ordered[int(0.999 * len(ordered))]:.2f}  max {summary['max']:.2f}")
    print(f"  beyond the {answer_ms} ms the bot took: p50 {summary['p50'] - answer_ms:.2f}  "
          f"p99 {summary['p99'] - answer_ms:.2f}  max {summary['max'] - answer_ms:.2f} ms")
    smallest = min(m for m in margins if m is not None)
    print(f"  smallest margin to the {budget_ms} ms budget: {smallest:.2f} ms; turns over the "
          f"budget: {sum(value > budget_ms for value in latencies)}; over budget+grace: "
          f"{sum(value > budget_ms + grace_ms for value in latencies)}")
    print(f"  bot CPU per turn ms: p50 {statistics.median(cpu):.2f}  min {min(cpu):.2f};  longest "
          f"wait for a CPU in one turn: {max(waits):.2f} ms; games with overload warnings: "
          f"{sum(bool(result.warnings) for result in results)}")


def _waited_ms(detail: str) -> float:
    found = re.search(r"waited (\d+) ms for a CPU", detail)
    return float(found.group(1)) if found else 0.0


# -- soak -------------------------------------------------------------------------------------

def _harness_figures() -> tuple[int, int, float, int]:
    """(open fds, threads, resident MB, zombie children) of this process."""
    fds = len(os.listdir("/proc/self/fd"))
    status = open("/proc/self/status").read()
    threads = int(status.split("Threads:")[1].split()[0])
    resident = int(status.split("VmRSS:")[1].split()[0]) / 1024
    zombies = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            zombies += fields[0] == "Z" and int(fields[1]) == os.getpid()
    return fds, threads, resident, zombies


def run_soak(games: int, jobs: int) -> None:
    from referee.games import load_game
    from referee.harness.process import become_subreaper
    from tools.arena.arena import Arena
    from tools.arena.botspec import resolve_bot
    from tools.arena.executor import LocalExecutor
    from tools.arena.runner import paired_jobs, run_jobs
    from tools.arena.settings import BotLimits
    from tools.bench.match import slope
    become_subreaper()                                 # as botarena's command line does
    game = load_game("tictactoe")
    players = {"random": resolve_bot("tictactoe", "random --seed 1"),
               "random2": resolve_bot("tictactoe", "random --seed 2")}
    arena = Arena(game, game.parse_options({}), game.time_control, BotLimits(memory_mb=768), players)
    checkpoints = sorted({max(1, games // 20), games // 10, games // 4, games // 2, 3 * games // 4, games})
    print(f"soak: {games} tictactoe games, {jobs} at once, in one process (the match runner)")
    print(f"  {'games':>6} {'open fds':>9} {'threads':>8} {'RSS MB':>8} {'zombies':>8} {'faults':>7} "
          f"{'s':>6}")
    counts = {"played": 0, "faults": 0}
    memory: list[tuple[int, float]] = []         # (games, RSS bytes) at the checkpoints
    started = time.perf_counter()
    print(f"  {0:>6} {_harness_figures()[0]:>9} {_harness_figures()[1]:>8} "
          f"{_harness_figures()[2]:>8.1f} {0:>8} {0:>7} {0:>6.1f}")
    def on_result(job, result) -> bool:
        counts["played"] += 1
        counts["faults"] += sum(player.fault is not None for player in result.players)
        if counts["played"] in checkpoints:
            fds, threads, resident, zombies = _harness_figures()
            memory.append((counts["played"], resident * 2**20))
            print(f"  {counts['played']:>6} {fds:>9} {threads:>8} {resident:>8.1f} {zombies:>8} "
                  f"{counts['faults']:>7} {time.perf_counter() - started:>6.1f}", flush=True)
        return False
    with LocalExecutor(arena, jobs) as executor:
        run_jobs(executor, paired_jobs("random", "random2", games // 2, 1), on_result=on_result)
    time.sleep(0.5)
    fds, threads, resident, zombies = _harness_figures()
    print(f"  after the run: {fds} fds, {threads} threads, {resident:.1f} MB, {zombies} zombies")
    per_game = slope(memory[1:])                   # after the first checkpoint's warm-up
    if per_game is not None:
        print(f"  memory per game: {per_game:+.0f} bytes (RSS against games from game "
              f"{memory[1][0]}; `botarena bench match` measures the whole match command)")


# -- interrupt ----------------------------------------------------------------------------------

# Forks a double-forked daemon in a session of its own, then hangs ignoring SIGTERM.
HANGING_BOT = ("import os, signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
               "if os.fork() == 0:\n os.setsid()\n if os.fork(): os._exit(0)\n time.sleep(1e6)\n"
               "input()\ntime.sleep(1e6)\n")


def _bot_processes_of(harness_pid: int) -> list:
    import psutil
    prefix, found = f"{harness_pid}.", []
    for process in psutil.process_iter():
        try:
            if process.status() != psutil.STATUS_ZOMBIE and \
                    process.environ().get("BOTARENA_BOT", "").startswith(prefix):
                found.append(process)
        except psutil.Error:
            continue
    return found


def run_interrupt(rounds: int) -> None:
    """Seconds from Ctrl-C / SIGTERM to `botarena play` until every bot process is gone."""
    import signal
    bot = f"{sys.executable} -c '{HANGING_BOT}'"
    print(f"interrupt: `botarena play` between two bots that hang (ignoring SIGTERM) after forking a "
          f"daemon; {rounds} rounds per signal")
    for signum in (signal.SIGINT, signal.SIGTERM):
        took = []
        for _ in range(rounds):
            cli = subprocess.Popen([sys.executable, "-m", "tools.cli", "play", "tictactoe", bot, bot,
                                    "--first-turn-ms", "600000", "--quiet"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while len(_bot_processes_of(cli.pid)) < 4 and time.monotonic() < deadline:
                time.sleep(0.02)
            started = time.monotonic()
            cli.send_signal(signum)
            while _bot_processes_of(cli.pid) and time.monotonic() - started < 30:
                time.sleep(0.005)
            took.append(time.monotonic() - started)
            cli.wait()
        print(f"  {signum.name}: every bot process gone after " +
              ", ".join(f"{value:.3f}" for value in took) + " s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("overhead", "flood", "latency", "soak", "interrupt"))
    parser.add_argument("--turns", type=int, help="turns (overhead: per round, default 5000; "
                        "latency: per game, default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="overhead: interleaved rounds")
    parser.add_argument("--jobs", type=int, default=2, help="latency, soak: games at once")
    parser.add_argument("--games", type=int, default=2000, help="soak: games")
    parser.add_argument("--answer-ms", type=int, default=40)
    parser.add_argument("--budget-ms", type=int, default=50)
    parser.add_argument("--grace-ms", type=int, default=TimeControl().grace_ms)
    parser.add_argument("--sleep", action="store_true", help="latency: bots sleep instead of computing")
    args = parser.parse_args(argv)
    if args.mode == "overhead":
        run_overhead(args.turns or 5000, args.rounds)
    elif args.mode == "flood":
        run_overhead(args.turns or 2000, args.rounds, FLOOD_ECHO, "echo writing 64 KB of stderr a turn",
                     "(the raw side sends stderr to /dev/null; the harness reads and keeps it)")
    elif args.mode == "latency":
        run_latency(args.turns or 2000, args.jobs, args.answer_ms, args.budget_ms, args.grace_ms,
                    args.sleep)
    elif args.mode == "interrupt":
        run_interrupt(args.rounds)
    else:
        run_soak(args.games, args.jobs)


if __name__ == "__main__":
    try:
        main()
    except BotFault as fault:
        sys.exit(f"bench_harness: the bot failed: {fault.detail}")
