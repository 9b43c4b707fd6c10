"""The pipes of a child the benchmarks start with plain ``subprocess.Popen``."""
from __future__ import annotations

import subprocess
from typing import IO


def pipes_of(child: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes]]:
    """(stdin, stdout) of ``child``, started with both as pipes (ValueError otherwise)."""
    if child.stdin is None or child.stdout is None:
        raise ValueError("the child was started without stdin and stdout pipes")
    return child.stdin, child.stdout
