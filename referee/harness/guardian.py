"""A small process that ends every bot when the harness dies, however it dies (even SIGKILL).

Started once per harness process (:func:`start`), it reads a pipe whose only
writer is the harness: ``+PGID`` when a bot starts, ``-PGID`` when it is gone;
``@FOLDER`` and ``!FOLDER`` for a sandboxed bot's temporary working folder
(and a compile's folder, see :mod:`referee.harness.confined`).
When the pipe reaches end of file (the harness exited or was killed, since the
kernel closes its descriptors either way) it SIGKILLs the bot groups still
listed, writes ``cgroup.kill`` in the run's cgroup folder (which also ends the
bots' escaped children, see :mod:`referee.harness.cgroup`), kills every process that
carries the harness's environment marker, removes the cgroup folder and the bots'
temporary folders still listed, and exits.

Why not ``PR_SET_PDEATHSIG`` in each bot: setting it needs code in the child
between fork and exec. A ``preexec_fn`` makes ``subprocess`` use fork instead of
vfork (measured: +3.5 ms per bot with a small harness, +25 ms at 300 MB resident,
and it is unsafe with threads), and an exec shim such as ``setpriv --pdeathsig``
costs one more exec (+3 ms here); a bot's own pdeathsig is also not inherited by
its children, so escapees would survive anyway. This costs one short pipe write
per bot. (``--sandbox`` bots also get bubblewrap's ``--die-with-parent``.)

This file runs as a script (``python -I -S guardian.py HARNESS_PID CGROUP_FOLDER``)
and imports nothing from the project.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

_pipe_lock = threading.Lock()
_writer: int | None = None
_started = False


def start(cgroup_folder: str | None) -> None:
    """Start this harness process's guardian (once; silently nothing where it cannot start)."""
    global _writer, _started
    with _pipe_lock:
        if _started:
            return
        _started = True
        reader, writer = os.pipe()
        try:
            subprocess.Popen([sys.executable, "-I", "-S", os.path.abspath(__file__),
                              str(os.getpid()), cgroup_folder or ""], stdin=reader,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
                             process_group=0)
        except OSError:
            os.close(writer)
            return
        finally:
            os.close(reader)
        _writer = writer


def _tell(text: str) -> None:
    global _writer
    with _pipe_lock:
        if _writer is None:
            return
        try:
            os.write(_writer, text.encode())
        except OSError:                     # the guardian is gone: nothing more to tell it
            os.close(_writer)
            _writer = None


def watch(group: int) -> None:
    """A bot's process group to kill if the harness dies."""
    _tell(f"+{group}\n")


def forget(group: int) -> None:
    """The bot's group is gone: do not kill that number later (it may be reused)."""
    _tell(f"-{group}\n")


def watch_folder(path: str) -> None:
    """A bot's temporary working folder (``botarena-bot-*``), a compile's (``.build-*``) or
    ``bundle --check``'s (``botarena-check-*``) to remove if the harness dies."""
    _tell(f"@{path}\n")


def forget_folder(path: str) -> None:
    """The folder was removed with its bot."""
    _tell(f"!{path}\n")


def stop() -> None:
    """The harness is exiting normally: let the guardian clean up and end now."""
    global _writer
    with _pipe_lock:
        if _writer is not None:
            os.close(_writer)
            _writer = None


# -- the guardian process ---------------------------------------------------------------------

FOLDER_PREFIX = "botarena-bot-"


def make_watched_folder(parent: str, prefix: str) -> str:
    """A new private folder (0700) in ``parent``, named to the guardian before it is made (told
    first, made second): a harness killed at any moment leaves nothing behind. FileExistsError
    when 100 random names are all taken."""
    for _ in range(100):
        path = os.path.join(os.path.abspath(parent), prefix + os.urandom(6).hex())   # as secrets.token_hex(6)
        watch_folder(path)
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            forget_folder(path)                 # someone else's: never to be removed
        except OSError:
            forget_folder(path)
            raise
    raise FileExistsError(f"cannot make a folder in {parent}: 100 names taken")
BUILD_PREFIX = ".build-"            # a compile's folder in the compile cache (tools.languages.build)
CHECK_PREFIX = "botarena-check-"    # bundle --check's folder for the bundle it plays


def _read_listed() -> tuple[set[int], set[str]]:
    """The bot groups and the temporary folders still listed at the pipe's end."""
    groups: set[int] = set()
    folders: set[str] = set()
    pending = b""
    while True:
        try:
            chunk = os.read(0, 65536)
        except InterruptedError:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            return groups, folders
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            if line[:1] in (b"@", b"!"):
                path = os.fsdecode(line[1:])
                if line[:1] == b"@":
                    folders.add(path)
                else:
                    folders.discard(path)
                continue
            try:
                number = int(line[1:])
            except ValueError:
                continue
            if line[:1] == b"+":
                groups.add(number)
            else:
                groups.discard(number)


def _kill_marked(harness_pid: str) -> int:
    """SIGKILL every process that carries the harness's bot marker; how many were found."""
    needle = f"BOTARENA_BOT={harness_pid}.".encode()
    found = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                marked = needle in handle.read()
        except OSError:
            continue
        if marked:
            found += 1
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass
    return found


def _kill_cgroups(folder: str) -> None:
    if not folder or not os.path.isdir(folder):
        return
    try:
        with open(f"{folder}/cgroup.kill", "w") as handle:
            handle.write("1")                   # the whole subtree: every bot cgroup in it
    except OSError:
        pass
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            for name in os.listdir(folder):
                if name.startswith("bot."):
                    os.rmdir(f"{folder}/{name}")
            os.rmdir(folder)
            return
        except FileNotFoundError:
            if not os.path.isdir(folder):
                return                          # removed meanwhile (the harness's own exit)
        except OSError:
            time.sleep(0.01)                    # still populated for a moment after the kill


def main(argv: list[str]) -> None:
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_IGN)   # only the end of the pipe ends the guardian
    harness_pid, folder = argv[1], argv[2] if len(argv) > 2 else ""
    groups, folders = _read_listed()
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    _kill_cgroups(folder)
    if os.path.isdir("/proc/self"):
        for _ in range(5):                      # children forked while we were killing
            if not _kill_marked(harness_pid):
                break
    for path in folders:                        # only what the harness made, nothing else
        name = os.path.basename(path)
        if os.path.isabs(path) and name.startswith((FOLDER_PREFIX, BUILD_PREFIX, CHECK_PREFIX)):
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv)
