"""``botarena play``: one game between bots, a readable summary or one JSON object, a replay file."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from referee.api import UsageError
from referee.external.game import replay_fields
from referee.external.sdk_log import write_sdk_log
from referee.match import MatchResult, play_match
from referee.player_log import log
from referee.replay import to_replay, write_replay
from tools.arena.botspec import command_of, for_game, resolve_bot
from tools.arena.printable import printable
from tools.arena.setup import game_setup
from tools.cli.options import add_game_arguments, check_output_file, game_settings


def register(commands) -> None:
    parser = commands.add_parser("play", help="play one game between bots",
                                 description="Play one game. BOT is a built-in bot's name with "
                                 "arguments ('random --seed 3'), a path to a .py file, a C, C++, "
                                 "Java or Rust source file, or a command. Each seat's line gives "
                                 "its answers' latency and '(margin N)': the least time, in ms, "
                                 "it had left in any turn (below 0: it used the grace allowance, "
                                 "--grace-ms).")
    parser.add_argument("game")
    parser.add_argument("bots", nargs="+", metavar="BOT")
    parser.add_argument("--seed", type=int, help="game seed (default: random, printed)")
    add_game_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--psyleague", action="store_true",
                        help="print psyleague's play_game object (ranks, errors, player_data)")
    parser.add_argument("--replay", metavar="FILE", help="write the replay JSON here")
    parser.add_argument("--sdk-log", metavar="FILE.json",
                        help="a game file's CodinGame referee: write the SDK's JSON game log "
                        "(the format of CodinGame's viewer) here")
    parser.add_argument("--view", metavar="FILE.html",
                        help="write the game as an HTML page here (see: botarena view)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log every line each way on stderr: 'seat0 << input', "
                        "'seat0 >> answer (12.3 ms)', 'seat0 !! fault'")
    parser.set_defaults(func=run)


def run(args) -> int:
    settings = game_settings(args)
    game, options, clock = game_setup(settings)
    low, high = game.seats
    if not low <= len(args.bots) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise UsageError(f"{game.name} takes {wanted} bot(s), got {len(args.bots)}")
    players = [resolve_bot(game.name, text, sandboxed=settings.limits.sandboxed)
               for text in args.bots]
    if args.replay is not None:
        check_output_file(args.replay, "--replay")
    if args.view is not None:
        check_output_file(args.view, "--view")
    if args.sdk_log is not None:
        if getattr(game, "protocol", None) != "codingame":
            raise UsageError(f"--sdk-log: {game.name} is not a CodinGame referee's game (a game "
                             "file of protocol \"codingame\")")
        check_output_file(args.sdk_log, "--sdk-log")
    recording = bool(args.replay or args.view or args.sdk_log)
    seed = settings.seed if settings.seed is not None else random.randrange(2**31)
    # built-in bots without --seed get one from the game seed and their seat (same seed,
    # same game); their name becomes the command that plays it again
    players = [for_game(spec, seed, seat) for seat, spec in enumerate(players)]
    players = [dataclasses.replace(spec, name=command_of(spec)) for spec in players]
    on_turn: Callable[[int], None] | None = None
    progress = None
    if not (args.json or args.psyleague or args.quiet or args.verbose) and sys.stderr.isatty():
        from tqdm import tqdm
        progress = tqdm(desc=f"{game.name} seed {seed}", unit="turn", leave=False, file=sys.stderr)
        bar = progress

        def on_turn(turn: int) -> None:
            bar.update(1)
    try:
        with _lines_logged(args.verbose):
            result = play_match(game, players, seed=seed, options=options, time_control=clock,
                                record=recording, **settings.limits.to_kwargs(), on_turn=on_turn)
    finally:
        if progress is not None:
            progress.close()
    if recording:
        replay = {**to_replay(result, players, clock), **replay_fields(game)}
        if args.replay:
            write_replay(args.replay, replay)
        if args.sdk_log:
            write_sdk_log(args.sdk_log, replay)
        if args.view:
            from tools.view.frames import page_data
            from tools.view.page import write_page
            write_page(args.view, [page_data(replay, Path(args.replay or args.view).name)])
    if args.psyleague:
        print(json.dumps(to_psyleague(result)))
    elif args.json:
        print(json.dumps(result.to_json()))
    else:
        print(printable(summary_text(result), keep_newlines=True))
        if args.replay:
            print(f"replay: {args.replay}  (re-run: botarena replay {args.replay} --run)")
        if args.view:
            print(f"page: {args.view}  (open it in a browser)")
    if result.referee_error is not None:
        print(printable(f"botarena: {result.reason}\n{result.referee_error}", keep_newlines=True),
              file=sys.stderr)
        return 1
    return 0


class _PrintableFormatter(logging.Formatter):
    """Log lines quote what bots and referees wrote: escaped for the terminal."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record), keep_newlines=True)


@contextlib.contextmanager
def _lines_logged(verbose: bool) -> Iterator[None]:
    """With ``verbose``, the match's lines each way (referee.player_log) on stderr meanwhile."""
    if not verbose:
        yield
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_PrintableFormatter("%(message)s"))
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)


def to_psyleague(result: MatchResult) -> dict:
    """psyleague's play_game result: ranks, errors, test_data, player_data ([PDATA]).

    As psyleague reads it: ``ranks`` in trueskill's form (0 best, ties share a rank), ``errors``
    0/1 per player (summed into its error count), and flat ``test_data``/``player_data`` values,
    which psyleague turns into numbers with int() then float(): so they are given as text (a
    float would be cut to an int, and a list would crash it), the [PDATA] values as the bot
    printed them.
    """
    players = result.players
    test_data = {"seed": result.seed, "turns": result.turns, "reason": result.reason}
    test_data.update({f"score{seat + 1}": f"{player.score:g}" for seat, player in enumerate(players)})
    return {"ranks": [player.rank for player in players],
            "errors": [int(player.fault is not None) for player in players],
            "test_data": test_data,
            "player_data": [dict(player.pdata) for player in players]}


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary_text(result: MatchResult) -> str:
    frames = "" if result.frames is None else f" ({_count(result.frames, 'frame')})"
    lines = [f"{result.game}  seed {result.seed}  {_count(result.turns, 'turn')}{frames}  "
             f"({result.reason})"]
    # the seats' columns line up, a path longer than the usual column included
    width = max([28] + [len(player.bot) + 1 for player in result.players])
    for seat, player in enumerate(result.players):
        latency = player.latency_summary()
        fault = f"  FAULT {player.fault.kind.value} at turn {player.fault.turn}: {player.fault.detail}" \
            if player.fault else ""
        margin = "" if player.margin_ms is None else f" (margin {player.margin_ms:.1f})"
        lines.append(f"  seat {seat}  {player.bot:<{width}} score {player.score:g}  rank {player.rank}  "
                     f"latency p50 {latency['p50']:.1f} p99 {latency['p99']:.1f} "
                     f"max {latency['max']:.1f} ms{margin}{fault}")
    lines.extend(f"warning: {warning}" for warning in result.warnings)
    if result.referee_error is not None:
        lines.append("result: none (the referee failed; a bug in the game's code, not the bots')")
        return "\n".join(lines)
    if len(result.players) == 1:
        lines.append(f"result: score {result.players[0].score:g}")
    elif result.winner is None:
        lines.append("result: draw")
    else:
        lines.append(f"result: seat {result.winner} ({result.players[result.winner].bot}) wins")
    return "\n".join(lines)
