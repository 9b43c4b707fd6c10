"""No bot process outlives its game, whatever it does and whatever happens to botarena; the
deadline is the deadline; bots cannot reach into the harness or each other through /proc."""
from __future__ import annotations

import ctypes
import os
import select
import signal
import subprocess
import sys
import threading
import time
import uuid

import psutil
import pytest

from referee.api import Fault
from referee.harness import answer_pipe, arrival, cgroup, process
from referee.harness.process import BotFault, BotProcess
from tests.conftest import ROOT
from tests.fixtures.hostile import (
    ECHO,
    HOSTILE,
    bot_processes_of,
    escaper_command,
    hostile_argv,
    wait_until_gone,
)

HANGS = f"{HOSTILE} hang_ignore_term 1"


def _token() -> str:
    return f"escapee-{uuid.uuid4().hex[:12]}"


def _with_token(token: str) -> list[psutil.Process]:
    """Live processes anywhere whose command line carries ``token`` (escapees are re-parented)."""
    found = []
    for candidate in psutil.process_iter(["cmdline"]):
        try:
            if token in (candidate.info["cmdline"] or []) and \
                    candidate.status() != psutil.STATUS_ZOMBIE:
                found.append(candidate)
        except psutil.Error:
            continue
    return found


def _wait_for(condition, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _kill_left(processes: list[psutil.Process]) -> None:
    for leftover in processes:
        try:
            leftover.kill()
        except psutil.Error:
            pass


def _start_cli(*args: str, sigint_ignored: bool = False) -> subprocess.Popen:
    """``botarena ARGS``; with ``sigint_ignored`` as a background job of a non-interactive shell
    starts it: SIGINT set to SIG_IGN before exec, so Python installs no handler of its own."""
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    return subprocess.Popen([sys.executable, "-m", "tools.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ignore)


def _require_cgroups() -> None:
    if cgroup.run_folder() is None:
        pytest.skip("optional: cgroup tests skipped: no cgroup v2 can be created here (needs a "
                    "cgroup2 mount and root or a delegated subtree, and no BOTARENA_NO_CGROUP); "
                    "escapes that leave the group and environment are not caught without one")


# -- 1. escapes, SIGKILL, SIGHUP ----------------------------------------------------------------

def test_children_that_leave_the_group_and_environment_die_with_the_game():
    _require_cgroups()
    token = _token()
    done = subprocess.run([sys.executable, "-m", "tools.cli", "play", "tictactoe",
                           escaper_command("play", token), f"{HOSTILE} good", "--seed", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    try:
        assert done.returncode == 0, done.stderr
        assert "three in a row" in done.stdout or "wins" in done.stdout
        assert _wait_for(lambda: not _with_token(token), 5), "escapees outlived the game"
    finally:
        _kill_left(_with_token(token))


@pytest.mark.parametrize("first_bot", ["good", "escape"])
def test_bots_and_their_escapes_die_when_the_harness_is_sigkilled(first_bot):
    """A bot spinning at 100 % CPU that ignores end of input (and, with a cgroup, the escapees of
    the other bot) are gone once botarena is SIGKILLed."""
    if first_bot == "escape":
        _require_cgroups()
    token = _token()
    first = escaper_command("play", token) if first_bot == "escape" else f"{HOSTILE} good 1 {token}"
    cli = _start_cli("play", "tictactoe", first, f"{HOSTILE} spin 1 {token}",
                     "--first-turn-ms", "60000", "--seed", "1")
    try:
        expected = 4 if first_bot == "escape" else 2    # the bots, and the escapees
        assert _wait_for(lambda: len(_with_token(token)) >= expected or cli.poll() is not None), \
            "the bots never started"
        spinning = [bot for bot in bot_processes_of(cli.pid) if "spin" in bot.cmdline()]
        assert spinning and cli.poll() is None, cli.communicate()
        cli.kill()
        cli.wait()
        assert _wait_for(lambda: not _with_token(token), 10), \
            f"left after SIGKILL of botarena: {_with_token(token)}"
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
        _kill_left(_with_token(token))


def test_without_a_cgroup_the_process_search_still_ends_the_tree(monkeypatch):
    """The fallback where no cgroup can be created: group, descendants, sessions, marker."""
    monkeypatch.setattr(cgroup, "new_bot_cgroup", lambda: None)
    bot = BotProcess(list(hostile_argv("children")), memory_mb=None)
    assert bot._cgroup is None
    started = bot.send(["-1 -1", "1", "0 0"], 3)
    assert bot.read_line(started, 3).line == "0 0"
    # the bot, a child, a setsid child, a daemon
    assert _wait_for(lambda: len(bot_processes_of(os.getpid())) >= 4, 10)
    bot.close()
    assert bot_processes_of(os.getpid()) == []


def test_children_forked_before_the_bot_is_moved_into_its_cgroup_die_with_it(monkeypatch):
    """The older way, still used for a program the shell cannot start as exec does (a binfmt_misc
    format): the bot is moved in after it started. Under load the harness's thread may wait for a
    CPU in between, and the bot forks meanwhile: those children stay outside the cgroup. Here the
    move waits until the bot has forked its child, setsid child and daemon (the bug: close()
    killed the cgroup and the bot's group only, and the setsid child and the daemon lived on)."""
    _require_cgroups()
    monkeypatch.setattr(process, "_ENTER_AT_START", False)
    real = cgroup.bot_cgroup
    def late(pid, marker=b"", into=None):
        _wait_for(lambda: len(bot_processes_of(os.getpid())) >= 4, 10)
        return real(pid, marker, into)
    monkeypatch.setattr(cgroup, "bot_cgroup", late)
    bot = BotProcess(list(hostile_argv("children")), memory_mb=None)
    try:
        assert bot._cgroup is not None and bot._cgroup.early
        started = bot.send(["-1 -1", "1", "0 0"], 3)
        assert bot.read_line(started, 3).line == "0 0"
        bot.close()
        assert bot_processes_of(os.getpid()) == []
    finally:
        _kill_left(bot_processes_of(os.getpid()))


def test_the_game_does_not_wait_for_the_move_into_the_cgroup(monkeypatch):
    """The older way (see above): the kernel's first cgroup move after a quiet spell waits for an
    RCU grace period (8-28 ms measured), so a bot started outside is moved by a thread of its own
    while the game writes its input and reads its answer. Here the move is held until the bot
    has answered (the bug: the constructor itself moved the bot, so the game could not start
    until the move was done), and the bot's end still goes through its cgroup, the move then
    done."""
    _require_cgroups()
    monkeypatch.setattr(process, "_ENTER_AT_START", False)
    real, answered, moved = cgroup.bot_cgroup, threading.Event(), []
    def held(pid, marker=b"", into=None):
        assert answered.wait(10), "the game waited for the move"
        moved.append(real(pid, marker, into))
        return moved[-1]
    monkeypatch.setattr(cgroup, "bot_cgroup", held)
    bot = BotProcess([sys.executable, str(ECHO)], memory_mb=None)
    try:
        started = bot.send(["ping"], 5)
        assert bot.read_line(started, 5).line == "ping"
        answered.set()
        assert bot._cgroup is not None and bot._cgroup is moved[0]
        assert bot._cgroup.pids() == [bot.pid]
    finally:
        answered.set()
        bot.close()
    assert bot_processes_of(os.getpid()) == []


def test_a_bot_moved_at_once_is_not_marked_early_by_processes_of_others():
    """Processes that other games started meanwhile are not the bot's (no marker, not its
    children): they are neither moved into its cgroup nor make its end slower."""
    _require_cgroups()
    others = [subprocess.Popen(["sleep", "30"]) for _ in range(3)]
    try:
        real_last_pid = cgroup._last_pid
        with BotProcess([sys.executable, str(ECHO)], memory_mb=None) as bot:
            assert bot._cgroup is not None and not bot._cgroup.early
        assert cgroup._started_before_the_move(others[0].pid - 1, b"BOTARENA_BOT=0.0") == []
        assert real_last_pid() >= others[-1].pid or real_last_pid() < others[0].pid
        assert all(other.poll() is None for other in others)
    finally:
        for other in others:
            other.kill()
            other.wait()


@pytest.mark.parametrize("why", ["no cgroup2 mount", "BOTARENA_NO_CGROUP"])
def test_no_cgroup_where_none_can_be_made_or_when_opted_out(monkeypatch, why):
    if why == "BOTARENA_NO_CGROUP":
        monkeypatch.setenv("BOTARENA_NO_CGROUP", "1")
    else:
        monkeypatch.setattr(cgroup, "_cgroup2_mount", lambda: None)
    monkeypatch.setattr(cgroup, "_run_folder", None)
    monkeypatch.setattr(cgroup, "_unavailable", False)
    assert cgroup.run_folder() is None and cgroup.bot_cgroup(os.getpid()) is None


def test_the_cgroup_folder_of_a_harness_that_is_gone_is_removed_by_the_next(monkeypatch):
    """A run folder left behind (its harness and guardian both killed) does not pile up."""
    _require_cgroups()
    parent = os.path.dirname(cgroup.run_folder())
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = f"{parent}/botarena.{gone.pid}"
    os.makedirs(f"{stale}/bot.1")
    try:
        monkeypatch.setattr(cgroup, "_run_folder", None)
        assert cgroup.run_folder() is not None
        assert not os.path.exists(stale)
    finally:
        for path in (f"{stale}/bot.1", stale):
            if os.path.exists(path):
                os.rmdir(path)


STOPS = {"play": ["play", "tictactoe", f"{HOSTILE} children", HANGS],
         "match": ["match", "tictactoe", f"{HOSTILE} children", HANGS, "-n", "4", "--jobs", "1",
                   "--quiet"]}


@pytest.mark.parametrize("command, signum, sigint_ignored", [
    ("play", signal.SIGHUP, False), ("match", signal.SIGHUP, False),
    ("play", signal.SIGINT, True), ("match", signal.SIGINT, True)])
def test_sighup_and_an_ignored_sigint_at_start_stop_like_sigterm(tmp_path, command, signum,
                                                                  sigint_ignored):
    args = STOPS[command] + ["--first-turn-ms", "60000"]
    if command == "match":
        args += ["--out", str(tmp_path / "results.jsonl")]
    cli = _start_cli(*args, sigint_ignored=sigint_ignored)
    try:
        assert _wait_for(lambda: len(bot_processes_of(cli.pid)) >= 5 or cli.poll() is not None)
        assert cli.poll() is None, cli.communicate()
        time.sleep(0.2)
        cli.send_signal(signum)
        left, took = wait_until_gone(cli.pid, 5)
        assert left == [], f"still running {took:.1f} s after {signum.name}: {left}"
        stdout, stderr = cli.communicate(timeout=30)
        assert cli.returncode == 130, stderr
        assert "Traceback" not in stderr
        if command == "match":
            assert "interrupted:" in stdout and "run the same command again to resume" in stdout
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.communicate()
        _kill_left(bot_processes_of(cli.pid))


# -- 2. what a bot can reach ----------------------------------------------------------------------

def test_the_harness_is_not_dumpable_once_it_runs_a_bot():
    with BotProcess([sys.executable, str(ECHO)], memory_mb=None):
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        assert prctl(3, 0, 0, 0, 0) == 0        # PR_GET_DUMPABLE: /proc/<pid>/mem, fd, environ shut


def test_a_bot_holds_only_its_own_three_pipe_ends():
    """Bots started at once from several threads (as --jobs games do) inherit no descriptor of
    another bot (close_fds, and every pipe made close-on-exec)."""
    bots: list[BotProcess] = []
    lock = threading.Lock()

    def start() -> None:
        bot = BotProcess([sys.executable, str(ECHO)], memory_mb=None)
        with lock:
            bots.append(bot)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        for bot in bots:
            assert bot.read_line(bot.send(["ping"], 10), 10).line == "ping"
            assert sorted(os.listdir(f"/proc/{bot.pid}/fd")) == ["0", "1", "2"]
    finally:
        for bot in bots:
            bot.close()


# -- 7. the deadline is the deadline ---------------------------------------------------------------

# Echoes its first line at once, its second line after a delay.
LATE_ECHO = ("import sys, time\nsys.stdout.write(sys.stdin.readline()); sys.stdout.flush()\n"
             "line = sys.stdin.readline()\ntime.sleep(float(sys.argv[1]))\n"
             "sys.stdout.write(line); sys.stdout.flush()\nsys.stdin.readline()\n")


class _RecordedWaits:
    """Every wait the harness asks for, as (its clock's last reading, seconds), passed through."""

    def __init__(self, poller):
        self.poller, self.waits, self.last_reading = poller, [], 0.0

    def clock(self) -> float:
        self.last_reading = time.perf_counter()
        return self.last_reading

    def poll(self, timeout_ms=None):
        if timeout_ms:
            self.waits.append((self.last_reading, timeout_ms / 1000))
        return self.poller.poll(timeout_ms)

    def select(self, read, write, error, timeout_s):
        self.waits.append((self.last_reading, timeout_s))
        return _real_select(read, write, error, timeout_s)

    def __getattr__(self, name):
        return getattr(self.poller, name)


_real_select = select.select


def test_no_wait_for_an_answer_ends_past_the_deadline(monkeypatch):
    """A bot answers 0.5 ms after the deadline (counted from when it read its input, so later
    still on the harness's clock): no wait the harness asks for ends after the deadline, so the
    answer is a timeout unless the harness itself is woken late by an overloaded machine (then
    the answer counts, by design). It used to poll remaining + 0.5 ms, rounded up to whole ms,
    and accepted answers up to ~1.5 ms late: the check on the waits catches that under any load."""
    timeout_s = 0.030
    with BotProcess([sys.executable, "-c", LATE_ECHO, str(timeout_s + 0.0005)],
                    memory_mb=None) as bot:
        assert bot.read_line(bot.send(["ready?"], 10), 10).line == "ready?"     # started up
        recorder = _RecordedWaits(bot._poll_out)
        monkeypatch.setattr(bot, "_poll_out", recorder)
        monkeypatch.setattr(answer_pipe.select, "select", recorder.select)
        monkeypatch.setattr(process, "_now", recorder.clock)            # send's clock
        monkeypatch.setattr(answer_pipe, "_now", recorder.clock)        # read_line's
        started = bot.send(["ping"], 1)
        try:
            answer = bot.read_line(started, timeout_s)
        except BotFault as fault:
            assert fault.kind is Fault.TIMEOUT
        else:       # only when the harness itself woke late (load) and found the answer there
            assert answer.latency_ms > timeout_s * 1000
        monkeypatch.undo()
        assert recorder.waits, "the harness waited"
        latest_end = max(asked + seconds for asked, seconds in recorder.waits)
        assert latest_end <= started + timeout_s + 1e-9, \
            f"a wait ended {(latest_end - started - timeout_s) * 1000:.2f} ms past the deadline"


class _Clock:
    """perf_counter as the harness reads it: when it looks for the answer, then when it is done."""

    def __init__(self, looked_at: float, done_at: float):
        self.readings = [looked_at]
        self.done_at = done_at

    def __call__(self) -> float:
        return self.readings.pop(0) if self.readings else self.done_at


def test_an_answer_there_before_the_deadline_counts_when_an_overloaded_harness_reads_it_late(
        monkeypatch):
    """The answer is in the pipe when the harness looks, 0.5 ms before the deadline; the harness
    (starved of CPU) finishes reading it 0.5 ms after: the bot is not blamed, since the kernel
    says it was written 1 ms after its input (its latency: at most the stamp's window after)."""
    timeout_s, started = 0.030, 1000.0
    with BotProcess([sys.executable, str(ECHO)], memory_mb=None) as bot:
        bot.send(["ping"], 1)
        waiting = select.poll()
        waiting.register(bot._stdout_fd, select.POLLIN)
        assert waiting.poll(10_000), "the echo bot did not answer"
        deadline = started + timeout_s
        monkeypatch.setattr(answer_pipe, "_now", _Clock(deadline - 0.0005, deadline + 0.0005))
        monkeypatch.setattr(arrival, "written_at", lambda fd: started + 0.001)
        answer = bot.read_line(started, timeout_s)
        assert answer.line == "ping" and not answer.timing_uncertain
        assert answer.latency_ms == pytest.approx((0.001 + arrival.WINDOW_S) * 1000)


@pytest.mark.parametrize("how", ["at once", "in two writes"])
def test_a_line_ended_by_cr_lf_is_read_without_the_cr(how):
    """A bot written on Windows ends its lines with \\r\\n; the answer is the line without it,
    whether it arrives in one read (the usual path) or in pieces (the buffered path)."""
    split = "w('pi'); f(); time.sleep(0.05); " if how == "in two writes" else ""
    code = ("import sys, time\nw, f = sys.stdout.write, sys.stdout.flush\n"
            "for line in sys.stdin:\n"
            f"    {split}w('{'ng' if split else 'ping'}\\r\\n'); f()\n")
    with BotProcess([sys.executable, "-c", code], memory_mb=None) as bot:
        for _ in range(2):
            assert bot.read_line(bot.send(["x"], 5), 5).line == "ping"
