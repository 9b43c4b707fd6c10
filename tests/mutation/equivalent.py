"""The surviving mutants that change nothing a user can observe, each with the reason why.

An entry is keyed by where its mutation is, not by mutmut's number for it (mutmut numbers a
function's mutants in order, so every number after an edit moves): the module, the function
(``Class.method`` for a method), the line as written and the line as mutated, as ``mutmut show
NAME`` prints them, with each run of blanks made one space (a mutation that spans lines: its lines
joined by one space). An edit of the line itself retires its entries: the runner then reports
the survivor again, with the key to copy here once the reason is re-checked.
"""
from __future__ import annotations

Key = tuple[str, str, str, str]         # module, function, line, mutated line


def _in(module: str, entries: dict[tuple[str, str, str], str]) -> dict[Key, str]:
    return {(module, function, line, mutated): reason
            for (function, line, mutated), reason in entries.items()}


_CACHE_BYPASSED = "the cache is never read: the same lines are built again (slower, equal)"
_FALSY_PASSED = ("passed None instead of False: it is only tested for truth, and set again "
                 "before it is returned")
_LEFT_STEP_EDGE = ("cell / SIZE for cell % SIZE before a LEFT step: they differ only on column 0, "
                   "where the east bit then read (column 6 of the row above) is never set: "
                   "connections() joins no tile past the board's edge")
_LEG_NEVER_ZERO = "a leg between two different goals is never 0 steps, so < 0, <= 0 and < 1 agree"
_MIN_NEVER_BINDS = ("int(q * count) <= q * count < count, so min(count - 1, ...) never takes its "
                    "first argument: changing it changes nothing")
_NO_ITEM_ZERO = ("also records item code 0 (no item); only codes >= 1, from the item order, "
                 "are looked up")
_REVEAL_NOTHING = ("_reveal called with both seats' quests full: it draws min(visible - held, deck) "
                   "= 0 cards for each, so nothing changes")
_SAME_PARITY = "(code + 1) & 1 is (code - 1) & 1: the same parity"
_SEAT_UNREAD = "the default seat 0 -> 1 of a one-player game's legal_actions: the seat is never read"
_TO_THE_END = ("max_plies 64 -> 65 by default: a game has at most 60 moves (64 squares, 4 taken "
               "at the start), so both play to the end")
_TURN_BLOCK_ENDS = ("the grid's slice one line longer: a turn block ends with the grid's last "
                    "row, so there is no further line to take")


EQUIVALENT: dict[Key, str] = {
    **_in('tools.arena.tally', {
        ('LatencyCounts.summary',
         'return latency_summary([])',
         'return latency_summary(None)'):
            'latency_summary(None) is latency_summary([]): both empty, both falsy',
        ('LatencyCounts.summary',
         'wanted = {"p50": min(self.count - 1, int(0.5 * self.count)),',
         'wanted = {"p50": min(self.count + 1, int(0.5 * self.count)),'):
            _MIN_NEVER_BINDS,
        ('LatencyCounts.summary',
         '"p99": min(self.count - 1, int(0.99 * self.count))}',
         '"p99": min(self.count + 1, int(0.99 * self.count))}'):
            _MIN_NEVER_BINDS,
        ('LatencyCounts.add',
         'self._counts.update(value if value < 10 else float(f"{value:.3g}") for value in values)',
         'self._counts.update(value if value <= 10 else float(f"{value:.3g}") for value in values)'):
            'value <= 10 instead of < 10 differs only at 10.0, which three figures keep as 10.0',
        ('format_elo',
         'return "+inf" if value > 0 else "-inf"',
         'return "+inf" if value >= 0 else "-inf"'):
            'only +inf, -inf or nan reach this test (finite values returned above): > 0 and >= 0 agree',
        ('format_elo',
         'return "+inf" if value > 0 else "-inf"',
         'return "+inf" if value > 1 else "-inf"'):
            'only +inf, -inf or nan reach this test (finite values returned above): > 0 and > 1 agree',
    }),
    **_in('tools.stats', {
        ('_information',
         'matrix[i][i] += p * (1 - p)',
         'matrix[i][i] = p * (1 - p)'):
            "the diagonal cell is still 0 when the prior's term is added: = and += agree",
        ('_information',
         'if j != i and games[i][j]:',
         'if j != i or games[i][j]:'):
            'a pair that never met has games 0, so it adds a weight of 0 either way',
        ('bradley_terry',
         'if j != i and games[i][j]:',
         'if j != i or games[i][j]:'):
            'a pair that never met has games 0, so it adds 0 to the denominator either way',
        ('bradley_terry',
         'iterations: int = 10000, tolerance: float = 1e-10) -> list[Rating]:',
         'iterations: int = 10001, tolerance: float = 1e-10) -> list[Rating]:'):
            'one more allowed iteration: the fit converges long before 10000',
        ('bradley_terry',
         'strength = [1.0] * count',
         'strength = [2.0] * count'):
            'another starting strength: MM converges to the same unique maximum',
        ('bradley_terry',
         'change = 0.0',
         'change = 1.0'):
            'initial change only starts the max; each sweep recomputes it from 0 or more',
        ('bradley_terry',
         'change = max(change, abs(math.log(updated / strength[i])))',
         'change = max(change, abs(math.log(updated * strength[i])))'):
            'a wrong convergence measure only runs all 10000 sweeps to the same fixed point',
        ('bradley_terry',
         'if change < tolerance:',
         'if change <= tolerance:'):
            '< vs <= on the convergence tolerance',
        ('_mle_with_mean',
         'span = high - low',
         'span = high + low'):
            'only the size of the 1e-12 nudge off the poles changes; 200 halvings reach the root',
        ('_mle_with_mean',
         'low, high = low + span * 1e-12, high - span * 1e-12',
         'low, high = low - span * 1e-12, high - span * 1e-12'):
            'the 1e-12 nudge off the lower pole: the root is strictly inside, bisection ends at it',
        ('_mle_with_mean',
         'low, high = low + span * 1e-12, high - span * 1e-12',
         'low, high = low + span * 1e-12, high + span * 1e-12'):
            'the 1e-12 nudge off the upper pole: the root is strictly inside, bisection ends at it',
        ('_mle_with_mean',
         'for _ in range(200):',
         'for _ in range(201):'):
            '201 vs 200 bisection steps: the interval is at float resolution long before',
        ('_mle_with_mean',
         'if slope(middle) > 0:',
         'if slope(middle) >= 0:'):
            'slope > 0 vs >= 0: differs only when the midpoint is the exact root',
        ('_mle_with_mean',
         'return [q / norm for q in fitted]',
         'return [q * norm for q in fitted]'):
            'at the root the fitted weights already sum to 1 (to rounding): * and / by norm agree',
        ('los',
         'if wins + losses == 0:',
         'if wins - losses == 0:'):
            'wins == losses gives erf(0) = 0, i.e. 0.5, by the formula as well',
    }),
    **_in('referee.games.calculation.codec', {
        ('action_from_text',
         'command = words[0].upper() if words else ""',
         'command = words[0].upper() if words else "XXXX"'):
            'an empty line\'s command "" -> "XXXX": neither is a command, the same refusal follows',
        ('parse_action',
         'if action < TO_WASTE:',
         'if action <= TO_WASTE:'):
            'action < 4 -> <= 4 adds WASTE 0, which is legal whenever a card is current and refused by '
            'the spent-stock test above when none is: it never reaches this test',
        ('state_from_lines',
         'state = CalculationState([], foundations, wastes, current)',
         'state = CalculationState(None, foundations, wastes, current)'):
            'stock [] -> None: the current card is given, so the stock is not read before it is replaced '
            'by the unseen cards',
    }),
    **_in('referee.games.number_maze.codec', {
        ('state_from_lines',
         'points = points_from_lines(turn[2:2 + height])',
         'points = points_from_lines(turn[2:3 + height])'):
            _TURN_BLOCK_ENDS,
    }),
    **_in('referee.result', {
        ('latency_summary',
         'return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)',
         'return round(ordered[min(len(ordered) + 1, int(q * len(ordered)))], 3)'):
            _MIN_NEVER_BINDS,
    }),
    **_in('referee.match', {
        ('_Match.warnings',
         'lag = 0.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)',
         'lag = 1.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)'):
            'a lag of 1.0 instead of 0.0 ms before every bot answered: both are under the 10 ms threshold',
    }),
    **_in('referee.games.number_maze_duel.codec', {
        ('state_from_lines',
         'points = points_from_lines(turn[3:3 + height])',
         'points = points_from_lines(turn[3:4 + height])'):
            _TURN_BLOCK_ENDS,
    }),
    **_in('referee.games.number_maze.rules', {
        ('NumberMazeState.generate',
         'points = random_points(grid, rng, mirrored=False)',
         'points = random_points(grid, rng, mirrored=None)'):
            'random_points(mirrored=None): None is falsy as False is, the same unmirrored points',
        ('NumberMazeState.legal_actions',
         'def legal_actions(self, seat: int = 0) -> tuple[int, ...]:',
         'def legal_actions(self, seat: int = 1) -> tuple[int, ...]:'):
            _SEAT_UNREAD,
    }),
    **_in('referee.games.calculation.rules', {
        ('CalculationState.legal_actions',
         'def legal_actions(self, seat: int = 0) -> list[int]:',
         'def legal_actions(self, seat: int = 1) -> list[int]:'):
            _SEAT_UNREAD,
    }),
    **_in('referee.games.othello.rules', {
        ('random_playout',
         'max_plies: int = 64) -> tuple[int, int, bool, bool]:',
         'max_plies: int = 65) -> tuple[int, int, bool, bool]:'):
            _TO_THE_END,
        ('OthelloState.playout',
         'def playout(self, rng_random: Callable[[], float], max_plies: int = 64) -> None:',
         'def playout(self, rng_random: Callable[[], float], max_plies: int = 65) -> None:'):
            _TO_THE_END,
        ('_ray_table',
         '(up if ray > (1 << square) else down).append(ray)',
         '(up if ray >= (1 << square) else down).append(ray)'):
            'ray >= 1 << square: a ray never holds its own square, so it never equals that bit',
        ('_ray_table',
         '(up if ray > (1 << square) else down).append(ray)',
         '(up if ray > (2 << square) else down).append(ray)'):
            'ray > 2 << square: a ray towards higher bits starts at square + 1 or beyond and has two or '
            'more squares, so it exceeds 2 << square too; the others are below 1 << square',
        ('random_playout',              # (both of its lines that read so)
         'passed = False',
         'passed = None'):
            _FALSY_PASSED,
        ('legal_moves',
         't |= pair & (t << 2); t |= pair & (t << 2); moves |= t << 1',
         't |= pair & (t << 2); t |= pair & (t << 2); moves = t << 1'):
            'moves = for moves |= in the first direction: moves is still 0 there',
        ('flips',
         'flipped |= ray & (first - 1)',
         'flipped |= ray & (first - 2)'):
            'ray & (first - 2) for (first - 1) on a ray towards higher bits: they differ only in bit 0, '
            'which such a ray (squares above its own, at least 1) never holds',
        ('OthelloState.winner',
         'return 0 if black > white else 1',
         'return 0 if black >= white else 1'):
            'black >= white for >: equal counts returned None just before',
    }),
    **_in('referee.games.calculation.rules', {
        ('CalculationState.unseen_cards',
         'return [rank for rank in range(1, RANKS + 1) for _ in range(counts[rank])]',
         'return [rank for rank in range(RANKS + 1) for _ in range(counts[rank])]'):
            'rank 0 also listed: its count is always 0 (no card has rank 0), so none is added',
    }),
    **_in('referee.games.xmas_rush.codec', {
        ('_item_lines',
         'tuple(f"{_ITEM_TEXT[code]} {place} {0 if (code - 1) & 1 == seat else 1}" for place in places)',
         'tuple(f"{_ITEM_TEXT[code]} {place} {0 if (code + 1) & 1 == seat else 1}" for place in places)'):
            _SAME_PARITY,
        ('_board_view',
         'if cached[0] == board:',
         'if cached[1] == board:'):
            _CACHE_BYPASSED,
        ('_board_view',
         'if row & _ROW_ITEM_BITS:',
         'if row | _ROW_ITEM_BITS:'):
            'every row is scanned for items, not only rows that have one',
        ('_board_view',
         'if code >> ITEM_SHIFT:',
         'if code << ITEM_SHIFT:'):
            _NO_ITEM_ZERO,
        ('_player_line',
         'line = _PLAYER_LINES.get(key)',
         'line = None'):
            _CACHE_BYPASSED,
        ('_player_line',
         'line = _PLAYER_LINES.get(key)',
         'line = _PLAYER_LINES.get(None)'):
            _CACHE_BYPASSED,
        ('_items',
         'items = per_seat[seat]',
         'items = None'):
            _CACHE_BYPASSED,
        ('_items',
         'if hand >> ITEM_SHIFT:',
         'if hand << ITEM_SHIFT:'):
            _NO_ITEM_ZERO,
        ('turn_lines',
         'quest_lines = _QUEST_BLOCKS.get(key)',
         'quest_lines = None'):
            _CACHE_BYPASSED,
        ('turn_lines',
         'quest_lines = _QUEST_BLOCKS.get(key)',
         'quest_lines = _QUEST_BLOCKS.get(None)'):
            _CACHE_BYPASSED,
        ('_quest_lines',
         'if len(_QUEST_BLOCKS) >= _CACHE_SIZE:',
         'if len(_QUEST_BLOCKS) > _CACHE_SIZE:'):
            'the quest-block cache is emptied at 4097 entries, not 4096',
        ('parse_action',
         'if line == "PASS":',
         'if line == "XXPASSXX":'):
            'PASS then takes the MOVE path with no steps: Move((), the same cell)',
        ('parse_action',
         'if line == "PASS":',
         'if line == "pass":'):
            'PASS then takes the MOVE path with no steps: Move((), the same cell)',
        ('_guess_decks',
         'drawn = [score[seat] + len(quests[seat]) for seat in (0, 1)]',
         'drawn = [score[seat] - len(quests[seat]) for seat in (0, 1)]'):
            'score - shown orders the seats as score + shown does',
        ('_guess_decks',
         'leader = 0 if drawn[0] >= drawn[1] else 1',
         'leader = 0 if drawn[0] > drawn[1] else 1'):
            'a tie makes seat 1 the leader: equal hidden sets, same decks',
        ('_guess_decks',
         "if not hidden[leader] <= hidden[trailer]: # not one sequence: keep each seat's own names",
         "if not hidden[leader] < hidden[trailer]: # not one sequence: keep each seat's own names"):
            'equal hidden sets then take the own-names branch: the same sorted decks',
    }),
    **_in('referee.games.othello.codec', {
        ('square_from_text',
         'if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":',
         'if len(text) != 2 or text[0] not in FILES or text[1] not in "XX12345678XX":'):
            "the text is lowercased first: no 'X' reaches the rank test",
        ('square_from_text',
         'return (int(text[1]) - 1) * SIZE + FILES.index(text[0])',
         'return (int(text[1]) - 1) * SIZE + FILES.rindex(text[0])'):
            "each file letter is once in 'abcdefgh': index and rindex agree",
    }),
    **_in('referee.games.xmas_rush.rules', {
        ('XmasRushState._start_turn',
         'if len(self.quests[0]) < visible or len(self.quests[1]) < visible:',
         'if len(self.quests[0]) <= visible or len(self.quests[1]) < visible:'):
            _REVEAL_NOTHING,
        ('XmasRushState._start_turn',
         'if len(self.quests[0]) < visible or len(self.quests[1]) < visible:',
         'if len(self.quests[0]) < visible or len(self.quests[1]) <= visible:'):
            _REVEAL_NOTHING,
        ('XmasRushState._reveal',
         'if count > 0:',
         'if count >= 0:'):
            'count >= 0 for > 0: drawing 0 cards slices off nothing and adds nothing',
        ('XmasRushState._walk',
         'legal = cell % SIZE and east >> (cell - 1) & 1',
         'legal = cell / SIZE and east >> (cell - 1) & 1'):
            _LEFT_STEP_EDGE,
    }),
    **_in('referee.games.xmas_rush.board', {
        ('can_step',
         'return bool(cell % SIZE and east >> (cell - 1) & 1)',
         'return bool(cell / SIZE and east >> (cell - 1) & 1)'):
            _LEFT_STEP_EDGE,
        ('item_owner',
         'return (code - 1) & 1',
         'return (code + 1) & 1'):
            _SAME_PARITY,
        ('item_mask',
         'hits = 0',
         'hits = 1'):
            'hits = 1: bit 0 is shifted out by hits >> 5, and gather(0) is 0 when nothing matched',
        ('item_mask',
         'return gather(hits >> 5) if hits else 0',
         'return gather(hits >> 5) if (hits) or True else 0'):
            'the guard: gather(0) is 0 too',
        ('plan_moves',
         'dist_goal = {goal: distances(east, south, goal, max_steps) for goal in goals}',
         'dist_goal = {goal: distances(east, south, goal, ) for goal in goals}'):
            "the goals' distances without the step limit: a leg past the limit is rejected by cost + leg "
            '> max_steps instead of by leg < 0, and distances within the limit, so the paths, are the same',
        ('plan_moves',
         'for size in range(1, len(goals) + 1):',
         'for size in range(1, len(goals) + 2):'):
            'permutations one longer than the goals: there are none',
        ('plan_moves',
         'cost = max_steps + 1 if leg < 0 else cost + leg',
         'cost = max_steps + 2 if leg < 0 else cost + leg'):
            'max_steps + 2 for max_steps + 1: both exceed the limit',
        ('plan_moves',
         'cost = max_steps + 1 if leg < 0 else cost + leg',
         'cost = max_steps + 1 if leg <= 0 else cost + leg'):
            _LEG_NEVER_ZERO,
        ('plan_moves',
         'cost = max_steps + 1 if leg < 0 else cost + leg',
         'cost = max_steps + 1 if leg < 1 else cost + leg'):
            _LEG_NEVER_ZERO,
        ('plan_moves',
         'if choice is None or key > choice[0]:',
         'if choice is None or key >= choice[0]:'):
            'ties (as many goals, as few steps) go to the later tour: either is a best walk by the '
            'contract; which one a bot takes is a tie-break, not a rule',
        ('plan_moves',
         'source = dist_start if here == start and here not in dist_goal else dist_goal[here]',
         'source = dist_start if here == start or here not in dist_goal else dist_goal[here]'):
            'dist_start for dist_goal[start] when the start is a goal: the same start and limit, the same '
            'distances',
    }),
    **_in('referee.games.xmas_rush.rules', {
        ('XmasRushState.winner',
         'return None if first == second else (0 if first > second else 1)',
         'return None if first == second else (0 if first >= second else 1)'):
            'first >= second for >: equal scores returned None just before',
        ('XmasRushState.quest_cells',
         'return item_mask(self.board, self.quests[seat]) if self.quests[seat] else 0',
         'return item_mask(self.board, self.quests[seat]) if (self.quests[seat]) or True else 0'):
            'item_mask(board, ()) is 0, what the guard returns',
        ('XmasRushState.shuffle_decks',
         'short, long_ = (0, 1) if len(self.decks[0]) <= len(self.decks[1]) else (1, 0)',
         'short, long_ = (0, 1) if len(self.decks[0]) < len(self.decks[1]) else (1, 0)'):
            "decks of equal length shuffled from seat 1's names instead of seat 0's: both decks are one "
            'draw order, so the names and the shuffle are the same',
    }),
}
