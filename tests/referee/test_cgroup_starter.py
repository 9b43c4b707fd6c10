"""referee/harness/cgroup_starter.py: bots made inside their cgroup by clone3(CLONE_INTO_CGROUP) in
a helper process (issue 36.1: no move, so no RCU grace period and no shell at a bot's start), and
the way back to the shell that enters the cgroup wherever the helper cannot do it."""
from __future__ import annotations

import errno
import marshal
import os
import signal
import socket
import threading

import pytest

from referee.harness import cgroup, cgroup_starter, spawn
from referee.harness.process import BotProcess

# The bot's first instructions are the shell's builtins: its cgroup v2 line, then the pid of its
# parent (the harness, as for a bot started by subprocess), both on one line once asked.
FIRST_LINES = ('while IFS= read -r line; do case $line in 0::*) break ;; esac; done '
               '</proc/self/cgroup; read -r stat </proc/self/stat; read -r asked; '
               'set -- ${stat##*)}; echo "$line $2"; exec cat')


@pytest.fixture(autouse=True)
def _made_inside(monkeypatch):
    """The way under test, whatever the default (BOTARENA_CLONE_INTO_CGROUP)."""
    monkeypatch.setattr(spawn, "use_clone_into_cgroup", True)


def _require_the_helper() -> None:
    if cgroup.run_folder() is None:
        pytest.skip("optional: cgroup tests skipped: no cgroup v2 can be created here")
    if not cgroup_starter.available():
        pytest.skip("optional: no clone3 with CLONE_INTO_CGROUP here (the shell is used)")


def test_a_bot_made_by_the_helper_is_in_its_cgroup_and_the_harness_child():
    _require_the_helper()
    for _ in range(3):
        with BotProcess(["/bin/sh", "-c", FIRST_LINES], memory_mb=None) as bot:
            assert isinstance(bot._proc, cgroup_starter.StartedChild)
            line, parent = bot.read_line(bot.send(["?"], 10), 10).line.split()
            assert bot._cgroup is not None and bot._cgroup.path.endswith(line[3:])
            assert int(parent) == os.getpid()
            assert sorted(os.listdir(f"/proc/{bot.pid}/fd")) == ["0", "1", "2"]
            assert os.getsid(bot.pid) == bot.pid


def test_its_exit_code_and_signal_are_the_harness_s_to_wait_for():
    _require_the_helper()
    with BotProcess(["/bin/sh", "-c", "read x; exit 3"], memory_mb=None) as bot:
        bot.send(["go"], 5)
        assert bot._proc.wait(timeout=10) == 3
    with BotProcess(["/bin/sh", "-c", "kill -TERM $$"], memory_mb=None) as bot:
        assert bot._proc.wait(timeout=10) == -signal.SIGTERM
        assert bot._proc.poll() == -signal.SIGTERM


def test_it_ignores_the_signals_a_bot_started_by_subprocess_ignores(monkeypatch):
    """The helper ignores the terminal's signals; its bots do not, unless the harness does (a
    botarena started with SIGINT ignored, as a script's background job is; SIGHUP under nohup).
    Compared with a bot started by subprocess in the same process, so the test holds whatever
    this process was started with."""
    _require_the_helper()

    def masks() -> tuple[int, int]:
        found = []
        for through_the_helper in (True, False):
            monkeypatch.setattr(spawn, "use_clone_into_cgroup", through_the_helper)
            with BotProcess(["cat"], memory_mb=None) as bot:
                bot.read_line(bot.send(["1"], 10), 10)      # it runs its program by now
                found.append(_ignored_mask(bot.pid))
        return found[0], found[1]

    helper_mask, shell_mask = masks()
    assert helper_mask == shell_mask
    real = signal.getsignal
    monkeypatch.setattr(signal, "getsignal", lambda number: signal.SIG_IGN
                        if number == signal.SIGINT else signal.SIG_DFL
                        if number in cgroup_starter._TERMINAL_SIGNALS else real(number))
    helper_mask, _ = masks()
    bits = {number: 1 << (number - 1) for number in cgroup_starter._TERMINAL_SIGNALS}
    assert helper_mask & bits[signal.SIGINT]
    assert not helper_mask & (bits[signal.SIGTERM] | bits[signal.SIGHUP])


def _ignored_mask(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("SigIgn:"):
                return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line")


def test_a_program_that_cannot_be_executed_after_all_exits_127_saying_why(tmp_path):
    """The harness looked the program up first (spawn's one line for what cannot start); one
    gone since is told on the child's stderr, and its exit is the harness's to wait for."""
    _require_the_helper()
    group = cgroup.new_bot_cgroup()
    assert group is not None
    try:
        child = cgroup_starter.start_in_cgroup(["gone"], str(tmp_path / "gone"), {}, str(tmp_path),
                                               group.path)
        assert isinstance(child, cgroup_starter.StartedChild)
        assert child.wait(timeout=10) == 127
        assert child.stdout is not None
        assert child.stderr.read() == f"botarena: cannot run {tmp_path / 'gone'}: No such file " \
                                      "or directory\n".encode()
        assert _zombie_children() == []
        for stream in (child.stdin, child.stdout, child.stderr):
            stream.close()
    finally:
        group.remove()


def test_a_cgroup_the_helper_cannot_open_leaves_the_start_to_the_shell(tmp_path):
    _require_the_helper()
    assert cgroup_starter.start_in_cgroup(["cat"], "/bin/cat", {}, str(tmp_path),
                                          str(tmp_path / "no-such-cgroup")) is None
    assert cgroup_starter.available()           # one bot's cgroup: not a reason to stop


def test_where_clone3_is_refused_bots_start_through_the_shell_still_inside(monkeypatch):
    """A seccomp profile that refuses clone3 (ENOSYS, as Docker's did) or a kernel before 5.7:
    the helper says so once and every bot is started by the shell that enters its cgroup."""
    _require_the_helper()
    monkeypatch.setattr(cgroup_starter, "_channel", None)
    monkeypatch.setattr(cgroup_starter, "_started", False)
    monkeypatch.setattr(cgroup_starter, "_start_helper", _a_helper_refusing_clone3)
    for _ in range(2):
        with BotProcess(["/bin/sh", "-c", FIRST_LINES], memory_mb=None) as bot:
            assert not isinstance(bot._proc, cgroup_starter.StartedChild)
            line, parent = bot.read_line(bot.send(["?"], 10), 10).line.split()
            assert bot._cgroup is not None and bot._cgroup.path.endswith(line[3:])
        assert not cgroup_starter.available()


def _zombie_children() -> list[int]:
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if fields[0] == b"Z" and int(fields[1]) == os.getpid():
            found.append(int(name))
    return found


def _a_helper_refusing_clone3():
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)

    def serve() -> None:
        with theirs:
            while theirs.recv(1 << 20):
                theirs.send(marshal.dumps((0, errno.ENOSYS, "clone")))
    threading.Thread(target=serve, daemon=True).start()
    return ours, None


def test_the_helper_ends_with_its_socket():
    """It exits when the harness is gone: the kernel closes the harness's end of the socket
    whatever ended the harness, even SIGKILL."""
    started = cgroup_starter._start_helper()
    assert started is not None
    channel, helper = started
    try:
        channel.close()
        assert helper.wait(timeout=10) == 0
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
