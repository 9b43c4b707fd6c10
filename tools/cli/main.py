"""``botarena``: the command line. Each subcommand lives in a module of its own with ``register``."""
from __future__ import annotations

import argparse
import errno
import importlib
import signal
import sys

from referee.api import BotArenaError
from referee.harness.process import become_subreaper, close_all
from tools.arena.printable import printable
from tools.cli.output import OutputFailed, guarded_stdout, output_failure, silence_stdout

COMMANDS = ("play", "games", "bots", "replay", "view", "match", "league", "ladder", "sweep",
            "tune", "bundle", "starter", "bench")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"botarena: {message} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="botarena", description="A local arena for CodinGame-style game bots.")
    parser.add_argument("--version", action="version", version=f"botarena {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser.set_defaults(commands=commands.choices)
    commands.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"tools.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"tools.cli.{name}":
                raise
            continue
        module.register(commands)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments; an unknown option is reported by the subcommand's parser, so that the
    message points to ``botarena COMMAND --help`` rather than to ``botarena --help``."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        args.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("botarena")
    except PackageNotFoundError:
        return "(not installed)"


def _terminate(signum, frame):
    raise KeyboardInterrupt


def install_stop_handlers() -> None:
    """Ctrl-C, SIGTERM and SIGHUP (the terminal closed) all stop botarena the same way: bots
    killed, a summary, a resumable results file. Installed explicitly, SIGINT included: a
    process started with SIGINT ignored (a background job of a non-interactive shell) has no
    KeyboardInterrupt handler from Python."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _terminate)


def _name_too_long(error: OSError) -> str:
    """ENAMETOOLONG from any path the user gave (a bot, --replay, --view, --csv...): pathlib's
    exists() and is_file() raise it rather than answer False, so it is caught here, once."""
    name = str(error.filename or "")
    shown = repr(name) if len(name) <= 80 else f"{name[:40]!r}...{name[-20:]!r}"
    return (f"file name too long: {shown} ({len(name.encode())} bytes): at most 255 bytes per "
            "file or folder name, 4,095 in all; give a shorter path")


def main(argv: list[str] | None = None) -> int:
    install_stop_handlers()
    become_subreaper()          # a bot's double-forked daemons reparent to us: killed and reaped
    try:
        with guarded_stdout():
            args = _parse(build_parser(), argv)     # inside: a signal may land while importing
            return int(args.func(args) or 0)
    except OutputFailed as failed:
        return output_failure(failed)
    except BotArenaError as error:
        print(printable(f"botarena: {error}", keep_newlines=True), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        close_all()
        print("botarena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            raise
        print(f"botarena: {_name_too_long(error)}", file=sys.stderr)
        return 2
    finally:
        close_all()


if __name__ == "__main__":
    sys.exit(main())
