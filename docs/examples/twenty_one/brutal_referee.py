"""Twenty-one's referee in brutaltester's "old mode" (###) protocol, which any language can speak:
botarena drives it from brutaltester.toml (docs/codingame-referees.md walks through it).

botarena sends ``###Seed N`` (the game file asks for it with ``seed_line = true``) and
``###Start 2``; the referee prints ``###Input i`` and the lines for player i, ``###Output i 1`` to
have one line of player i relayed to it, and at the end ``###End`` with the seats by rank, best
first. The protocol has no time limits and no timeouts (botarena keeps the clock and ends the
game on a fault): a wrong answer is the referee's to judge, ranked last. ``--target N`` (21).
"""
from __future__ import annotations

import argparse
import sys

from rules import DEFAULT_TARGET, TwentyOne


def read_line() -> str:
    line = sys.stdin.readline()
    if not line:
        raise SystemExit("twenty_one referee: botarena closed the input mid-game")
    return line.rstrip("\n")


def write(*lines: str) -> None:
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", type=int, default=DEFAULT_TARGET)
    target = parser.parse_args().target
    seed_line, start = read_line(), read_line()
    if not seed_line.startswith("###Seed ") or start != "###Start 2":
        raise SystemExit(f"twenty_one referee: expected ###Seed N and ###Start 2, got "
                         f"{seed_line!r} and {start!r}")
    game = TwentyOne(int(seed_line.split()[1]), target)
    started = [False, False]
    while not game.over:
        seat = game.to_play
        lines = game.turn_lines(seat) if started[seat] else game.init_lines(seat) + game.turn_lines(seat)
        started[seat] = True
        write(f"###Input {seat}", *lines, f"###Output {seat} 1")
        print(game.play(seat, read_line()), file=sys.stderr, flush=True)
    write(f"###End {game.winner} {1 - game.winner}")


if __name__ == "__main__":
    main()
