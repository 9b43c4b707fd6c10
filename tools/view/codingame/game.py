"""A replay shown in CodinGame's viewer: its game file's viewer files and its SDK game log."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from referee.external.gamefile import read_game_file
from referee.external.sdk_log import to_sdk_log
from tools.view.codingame.files import ViewerFiles, find_viewer
from tools.view.codingame.folder import write_viewer_folder


@dataclass(frozen=True, slots=True)
class CodinGameView:
    """What the viewer's folder is made of."""

    viewer: ViewerFiles
    log: dict
    names: list[str]
    title: str
    game: str

    def write(self, out: Path) -> int:
        """The viewer's folder at ``out``; its file count."""
        return write_viewer_folder(out, self.viewer, self.log, self.names, self.title)


def codingame_view(replay: dict, source: str) -> CodinGameView | str | None:
    """The CodinGame view of ``replay``; a line saying why there is none for a game file's
    replay; None for a built-in game's (botarena's page draws those)."""
    path = replay.get("game_file")
    if path is None:
        return None
    try:
        game_file = read_game_file(path)
    except UsageError as error:
        return f"the replay's game file cannot be used ({error})"
    viewer = find_viewer(game_file)
    if isinstance(viewer, str):
        return viewer
    try:
        log = to_sdk_log(replay)
    except UsageError as error:
        return str(error)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise UsageError(f"replay {source!r} has a malformed referee frame ({error!r})") from None
    names = [str(player.get("bot", f"Player {seat}"))
             for seat, player in enumerate(replay["players"])]
    title = f"{game_file.name}, seed {replay['seed']}: {' vs '.join(names)}"
    return CodinGameView(viewer, log, names, title, game_file.name)
