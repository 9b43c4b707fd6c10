"""A game played through the test SDK referee with the stand-in CodinGame viewer
(tests/fixtures/sdk_viewer/): its SDK side zipped into a jar, as the SDK ships it, its game side
a folder, both named by the game file's ``viewer``."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.conftest import run_cli
from tests.referee.external.gamefiles import digit_bot, sdk_game

STAND_IN = Path(__file__).resolve().parents[1] / "fixtures" / "sdk_viewer"
SEED = 4


def zip_folder(folder: Path, jar: Path) -> Path:
    """``folder``'s files into ``jar`` (a zip, as a jar is), paths relative to ``folder``."""
    with zipfile.ZipFile(jar, "w") as archive:
        for path in sorted(folder.rglob("*")):
            archive.write(path, path.relative_to(folder).as_posix())
    return jar


def viewer_game_file(folder: Path, *flags: str, turns: int = 6) -> Path:
    """The digits game file with the stand-in viewer: the SDK's side as a jar, the game's as a folder."""
    jar = zip_folder(STAND_IN / "sdk", folder / "sdk-standin.jar")
    viewer = json.dumps([jar.name, str(STAND_IN / "game")])
    return sdk_game(folder, *flags, extra=f"viewer = {viewer}", parameters={"turns": turns})


def play_viewer_game(folder: Path, *flags: str, turns: int = 6) -> tuple[Path, Path]:
    """One game of the digits game file with the stand-in viewer: its replay and its SDK log."""
    path = viewer_game_file(folder, *flags, turns=turns)
    replay, log = folder / "game.json", folder / "sdk-log.json"
    bots = [digit_bot("--digit", "7", "--stderr"), digit_bot("--digit", "2")]
    done = run_cli("play", str(path), *bots, "--seed", str(SEED), "--replay", str(replay),
                   "--sdk-log", str(log))
    assert done.returncode == 0, done.stderr
    return replay, log
