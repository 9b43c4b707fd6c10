"""Answers each line with the same line: the far end of a raw pipe round trip."""
import sys

read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
while True:
    line = read()
    if not line:
        break
    write(line)
    flush()
