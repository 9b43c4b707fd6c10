# A twenty_one bot in the starters' style that plays perfectly: it leaves the opponent a
# distance to the target that is a multiple of 4 whenever it can (then every add the opponent
# makes, it completes to 4), else adds 1 and waits for a mistake.
# Protocol: docs/examples/twenty_one/rules.py.
import sys


def read() -> str:
    line = sys.stdin.readline()
    if not line:                # end of input: the game is over, botarena closed stdin
        sys.exit(0)
    return line.strip()


my_id, target = map(int, read().split())
while True:
    total, opponent_last_add = map(int, read().split())
    add = (target - total) % 4
    print(add if add else 1, flush=True)
    print(f"total {total}, the opponent added {opponent_last_add}", file=sys.stderr)
