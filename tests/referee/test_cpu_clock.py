"""A timeout says what the bot did with its time, for a bot of many threads too (issue 33: a Java
bot's timeout said `bot used 0 ms CPU` and nothing of its wait for a CPU: only its main thread,
idle in a JVM, was read), and says first when the machine, not the bot, was the cause."""
from __future__ import annotations

import os
import re
import select
import sys

from referee.api import BotFault
from referee.harness import fault_wording as wording
from referee.harness.process import BotProcess

# A bot shaped like a JVM: its main thread waits on a worker, which burns 200 ms of its own CPU
# time, says so on stderr and sleeps.
THREADED = ("import sys, threading, time\nsys.stdin.readline()\n"
            "def burn():\n    while time.thread_time() < 0.2: pass\n"
            "    sys.stderr.write('burned\\n'); sys.stderr.flush(); time.sleep(3600)\n"
            "worker = threading.Thread(target=burn); worker.start(); worker.join()\n")


def _wait_for_stderr(bot: BotProcess, text: bytes) -> None:
    seen = b""
    while text not in seen:
        assert select.select([bot._stderr_fd], [], [], 60)[0], "the bot went silent"
        seen += os.read(bot._stderr_fd, 4096)


def test_a_timeout_counts_the_cpu_of_every_thread_of_the_bot():
    with BotProcess([sys.executable, "-c", THREADED], memory_mb=None) as bot:
        started = bot.send(["go"], 10)
        _wait_for_stderr(bot, b"burned")        # its worker has used 200 ms of CPU by now
        try:
            bot.read_line(started, 0.001)
        except BotFault as fault:
            detail = fault.detail
        else:
            raise AssertionError("the bot answered")
    used = re.search(r"used (\d+) ms CPU", detail)
    assert used is not None and int(used.group(1)) >= 200, detail


def test_an_overloaded_turn_is_said_first():
    overloaded = wording.cpu_use(2.0, 45.0, 0.06, False)
    assert overloaded == " (the machine was overloaded in this turn: the bot waited 45 ms for a " \
                         "CPU; it used 2 ms CPU)"
    assert wording.cpu_use(2.0, 45.0, 0.06, True).endswith(
        "waited 45 ms for a CPU, and was still waiting for one at the deadline; it used 2 ms CPU)")
    assert wording.cpu_use(2.0, 0.0, 0.06, True) == \
        " (the machine was overloaded in this turn: the bot was waiting for a CPU at the " \
        "deadline; it used 2 ms CPU)"
    assert wording.cpu_use(2.0, 3.0, 0.06, False) == " (bot used 2 ms CPU, waited 3 ms for a CPU)"
    detail = wording.no_answer(0.06, b"", overloaded, "; at the deadline it was idle")
    assert detail.index("overloaded") < detail.index("idle")


def test_input_the_bot_has_not_read_yet_is_told():
    """A bot that has not read its input is not idle waiting for more (not asked about
    flushing): the input left in its pipe tells it."""
    with BotProcess([sys.executable, "-c", "import time; time.sleep(3600)"],
                    memory_mb=None) as bot:
        bot.send(["1 2", "3"], 10)
        assert bot._input_unread() == len(b"1 2\n3\n")
