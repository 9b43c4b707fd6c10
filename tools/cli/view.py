"""``botarena view``: a replay (or two, side by side) as one self-contained HTML page; a game
played through a CodinGame SDK referee in CodinGame's own viewer, served or written to a folder."""
from __future__ import annotations

import shutil
import sys
import tempfile
import webbrowser
from pathlib import Path

from referee.api import UsageError
from tools.cli.options import add_output_argument, check_output_file


def register(commands) -> None:
    parser = commands.add_parser(
        "view", help="show a replay: an HTML page (board, timeline, answers, stderr, chart), or "
        "CodinGame's own viewer for an SDK referee's game",
        description="Write one self-contained HTML page (nothing fetched when viewed) that shows a "
        "game turn by turn as the game looks, with each bot's answer, latency against its budget, "
        "[PDATA] and stderr. REPLAY is a replay file or FILE.jsonl:LINE, a results line of a run "
        "played with --replays DIR. Two replays are shown side by side with one timeline and "
        "their first difference marked. A game played through a CodinGame SDK referee whose "
        "game file gives CodinGame's viewer files is shown in that viewer instead, offline: a "
        "folder (-o DIR) for any static server, or served on localhost (--serve).")
    parser.add_argument("replays", nargs="+", metavar="REPLAY")
    add_output_argument(parser, "FILE.html|DIR", "where to write the page (default: the first "
                        "replay's name, .html), or CodinGame's viewer folder (default: the "
                        "replay's name, -viewer)", old="--out")
    parser.add_argument("--open", action="store_true", help="open the page in the default "
                        "browser (CodinGame's viewer: served, as with --serve)")
    parser.add_argument("--serve", nargs="?", const=0, type=int, metavar="PORT",
                        help="serve the page on 127.0.0.1 (PORT, default a free one) and print "
                        "its URL, until Ctrl-C")
    parser.add_argument("--generic", action="store_true", help="botarena's page even for a game "
                        "CodinGame's viewer can show")
    parser.set_defaults(func=run)


def run(args) -> int:
    if len(args.replays) > 2:
        raise UsageError(f"view takes one replay, or two to compare; got {len(args.replays)}")
    if args.serve is not None and not 0 <= args.serve <= 65535:
        raise UsageError(f"--serve {args.serve}: a port is 0 to 65535")
    from tools.view.source import load_replay
    loaded = [load_replay(text) for text in args.replays]
    if len(loaded) == 1 and not args.generic:
        from tools.view.codingame.game import codingame_view
        replay, path = loaded[0]
        view = codingame_view(replay, path.name)
        if isinstance(view, str):
            print(f"botarena view: no CodinGame viewer: {view}; showing botarena's page",
                  file=sys.stderr)
        elif view is not None:
            return _run_codingame(args, view, path)
    return _run_generic(args, loaded)


def _run_generic(args, loaded: list) -> int:
    from tools.view.frames import page_data
    from tools.view.page import write_page
    games = [page_data(replay, path.name) for replay, path in loaded]
    paths = [path for _, path in loaded]
    if len(games) == 2 and games[0]["game"] != games[1]["game"]:
        raise UsageError(f"cannot compare a {games[0]['game']} game with a {games[1]['game']} game")
    out = Path(args.output) if args.output else _default_out(paths)
    if out.is_dir():
        out = out / _default_out(paths).name
    check_output_file(str(out), "-o")
    size = write_page(out, games)
    print(f"wrote {out} ({size / 1024:.0f} KB)")
    if args.serve is not None:
        _serve(out.parent, args.serve, out.name, args.open)
    elif args.open:
        open_in_browser(out.resolve().as_uri(), f"open {out} in a browser yourself")
    return 0


def open_in_browser(target: str, otherwise: str) -> None:
    """Open ``target`` in the default browser, or say on stderr that none was found and what to
    do (Python's webbrowser finds none on a server without a display or $BROWSER)."""
    if not webbrowser.open(target):
        print(f"botarena view: no browser found here (none on the PATH, no $BROWSER, no display): "
              f"{otherwise}, or set BROWSER=/path/to/browser", file=sys.stderr)


def _run_codingame(args, view, replay_path: Path) -> int:
    serve = args.serve if args.serve is not None else (0 if args.open else None)
    if args.output and args.output.endswith((".html", ".htm")):
        raise UsageError(f"-o {args.output}: CodinGame's viewer of {view.game} is a folder; give a "
                         "folder's name, or --generic for botarena's page in one file")
    if args.output:
        out = Path(args.output)
    elif serve is None:
        out = replay_path.with_name(f"{replay_path.stem}-viewer")
    else:
        out = None
    scratch: Path | None = None       # a temporary folder to serve from, removed at the end
    if out is None:
        made = scratch = Path(tempfile.mkdtemp(prefix="botarena-viewer-"))
        folder = made / "viewer"
    else:
        folder = out
    try:
        count = view.write(folder)
        if out is not None:
            print(f"wrote {out}/ ({count} files): CodinGame's viewer of {view.game}; open its "
                  "index.html through any static server (python3 -m http.server -d "
                  f"{out}), or botarena view {replay_path} --serve")
        if serve is not None:
            _serve(folder, serve, "", args.open)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


def _serve(folder: Path, port: int, page: str, open_browser: bool) -> None:
    from tools.view.codingame.serve import open_server, serve_until_interrupted
    server = open_server(folder, port)
    url = f"http://127.0.0.1:{server.server_address[1]}/{page}"
    if open_browser:
        open_in_browser(url, f"open {url} in a browser yourself")
    serve_until_interrupted(server, url)


def _default_out(paths: list[Path]) -> Path:
    if len(paths) == 2:
        return paths[0].with_name(f"{paths[0].stem}-vs-{paths[1].stem}.html")
    return paths[0].with_suffix(".html")
