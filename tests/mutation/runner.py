"""Mutation testing: ``python -m tests.mutation.runner [TARGET ...]`` (slow; not part of the test run).

mutmut (``pip install -e '.[mutation]'``) plants one small bug at a time (an operator, a
constant, a comparison) in the modules where a silent bug costs users most, runs the tests
that reach that code, and reports the mutants no test caught. Its settings, the modules and
the in-process test files it runs, are under ``[tool.mutmut]`` in pyproject.toml.

Targets: stats (tools/stats.py), tally (tools/arena/tally.py), rules and codec (every game's
rules.py and codec.py; ``rules:GAME`` or ``codec:GAME`` for one game's), match (referee/match.py),
board (xmas_rush's board.py: the bitboard, reachability, distances and move plans), result
(referee/result.py) and rules_referee (referee/rules_referee.py).
Survivors listed in ``EQUIVALENT`` below change nothing a user can observe; they are printed
apart, with the reason.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from referee.games import game_names

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TARGETS = {
    "stats": "tools.stats.*",
    "tally": "tools.arena.tally.*",
    "rules": "referee.games.*.rules.*",
    "codec": "referee.games.*.codec.*",
    "match": "referee.match.*",
    "board": "referee.games.xmas_rush.board.*",     # the bitboard, paths and move plans
    "result": "referee.result.*",                   # ranks, end reasons, summaries, JSON
    "rules_referee": "referee.rules_referee.*",     # a Game's rules and codec as the referee
}
# mutant name (stable while its function's source is unchanged) -> why surviving it is harmless
_MIN_NEVER_BINDS = ("int(q * count) <= q * count < count, so min(count - 1, ...) never takes its "
                    "first argument: changing it changes nothing")
_TURN_BLOCK_ENDS = ("the grid's slice one line longer: a turn block ends with the grid's last "
                    "row, so there is no further line to take")
_INFINITE_ONLY = "only +inf, -inf or nan reach this test (finite values returned above)"
_CACHE_BYPASSED = "the cache is never read: the same lines are built again (slower, equal)"
_NO_ITEM_ZERO = ("also records item code 0 (no item); only codes >= 1, from the item order, "
                 "are looked up")
_XMAS = "referee.games.xmas_rush.codec.x_"
_SAME_PARITY = "(code + 1) & 1 is (code - 1) & 1: the same parity"
_TIE_RETURNED = "{} for >: equal {} returned None just before"
_LEFT_STEP_EDGE = ("cell / SIZE for cell % SIZE before a LEFT step: they differ only on column 0, "
                   "where the east bit then read (column 6 of the row above) is never set: "
                   "connections() joins no tile past the board's edge")
_TO_THE_END = ("max_plies 64 -> 65 by default: a game has at most 60 moves (64 squares, 4 taken "
               "at the start), so both play to the end")
_OTHELLO = "referee.games.othello.rules.x_"
_FALSY_PASSED = ("passed None instead of False: it is only tested for truth, and set again "
                 "before it is returned")
_SEAT_UNREAD = "the default seat 0 -> 1 of a one-player game's legal_actions: the seat is never read"
EQUIVALENT: dict[str, str] = {
    "tools.arena.tally.xǁLatencyCountsǁsummary__mutmut_2":
        "latency_summary(None) is latency_summary([]): both empty, both falsy",
    "tools.arena.tally.xǁLatencyCountsǁsummary__mutmut_10": _MIN_NEVER_BINDS,
    "tools.arena.tally.xǁLatencyCountsǁsummary__mutmut_21": _MIN_NEVER_BINDS,
    "tools.arena.tally.xǁLatencyCountsǁadd__mutmut_4":
        "value <= 10 instead of < 10 differs only at 10.0, which three figures keep as 10.0",
    "tools.arena.tally.x_format_elo__mutmut_10": _INFINITE_ONLY + ": > 0 and >= 0 agree",
    "tools.arena.tally.x_format_elo__mutmut_11": _INFINITE_ONLY + ": > 0 and > 1 agree",
    'tools.stats.x__information__mutmut_11':
        "the diagonal cell is still 0 when the prior's term is added: = and += agree",
    'tools.stats.x__information__mutmut_17':
        'a pair that never met has games 0, so it adds a weight of 0 either way',
    'tools.stats.x_bradley_terry__mutmut_28':
        'a pair that never met has games 0, so it adds 0 to the denominator either way',
    'tools.stats.x_bradley_terry__mutmut_1':
        'one more allowed iteration: the fit converges long before 10000',
    'tools.stats.x_bradley_terry__mutmut_10':
        'another starting strength: MM converges to the same unique maximum',
    'tools.stats.x_bradley_terry__mutmut_20':
        'initial change only starts the max; each sweep recomputes it from 0 or more',
    'tools.stats.x_bradley_terry__mutmut_43':
        'a wrong convergence measure only runs all 10000 sweeps to the same fixed point',
    'tools.stats.x_bradley_terry__mutmut_45':
        '< vs <= on the convergence tolerance',
    'tools.stats.x__mle_with_mean__mutmut_23':
        'only the size of the 1e-12 nudge off the poles changes; 200 halvings reach the root',
    'tools.stats.x__mle_with_mean__mutmut_25':
        'the 1e-12 nudge off the lower pole: the root is strictly inside, bisection ends at it',
    'tools.stats.x__mle_with_mean__mutmut_28':
        'the 1e-12 nudge off the upper pole: the root is strictly inside, bisection ends at it',
    'tools.stats.x__mle_with_mean__mutmut_32':
        '201 vs 200 bisection steps: the interval is at float resolution long before',
    'tools.stats.x__mle_with_mean__mutmut_38':
        'slope > 0 vs >= 0: differs only when the midpoint is the exact root',
    'tools.stats.x__mle_with_mean__mutmut_57':
        'at the root the fitted weights already sum to 1 (to rounding): * and / by norm agree',
    'tools.stats.x_los__mutmut_1':
        'wins == losses gives erf(0) = 0, i.e. 0.5, by the formula as well',
    "referee.games.calculation.codec.x_action_from_text__mutmut_7":
        'an empty line\'s command "" -> "XXXX": neither is a command, the same refusal follows',
    "referee.games.calculation.codec.x_parse_action__mutmut_8":
        "action < 4 -> <= 4 adds WASTE 0, which is legal whenever a card is current and "
        "refused by the spent-stock test above when none is: it never reaches this test",
    "referee.games.calculation.codec.x_state_from_lines__mutmut_21":
        "stock [] -> None: the current card is given, so the stock is not read before "
        "it is replaced by the unseen cards",
    "referee.games.number_maze.codec.x_state_from_lines__mutmut_28": _TURN_BLOCK_ENDS,
    "referee.result.x_latency_summary__mutmut_21": _MIN_NEVER_BINDS,
    # (_Match.warnings is _Game's, unchanged but for the class's name)
    "referee.match.xǁ_Matchǁwarnings__mutmut_18":
        "a lag of 1.0 instead of 0.0 ms before every bot answered: both are under the 10 ms "
        "threshold",
    "referee.games.number_maze_duel.codec.x_state_from_lines__mutmut_31": _TURN_BLOCK_ENDS,
    "referee.games.number_maze.rules.xǁNumberMazeStateǁgenerate__mutmut_11":
        "random_points(mirrored=None): None is falsy as False is, the same unmirrored points",
    "referee.games.number_maze.rules.xǁNumberMazeStateǁlegal_actions__mutmut_1": _SEAT_UNREAD,
    "referee.games.calculation.rules.xǁCalculationStateǁlegal_actions__mutmut_1": _SEAT_UNREAD,
    "referee.games.othello.rules.x_random_playout__mutmut_1": _TO_THE_END,
    "referee.games.othello.rules.xǁOthelloStateǁplayout__mutmut_1": _TO_THE_END,
    _OTHELLO + "_ray_table__mutmut_17":
        "ray >= 1 << square: a ray never holds its own square, so it never equals that bit",
    _OTHELLO + "_ray_table__mutmut_19":
        "ray > 2 << square: a ray towards higher bits starts at square + 1 or beyond and has two "
        "or more squares, so it exceeds 2 << square too; the others are below 1 << square",
    _OTHELLO + "random_playout__mutmut_7": _FALSY_PASSED,
    _OTHELLO + "random_playout__mutmut_23": _FALSY_PASSED,
    _OTHELLO + "legal_moves__mutmut_28":
        "moves = for moves |= in the first direction: moves is still 0 there",
    _OTHELLO + "flips__mutmut_15":
        "ray & (first - 2) for (first - 1) on a ray towards higher bits: they differ only in bit 0, "
        "which such a ray (squares above its own, at least 1) never holds",
    "referee.games.othello.rules.xǁOthelloStateǁwinner__mutmut_8":
        _TIE_RETURNED.format("black >= white", "counts"),
    "referee.games.calculation.rules.xǁCalculationStateǁunseen_cards__mutmut_4":
        "rank 0 also listed: its count is always 0 (no card has rank 0), so none is added",
}
EQUIVALENT.update({
    _XMAS + "_item_lines__mutmut_12": _SAME_PARITY,
    _XMAS + "_board_view__mutmut_2": _CACHE_BYPASSED,
    _XMAS + "_board_view__mutmut_23": "every row is scanned for items, not only rows that have one",
    _XMAS + "_board_view__mutmut_28": _NO_ITEM_ZERO,
    _XMAS + "_player_line__mutmut_5": _CACHE_BYPASSED,
    _XMAS + "_player_line__mutmut_6": _CACHE_BYPASSED,
    _XMAS + "_items__mutmut_6": _CACHE_BYPASSED,
    _XMAS + "_items__mutmut_12": _NO_ITEM_ZERO,
    _XMAS + "turn_lines__mutmut_33": _CACHE_BYPASSED,
    _XMAS + "turn_lines__mutmut_34": _CACHE_BYPASSED,
    _XMAS + "_quest_lines__mutmut_1": "the quest-block cache is emptied at 4097 entries, not 4096",
    _XMAS + "parse_action__mutmut_17": "PASS then takes the MOVE path with no steps: Move((), the "
                                       "same cell)",
    _XMAS + "parse_action__mutmut_18": "PASS then takes the MOVE path with no steps: Move((), the "
                                       "same cell)",
    # _guess_decks on the blocks of a real game: both seats draw one sequence, so the seat that
    # drew fewer still shows a full hand of quests and equal draws leave equal hidden sets
    _XMAS + "_guess_decks__mutmut_18": "score - shown orders the seats as score + shown does",
    _XMAS + "_guess_decks__mutmut_26": "a tie makes seat 1 the leader: equal hidden sets, "
                                       "same decks",
    _XMAS + "_guess_decks__mutmut_35": "equal hidden sets then take the own-names branch: the "
                                       "same sorted decks",
    "referee.games.othello.codec.x_square_from_text__mutmut_11":
        "the text is lowercased first: no 'X' reaches the rank test",
    "referee.games.othello.codec.x_square_from_text__mutmut_19":
        "each file letter is once in 'abcdefgh': index and rindex agree",
})
_XMAS_STATE = "referee.games.xmas_rush.rules.xǁXmasRushStateǁ"
_XMAS_BOARD = "referee.games.xmas_rush.board.x_"
_LEG_NEVER_ZERO = "a leg between two different goals is never 0 steps, so < 0, <= 0 and < 1 agree"
_REVEAL_NOTHING = ("_reveal called with both seats' quests full: it draws min(visible - held, deck) "
                   "= 0 cards for each, so nothing changes")
EQUIVALENT.update({
    _XMAS_STATE + "_start_turn__mutmut_20": _REVEAL_NOTHING,
    _XMAS_STATE + "_start_turn__mutmut_21": _REVEAL_NOTHING,
    _XMAS_STATE + "_reveal__mutmut_12":
        "count >= 0 for > 0: drawing 0 cards slices off nothing and adds nothing",
    _XMAS_STATE + "_walk__mutmut_12": _LEFT_STEP_EDGE,
    _XMAS_BOARD + "can_step__mutmut_14": _LEFT_STEP_EDGE,
    _XMAS_BOARD + "item_owner__mutmut_2": _SAME_PARITY,
    _XMAS_BOARD + "item_mask__mutmut_5":
        "hits = 1: bit 0 is shifted out by hits >> 5, and gather(0) is 0 when nothing matched",
    _XMAS_BOARD + "item_mask__mutmut_14": "the guard: gather(0) is 0 too",
    _XMAS_BOARD + "plan_moves__mutmut_23":
        "the goals' distances without the step limit: a leg past the limit is rejected by "
        "cost + leg > max_steps instead of by leg < 0, and distances within the limit, so the "
        "paths, are the same",
    _XMAS_BOARD + "plan_moves__mutmut_32":
        "permutations one longer than the goals: there are none",
    _XMAS_BOARD + "plan_moves__mutmut_49": "max_steps + 2 for max_steps + 1: both exceed the limit",
    _XMAS_BOARD + "plan_moves__mutmut_50": _LEG_NEVER_ZERO,
    _XMAS_BOARD + "plan_moves__mutmut_51": _LEG_NEVER_ZERO,
    _XMAS_BOARD + "plan_moves__mutmut_77":
        "ties (as many goals, as few steps) go to the later tour: either is a best walk by the "
        "contract; which one a bot takes is a tie-break, not a rule",
    _XMAS_BOARD + "plan_moves__mutmut_88":
        "dist_start for dist_goal[start] when the start is a goal: the same start and limit, "
        "the same distances",
    _XMAS_STATE + "winner__mutmut_8": _TIE_RETURNED.format("first >= second", "scores"),
    _XMAS_STATE + "quest_cells__mutmut_2": "item_mask(board, ()) is 0, what the guard returns",
    _XMAS_STATE + "shuffle_decks__mutmut_6":
        "decks of equal length shuffled from seat 1's names instead of seat 0's: both decks "
        "are one draw order, so the names and the shuffle are the same",
})
_RESULT = re.compile(r"^\s*(?P<name>[\w.]+?)__mutmut_(?P<number>\d+): (?P<status>.+?)\s*$")


def _mutmut() -> str:
    found = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if found is None:
        sys.exit("python -m tests.mutation.runner: mutmut is not installed; "
                 "pip install -e '.[mutation]' (or: pip install mutmut)")
    return found


def target_glob(target: str) -> str:
    """mutmut's glob of ``codec``, or of ``codec:GAME`` for one game's; ValueError if unknown."""
    name, _, game = target.partition(":")
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r} (known: {', '.join(TARGETS)})")
    if not game:
        return TARGETS[name]
    if name not in ("rules", "codec") or game not in game_names():
        raise ValueError(f"{target!r}: only rules and codec take a game, one of "
                         f"{', '.join(game_names())}")
    return TARGETS[name].replace("*", game, 1)


def _target_argument(text: str) -> str:
    try:
        target_glob(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def run_mutants(targets: list[str], children: int, log: Path) -> None:
    """Run mutmut over the targets' modules (its output goes to ``log``: a progress spinner)."""
    globs = [target_glob(target) for target in targets]
    with log.open("w") as output:
        done = subprocess.run([_mutmut(), "run", "--max-children", str(children), *globs],
                              cwd=PROJECT_ROOT, stdout=output, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-600:].replace("\r", "\n").strip().splitlines()
        sys.exit(f"python -m tests.mutation.runner: mutmut failed (log {log}): {tail[-1] if tail else ''}")


def read_results(targets: list[str]) -> list[tuple[str, str, str]]:
    """(module target, mutant name, status) of every mutant of the targets, from mutmut."""
    done = subprocess.run([_mutmut(), "results", "--all", "true"], cwd=PROJECT_ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:        # older mutmut: no --all, survivors only
        done = subprocess.run([_mutmut(), "results"], cwd=PROJECT_ROOT, capture_output=True,
                              text=True)
    patterns = {target: re.compile(target_glob(target).replace(".", r"\.").replace("*", r"[\w.]*"))
                for target in targets}
    rows = []
    for line in done.stdout.splitlines():
        found = _RESULT.match(line)
        if not found:
            continue
        for target, pattern in patterns.items():
            if pattern.fullmatch(found["name"] + "__mutmut_" + found["number"]) or \
                    pattern.match(found["name"]):
                rows.append((target, f"{found['name']}__mutmut_{found['number']}", found["status"]))
                break
    return rows


def report(rows: list[tuple[str, str, str]]) -> int:
    """Print counts per target and every survivor; the number of unexplained survivors (and of
    mutants not checked)."""
    unexplained = unchecked = 0
    for target in dict.fromkeys(target for target, _, _ in rows):
        mine = [(name, status) for owner, name, status in rows if owner == target]
        counts = Counter(status for _, status in mine)
        print(f"{target}: {len(mine)} mutants: " + ", ".join(f"{count} {status}"
                                                          for status, count in counts.most_common()))
        if counts["not checked"]:       # a run of other targets reset these: not survivors
            unchecked += counts["not checked"]
            print(f"  {counts['not checked']} not checked: run python -m tests.mutation.runner {target}")
        for name, status in mine:
            if status in ("killed", "timeout", "checked", "not checked"):
                continue
            reason = EQUIVALENT.get(name)
            if reason:
                print(f"  equivalent  {name}: {reason}")
            else:
                unexplained += 1
                print(f"  {status:<10}  {name}   (mutmut show {name})")
    print(f"unexplained survivors: {unexplained}"
          + (f"; not checked: {unchecked}" if unchecked else ""))
    return unexplained + unchecked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.runner", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", type=_target_argument, default=[],
                        metavar="TARGET", help=f"of {', '.join(TARGETS)} (default: all); "
                                           "rules:GAME or codec:GAME for one game's")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="mutants tested at once (default: the number of cores)")
    parser.add_argument("--report-only", action="store_true",
                        help="print the results of the last run without running mutmut")
    args = parser.parse_args(argv)
    targets = args.targets or list(TARGETS)
    if not args.report_only:
        print(f"mutation testing {', '.join(targets)} with mutmut ({args.jobs} at once; "
              f"load average {os.getloadavg()[0]:.2f})", flush=True)
        run_mutants(targets, args.jobs, PROJECT_ROOT / "mutants.log")
    return 1 if report(read_results(targets)) else 0


if __name__ == "__main__":
    sys.exit(main())
