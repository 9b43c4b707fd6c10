"""Enter a cgroup, cap memory, then exec a command: the first process of a confined run.

``python -I -S enter.py CGROUP_PROCS DATA_BYTES -- ARGV...`` writes its own pid into
``CGROUP_PROCS`` (``-``: no cgroup), sets ``RLIMIT_DATA`` to ``DATA_BYTES`` (``0``: no cap),
and execs ``ARGV`` with the same pid: nothing the command does, from its first instruction,
happens outside the cgroup or above the cap, and every process it starts inherits both.
``RLIMIT_DATA`` (writable private memory: heap and anonymous mappings) works where cgroup v2
has no memory controller, and it lets a JVM reserve its address space. Exit status 125 with one
line when the cgroup cannot be entered, 127 when the command cannot be run.

This file runs as a script (see :mod:`referee.harness.confined`) and imports nothing from
the project.
"""
from __future__ import annotations

import os
import resource
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print("usage: enter.py CGROUP_PROCS DATA_BYTES -- ARGV...", file=sys.stderr)
        return 2
    procs, data_bytes, command = argv[1], int(argv[2]), argv[4:]
    if procs != "-":
        try:
            with open(procs, "w") as handle:
                handle.write("0")               # this process, and all it will start
        except OSError as error:
            print(f"botarena: cannot enter the cgroup {procs}: {error.strerror}", file=sys.stderr)
            return 125
    if data_bytes > 0:
        resource.setrlimit(resource.RLIMIT_DATA, (data_bytes, data_bytes))
    try:
        os.execvp(command[0], command)
    except OSError as error:
        print(f"botarena: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
