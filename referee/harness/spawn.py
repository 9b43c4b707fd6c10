"""Starting a bot's process: in its own session and cgroup from its first instruction, the
sandbox, and one line when it cannot start.

The bot starts through ``subprocess`` with nothing that runs Python between fork and exec (no
``preexec_fn``), so ``subprocess`` keeps its vfork/exec path: ~1 ms here against +3.5 ms (and
+25 ms for a harness of 300 MB) for a fork, see ``botarena bench spawn``. The child calls
``setsid`` (``start_new_session``): the bot leads a session and a process group of its own and
has no controlling terminal, so it cannot open ``/dev/tty``, write over botarena's output or
push keystrokes into the user's shell (TIOCSTI). Its resource limits are set on its pid
afterwards (``BotProcess``), and it inherits no descriptor but its three pipe ends
(``close_fds``; every pipe is close-on-exec).

Where the bot has a cgroup (``referee.harness.cgroup``) and ``BOTARENA_CLONE_INTO_CGROUP=1`` is
set, it is made inside it: the helper of :mod:`referee.harness.cgroup_starter` creates it there
with ``clone3(CLONE_INTO_CGROUP)`` (the same session, pipes and signals as above; the bot is
still this process's child), so it never moves and its start waits for no RCU grace period (but
whole matches measured slower that way under load, cause not found: see docs/benchmarks.md).
By default, and where the helper cannot (no ``clone3``, a kernel before 5.7), the child execs a
shell first, which writes its own pid into the cgroup's
``cgroup.procs`` and then execs the bot (the same pid, now inside): one exec of a small shell
(~0.5 ms) and the kernel's wait when it moves the process (see ``cgroup``). Either way nothing
the bot does, from its first instruction, happens outside its cgroup. The shell's ``exec``
differs from the kernel's in one way: it runs a file that is not a program as a shell script,
and its errors are its own lines. So the bot's program is looked up first, as ``exec`` would
find it (the path the helper execs), and a command that cannot start gets the same one line as
before; a program that is neither ELF nor ``#!`` (a ``binfmt_misc`` format) is started directly
and moved in after it started, as before (a moment outside).
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import tempfile
from typing import NamedTuple

from referee.api import UsageError
from referee.harness import cgroup_starter, guardian, sandbox

SHELL = "/bin/sh"
# $1 the cgroup.procs to enter, $2 "=value" or "-": the PWD the bot's environment had (the shell
# sets one when it starts, and it would reach the bot); then the bot's argv.
ENTER_CGROUP = ('echo 0 2>/dev/null >"$1" || { echo "botarena: cannot enter the bot\'s cgroup '
                '$1 (set BOTARENA_NO_CGROUP=1 to run bots without cgroups)" >&2; exit 125; }; '
                'case $2 in =*) PWD=${2#=} ;; *) unset PWD ;; esac; shift 2; exec "$@"')
_BINPRM_BYTES = 256             # what the kernel reads of a file to tell its format
# Made inside by clone3 only when asked (BOTARENA_CLONE_INTO_CGROUP=1): its start waits for no
# grace period, but whole matches measured slower with it at load 17-27 (docs/benchmarks.md).
use_clone_into_cgroup = os.environ.get("BOTARENA_CLONE_INTO_CGROUP") == "1"


class BotStartError(UsageError):
    """A bot command cannot be started at all (missing file, no run bit, unknown program)."""


class StartedBot(NamedTuple):
    process: subprocess.Popen[bytes] | cgroup_starter.StartedChild
    bot_pid: int | None                 # the bot's own pid under bwrap (None: ``process`` is it)
    own_folder: str | None              # a temporary working folder to remove at the end
    in_cgroup: bool                     # started inside the cgroup given (False: move it now)


def start_bot(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
              sandboxed: bool, cgroup_procs: str | None = None,
              stdout: int = subprocess.PIPE) -> StartedBot:
    """Start ``argv`` with pipes on stdin and stderr and ``stdout`` (a new pipe, or the writing
    end of one given: see ``arrival``), in a session of its own (under bwrap if sandboxed),
    inside the cgroup whose ``cgroup.procs`` is ``cgroup_procs`` where that is given."""
    if not argv or not argv[0]:
        raise BotStartError(f"cannot start bot {name!r}: empty command")
    if sandboxed:
        return _start_sandboxed(argv, name, cwd, environment, cgroup_procs, stdout)
    program = None if cgroup_procs is None else _check_program(argv[0], name, cwd, environment)
    if cgroup_procs is not None and program is not None:
        if use_clone_into_cgroup:
            folder = os.getcwd() if cwd is None else os.path.abspath(cwd)   # the helper's differs
            child = cgroup_starter.start_in_cgroup(argv, program, environment, folder,
                                                   os.path.dirname(cgroup_procs), stdout)
            if child is not None:
                return StartedBot(child, None, None, True)
        entering = entering_argv(cgroup_procs, environment, argv)
        return StartedBot(_popen(entering, name, cwd, environment, stdout), None, None, True)
    return StartedBot(_popen(argv, name, cwd, environment, stdout), None, None, False)


def entering_argv(cgroup_procs: str, environment: dict[str, str], argv: list[str]) -> list[str]:
    """The shell's argv that enters the cgroup, then execs ``argv``."""
    pwd = environment.get("PWD")
    return [SHELL, "-c", ENTER_CGROUP, "botarena-bot", cgroup_procs,
            "-" if pwd is None else "=" + pwd, *argv]


def _start_sandboxed(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
                     cgroup_procs: str | None, stdout: int) -> StartedBot:
    own_folder: str | None = None           # one made for the bot (absolute), removed with it
    if cwd is None:
        own_folder = folder = _own_folder()
    else:
        folder = os.path.abspath(cwd)
    reader, writer = os.pipe()
    try:
        wrapped = sandbox.sandboxed_argv(argv, folder, writer)
        if cgroup_procs is not None:            # bwrap itself enters it, before its first fork
            wrapped = entering_argv(cgroup_procs, environment, wrapped)
        process = sandbox.spawner.run(lambda: _popen(wrapped, name, None, environment, stdout,
                                                            (writer,)))
    except BaseException:
        os.close(reader)
        if own_folder is not None:
            remove_own_folder(own_folder)
        raise
    finally:
        os.close(writer)
    try:
        return StartedBot(process, sandbox.read_child_pid(reader), own_folder,
                          cgroup_procs is not None)
    finally:
        os.close(reader)


def _own_folder() -> str:
    """A new private folder for a sandboxed bot, made after the guardian is told its name: killed
    at any moment, we leave nothing behind (told first, made second)."""
    try:
        return guardian.make_watched_folder(tempfile.gettempdir(), guardian.FOLDER_PREFIX)
    except FileExistsError:
        raise BotStartError("cannot make a temporary folder for a sandboxed bot: 100 names taken") from None


def remove_own_folder(path: str) -> None:
    """Remove a folder made by :func:`_own_folder`, and tell the guardian it is gone."""
    shutil.rmtree(path, ignore_errors=True)
    guardian.forget_folder(path)


def _check_program(program: str, name: str, cwd: str | None, environment: dict[str, str]
                   ) -> str | None:
    """The file to exec for ``program`` where the shell can start it as ``exec`` would (an ELF
    or ``#!`` file): ``program`` itself if it names a path (from the bot's folder), else the
    absolute path found in the bot's PATH; None where it cannot; the line ``exec``'s error
    would have given, as a BotStartError, when it cannot start at all."""
    if cwd is not None and not os.path.isdir(cwd):
        raise BotStartError(f"cannot start bot {name!r}: no directory {cwd!r}")
    if program.startswith("-"):
        return None                             # the shell would read it as an option
    path = _program_path(program, name, cwd, environment)
    try:
        with open(path, "rb") as handle:
            head = handle.read(_BINPRM_BYTES)
    except OSError:
        return None                             # runnable but unreadable: exec decides
    found = program if os.sep in program else os.path.abspath(path)
    if head.startswith(b"#!"):
        # as the kernel reads it: after blanks, up to a blank or the line's end (a \r stays)
        line = head[2:].split(b"\n", 1)[0].lstrip(b" \t")
        interpreter = os.fsdecode(re.split(rb"[ \t]", line, maxsplit=1)[0])
        if not interpreter or not os.path.exists(os.path.join(cwd or "", interpreter)):
            raise BotStartError(f"cannot start bot {name!r}: the interpreter on the #! line "
                                f"of {program!r} was not found (fix that line, or run the file "
                                "through its interpreter)")
        return found
    return found if head.startswith(b"\x7fELF") else None


def _program_path(program: str, name: str, cwd: str | None, environment: dict[str, str]) -> str:
    """The file ``exec`` would run for ``program`` (a path, or a name looked up in the bot's
    PATH); BotStartError when there is none it may run."""
    if os.sep in program:
        path = os.path.join(cwd or "", program)
        if os.path.isdir(path):
            raise BotStartError(f"cannot start bot {name!r}: {program!r} is a directory "
                                "(give the bot's program in it)")
        if not os.path.exists(path):
            raise _not_found(program, name)
        if not os.access(path, os.X_OK):
            raise _not_executable(program, name)
        return path
    refused = None
    for folder in os.get_exec_path(environment):
        path = os.path.join(cwd or "", folder, program)
        if os.path.isfile(path):
            if os.access(path, os.X_OK):
                return path
            refused = refused or path
    raise _not_found(program, name) if refused is None else _not_executable(program, name)


def _not_found(program: str, name: str) -> BotStartError:
    return BotStartError(f"cannot start bot {name!r}: {program!r} not found "
                         "(check the path, or give a built-in bot's name)")


def _not_executable(program: str, name: str) -> BotStartError:
    return BotStartError(f"cannot start bot {name!r}: {program!r} is not executable "
                         f"(chmod +x {program}, or run it through its interpreter)")


def _popen(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
           stdout: int, pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
            bufsize=0, cwd=cwd, env=environment, start_new_session=True, close_fds=True,
            pass_fds=pass_fds)
    except OSError as error:
        raise _start_error(error, argv[0], name, cwd) from None


def _start_error(error: OSError, program: str, name: str, cwd: str | None) -> BotStartError:
    """The one line for a program that could not be executed (the exec's ``error``)."""
    if error.errno == errno.ENOENT:
        if os.sep in program and os.path.isfile(program):
            return BotStartError(f"cannot start bot {name!r}: the interpreter on the #! line "
                                 f"of {program!r} was not found (fix that line, or run the file "
                                 "through its interpreter)")
        if cwd is not None and not os.path.isdir(cwd):
            return BotStartError(f"cannot start bot {name!r}: no directory {cwd!r}")
        return _not_found(program, name)
    if error.errno in (errno.EACCES, errno.EPERM):
        if os.path.isdir(program):
            return BotStartError(f"cannot start bot {name!r}: {program!r} is a directory "
                                 "(give the bot's program in it)")
        return _not_executable(program, name)
    hint = (" (no #! line? run it through its interpreter, e.g. 'python3 FILE')"
            if error.errno == errno.ENOEXEC else "")
    return BotStartError(f"cannot start bot {name!r}: {error.strerror} ({program!r}){hint}")
