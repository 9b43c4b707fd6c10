"""One long-lived JVM per job slot that plays SDK referees game after game (``host = true``).

A Java referee pays ~0.5 s of JVM and Guice start-up per game, more than the game. RefereeHost
(``java/RefereeHost.java``, botarena's own code) pays it once: each game runs in a fresh class
loader over the SDK core and the game's classes (the library jars stay shared), through the SDK's
public ``RefereeMain.start(InputStream, PrintStream)``, on the host's stdin and stdout between a
``[[BOTARENA_GAME] 0]`` we send and the ``[[BOTARENA_END] 0]`` it prints. It is compiled with the
user's JDK at first use, into a cache folder keyed by its source and the JDK.

A host plays one game at a time: a game takes a host of its game file that is between games,
or starts one, and gives it back at its end, so a run keeps as many hosts as it plays games at
once (whichever job thread plays them), and a later run in the same process finds them warm.
When a game ends the host cuts its streams (a thread the game left behind can no longer write
or read), and names the game's threads still running (BOTARENA_THREADS): such a host is retired
after the game, so nothing of a finished game lives on beside the next one (which gets a fresh
host), with one warning per game file. A host that dies or hangs in a game makes that game a
referee error, like a referee process of its own, and is started again for the next game; a
host that cannot start, or dies in two games in a row, is given up for the run: the game
file's games then run one JVM each.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from referee.api import RefereeError, UsageError
from referee.external.cause import cause_line
from referee.external.channel import RefereeProcess, RefereeStartError, process_cpu_s
from referee.external.gamefile import GameFile, HostSettings, jvm_defaults

SOURCE = Path(__file__).with_name("java") / "RefereeHost.java"
READY = "[[BOTARENA_READY] 0]"
END = "[[BOTARENA_END] 0]"
THREADS = "[[BOTARENA_THREADS] "        # the game's threads still running after it: n names
FAIL = "[[BOTARENA_FAIL] "              # RefereeMain.start threw: n lines of its stack trace
DEATHS_BEFORE_GIVING_UP = 2
CUT_OFF_WAIT_S = 1.0            # a game that failed in the referee (FAIL) ends at once in the host

_lock = threading.Lock()
_hosts: dict[RefereeHost, str] = {}                     # every live host -> its game file
_idle: dict[str, list[RefereeHost]] = {}                # game file -> hosts between games
_given_up: set[str] = set()                             # game files whose host is not used
_deaths: dict[str, int] = {}                            # game file -> host deaths in a row
_warned_lingering: set[str] = set()                     # game files said to leave threads


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "botarena" / "referee-host"


def _javac_for(java: str) -> str:
    """The javac of the JDK whose ``java`` runs the host (its sibling), else the one on PATH."""
    found = shutil.which(java)
    if found is not None:
        sibling = Path(os.path.realpath(found)).with_name("javac")
        if sibling.is_file():
            return str(sibling)
    javac = shutil.which("javac")
    if javac is None:
        raise UsageError(f"host = true needs a JDK's javac (none beside {java!r} or on the PATH): "
                         "install one (Debian: apt-get install openjdk-17-jdk-headless), or remove "
                         "host = true to run one JVM per game")
    return javac


def compiled_host(java: str) -> Path:
    """The folder of RefereeHost.class, compiled at first use; UsageError when it cannot be."""
    javac = _javac_for(java)
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + os.path.realpath(javac).encode()).hexdigest()[:16]
    folder = cache_folder() / key
    if (folder / "RefereeHost.class").is_file():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    try:
        built = subprocess.run([javac, "-d", str(scratch), str(SOURCE)], capture_output=True,
                               text=True, timeout=300)
        if built.returncode != 0:
            last = (built.stderr.strip().splitlines() or ["no message"])[-1]
            raise UsageError(f"compiling the referee host with {javac} failed: {last}")
        try:
            scratch.rename(folder)          # atomic: another process may have done it meanwhile
        except OSError:
            pass
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return folder


def host_command(settings: HostSettings) -> list[str]:
    """The host's JVM command line (RefereeHost compiled first when it is not yet)."""
    classes = compiled_host(settings.java)
    return [settings.java, *jvm_defaults(settings.jvm_options), *settings.jvm_options, "-cp",
            os.pathsep.join([*settings.libraries, str(classes)]), "RefereeHost",
            os.pathsep.join(settings.classpath)]


class RefereeHost(RefereeProcess):
    """A RefereeHost JVM, ready for games once it printed READY."""

    def __init__(self, game_file: GameFile, settings: HostSettings):
        super().__init__(host_command(settings), cwd=game_file.folder,
                         label=f"the referee host of {game_file.name}")
        self.timeout_s = game_file.referee_timeout_ms / 1000
        line = self.read_line(time.perf_counter() + self.timeout_s)
        if line != READY:
            raise RefereeError(f"{self.label} said {line!r} instead of {READY}", self.stderr_tail())
        self.thread = threading.get_ident()
        self.startup_cpu_s = process_cpu_s(self.pid) or 0.0


class HostSession:
    """One game on a host: the :class:`~referee.external.channel.Channel` an SdkReferee uses."""

    def __init__(self, host: RefereeHost, game_file: GameFile):
        self.host, self.file = host, game_file
        self.finished = False
        self.broken = False
        self.lingering: list[str] = []      # the game's threads the host found running after it
        self.ended = False                  # END read: the host waits for the next game
        if not host.write(["[[BOTARENA_GAME] 0]"]):
            self.broken = True
            raise RefereeError(f"{host.label} had exited before the game", host.stderr_tail())

    def write(self, lines: Sequence[str]) -> bool:
        try:
            return self.host.write(lines)
        except RefereeError:
            self.broken = True
            raise

    def read_line(self, deadline: float) -> str:
        try:
            line = self.host.read_line(deadline)
        except RefereeError:
            self.broken = True
            raise
        if line.startswith(THREADS):
            self._read_lingering(line, deadline)
            line = self.host.read_line(deadline)
        if line == END or line.startswith(FAIL):
            self.broken = line != END       # the game ended without its last frame
            self.ended = line == END
            trace = self._failure_trace(line, deadline) if line.startswith(FAIL) else ""
            cause = cause_line(trace)
            raise RefereeError(f"{self.host.label}: the referee ended the game before its scores"
                               + (f": {cause}" if cause else ""),
                               trace + "\n" + self.host.stderr_tail() if trace
                               else self.host.stderr_tail())
        return line

    def _failure_trace(self, header: str, deadline: float) -> str:
        """The stack trace after a BOTARENA_FAIL header (as much of it as comes in time)."""
        count = header[len(FAIL):].rstrip("]").strip()
        lines = []
        try:
            for _ in range(int(count) if count.isdigit() else 0):
                lines.append(self.host.read_line(deadline))
        except RefereeError:
            pass
        return "\n".join(lines)

    def _read_lingering(self, header: str, deadline: float) -> None:
        """The names after a BOTARENA_THREADS header (the host found them running)."""
        count = header[len(THREADS):].rstrip("]").strip()
        for _ in range(int(count) if count.isdigit() else 0):
            self.lingering.append(self.host.read_line(deadline))

    def end_of_game(self) -> None:
        """The referee sent its scores: what follows up to END belongs to no game."""
        self.finished = True

    def stderr_tail(self) -> str:
        return self.host.stderr_tail()

    def close(self) -> None:
        """Let the host finish the game (up to END) and keep it for the next one, unless the
        game left threads running (the host is retired: see ``_retire``). A host that failed
        (exited, hung) or does not get to END ends (the next game starts another); only its own
        failures count towards giving it up, not a game cut off on our side."""
        host = self.host
        if self.broken:
            _discard(host, self.file, counted=True)
            return
        wait_s = self.file.referee_timeout_ms / 1000 if self.finished else CUT_OFF_WAIT_S
        deadline = time.perf_counter() + wait_s
        try:
            while not self.ended:
                line = host.read_line(deadline)
                if line.startswith(THREADS):
                    self._read_lingering(line, deadline)
                self.ended = line == END
        except RefereeError:
            _discard(host, self.file, counted=False)
            return
        if self.finished:
            _deaths.pop(str(self.file.path), None)
        if self.lingering:
            _retire(host, self.file, self.lingering)
        else:
            _release(host, self.file)


def open_session(game_file: GameFile) -> HostSession | None:
    """A game on a host for ``game_file`` that no game is using (one between games, else a new
    one), or None when its host was given up (the caller then starts one JVM for the game).
    A host serves one game at a time, whichever job thread plays it: a run keeps as many hosts
    as it plays games at once, not one per thread of its pool (which has one more)."""
    path = str(game_file.path)
    with _lock:
        if path in _given_up:
            return None
        idle = _idle.get(path, [])
        host = None
        while idle and host is None:
            candidate = idle.pop()
            if candidate._proc.poll() is None:
                host = candidate
            else:
                _hosts.pop(candidate, None)
    if host is None:
        assert game_file.host is not None
        try:
            host = RefereeHost(game_file, game_file.host)
        except (RefereeError, RefereeStartError) as error:
            _give_up(game_file, f"it did not start ({error})")
            return None
        with _lock:
            _hosts[host] = path
    host.adopt()
    return HostSession(host, game_file)


def _release(host: RefereeHost, game_file: GameFile) -> None:
    """A host that finished its game waits for the next one."""
    with _lock:
        if host in _hosts:
            _idle.setdefault(str(game_file.path), []).append(host)


def _discard(host: RefereeHost, game_file: GameFile, *, counted: bool) -> None:
    host.close()
    with _lock:
        _hosts.pop(host, None)
        for waiting in _idle.values():
            if host in waiting:
                waiting.remove(host)
        if not counted:
            return
        deaths = _deaths[str(game_file.path)] = _deaths.get(str(game_file.path), 0) + 1
    if deaths >= DEATHS_BEFORE_GIVING_UP:
        _give_up(game_file, f"it died in {deaths} games in a row")


def _retire(host: RefereeHost, game_file: GameFile, threads: list[str]) -> None:
    """A host whose finished game left threads running plays no other game (they could reach
    it through the JVM's shared state): it ends, the next game gets a fresh host."""
    _discard(host, game_file, counted=False)
    with _lock:
        if str(game_file.path) in _warned_lingering:
            return
        _warned_lingering.add(str(game_file.path))
    names = ", ".join(repr(name) for name in threads[:3]) + (" ..." if len(threads) > 3 else "")
    print(f"botarena: warning: a game of {game_file.name} left threads running after its end "
          f"({names}): the referee host of each such game is ended and the next game gets a "
          "fresh one (slower); nothing a finished game writes reaches another",
          file=sys.stderr, flush=True)


def _give_up(game_file: GameFile, why: str) -> None:
    with _lock:
        if str(game_file.path) in _given_up:
            return
        _given_up.add(str(game_file.path))
    print(f"botarena: warning: the referee host of {game_file.name} is not used any more: {why}; "
          "its games now run one JVM each (slower)", file=sys.stderr, flush=True)


def close_hosts() -> None:
    """End every host of this process (the end of a run)."""
    with _lock:
        hosts = list(_hosts)
        _hosts.clear()
        _idle.clear()
    for host in hosts:
        host.close()
