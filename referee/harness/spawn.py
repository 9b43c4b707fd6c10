"""Starting a bot's process: the fast spawn path, the sandbox, and one line when it cannot start.

The bot starts through ``subprocess`` with nothing that runs Python between fork and exec (no
``preexec_fn``), so ``subprocess`` keeps its vfork/exec path: ~1 ms here against +3.5 ms (and
+25 ms for a harness of 300 MB) for a fork, see ``botarena bench spawn``. Its process group is
``process_group=0``, its resource limits are set on its pid afterwards (``BotProcess``), and it
inherits no descriptor but its three pipe ends (``close_fds``; every pipe is close-on-exec).
"""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
from typing import NamedTuple

from referee.harness import sandbox
from referee.api import UsageError


class BotStartError(UsageError):
    """A bot command cannot be started at all (missing file, no run bit, unknown program)."""


class StartedBot(NamedTuple):
    process: subprocess.Popen
    bot_pid: int | None                 # the bot's own pid under bwrap (None: ``process`` is it)
    own_folder: str | None              # a temporary working folder to remove at the end


def start_bot(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
              sandboxed: bool) -> StartedBot:
    """Start ``argv`` with three pipes, in a process group of its own (under bwrap if sandboxed)."""
    if not argv or not argv[0]:
        raise BotStartError(f"cannot start bot {name!r}: empty command")
    if sandboxed:
        return _start_sandboxed(argv, name, cwd, environment)
    return StartedBot(_popen(argv, name, cwd, environment), None, None)


def _start_sandboxed(argv: list[str], name: str, cwd: str | None,
                     environment: dict[str, str]) -> StartedBot:
    own_folder = None if cwd is not None else tempfile.mkdtemp(prefix="botarena-bot-")
    folder = os.path.abspath(cwd or own_folder)
    reader, writer = os.pipe()
    try:
        wrapped = sandbox.sandboxed_argv(argv, folder, writer)
        process = sandbox.spawner.run(lambda: _popen(wrapped, name, None, environment, (writer,)))
    except BaseException:
        os.close(reader)
        if own_folder is not None:
            shutil.rmtree(own_folder, ignore_errors=True)
        raise
    finally:
        os.close(writer)
    try:
        return StartedBot(process, sandbox.read_child_pid(reader), own_folder)
    finally:
        os.close(reader)


def _popen(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
           pass_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    program = argv[0]
    try:
        return subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, cwd=cwd, env=environment, process_group=0, close_fds=True,
            pass_fds=pass_fds)
    except FileNotFoundError:
        if os.sep in program and os.path.isfile(program):
            raise BotStartError(f"cannot start bot {name!r}: the interpreter on the #! line "
                                f"of {program!r} was not found (fix that line, or run the file "
                                "through its interpreter)") from None
        if cwd is not None and not os.path.isdir(cwd):
            raise BotStartError(f"cannot start bot {name!r}: no directory {cwd!r}") from None
        raise BotStartError(f"cannot start bot {name!r}: {program!r} not found "
                            "(check the path, or give a built-in bot's name)") from None
    except PermissionError:
        if os.path.isdir(program):
            raise BotStartError(f"cannot start bot {name!r}: {program!r} is a directory "
                                "(give the bot's program in it)") from None
        raise BotStartError(f"cannot start bot {name!r}: {program!r} is not executable "
                            f"(chmod +x {program}, or run it through its interpreter)") from None
    except OSError as error:
        hint = (" (no #! line? run it through its interpreter, e.g. 'python3 FILE')"
                if error.errno == errno.ENOEXEC else "")
        raise BotStartError(f"cannot start bot {name!r}: {error.strerror} "
                            f"({program!r}){hint}") from None
