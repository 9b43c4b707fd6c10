"""``botarena view``: a replay (or two, side by side) as one self-contained HTML page."""
from __future__ import annotations

import webbrowser
from pathlib import Path

from referee.api import UsageError
from tools.cli.options import add_output_argument, check_output_file


def register(commands) -> None:
    parser = commands.add_parser(
        "view", help="write a replay as an HTML page: board, timeline, answers, stderr, chart",
        description="Write one self-contained HTML page (nothing fetched when viewed) that shows a "
        "game turn by turn as the game looks, with each bot's answer, latency against its budget, "
        "[PDATA] and stderr. REPLAY is a replay file or FILE.jsonl:LINE, a results line of a run "
        "played with --replays DIR. Two replays are shown side by side with one timeline and "
        "their first difference marked.")
    parser.add_argument("replays", nargs="+", metavar="REPLAY")
    add_output_argument(parser, "FILE.html", "where to write the page (default: the first "
                        "replay's name, .html)", old="--out")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    parser.set_defaults(func=run)


def run(args) -> int:
    if len(args.replays) > 2:
        raise UsageError(f"view takes one replay, or two to compare; got {len(args.replays)}")
    from tools.view.frames import page_data
    from tools.view.page import write_page
    from tools.view.source import load_replay
    games, paths = [], []
    for text in args.replays:
        replay, path = load_replay(text)
        games.append(page_data(replay, path.name))
        paths.append(path)
    if len(games) == 2 and games[0]["game"] != games[1]["game"]:
        raise UsageError(f"cannot compare a {games[0]['game']} game with a {games[1]['game']} game")
    out = Path(args.output) if args.output else _default_out(paths)
    check_output_file(str(out), "-o")
    size = write_page(out, games)
    print(f"wrote {out} ({size / 1024:.0f} KB)")
    if args.open:
        webbrowser.open(out.resolve().as_uri())
    return 0


def _default_out(paths: list[Path]) -> Path:
    if len(paths) == 2:
        return paths[0].with_name(f"{paths[0].stem}-vs-{paths[1].stem}.html")
    return paths[0].with_suffix(".html")
