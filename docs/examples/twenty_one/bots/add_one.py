# A twenty_one bot in the starters' style: it reads the whole protocol into named variables and
# adds 1, always legal. Protocol: docs/examples/twenty_one/rules.py.
import sys


def read() -> str:
    line = sys.stdin.readline()
    if not line:                # end of input: the game is over, botarena closed stdin
        sys.exit(0)
    return line.strip()


my_id, target = map(int, read().split())
while True:
    total, opponent_last_add = map(int, read().split())
    print("1", flush=True)
