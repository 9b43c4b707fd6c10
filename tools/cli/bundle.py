"""``botarena bundle BOT -o OUT.py``: one self-contained file to submit to CodinGame."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from referee.api import UsageError
from tools.bundle.builder import CODINGAME_LIMIT, STRIP_MODES, build_bundle, plural, resolve_entry
from tools.bundle.defaults import parse_defaults
from tools.cli.options import add_output_argument


def register(commands) -> None:
    parser = commands.add_parser(
        "bundle", help="make one self-contained .py file of a bot, to submit to CodinGame",
        description="Inline a bot and the project modules it imports into one ASCII file that "
        "needs nothing but Python's standard library. BOT is GAME/NAME for a built-in bot "
        "(xmas_rush/greedy), NAME with --game, or a path to a .py file.")
    parser.add_argument("bot", metavar="BOT")
    add_output_argument(parser, "OUT.py", "the file to write ('-' for stdout)", required=True)
    parser.add_argument("--game", help="the game of a built-in bot given by NAME alone")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="defaults",
                        help="bake in a parameter default, as the bot's option would set it "
                        "(--set depth=2); repeatable")
    parser.add_argument("--strip", choices=STRIP_MODES, default="auto",
                        help="drop comments and docstrings: auto = only when the file would "
                        "otherwise reach the limit (default: auto)")
    parser.add_argument("--limit", type=int, default=CODINGAME_LIMIT, metavar="CHARS",
                        help=f"refuse a bundle of this many characters or more "
                        f"(default: {CODINGAME_LIMIT:,}, CodinGame's)")
    parser.set_defaults(func=run)


def _check_output_name(output: str) -> None:
    """A bundle named like a standard module (random.py) would be imported, in place of that
    module, by every other script of its folder: psyleague keeps all its bots in one."""
    stem = Path(output).stem
    if output != "-" and stem in sys.stdlib_module_names:
        raise UsageError(f"-o {output!r}: {stem}.py would shadow Python's standard module {stem!r} "
                         f"for every bot in its folder; pick another name (e.g. {stem}_bot.py)")


def run(args) -> int:
    if args.limit <= 0:
        raise UsageError(f"--limit {args.limit}: must be positive")
    _check_output_name(args.output)
    entry = resolve_entry(args.bot, args.game)
    defaults = parse_defaults(entry, args.defaults)
    command = shlex.join(["botarena", "bundle", args.bot, *(["--game", args.game] if args.game else []),
                          *(word for pair in args.defaults for word in ("--set", pair)),
                          *([f"--strip={args.strip}"] if args.strip != "auto" else [])])
    bundle = build_bundle(entry, defaults=defaults, strip=args.strip, limit=args.limit,
                          command=command)
    if args.output == "-":
        sys.stdout.write(bundle.text)
        return 0
    output = Path(args.output)
    if output.resolve() == entry.path:
        raise UsageError(f"-o {args.output!r} is the bot itself: choose another file")
    try:
        output.write_text(bundle.text, encoding="ascii")
    except OSError as error:
        raise UsageError(f"cannot write {args.output!r}: {error.strerror}") from None
    how = "comments and docstrings stripped" if bundle.stripped else "sources verbatim"
    print(f"{args.output}: {len(bundle.text):,} characters ({len(bundle.text) / CODINGAME_LIMIT:.0%} "
          f"of CodinGame's limit), {plural(len(bundle.modules), 'module')}, {how}")
    return 0
