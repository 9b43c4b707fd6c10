"""Print the coverage of the suite (bots and CLI subprocesses included) against its targets.

``bash tools/quickstart.sh coverage`` runs it after the suite: the total, then every module
under the per-module floor that is not named below with its reason. Exit 1 when a target is
missed, so CI shows it.
"""
from __future__ import annotations

import json
import sys

TOTAL_TARGET = 90.0
MODULE_FLOOR = 75.0
# modules allowed under the floor, and why
EXCEPTED = {
    # Playwright's sync API runs in a greenlet: coverage's thread tracer loses the lines after
    # the switch (the bench's browser half). concurrency=greenlet sees them (92 %) but makes the
    # whole run ~30 % slower; tests/tools/test_bench.py runs the bench and checks its browser figures.
    "tools/bench/view.py": "its browser half runs past a greenlet switch, which the tracer does not follow",
    # A bot that ignores every signal but SIGKILL and never exits by itself: the harness kills it,
    # so coverage never writes its data (the figure is only what the CLI imports of it).
    # tests/referee/test_process_start.py and `bench escape` check what it does.
    "tools/bench/escaper.py": "a bot that only ever dies by SIGKILL, before coverage saves its data",
}


def main(path: str) -> int:
    data = json.load(open(path))
    total = data["totals"]["percent_covered"]
    low = sorted((info["summary"]["percent_covered"], name) for name, info in data["files"].items()
                 if info["summary"]["percent_covered"] < MODULE_FLOOR)
    print(f"coverage: {total:.1f} % of lines (target >= {TOTAL_TARGET:.0f} %), "
          f"{len(data['files'])} modules, bots and CLI subprocesses included")
    missed = total < TOTAL_TARGET
    for percent, name in low:
        reason = EXCEPTED.get(name)
        print(f"  {name}: {percent:.1f} % (floor {MODULE_FLOOR:.0f} %)"
              + (f": excepted, {reason}" if reason else ""))
        missed |= reason is None
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
