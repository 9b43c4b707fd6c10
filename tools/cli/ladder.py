"""``botarena ladder FOLDER init|add|remove|list|run|show``: every version of a bot in one folder,
ranked by games chosen where they tell the most (docs/ladder.md)."""
from __future__ import annotations

import json
import re

from referee.api import UsageError
from referee.harness.process import DEFAULT_MEMORY_MB
from tools.arena.arena import usable_cores
from tools.arena.schedule import MAX_GAMES
from tools.arena.settings import BotLimits, Settings
from tools.arena.setup import parse_option_pairs
from tools.ladder.folder import LadderFolder
from tools.ladder.run import LadderRun
from tools.ladder.table import LadderTable

_DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?")


def register(commands) -> None:
    parser = commands.add_parser(
        "ladder", help="a ladder of bots that plays all day, games chosen where they tell most",
        description="Keep every version of a bot in FOLDER and rank them: init the folder for a "
        "game, add bots (from any terminal, even while it runs), run it, show the table. See "
        "docs/ladder.md.")
    parser.add_argument("folder", metavar="FOLDER")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    init = actions.add_parser("init", help="make FOLDER a ladder of GAME",
                              description="Make FOLDER a ladder of GAME (built-in or a game "
                              "file), with its options, time control and seeds.")
    init.add_argument("game")
    init.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="set a game option (see: botarena games)")
    init.add_argument("--turn-ms", type=int, metavar="MS", help="budget of every turn after the first")
    init.add_argument("--first-turn-ms", type=int, metavar="MS", help="budget of a bot's first turn")
    init.add_argument("--grace-ms", type=int, metavar="MS",
                      help="allowance for harness jitter on top of each budget (default: 10)")
    init.add_argument("--seed", type=int, help="base seed the games' seeds derive from "
                      "(default: random, kept in the folder)")
    init.add_argument("--seeds", metavar="FILE", help="play these game seeds, one a line "
                      "(copied into the folder; see docs/tools.md)")
    init.set_defaults(func=run_init)
    add = actions.add_parser("add", help="add a bot (a running ladder plays it at its next game)",
                             description="Add a bot: a built-in bot, a command line or a source "
                             "file, as any command takes it. Its program file is copied into "
                             "FOLDER/bots/NAME, so the ladder keeps this version.")
    add.add_argument("name")
    add.add_argument("bot", metavar="BOT")
    add.set_defaults(func=run_add)
    remove = actions.add_parser("remove", help="take a bot out of the table (its games are kept)")
    remove.add_argument("name")
    remove.set_defaults(func=run_remove)
    listing = actions.add_parser("list", help="the bots, removed ones too")
    listing.add_argument("--json", action="store_true", help="as one JSON object")
    listing.set_defaults(func=run_list)
    _add_run_parser(actions)
    show = actions.add_parser("show", help="the table: ratings, games, faults, win matrix")
    show.add_argument("--json", action="store_true", help="as one JSON object")
    show.add_argument("--bot", metavar="NAME", help="one bot's results against each other bot")
    show.set_defaults(func=run_show)


def _add_run_parser(actions) -> None:
    run = actions.add_parser("run", help="play until stopped (or -n, --for)",
                             description="Play the ladder's games until stopped (Ctrl-C, SIGTERM) "
                             "or -n / --for; run again to go on. One run per folder at a time.")
    run.add_argument("-n", "--games", type=int, metavar="GAMES", help="stop after this many games")
    run.add_argument("--for", dest="duration", metavar="DURATION",
                     help="stop starting games after this long: 90s, 10m, 2h, 1h30m")
    run.add_argument("--jobs", "-j", type=int, metavar="J",
                     help=f"games played at once (default: the number of cores, {usable_cores()})")
    run.add_argument("--cluster", metavar="ADDRESS", help="play on a Dask cluster: tcp://HOST:8786 "
                     "or local[:N] (docs/cluster.md)")
    run.add_argument("--workdir", metavar="DIR", help="with --cluster: where the ladder folder is "
                     "on each worker (default: its path here)")
    run.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                     help=f"per-bot memory cap, 0 for none (default: {DEFAULT_MEMORY_MB})")
    run.add_argument("--sandbox", action="store_true",
                     help="run each bot under bubblewrap (docs/sandbox.md)")
    run.add_argument("--no-line-buffering", action="store_true",
                     help="start bots as they are (default: their stdout line-buffered)")
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.set_defaults(func=run_run)


def parse_duration(text: str) -> float:
    """Seconds of ``90``, ``90s``, ``10m``, ``2h``, ``1h30m``; UsageError otherwise."""
    found = _DURATION.fullmatch(text.strip())
    if not text.strip() or found is None or not any(found.groups()):
        raise UsageError(f"--for {text!r}: give a duration such as 90s, 10m, 2h or 1h30m")
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    total = hours * 3600 + minutes * 60 + seconds
    if total <= 0:
        raise UsageError(f"--for {text!r}: must be longer than 0")
    return float(total)


def run_init(args) -> int:
    folder = LadderFolder(args.folder)
    settings = Settings(args.game, options=parse_option_pairs(args.option),
                        first_turn_ms=args.first_turn_ms, turn_ms=args.turn_ms,
                        grace_ms=args.grace_ms, seed=args.seed)
    config = folder.init(settings, args.seeds)
    seeds = "seeds from seeds.txt" if config.seeds else f"seed {config.seed}"
    print(f"ladder {args.folder}: {config.game}, {seeds}; add bots with: botarena ladder "
          f"{args.folder} add NAME BOT")
    return 0


def run_add(args) -> int:
    bot = LadderFolder(args.folder).add(args.name, args.bot)
    kept = f" (kept as {bot.command!r})" if bot.command != bot.given else ""
    print(f"ladder {args.folder}: added {bot.name}: {bot.given!r}{kept}")
    return 0


def run_remove(args) -> int:
    LadderFolder(args.folder).remove(args.name)
    print(f"ladder {args.folder}: removed {args.name} (its games stay in the results file)")
    return 0


def run_list(args) -> int:
    folder = LadderFolder(args.folder)
    folder.config()
    bots = sorted(folder.bots().values(), key=lambda bot: bot.added)
    newest = folder.newest()
    if args.json:
        print(json.dumps({"bots": [{"name": bot.name, "bot": bot.given, "command": bot.command,
                                    "added": bot.time, "removed": bot.removed,
                                    "newest": bot.name == newest} for bot in bots]}))
        return 0
    if not bots:
        print(f"ladder {args.folder}: no bots yet")
    width = max((len(bot.name) for bot in bots), default=0)
    for bot in bots:
        state = " (removed)" if bot.removed else " (newest)" if bot.name == newest else ""
        print(f"{bot.name:<{width}}  {bot.time}  {bot.given}{state}")
    return 0


def run_run(args) -> int:
    if args.games is not None and not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"-n {args.games}: must be from 1 to {MAX_GAMES:,}")
    seconds = parse_duration(args.duration) if args.duration is not None else None
    folder = LadderFolder(args.folder)
    base = folder.settings()
    limits = BotLimits(memory_mb=args.memory_mb or None, sandboxed=args.sandbox,
                       line_buffered=not args.no_line_buffering)
    settings = Settings(base.game, options=base.options, first_turn_ms=base.first_turn_ms,
                        turn_ms=base.turn_ms, grace_ms=base.grace_ms, limits=limits,
                        seed=base.seed, seeds=base.seeds, jobs=args.jobs, cluster=args.cluster,
                        workdir=args.workdir, results=base.results, quiet=args.quiet)
    with folder.run_lock():
        run = LadderRun(folder, settings, games=args.games, seconds=seconds)
        outcome = run.play()
    lines = [f"ladder {args.folder}: {outcome.played} games played this run"]
    if outcome.interrupted:
        lines[0] += "; stopped (run again to go on)"
    elif outcome.note:
        lines[0] += f"; stopped: {outcome.note}"
    print("\n".join(lines + LadderTable(folder).lines()))
    return 130 if outcome.interrupted else 0


def run_show(args) -> int:
    table = LadderTable(LadderFolder(args.folder))
    if args.bot is not None:
        if args.json:
            print(json.dumps(table.bot_json(args.bot)))
        else:
            print("\n".join(table.bot_lines(args.bot)))
        return 0
    print(json.dumps(table.to_json()) if args.json else "\n".join(table.lines()))
    return 0
