"""``botarena games``: the games, a line each, with their options; or one game (a game file)."""
from __future__ import annotations

from referee.games import game_names, load_game


def register(commands) -> None:
    parser = commands.add_parser("games", help="list the games and their options",
                                 description="List the built-in games, or describe GAME (a "
                                 "built-in name or a game file, see docs/codingame-referees.md).")
    parser.add_argument("game", nargs="?", metavar="GAME")
    parser.set_defaults(func=run)


def run(args) -> int:
    # every game loaded before any is printed: a broken folder is one line, first
    games = [load_game(name) for name in ([args.game] if args.game else game_names())]
    for game in games:
        print("\n".join(describe(game)))
    if not args.game:
        print("or a game file (NAME.toml) that runs a CodinGame or brutaltester referee: "
              "see docs/codingame-referees.md")
    return 0


def describe(game) -> list[str]:
    clock = game.time_control
    lines = [f"{game.name:<18} {game.description}"]
    if getattr(game, "external", False):
        file = game.file
        timing = (f"{clock.first_turn_ms} ms first turn, {clock.turn_ms} ms after"
                  if file.protocol == "brutaltester" else "time limits from the referee")
        runner = "one JVM per job slot (host)" if file.host else "one referee process a game"
        lines.append(f"{'':<18} game file {file.path}: {file.protocol} protocol, "
                     f"{players_text(*game.seats)}, {timing}, {runner}")
        if file.protocol == "codingame":
            lines.append(f"{'':<18} {_viewer_line(file)}")
    else:
        kind = "single-player" if game.seats == (1, 1) else \
            f"{game.turn_order.value}, {players_text(*game.seats)}"
        lines.append(f"{'':<18} {kind}, {clock.first_turn_ms} ms first turn, "
                     f"{clock.turn_ms} ms after")
    for spec in game.option_specs:
        lines.append(f"{'':<18}   --option {spec.name}={spec.default}  {spec.help}")
    return lines


def players_text(fewest: int, most: int) -> str:
    """``2 players``, ``2-4 players``, ``1 player`` (was ``1-1 players``)."""
    if fewest == most:
        return f"{fewest} player{'' if fewest == 1 else 's'}"
    return f"{fewest}-{most} players"


def _viewer_line(file) -> str:
    """Whether ``view`` can show this game file's games in CodinGame's viewer, and why not."""
    from tools.view.codingame.files import find_viewer
    viewer = find_viewer(file)
    if isinstance(viewer, str):
        return f"CodinGame's viewer: none ({viewer})"
    return (f"CodinGame's viewer: {len(viewer.files)} files from "
            f"{len({source.root for source in viewer.files.values()})} jars and folders")
