"""A tic-tac-toe bot for the viewer's tests: ``chatty.py [FAULT_ANSWER]``.

Plays the first legal cell, and for each answer writes to stderr a line naming the
answer's number, an HTML injection attempt, and ``[PDATA] iterations = 10 * number``.
Its FAULT_ANSWER-th answer (1-based; default never) is an illegal line full of markup:
a bad_output fault. Stdlib only.
"""
import sys

FAULT = int(sys.argv[1]) if len(sys.argv) > 1 else 0
INJECTION = ('</script><script>window.pwned = 1; document.title = "pwned"</script>'
             '<img src=x onerror="window.pwned = 2">')


def main():
    number = 0
    while True:
        first = sys.stdin.readline()
        if not first:
            return
        cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
        number += 1
        sys.stderr.write(f"answer {number} thinking {INJECTION}\n[PDATA] iterations = {10 * number}\n")
        sys.stderr.flush()
        line = '<b onmouseover="window.pwned = 3">9 9</b>' if number == FAULT else cells[0]
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


main()
