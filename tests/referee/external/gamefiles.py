"""Game files for the test referees (tests/fixtures/referees/), written into a test's folder."""
from __future__ import annotations

import json
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "referees"
SDK_REFEREE = FIXTURES / "sdk_referee.py"
BRUTAL_REFEREE = FIXTURES / "brutal_referee.py"
DIGIT_BOT = FIXTURES / "digit_bot.py"
JAVA_REFEREE = FIXTURES / "java" / "com" / "codingame" / "gameengine" / "core" / "RefereeMain.java"


def digit_bot(*args: str) -> str:
    """The BOT text of the digits bot with ``args``."""
    return " ".join([sys.executable, str(DIGIT_BOT), *args])


def write_game_file(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(body)
    return path


# time limits roomy enough for Python bots on a loaded machine (timeouts are tested with sleeps)
ROOMY = {"first_ms": 3000, "turn_ms": 400}


def sdk_game(folder: Path, *flags: str, name: str = "digits", players: str = "[2, 4]",
             extra: str = "", parameters: dict | None = None) -> Path:
    """A codingame game file for sdk_referee.py with ``flags`` (roomy time limits unless the
    parameters say otherwise)."""
    command = json.dumps([sys.executable, str(SDK_REFEREE), *flags])
    table = "".join(f"{key} = {json.dumps(value)}\n"
                    for key, value in {**ROOMY, **(parameters or {})}.items())
    return write_game_file(folder, name, f'protocol = "codingame"\ncommand = {command}\n'
                           f"players = {players}\n{extra}\n[parameters]\n{table}")


def brutal_game(folder: Path, *flags: str, name: str = "brutal", players: str = "[2, 4]",
                extra: str = "", first_turn_ms: int = 3000, turn_ms: int = 400) -> Path:
    """A brutaltester game file for brutal_referee.py with ``flags``."""
    command = json.dumps([sys.executable, str(BRUTAL_REFEREE), *flags])
    return write_game_file(folder, name, f'protocol = "brutaltester"\ncommand = {command}\n'
                           f"players = {players}\nfirst_turn_ms = {first_turn_ms}\n"
                           f"turn_ms = {turn_ms}\n{extra}\n")


def play(path: Path, bots: list[list[str]], *, seed: int = 1, record: bool = True,
         time_control=None):
    """One game of the game file at ``path`` between digit bots (their arguments), played by the
    match loop with real processes."""
    from referee.games import load_game
    from referee.match import PlayerSpec, play_match
    players = [PlayerSpec(name=f"bot{seat}", argv=(sys.executable, str(DIGIT_BOT), *args))
               for seat, args in enumerate(bots)]
    return play_match(load_game(str(path)), players, seed=seed, record=record,
                      time_control=time_control)


def processes_with(tag: str) -> list:
    """The live processes whose command line holds ``tag`` (a referee left running)."""
    import psutil
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if process.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if tag in " ".join(process.info["cmdline"] or []):
            found.append(process)
    return found
