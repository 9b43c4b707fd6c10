"""The replay viewer's size and speed: a whole xmas_rush game's page (150 turns), its size as played
and with every turn's stderr at the replay's cap (the worst case), the time headless Chromium takes
to open it, and the time one step of the timeline takes (script, style and layout).

Run: ``botarena bench view [--bots random random] [--seed 5] [--keep DIR]``. Targets: page
<= 1.5 MB, open < 1 s, step < 16 ms (one frame at 60 Hz).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

from referee.api import TimeControl
from referee.games import load_game
from referee.match import REPLAY_STDERR_CHARS, play_match
from referee.replay import to_replay
from tools.arena.botspec import resolve_bot
from tools.view.browser import missing
from tools.view.frames import page_data
from tools.view.page import write_page

STEP_SCRIPT = """() => {
  const timeline = window.botarenaTimeline, times = [];
  for (let step = 1; step <= timeline.last; step++) {
    const started = performance.now();
    timeline.go(step);
    document.body.offsetHeight;            // force style and layout into the measure
    times.push(performance.now() - started);
  }
  return times;
}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="botarena bench view", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs=2, default=["random", "random"], metavar="BOT")
    parser.add_argument("--seed", type=int, default=5, help="default 5: random bots play all 150 turns")
    parser.add_argument("--turn-ms", type=int, default=2000, help="the bots' budget (default 2000)")
    parser.add_argument("--keep", metavar="DIR", help="keep the pages here (default: a temporary folder)")
    args = parser.parse_args(argv)
    game = load_game("xmas_rush")
    players = [resolve_bot(game.name, text) for text in args.bots]
    started = time.perf_counter()
    # generous budgets: a busy machine must not cut the game short (the page's size is the point)
    clock = TimeControl(first_turn_ms=20000, turn_ms=args.turn_ms)
    result = play_match(game, players, seed=args.seed, time_control=clock)
    replay = to_replay(result, players, clock)
    print(f"game: xmas_rush {' vs '.join(args.bots)} seed {args.seed}: {result.turns} turns, "
          f"{result.reason} ({time.perf_counter() - started:.1f} s)")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        pages = {"as played": folder / "as_played.html", "stderr at cap": folder / "stderr_at_cap.html"}
        started = time.perf_counter()
        size = write_page(pages["as played"], [page_data(replay, "as_played.json")])
        print(f"page as played: {size / 1e6:.3f} MB (built in {time.perf_counter() - started:.2f} s)")
        for turn in replay["turns"]:
            for seat in turn["seats"]:
                seat["stderr"] = ("[PDATA] iterations = 1234\n" + "x" * 79 + "\n") * \
                    (REPLAY_STDERR_CHARS // 106)
        size = write_page(pages["stderr at cap"], [page_data(replay, "stderr_at_cap.json")])
        print(f"page with every turn's stderr at the {REPLAY_STDERR_CHARS}-char cap: {size / 1e6:.3f} MB "
              "(target <= 1.5 MB)")
        reason = missing()
        if reason:
            print(f"browser figures skipped: {reason}")
            return 0
        _browser_figures(pages)
    return 0


def _browser_figures(pages: dict[str, Path]) -> None:
    from tools.view.browser import Browser
    browser = Browser()
    try:
        for name, path in pages.items():
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(path.as_uri())
            opened = time.perf_counter() - started
            loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
            cpu_before = _browser_cpu_s()
            times = page.evaluate(STEP_SCRIPT)
            cpu_ms = (_browser_cpu_s() - cpu_before) * 1000 / len(times)
            ordered = sorted(times)
            print(f"{name}: open {opened * 1000:.0f} ms (load event at {loaded:.0f} ms; target < 1000); "
                  f"step over {len(times)} steps: mean {statistics.mean(times):.2f} ms, "
                  f"p95 {ordered[int(0.95 * len(ordered))]:.2f} ms, max {ordered[-1]:.2f} ms (target < 16); "
                  f"browser CPU {cpu_ms:.2f} ms a step (the figure a loaded machine leaves honest)")
            if page.errors:
                print(f"{name}: console errors: {page.errors}", file=sys.stderr)
            page.close()
    finally:
        browser.close()


def _browser_cpu_s() -> float:
    """CPU seconds used so far by the browser's processes (this process's descendants)."""
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total


if __name__ == "__main__":
    sys.exit(main())
