"""``botarena replay FILE``: re-run a recorded game, or check it against the rules."""
from __future__ import annotations

import json

from referee.api import TimeControl
from referee.games import load_game
from referee.match import PlayerSpec, play_match
from referee.replay import read_replay, to_replay, verify_replay, write_replay
from tools.arena.botspec import resolve_bot
from tools.cli.options import check_output_file
from tools.cli.play import summary_text


def register(commands) -> None:
    parser = commands.add_parser("replay", help="re-run a replay's game with the same bots and seed",
                                 description="Re-run the game of a replay file (same game, seed, "
                                 "options, time control and bot commands) and report whether the "
                                 "bots answered exactly as recorded. --verify checks the recorded "
                                 "answers against the rules without starting any bot.")
    parser.add_argument("file")
    parser.add_argument("--verify", action="store_true", help="check the replay against the rules only")
    parser.add_argument("--json", action="store_true", help="print the new result as one JSON object")
    parser.add_argument("--out", metavar="FILE", help="write the new game's replay here")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.out is not None:
        check_output_file(args.out, "--out")
    replay = read_replay(args.file)
    game = load_game(replay["game"])
    if args.verify:
        problems = verify_replay(game, replay)
        print("replay agrees with the rules" if not problems else "\n".join(problems))
        return 0 if not problems else 1
    if args.out:
        check_output_file(args.out, "--out")           # before the game, not after it
    players = [_player(game.name, entry) for entry in replay["players"]]
    clock = TimeControl(**replay["time_control"])
    result = play_match(game, players, seed=replay["seed"], options=replay["options"], time_control=clock)
    if args.out:
        write_replay(args.out, to_replay(result, players, clock))
    recorded = [seat["output"] for turn in replay["turns"] for seat in turn["seats"]]
    replayed = [seat.output for record in result.records for seat in record.seats]
    same = recorded == replayed
    if args.json:
        print(json.dumps(dict(result.to_json(), identical=same)))
    else:
        print(summary_text(result))
        print("identical to the recording" if same else _first_difference(recorded, replayed))
    return 0


def _player(game: str, entry: dict) -> PlayerSpec:
    resolved = resolve_bot(game, entry["bot"], check_args=False)
    return resolved if resolved.argv[2:] == tuple(entry["argv"])[2:] else \
        PlayerSpec(name=entry["bot"], argv=tuple(entry["argv"]), env=resolved.env)


def _first_difference(recorded: list, replayed: list) -> str:
    for index, (old, new) in enumerate(zip(recorded, replayed)):
        if old != new:
            return f"differs from the recording at answer {index}: {old!r} then, {new!r} now"
    return f"differs from the recording: {len(recorded)} answers then, {len(replayed)} now"
