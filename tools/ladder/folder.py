"""A ladder's folder: its config, its bots, its results file and the lock of its run.

    FOLDER/ladder.json     the game, its options, time control and seed (or seed list), from init
    FOLDER/bots.jsonl      one line per add or remove, appended under bots.lock: the bots' history
    FOLDER/bots/NAME/      a copy of the bot's program file, taken when it was added
    FOLDER/results.jsonl   one line per finished game (tools.arena.results): the truth
    FOLDER/run.lock        held by the one ``run`` at a time, with its process id

Every file is appended to with one ``write`` a line, so a reader (``show``, a ``run`` looking for
new bots) sees whole lines, and skips an unterminated last one still being written.
"""
from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import random
import re
import shlex
import shutil
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from tools.arena.botspec import builtin_bots, resolve_bot
from tools.arena.results import record_key, record_problem
from tools.arena.seeds import SeedList, read_seeds
from tools.arena.settings import Settings
from tools.arena.setup import game_setup
from tools.languages.compilers import is_source

CONFIG, BOTS, RESULTS, SEEDS, RUN_LOCK = ("ladder.json", "bots.jsonl", "results.jsonl",
                                          "seeds.txt", "run.lock")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,39}")


@dataclass(frozen=True, slots=True)
class LadderBot:
    """A bot of the ladder: ``command`` as the run starts it (relative paths from the folder),
    ``given`` as the user wrote it; ``added`` its place in the history (the newest is highest)."""

    name: str
    command: str
    given: str
    added: int
    time: str
    removed: bool = False


@dataclass(frozen=True, slots=True)
class LadderConfig:
    game: str
    options: Mapping[str, str]
    time_changes: Mapping[str, int]
    seed: int
    seeds: bool                    # a seed list (seeds.txt) instead of seeds derived from seed

    def to_json(self) -> dict:
        return {"version": 1, "game": self.game, "options": dict(self.options),
                "time": dict(self.time_changes), "seed": self.seed, "seeds": self.seeds}


class LadderFolder:
    def __init__(self, path: str | Path):
        self.path = Path(path)

    def file(self, name: str) -> Path:
        return self.path / name

    # -- init and config --------------------------------------------------------------------
    def init(self, settings: Settings, seeds_file: str | None) -> LadderConfig:
        """Write the config of a new ladder (UsageError when the folder holds one already or the
        settings cannot be played)."""
        if self.file(CONFIG).exists():
            raise UsageError(f"{str(self.path)!r} holds a ladder already (its {CONFIG}); give "
                             "another folder")
        if self.path.exists() and not self.path.is_dir():
            raise UsageError(f"{str(self.path)!r} is not a folder")
        seed_list = read_seeds(seeds_file) if seeds_file is not None else None
        game_setup(settings)                  # every setting checked before anything is written
        game = settings.game
        if Path(game).is_file():
            game = str(Path(game).resolve())  # a game file: found again from any folder
        seed = settings.seed if settings.seed is not None else random.randrange(2**31)
        config = LadderConfig(game, dict(settings.options), settings.time_changes(), seed,
                              seed_list is not None)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if seed_list is not None:
                self.file(SEEDS).write_text("".join(f"{value}\n" for value in seed_list.seeds))
            self.file(CONFIG).write_text(json.dumps(config.to_json(), indent=1) + "\n")
        except OSError as error:
            raise UsageError(f"ladder folder {str(self.path)!r} cannot be written: "
                             f"{error.strerror}") from None
        return config

    def config(self) -> LadderConfig:
        try:
            data = json.loads(self.file(CONFIG).read_text())
            return LadderConfig(data["game"], data["options"], data["time"], data["seed"],
                                data["seeds"])
        except FileNotFoundError:
            raise UsageError(f"{str(self.path)!r} is not a ladder (no {CONFIG}); make one with: "
                             f"botarena ladder {shlex.quote(str(self.path))} init GAME") from None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise UsageError(f"{self.file(CONFIG)}: not a ladder config ({error})") from None

    def seed_list(self) -> SeedList | None:
        return read_seeds(str(self.file(SEEDS))) if self.config().seeds else None

    def settings(self) -> Settings:
        """The config's game, options, time control and seeds, and the folder's results file (a
        run adds its own: jobs, cluster, limits)."""
        config = self.config()
        seeds = self.seed_list()
        time = config.time_changes
        return Settings(config.game, options=dict(config.options),
                        first_turn_ms=time.get("first_turn_ms"), turn_ms=time.get("turn_ms"),
                        grace_ms=time.get("grace_ms"),
                        seed=None if seeds is not None else config.seed, seeds=seeds,
                        results=str(self.file(RESULTS)))

    # -- bots -------------------------------------------------------------------------------
    def bots(self) -> dict[str, LadderBot]:
        """Every bot ever added, by name, with whether it was removed since."""
        bots: dict[str, LadderBot] = {}
        for number, event in enumerate(_whole_lines(self.file(BOTS)), 1):
            try:
                name = event["name"]
                if event["event"] == "add":
                    bots[name] = LadderBot(name, event["bot"], event["given"], number,
                                           event.get("time", ""))
                elif event["event"] == "remove" and name in bots:
                    bots[name] = dataclasses.replace(bots[name], removed=True)
            except (KeyError, TypeError):
                raise UsageError(f"{self.file(BOTS)}: line {number} is not a ladder bot") from None
        return bots

    def active(self) -> dict[str, LadderBot]:
        """The bots in the table, oldest first."""
        return {name: bot for name, bot in self.bots().items() if not bot.removed}

    def newest(self) -> str | None:
        active = self.active()
        return max(active.values(), key=lambda bot: bot.added).name if active else None

    def bots_stamp(self) -> int:
        """Changes when a bot is added or removed (the file only grows)."""
        try:
            return self.file(BOTS).stat().st_size
        except FileNotFoundError:
            return 0

    def add(self, name: str, text: str) -> LadderBot:
        """Add a bot: its program file copied into the folder, then checked as the run will start
        it (a source file compiled now). UsageError for a bad name or bot."""
        config = self.config()
        if not _NAME.fullmatch(name):
            raise UsageError(f"bot name {name!r}: use 1 to 40 letters, digits and . _ + -, "
                             "starting with a letter or digit")
        with self._bots_locked():
            known = self.bots()
            if name in known:
                state = "removed, its games kept" if known[name].removed else "in the ladder"
                raise UsageError(f"a bot named {name!r} was added already ({state}); give "
                                 "another name")
            command = self._keep_program(name, text, config.game)
            try:
                resolve_bot(config.game, command, workdir=self.path.resolve())
                self._check_script(command, text)
            except BaseException:
                shutil.rmtree(self.file("bots") / name, ignore_errors=True)
                raise
            self._append({"event": "add", "name": name, "bot": command, "given": text,
                          "time": _now()})
        return self.bots()[name]

    def remove(self, name: str) -> None:
        with self._bots_locked():
            bot = self.bots().get(name)
            if bot is None or bot.removed:
                names = ", ".join(self.active()) or "none"
                raise UsageError(f"no bot {name!r} in the ladder (its bots: {names})")
            self._append({"event": "remove", "name": name, "time": _now()})

    def _keep_program(self, name: str, text: str, game: str) -> str:
        """The command to keep for ``text``. Its program file is copied into bots/NAME/, so the
        ladder keeps this version whatever happens to the original: the first word that is a
        Python script or a C, C++, Java or Rust source (``python3 bot.py``: bot.py), else a
        program given by its path (``./my_bot``), not a symbolic link (an interpreter in a
        virtual environment). Other relative paths in it are made absolute."""
        try:
            words = shlex.split(text)
        except ValueError as error:
            raise UsageError(f"bot {text!r}: {error}") from None
        if not words:
            raise UsageError("empty bot command")
        if words[0] in builtin_bots(game):
            return text
        head = words[0]
        if (os.sep in head or head.endswith(".py") or is_source(head)) and not Path(head).exists():
            raise UsageError(f"bot {text!r}: no file {head!r}")
        scripts = [index for index, word in enumerate(words)
                   if (word.endswith(".py") or is_source(word)) and Path(word).is_file()]
        if scripts:
            keep: int | None = scripts[0]
        elif os.sep in head and Path(head).is_file() and not Path(head).is_symlink():
            keep = 0
        else:
            keep = None
        kept = []
        for index, word in enumerate(words):
            if index == keep:
                kept.append(self._copy_in(name, word, text, relative=index == 0))
            elif index and os.sep in word and Path(word).exists():
                kept.append(str(Path(word).resolve()))
            else:
                kept.append(word)
        return shlex.join(kept)

    def _check_script(self, command: str, text: str) -> None:
        """A Python bot that would crash on its first line in every game (a syntax error) is
        refused now, in one line, as a C++ bot that does not compile is."""
        script = shlex.split(command)[0]
        if not script.endswith(".py"):
            return
        path = self.path / script
        try:
            compile(path.read_bytes(), script, "exec", dont_inherit=True)
        except SyntaxError as error:
            raise UsageError(f"bot {text!r} has a syntax error ({Path(script).name} line "
                             f"{error.lineno}: {error.msg}): fix it and add it again") from None
        except ValueError as error:                 # a null byte in the source
            raise UsageError(f"bot {text!r} is not Python source: {error}") from None

    def _copy_in(self, name: str, program: str, text: str, *, relative: bool) -> str:
        """Copy ``program`` into bots/NAME/; its path there (relative to the folder when it
        starts the command: the run starts it from the folder)."""
        folder = self.file("bots") / name
        target = folder / Path(program).name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy2(program, target)
        except OSError as error:
            raise UsageError(f"bot {text!r}: cannot copy {program!r} into the ladder: "
                             f"{error.strerror}") from None
        return f"bots/{name}/{target.name}" if relative else str(target.resolve())

    @contextlib.contextmanager
    def _bots_locked(self) -> Iterator[None]:
        self.path.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.file("bots.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _append(self, event: dict) -> None:
        line = (json.dumps(event, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.file(BOTS), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    # -- the run's lock and the results -----------------------------------------------------
    @contextlib.contextmanager
    def run_lock(self) -> Iterator[None]:
        """Held while a run plays; a second run is refused at once, in one line."""
        fd = os.open(self.file(RUN_LOCK), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
                raise UsageError(f"ladder {str(self.path)!r} is running already (process "
                                 f"{holder}); one run per folder: stop it first, or add bots to "
                                 "it, they join its next games") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            yield
        finally:
            os.close(fd)

    def running(self) -> int | None:
        """The process id of the run playing now, or None."""
        try:
            fd = os.open(self.file(RUN_LOCK), os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return None
        except BlockingIOError:
            text = os.pread(fd, 32, 0).decode(errors="replace").strip()
            return int(text) if text.isdigit() else 0
        finally:
            os.close(fd)

    def records(self) -> list[dict]:
        """The games of the results file, each once (its first record), as ``run`` counts them."""
        seen = set()
        records = []
        for number, record in enumerate(_whole_lines(self.file(RESULTS)), 1):
            problem = record_problem(record)
            if problem is not None:
                raise UsageError(f"{self.file(RESULTS)}: line {number} is not a botarena results "
                                 f"line ({problem})")
            key = record_key(record)
            if key not in seen:
                seen.add(key)
                records.append(record)
        return records


def _whole_lines(path: Path) -> Iterator[dict]:
    """The JSON objects of a file's complete lines (an unterminated last line, being written,
    is left for later)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    except OSError as error:
        raise UsageError(f"{str(path)!r} cannot be read: {error.strerror}") from None
    for number, line in enumerate(data.split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError:
            raise UsageError(f"{path}: line {number} is not JSON") from None


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")
