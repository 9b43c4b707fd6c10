"""``botarena bundle BOT -o OUT``: one self-contained file to submit to CodinGame, in the bot's
language (Python, C, C++, Java, Rust); ``--check`` plays the bundle against the original."""
from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

from referee.api import UsageError
from referee.games import load_game
from referee.harness import guardian
from referee.harness.confined import make_watched_folder, remove_folder
from referee.match import PlayerSpec
from tools.arena.botspec import resolve_bot
from tools.arena.printable import printable
from tools.arena.seeds import read_seeds
from tools.bundle.builder import CODINGAME_LIMIT, STRIP_MODES, build_bundle, plural, resolve_entry
from tools.bundle.check import DEFAULT_SEEDS, check_bundle
from tools.bundle.defaults import read_defaults
from tools.bundle.native import build_native_bundle
from tools.cli.options import add_output_argument
from tools.languages.compilers import compiler_for, is_source


def register(commands) -> None:
    parser = commands.add_parser(
        "bundle", help="make one self-contained file of a bot (Python, C, C++, Java, Rust), to "
        "submit to CodinGame",
        description="Inline a bot and the files it is made of into one file that CodinGame "
        "accepts. BOT is GAME/NAME for a built-in bot (xmas_rush/greedy), NAME with --game, a "
        "path to a .py file, or a C, C++, Java or Rust source file (main.cpp, Player.java, "
        "main.rs): see docs/bundling.md.")
    parser.add_argument("bot", metavar="BOT")
    add_output_argument(parser, "OUT", "the file to write ('-' for stdout); a Java bundle is "
                        "Player.java", required=True)
    parser.add_argument("--game", help="the game of a built-in bot given by NAME alone; the game "
                        "--check plays")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="defaults",
                        help="Python: bake in a parameter default, as the bot's option would set "
                        "it (--set depth=2); repeatable")
    parser.add_argument("--strip", choices=STRIP_MODES, default="auto",
                        help="Python: drop comments and docstrings: auto = only when the file "
                        "would otherwise reach the limit (default: auto)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="C, C++: a folder #include looks in after the including file's own, "
                        "as the compiler's -I; repeatable")
    parser.add_argument("--limit", type=int, default=CODINGAME_LIMIT, metavar="CHARS",
                        help=f"refuse a bundle of this many characters or more "
                        f"(default: {CODINGAME_LIMIT:,}, CodinGame's)")
    parser.add_argument("--check", action="store_true",
                        help="then play the original and the bundle against --vs on the same "
                        "seeds and check that every answer is the same (exit 1 if not)")
    parser.add_argument("--vs", metavar="OPPONENT",
                        help="--check's opponent (default: random, seeded by each game's seed)")
    parser.add_argument("--seeds", metavar="FILE", help="--check's seeds, one a line (default: "
                        f"1 to {len(DEFAULT_SEEDS)})")
    parser.set_defaults(func=run)


def _check_module_name(output: str) -> None:
    """A Python bundle named like a standard module (random.py) would be imported, in place of that
    module, by every other script of its folder: psyleague keeps all its bots in one."""
    stem = Path(output).stem
    if output != "-" and stem in sys.stdlib_module_names:
        raise UsageError(f"-o {output!r}: {stem}.py would shadow Python's standard module {stem!r} "
                         f"for every bot in its folder; pick another name (e.g. {stem}_bot.py)")


def run(args) -> int:
    if args.limit <= 0:
        raise UsageError(f"--limit {args.limit}: must be positive")
    for given, option in ((args.seeds, "--seeds"), (args.vs, "--vs")):
        if given is not None and not args.check:
            raise UsageError(f"{option} is for --check (what the bundle is checked on)")
    args.vs = args.vs or "random"
    game = _check_game(args) if args.check else None
    seeds = read_seeds(args.seeds).seeds if args.seeds else DEFAULT_SEEDS
    if is_source(args.bot):
        text, name, summary, original, bundled = _native(args, game)
    else:
        text, name, summary, original, bundled = _python(args, game)
    if args.output == "-":
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    else:
        _write(args.output, text)
        print(f"{args.output}: {len(text):,} characters ({len(text) / CODINGAME_LIMIT:.0%} of "
              f"CodinGame's limit), {summary}")
    if game is None:
        return 0
    # named to the guardian before it is made: a botarena killed even by SIGKILL leaves none
    folder = make_watched_folder(tempfile.gettempdir(), guardian.CHECK_PREFIX)
    try:
        bundle_file = Path(folder, name)
        bundle_file.write_text(text, encoding="utf-8", errors="surrogateescape")
        return _report(args, check_bundle(game, original(), bundled(bundle_file),
                                          resolve_bot(game.name, args.vs), seeds=seeds))
    finally:
        remove_folder(folder)


def _check_game(args):
    game = args.game
    if game is None and not (args.bot.endswith(".py") or is_source(args.bot)):
        game = args.bot.rpartition("/")[0] or None
    if game is None:
        raise UsageError("--check needs --game GAME: the game the bundle and the original play")
    return load_game(game)


def _command(args) -> str:
    """The bundle's ``Made by:`` line: the command as given, so that it makes this file again
    (and checks it again) when run from the same folder."""
    return shlex.join(["botarena", "bundle", args.bot, "-o", args.output,
                       *(["--game", args.game] if args.game else []),
                       *(word for folder in args.include_dirs for word in ("-I", folder)),
                       *(word for pair in args.defaults for word in ("--set", pair)),
                       *([f"--strip={args.strip}"] if args.strip != "auto" else []),
                       *([f"--limit={args.limit}"] if args.limit != CODINGAME_LIMIT else []),
                       *(["--check"] if args.check else []),
                       *(["--vs", args.vs] if args.check and args.vs != "random" else []),
                       *(["--seeds", args.seeds] if args.seeds else [])])


def _python(args, game):
    if args.include_dirs:
        raise UsageError("-I is for C and C++ bots")
    _check_module_name(args.output)
    entry = resolve_entry(args.bot, args.game)
    defaults, arguments = read_defaults(entry, args.defaults)
    if args.output != "-" and Path(args.output).resolve() == entry.path:
        raise UsageError(f"-o {args.output!r} is the bot itself: choose another file")
    bundle = build_bundle(entry, defaults=defaults, strip=args.strip, limit=args.limit,
                          command=_command(args))
    how = "comments and docstrings stripped" if bundle.stripped else "sources verbatim"
    summary = f"{plural(len(bundle.modules), 'module')}, {how}"

    def original() -> PlayerSpec:
        head = args.bot if args.bot.endswith(".py") else args.bot.rpartition("/")[2]
        return resolve_bot(game.name, shlex.join([head, *arguments]))

    def bundled(path: Path) -> PlayerSpec:
        # as CodinGame runs it: isolated (nothing of this project importable), no arguments
        return PlayerSpec(name=f"bundle of {args.bot}",
                          argv=(sys.executable, "-I", "-S", str(path)))
    return bundle.text, "bot.py", summary, original, bundled


def _native(args, game):
    if args.defaults:
        raise UsageError("--set is for Python bots; a compiled bot's defaults are in its source")
    if args.strip != "auto":
        raise UsageError("--strip is for Python bots")
    entry = Path(args.bot)
    if args.output != "-" and entry.is_file() and Path(args.output).resolve() == entry.resolve():
        raise UsageError(f"-o {args.output!r} is the bot itself: choose another file")
    bundle = build_native_bundle(entry, include_dirs=tuple(map(Path, args.include_dirs)),
                                 limit=args.limit, command=_command(args))
    _check_output_name(args.output, bundle.language)
    for warning in bundle.warnings:
        print(f"botarena bundle: warning: {warning}", file=sys.stderr)
    name = "Player.java" if bundle.language == "Java" else f"bot{entry.suffix}"
    summary = f"{plural(bundle.files, 'file')} ({bundle.language})"

    def original() -> PlayerSpec:
        words = [args.bot, *(word for folder in args.include_dirs for word in ("-I", folder))]
        return resolve_bot(game.name, shlex.join(words))

    def bundled(path: Path) -> PlayerSpec:
        return resolve_bot(game.name, shlex.join([str(path)]))
    return bundle.text, name, summary, original, bundled


def _check_output_name(output: str, language: str) -> None:
    """A bundle its own compiler accepts: a C++ file named .cpp, a Java one Player.java."""
    if output == "-":
        return
    if language == "Java" and Path(output).name != "Player.java":
        raise UsageError(f"-o {output!r}: javac wants the public class Player in a file named "
                         "Player.java: write -o DIR/Player.java")
    other = compiler_for(output)
    if other is not None and other.language != language:
        raise UsageError(f"-o {output!r} is a {other.language} file name; this bundle is "
                         f"{language}")


def _write(output: str, text: str) -> None:
    try:
        # a missing folder is made, as starter -o makes it (-o submit/Player.java for Java)
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        # a C or C++ source that is not UTF-8 (a Latin-1 comment) is written back byte for byte
        Path(output).write_text(text, encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        raise UsageError(f"cannot write {output!r}: {error.strerror}") from None


def _report(args, report) -> int:
    games = plural(report.games, "game")
    if report.passed:
        print(f"check: the bundle answered as the original in {games} against {args.vs} "
              f"({report.answers:,} answers the same)")
        return 0
    if report.difference is not None:
        print(printable(f"check failed after {games} against {args.vs}: "
                        f"{report.difference.describe()} (is the bot deterministic? it needs a "
                        "fixed seed, e.g. --set seed=1 for a Python bot, and a fixed search "
                        "budget rather than a clock)"), file=sys.stderr)
    else:
        print(printable(f"check failed: the original itself did not finish a game against "
                        f"{args.vs} ({report.original_fault}); nothing was proven"),
              file=sys.stderr)
    return 1
