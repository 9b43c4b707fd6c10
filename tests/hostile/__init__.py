"""Hostile bots (``bot.py MODE``), a pipe echo (``echo.py``), and a check for surviving bot processes."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import psutil

HOSTILE = Path(__file__).resolve().parent / "bot.py"
ECHO = Path(__file__).resolve().parent / "echo.py"


def hostile_argv(mode: str, turn: int = 2) -> tuple[str, ...]:
    return (sys.executable, str(HOSTILE), mode, str(turn))


def bot_processes_of(harness_pid: int) -> list[psutil.Process]:
    """Live processes (not zombies) started by bots of the harness process ``harness_pid``.

    Every bot and each process it spawns carries BOTARENA_BOT=<harness pid>.<n>.
    """
    needle = f"BOTARENA_BOT={harness_pid}."
    found = []
    for process in psutil.process_iter():
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
            if process.environ().get("BOTARENA_BOT", "").startswith(needle[len("BOTARENA_BOT="):]):
                found.append(process)
        except psutil.Error:
            continue
    return found


def zombie_children() -> list[psutil.Process]:
    """Our own children that nobody reaped."""
    found = []
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                found.append(child)
        except psutil.Error:
            continue
    return found


def wait_until_gone(harness_pid: int, timeout_s: float) -> tuple[list[psutil.Process], float]:
    """(bot processes still alive after ``timeout_s``, seconds it took them to go)."""
    started = time.monotonic()
    while True:
        left = bot_processes_of(harness_pid)
        elapsed = time.monotonic() - started
        if not left or elapsed > timeout_s:
            return left, elapsed
        time.sleep(0.02)
