"""``botarena replay FILE``: check a recorded game against the rules, or re-run its bots.

A replay file may come from anyone, and its bot commands are programs: a re-run prints every
command it will start and runs them only with --run (or a yes typed at a terminal). --verify
starts no process at all.
"""
from __future__ import annotations

import json
import shlex
import sys
from typing import Any

from referee.api import Game, TimeControl, UsageError
from referee.external.game import ExternalGame, replay_fields
from referee.external.sdk_log import write_sdk_log
from referee.games import load_game
from referee.match import PlayerSpec, play_match
from referee.replay import read_replay, to_replay, write_replay
from referee.replay_check import verify_replay
from tools.arena.botspec import resolve_bot
from tools.arena.printable import escaped_char, printable
from tools.arena.setup import time_control_with
from tools.cli.options import add_output_argument, check_output_file
from tools.cli.play import summary_text


def register(commands) -> None:
    parser = commands.add_parser(
        "replay", help="check a replay against the rules, or re-run its bots",
        description="--verify plays the recorded answers through the rules and checks every "
        "input block, fault, score, rank, the winner and the end reason (exit 1 at the first "
        "difference); it starts no process. Without --verify, re-run the game with the "
        "replay's bot commands, same seed, options and time control, and report whether the "
        "bots answered as recorded: the commands are printed first and run only with --run "
        "(or after a yes at a terminal), since a replay from elsewhere can hold any command.")
    parser.add_argument("file")
    parser.add_argument("--verify", action="store_true",
                        help="check the replay against the rules only (no process is started)")
    parser.add_argument("--run", action="store_true",
                        help="re-run the replay's bot commands without asking")
    parser.add_argument("--json", action="store_true", help="print the new result as one JSON object")
    add_output_argument(parser, "FILE", "write the new game's replay here", old="--out")
    parser.add_argument("--sdk-log", metavar="FILE.json",
                        help="write the recorded game as the SDK's JSON game log (a CodinGame "
                        "referee's game, played with a game file); runs nothing")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.verify and args.output:
        raise UsageError("-o/--output writes the replay of a re-run; --verify re-runs nothing")
    if args.output is not None:
        check_output_file(args.output, "-o")
    replay = read_replay(args.file)
    if args.sdk_log is not None:
        if args.verify or args.run or args.output:
            raise UsageError("--sdk-log converts the recorded game; it runs and checks nothing")
        check_output_file(args.sdk_log, "--sdk-log")
        write_sdk_log(args.sdk_log, replay)
        print(f"wrote {args.sdk_log}")
        return 0
    game, options, clock = replay_setup(replay, args.file)
    if args.verify:
        if not isinstance(game, Game):
            raise UsageError(f"--verify checks a game against botarena's rules; {game.name} is "
                             "played by an external referee (a game file): re-run it with --run "
                             "instead")
        difference = verify_replay(game, replay, options)
        if args.json:
            print(json.dumps({"agrees": difference is None,
                              "difference": None if difference is None else str(difference)}))
        else:
            print("replay agrees with the rules" if difference is None
                  else f"replay differs from the rules at {difference}")
        return 0 if difference is None else 1
    players = [_player(game.name, entry) for entry in replay["players"]]
    _confirm_run(players, args.run, getattr(game, "commands", list)())
    result = play_match(game, players, seed=replay["seed"], options=options, time_control=clock)
    if args.output:
        write_replay(args.output, {**to_replay(result, players, clock), **replay_fields(game)})
    recorded = [seat["output"] for turn in replay["turns"] for seat in turn["seats"]]
    replayed = [seat.output for record in result.records for seat in record.seats]
    same = recorded == replayed
    if args.json:
        print(json.dumps(dict(result.to_json(), identical=same)))
    else:
        print(printable(summary_text(result), keep_newlines=True))
        print("identical to the recording" if same else _first_difference(recorded, replayed))
    return 0


def replay_setup(replay: dict, path: str) -> tuple[Game | ExternalGame, dict[str, Any], TimeControl]:
    """The replay's game, options and time control, held to the command line's limits."""
    where = f"replay {str(path)!r}"
    game = load_game(replay.get("game_file") or replay["game"])
    low, high = game.seats
    if not low <= len(replay["players"]) <= high:
        raise UsageError(f"{where}: {len(replay['players'])} players; {game.name} takes "
                         f"{low if low == high else f'{low} to {high}'}")
    try:
        options = game.parse_options({key: str(value)
                                      for key, value in replay.get("options", {}).items()})
    except UsageError as error:
        raise UsageError(f"{where}: {error}") from None
    clock = time_control_with(game.time_control, replay["time_control"],
                              lambda field: f"{where}: time_control.{field}")
    return game, options, clock


def _player(game: str, entry: dict) -> PlayerSpec:
    """The bot of a replay's entry: a built-in bot whose recorded command is the one its name
    gives (up to the Python that ran it) runs with this botarena's Python; anything else runs
    exactly as recorded."""
    recorded = tuple(entry["argv"])
    try:
        resolved = resolve_bot(game, entry["bot"], check_args=False)
    except UsageError:
        resolved = None
    if resolved is not None and resolved.env is not None and resolved.argv[1:] == recorded[1:]:
        return PlayerSpec(name=entry["bot"], argv=resolved.argv, env=resolved.env)
    return PlayerSpec(name=entry["bot"], argv=recorded)


def _confirm_run(players: list[PlayerSpec], run: bool,
                 others: list[tuple[str, tuple[str, ...]]]) -> None:
    """Show the commands (the bots', then ``others``: a game file's referee); UsageError unless
    --run was given or a user at a terminal says yes."""
    print("this replay runs these commands:", file=sys.stderr)
    for seat, spec in enumerate(players):
        print(f"  seat {seat}: {shown_command(spec.argv)}", file=sys.stderr)
    for what, argv in others:
        print(f"  {what}: {shown_command(argv)}", file=sys.stderr)
    if run:
        return
    if sys.stdin.isatty() and sys.stderr.isatty():
        print("run them? [y/N] ", end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() in ("y", "yes"):
            return
    raise UsageError("not run: a replay's commands run only with --run (check them above "
                     "first), or use --verify to check the replay without running anything")


def shown_command(argv: tuple[str, ...]) -> str:
    """``argv`` as a shell line that draws only what it says: a word holding a character that is
    not printable (a carriage return, an escape sequence that would redraw the line) is written
    in bash's $'...' form with that character escaped, so a replay cannot disguise a command."""
    return " ".join(shlex.quote(word) if word.isprintable() else
                    "$'" + "".join(map(_escaped, word)) + "'" for word in argv)


def _escaped(char: str) -> str:
    return "\\" + char if char in "\\'" else escaped_char(char)


def _first_difference(recorded: list, replayed: list) -> str:
    for index, (old, new) in enumerate(zip(recorded, replayed)):
        if old != new:
            return f"differs from the recording at answer {index}: {old!r} then, {new!r} now"
    return f"differs from the recording: {len(recorded)} answers then, {len(replayed)} now"
