"""``botarena bench match``: games/s and memory per game of a real ``botarena match`` run.

Runs ``botarena match GAME BOT_A BOT_B -n GAMES --jobs J --out FILE --quiet --json`` as a child
process, exactly as a user would, and every ``--every`` seconds samples the resident memory of
the botarena process alone (not its bots) and the games in its results file. Prints:

  games/s     over the whole run (start-up included) and over the run after the warm-up
  memory      RSS after the warm-up (the first 10 % of the games) and at the end, the growth
              between them, and bytes per game: the least-squares slope of RSS against games
              played after the warm-up (what a 1,000,000-game run would add per game)

The default is issue 12's figure: ``match tictactoe random random -n 20000 --jobs 2`` (27.6
games/s and +0.65 KB a game before memory was bounded). Figures are printed; nothing asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tools.arena.botspec import PROJECT_ROOT


def _resident_bytes(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    if "VmRSS:" not in status:              # exited, not yet reaped
        return None
    return int(status.split("VmRSS:")[1].split()[0]) * 1024


class _LineCounter:
    """Games in a results file, read as it grows (only the new bytes each time)."""

    def __init__(self, path: Path):
        self.path, self.offset, self.lines = path, 0, 0

    def count(self) -> int:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except FileNotFoundError:
            return 0
        self.offset += len(data)
        self.lines += data.count(b"\n")
        return self.lines


def slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope of y against x (None with fewer than two distinct x)."""
    if len({x for x, _ in points}) < 2:
        return None
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


def run_match(args: argparse.Namespace) -> tuple[list[tuple[float, int, int]], dict, float]:
    """Play the match in a child; the samples (seconds, games, RSS bytes) and its summary."""
    with tempfile.TemporaryDirectory(prefix="bench-match-") as folder:
        out = Path(folder) / "games.jsonl"
        command = [sys.executable, "-m", "tools.cli", "match", args.game, *args.bots,
                   "-n", str(args.games), "--jobs", str(args.jobs), "--out", str(out),
                   "--quiet", "--json", *args.extra]
        print("running: botarena " + " ".join(command[3:]), flush=True)
        counter = _LineCounter(out)
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        samples = []
        try:
            while child.poll() is None:
                time.sleep(args.every)
                resident = _resident_bytes(child.pid)
                if resident is not None:
                    samples.append((time.perf_counter() - started, counter.count(), resident))
            stdout, stderr = child.communicate()
        except KeyboardInterrupt:
            child.terminate()
            child.communicate()
            raise
        wall = time.perf_counter() - started
        if child.returncode != 0:
            sys.exit(f"bench match: botarena exited {child.returncode}: {stderr.strip()[-500:]}")
        summary = json.loads(stdout)
        samples.append((wall, counter.count(), samples[-1][2] if samples else 0))
    return samples, summary, wall


def report(samples: list[tuple[float, int, int]], summary: dict, wall: float,
           warmup: float) -> None:
    games = summary["games"]
    faults = sum(sum(kinds.values()) for kinds in summary["faults"].values())
    print(f"  {games} games in {wall:.1f} s: {games / wall:.1f} games/s (start-up included); "
          f"{faults} faults, {summary['void']} void")
    after = [sample for sample in samples if sample[1] >= warmup * games]
    if len(after) < 2 or after[-1][1] == after[0][1]:
        print("  too few samples after the warm-up for memory per game: raise --games")
        return
    (t0, g0, rss0), (t1, g1, rss1) = after[0], after[-1]
    print(f"  after the warm-up ({g0} games): {(g1 - g0) / (t1 - t0):.1f} games/s")
    rss_max = max(sample[2] for sample in after)
    per_game = slope([(g, rss) for _, g, rss in after[:-1]] or [(g0, rss0), (g1, rss1)])
    print(f"  botarena RSS: {rss0 / 2**20:.1f} MB at game {g0}, {rss1 / 2**20:.1f} MB at game "
          f"{g1} (max {rss_max / 2**20:.1f}): {(rss1 - rss0) / 2**20:+.2f} MB over "
          f"{g1 - g0} games")
    if per_game is not None:
        print(f"  memory per game: {per_game:+.0f} bytes (least squares over {len(after) - 1} "
              f"samples); at that rate 100,000 games add {per_game * 1e5 / 2**20:+.1f} MB "
              "(target: flat within 5 MB)")
    # bounded structures (the latency histogram: ~1,000 values under 10 ms, wider on a loaded
    # machine) fill during the first games; what still grows in the second half is a leak
    late = [(g, rss) for _, g, rss in after[:-1] if g >= games / 2]
    late_per_game = slope(late)
    if late_per_game is not None:
        print(f"  second half only (from game {late[0][0]}): {late_per_game:+.0f} bytes a game "
              f"over {len(late)} samples")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="botarena bench match", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tictactoe")
    parser.add_argument("--bots", nargs=2, default=["random", "random"], metavar="BOT")
    parser.add_argument("--games", type=int, default=20000, help="-n of the match (default: 20000)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of the match (default: 2)")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=0.1,
                        help="fraction of the games before memory is compared (default: 0.1)")
    parser.add_argument("extra", nargs=argparse.REMAINDER,
                        help="more match options after --, e.g. -- --turn-ms 100")
    args = parser.parse_args(argv)
    args.extra = [word for word in args.extra if word != "--"]
    load = os.getloadavg()[0]
    samples, summary, wall = run_match(args)
    print(f"  (load average {load:.2f} before, {os.getloadavg()[0]:.2f} after, "
          f"on {os.cpu_count()} cores)")
    report(samples, summary, wall, args.warmup)


if __name__ == "__main__":
    main()
