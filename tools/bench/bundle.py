"""Benchmark of ``botarena bundle``: speed of a hot function bundled and not, start-up, sizes.

    python -m tools.bench.bundle [--repeat 5] [--rounds 3]
    python -m tools.bench.bundle --sizes         # the size table alone (Markdown)

The hot function is a recursive negamax over the whole tic-tac-toe tree (549,946 nodes) in a
module of its own: every call reads and writes module globals and calls into the inlined
``referee.games.tictactoe.rules``, whose methods read that module's globals in turn; this is
where compyner's rewriting of globals into attribute look-ups cost 2x. Both variants run in
fresh interpreters, alternately; the best CPU time of each is kept (CPU time, not wall time, so
that other processes on a busy machine disturb the ratio less). Also printed: the time to start
the biggest built-in bot and reach its first read, and the size of every built-in bot's bundle.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.games import game_names
from tools.arena.botspec import PROJECT_ROOT, bot_module, bot_path, builtin_bots
from tools.bundle.builder import CODINGAME_LIMIT, build_bundle, resolve_entry

_HOT_MODULE = '''\
from referee.games.tictactoe.rules import TicTacToeState

NODES = 0


def negamax(state):
    global NODES
    NODES += 1
    if state.winner is not None:
        return -1
    if state.is_over():
        return 0
    best = -2
    for cell in state.legal_actions():
        child = state.clone()
        child.play(cell)
        value = -negamax(child)
        if value > best:
            best = value
    return best
'''

_DRIVER = '''\
import json
import sys
import time

import hot
from referee.games.tictactoe.rules import TicTacToeState


def main():
    best = float("inf")
    start = TicTacToeState()
    for _ in range(int(sys.argv[2])):               # an opening shrinks the tree (smoke runs)
        start.play(start.legal_actions()[0])
    for _ in range(int(sys.argv[1])):
        hot.NODES = 0
        started = time.process_time()
        value = hot.negamax(start.clone())
        best = min(best, time.process_time() - started)
    print(json.dumps({"seconds": best, "value": value, "nodes": hot.NODES}))


if __name__ == "__main__":
    main()
'''


def _run_json(argv: list[str], env: dict | None = None) -> dict:
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


def _project_env() -> dict:
    return {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "PYTHONHASHSEED": "0"}


def hot_function_ratio(folder: Path, repeat: int, rounds: int,
                       opening: int = 0) -> tuple[float, float, dict]:
    """Best seconds unbundled, best seconds bundled, and the bundled run's figures."""
    (folder / "hot.py").write_text(_HOT_MODULE)
    (folder / "driver.py").write_text(_DRIVER)
    bundle = folder / "bundled.py"
    bundle.write_text(build_bundle(resolve_entry(str(folder / "driver.py")), strip="never").text)
    plain, bundled, figures = [], [], {}
    for _ in range(rounds):
        plain.append(_run_json([sys.executable, str(folder / "driver.py"), str(repeat),
                                str(opening)],
                               _project_env())["seconds"])
        figures = _run_json([sys.executable, "-I", "-S", str(bundle), str(repeat), str(opening)])
        bundled.append(figures["seconds"])
    return min(plain), min(bundled), figures


def bundle_sizes(games: list[str] | None = None) -> list[tuple[str, int, int, int]]:
    """(GAME/NAME, characters verbatim, characters stripped, modules) of every built-in bot
    (of ``games`` only, when given): the files ``botarena bundle GAME/NAME -o FILE.py`` writes,
    FILE the bot's own (greedy.py, random_bot.py), header and ``Made by:`` line included."""
    sizes = []
    for game in games or game_names():
        for bot in builtin_bots(game):
            entry = resolve_entry(f"{game}/{bot}")
            command = f"botarena bundle {game}/{bot} -o {bot_path(game, bot).name}"
            # each as the command line writes it, with the --strip that makes it in its Made by:
            # line (none where --strip auto, the default, makes it)
            verbatim = build_bundle(entry, strip="never", limit=10**9, command=command)
            if len(verbatim.text) >= CODINGAME_LIMIT:
                verbatim = build_bundle(entry, strip="never", limit=10**9,
                                        command=f"{command} --strip=never")
                stripped = build_bundle(entry, strip="always", limit=10**9, command=command)
            else:
                stripped = build_bundle(entry, strip="always", limit=10**9,
                                        command=f"{command} --strip=always")
            sizes.append((f"{game}/{bot}", len(verbatim.text), len(stripped.text),
                          len(verbatim.modules)))
    return sizes


def size_table(sizes: list[tuple[str, int, int, int]]) -> list[str]:
    """Markdown rows of ``bundle_sizes()``."""
    rows = ["| bundle of | characters, verbatim | stripped | modules |", "|---|---:|---:|---:|"]
    for name, verbatim, stripped, modules in sizes:
        mark = " (auto strips)" if verbatim >= CODINGAME_LIMIT else ""
        rows.append(f"| {name} | {verbatim:,}{mark} | {stripped:,} | {modules} |")
    return rows


def startup_ms(folder: Path, game: str, bot: str, runs: int = 7) -> tuple[float, float]:
    """Median ms from start to exit at the first read (stdin is empty), original and bundled."""
    bundle = folder / f"{bot}.py"
    bundle.write_text(build_bundle(resolve_entry(f"{game}/{bot}")).text)
    variants = ([sys.executable, "-P", "-m", bot_module(game, bot)],
                [sys.executable, "-I", "-S", str(bundle)])
    times: list[list[float]] = [[], []]
    for _ in range(runs):
        for index, argv in enumerate(variants):
            started = time.perf_counter()
            subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=_project_env(),
                           cwd=PROJECT_ROOT if index == 0 else folder)
            times[index].append((time.perf_counter() - started) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="negamax runs per interpreter (best kept)")
    parser.add_argument("--rounds", type=int, default=3, help="interpreters per variant, alternated")
    parser.add_argument("--starts", type=int, default=7, help="start-ups timed per variant (median)")
    parser.add_argument("--opening", type=int, default=0, choices=range(0, 9), metavar="0-8",
                        help="moves played before the negamax (default 0: the whole game tree)")
    parser.add_argument("--game", choices=game_names(), help="sizes of this game's bots only "
                        "(default: every game)")
    parser.add_argument("--sizes", action="store_true", help="print the size table only (no "
                        "timing: the same on every machine; docs/bundling.md shows it)")
    args = parser.parse_args(argv)
    if args.sizes:
        print("\n".join(size_table(bundle_sizes([args.game] if args.game else None))))
        return
    with tempfile.TemporaryDirectory() as folder:
        plain, bundled, figures = hot_function_ratio(Path(folder), args.repeat, args.rounds,
                                                      args.opening)
        print(f"hot function (negamax over tic-tac-toe, {figures['nodes']:,} nodes, value "
              f"{figures['value']}): CPU time unbundled {plain * 1000:.0f} ms, bundled "
              f"{bundled * 1000:.0f} ms, ratio bundled/unbundled {bundled / plain:.3f}")
        sizes = bundle_sizes([args.game] if args.game else None)
        biggest = max(sizes, key=lambda row: row[1])[0]
        game, bot = biggest.split("/")
        original, bundle = startup_ms(Path(folder), game, bot, runs=args.starts)
        print(f"start-up to the first read, {biggest} (the biggest bundle): "
              f"original {original:.0f} ms, bundle {bundle:.0f} ms")
    print("\n".join(size_table(sizes)))


if __name__ == "__main__":
    main()
