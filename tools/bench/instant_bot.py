"""An xmas_rush bot that answers at once, for the throughput bench: stdlib only, no search.

It reads each whole input block, then pushes a line (seat 0, found by its start corner, cycles
through the rows, seat 1 through the columns, so no two pushes collide and games run their 150
turns) or passes on MOVE turns. What is left of a game is the referee's own work.
"""
import sys

DIRECTIONS = ("RIGHT", "LEFT", "UP", "DOWN")


def main() -> None:
    read = sys.stdin.readline
    write, flush = sys.stdout.write, sys.stdout.flush
    turn = 0
    rows = None
    while True:
        turn_type = read()
        if not turn_type:
            return
        for _ in range(7):
            read()
        me = read().split()
        read()
        for _ in range(int(read())):
            read()
        for _ in range(int(read())):
            read()
        if rows is None:
            rows = me[1:3] == ["0", "0"]
        if turn_type.strip() == "0":
            index = turn % 7
            direction = DIRECTIONS[(turn // 7) % 2 + (0 if rows else 2)]
            write(f"PUSH {index} {direction}\n")
            turn += 1
        else:
            write("PASS\n")
        flush()


if __name__ == "__main__":
    main()
