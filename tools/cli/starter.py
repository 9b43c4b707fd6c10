"""``botarena starter GAME LANGUAGE [-o FILE]``: a starter bot that reads the game's whole
protocol and prints a legal action, in Python, C, C++, Java or Rust (tools/starters)."""
from __future__ import annotations

import sys
from pathlib import Path

from referee.api import UsageError
from tools.cli.options import add_output_argument
from tools.starters import LANGUAGES, StarterLanguage, language_of, starter_text


def register(commands) -> None:
    parser = commands.add_parser(
        "starter", help="write a starter bot for a game in Python, C, C++, Java or Rust",
        description="Print (or write with -o) a starter bot for GAME in LANGUAGE: it reads the "
        "initialization block and every turn's block into variables named after the protocol's "
        "fields, and prints a legal action; the strategy is yours. See docs/writing-a-bot.md.")
    parser.add_argument("game", metavar="GAME", help="a built-in game (botarena games)")
    parser.add_argument("language", metavar="LANGUAGE", help=", ".join(LANGUAGES))
    add_output_argument(parser, "FILE", "the file to write (default: stdout); a Java starter is "
                        "Player.java; an existing file is never overwritten")
    parser.set_defaults(func=run)


def run(args) -> int:
    language = language_of(args.language)
    text = starter_text(args.game, args.language)
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        return 0
    path = Path(args.output)
    _check_name(path, language)
    if path.exists():
        raise UsageError(f"-o {args.output!r} already exists: botarena does not overwrite it "
                         "(your bot?); give another name or remove it first")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.output!r}: {error.strerror}") from None
    opponent = "" if _single_player(args.game) else " random"
    print(f"{args.output}: {args.game} starter in {language.label}; play it: botarena play "
          f"{args.game} {args.output}{opponent}")
    return 0


def _check_name(path: Path, language: StarterLanguage) -> None:
    """A name that botarena (and CodinGame) compiles as ``language``."""
    if language.name == "java" and path.name != "Player.java":
        raise UsageError(f"-o {str(path)!r}: a Java starter is the class Player, which javac "
                         "wants in a file named Player.java: write -o DIR/Player.java")
    if path.suffix not in language.suffixes:
        raise UsageError(f"-o {str(path)!r}: a {language.label} file is named *"
                         f"{language.suffixes[0]} (e.g. {language.file_name('GAME')})")


def _single_player(game: str) -> bool:
    from referee.games import load_game
    return load_game(game).seats[1] == 1
