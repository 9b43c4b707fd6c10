"""xmas_rush: java.util.Random port, CodinGame's generation for a seed, league options.

Fidelity evidence, strongest first. "Final code" is the official referee,
CodinGameCommunity/XmasRush at df8eb80 (its last commit; the generation has not
changed since 4eb2465, 2018-12-10, before the contest opened).
- ``FINAL_ITEM_LINES``: the item lines the final code sends for seed 0 in league 3,
  printed by the final code's own ``GameBoard``/``TileModel``/``Constants`` classes
  compiled on a JVM (with ``Referee.init``'s league switch and name shuffle restated):
  each pair is appended (player 0's tile, then player 1's), then one
  ``Collections.shuffle``. Commit 2748964 (2018-12-07) made it so; before it, the
  newest pair went first.
- ``OFFICIAL_*``: the official referee's own output for seed 6469653652862993400
  in league 1 (``src/test/java/Main.java`` runs that seed in league "1";
  ``src/test/java/input.txt`` is the input it produced). That file was recorded
  on 2018-12-05, before commit 2748964, so it is the authority for the board, the
  items, the quests and the turns that follow, but NOT for the order of item lines
  (with one pair per player, as here, both versions give the same order).
- ``JAVA_RANDOM_GOLDEN``: values printed by a JVM (OpenJDK 17) for ``new
  Random(seed)``: ``nextInt()``, ``nextInt(bound)`` for several bounds, then
  ``Collections.shuffle`` of 0..23.
- ``GOLDEN_BOARDS``: boards for a few seeds, pinned so they never drift; the item
  lines are the final code's (the JVM set-up above, which agrees with ours line
  for line on the board, hand tile and item lines for 44 seeds in 5 leagues).
- ``test_tile_pools_are_the_final_constants``, ``test_answers_are_case_sensitive``:
  details re-read in the final ``Constants.java`` (pool contents in list order, the
  answer regexes without CASE_INSENSITIVE).
"""
from __future__ import annotations

import pytest

from referee.games import load_game
from referee.games.xmas_rush.board import DOWN, ITEM_NAMES, RIGHT, rotate
from referee.games.xmas_rush.generation import CENTRE, TILE_POOLS, generate, league
from referee.games.xmas_rush.javarandom import JavaRandom, java_shuffle
from referee.games.xmas_rush.rules import Push

GAME = load_game("xmas_rush")

JAVA_RANDOM_GOLDEN = {
    # seed: (nextInt(), nextInt(3, 49, 12, 24, 16, 2, 7, 1000000007, 1073741825, 8), shuffled 0..23)
    0: ([-1155484576, 1, 25, 11, 11, 4, 1, 1, 283218712, 715581077, 2],
        [9, 1, 2, 11, 0, 23, 16, 21, 7, 20, 15, 12, 8, 18, 3, 19, 6, 5, 10, 22, 14, 13, 4, 17]),
    42: ([-1170105035, 0, 34, 8, 18, 15, 0, 3, 429255512, 196118093, 7],
         [3, 20, 22, 18, 23, 19, 4, 16, 7, 10, 13, 9, 21, 1, 5, 15, 17, 6, 11, 12, 8, 0, 2, 14]),
    -1: ([1155099827, 2, 25, 11, 20, 9, 0, 2, 774177758, 121412731, 6],
         [3, 20, 23, 16, 5, 4, 1, 18, 6, 21, 17, 15, 0, 7, 2, 11, 19, 22, 9, 10, 13, 12, 14, 8]),
    -2634497367583446500: ([1326268746, 1, 7, 5, 22, 11, 0, 3, 587287060, 878070980, 3],
                           [7, 9, 19, 11, 23, 13, 22, 3, 5, 6, 14, 2, 8, 10, 0, 4, 15, 17, 21, 20,
                            16, 1, 12, 18]),
    -(1 << 63): ([-1155484576, 1, 25, 11, 11, 4, 1, 1, 283218712, 715581077, 2],
                 [9, 1, 2, 11, 0, 23, 16, 21, 7, 20, 15, 12, 8, 18, 3, 19, 6, 5, 10, 22, 14, 13, 4,
                  17]),
}
BOUNDS = (3, 49, 12, 24, 16, 2, 7, 1000000007, 1073741825, 8)


@pytest.mark.parametrize("seed", sorted(JAVA_RANDOM_GOLDEN))
def test_java_random_matches_the_jvm(seed):
    numbers, shuffled = JAVA_RANDOM_GOLDEN[seed]
    rnd = JavaRandom(seed)
    assert [rnd.next_int()] + [rnd.next_int(bound) for bound in BOUNDS] == numbers
    items = list(range(24))
    java_shuffle(items, rnd)
    assert items == shuffled


def test_java_random_rejects_non_long_seeds():
    with pytest.raises(ValueError):
        JavaRandom(1 << 63)


OFFICIAL_SEED = 6469653652862993400
OFFICIAL_START = ["0110 1101 0111 0111 0110 0101 0111",
                  "0110 1010 0111 1111 1101 0111 1100",
                  "1010 1011 0101 1101 0110 1001 1001",
                  "1010 1001 0101 0101 0101 0110 1010",
                  "0110 0110 1001 0111 0101 1110 1010",
                  "0011 1101 0111 1111 1101 1010 1001",
                  "1101 0101 1001 1101 1101 0111 1001"]
OFFICIAL_AFTER_PUSHES = ["0110 1101 0111 1001 0110 0101 0111",
                         "0110 1010 0111 0111 1101 0111 1100",
                         "1010 1011 0101 1111 0110 1001 1001",
                         "1010 1001 0101 1101 0101 0110 1010",
                         "0110 0110 1001 0101 0101 1110 1010",
                         "0011 1101 0111 0111 1101 1010 1001",
                         "0110 1101 0101 1111 1101 1101 0111"]
OFFICIAL_AFTER_SECOND_PUSHES = ["0110 1101 0111 1001 1001 0101 0111",
                                "0110 1010 0111 1001 0110 0111 1100",
                                "1010 1011 0101 0111 1101 1001 1001",
                                "1010 1001 0101 1111 0110 0110 1010",
                                "0110 0110 1001 1101 0101 1110 1010",
                                "0011 1101 0111 0101 0101 1010 1001",
                                "0110 1101 0101 0111 1101 1101 0111"]


# seed 0, league 3: every item line seat 0 receives on the first turn, as the final code
# (df8eb80, after commit 2748964) sends them; the check value is the first five
FINAL_ITEM_LINES = ["POTION 5 3 0", "CANE 3 6 0", "SWORD 5 4 1", "DIAMOND 2 3 0", "MASK 0 6 0",
                    "SCROLL 4 1 1", "FISH 2 0 1", "FISH 4 6 0", "SHIELD 4 0 0", "CANDY 4 5 0",
                    "BOOK 6 5 0", "ARROW 0 2 0", "CANE 3 0 1", "MASK 6 0 1", "SWORD 1 2 0",
                    "KEY 4 4 1", "SCROLL 2 5 0", "CANDY 2 1 1", "KEY 2 2 0", "SHIELD 2 6 1",
                    "ARROW 6 4 1", "DIAMOND 4 3 1", "BOOK 0 1 1", "POTION 1 3 1"]


def test_item_lines_in_the_final_referees_order():
    lines = GAME.turn_lines(GAME.new_state(0, GAME.parse_options({"league": "3"})), 0)
    assert lines[10] == "24"
    assert lines[11:35] == FINAL_ITEM_LINES


def test_official_referee_output_for_its_own_seed():
    state = GAME.new_state(OFFICIAL_SEED, {"league": 1})
    lines = GAME.turn_lines(state, 0)
    assert lines[1:8] == OFFICIAL_START
    assert lines[10:] == ["2", "SCROLL 3 0 0", "SCROLL 3 6 1", "2", "SCROLL 0", "SCROLL 1"]
    # turn 1: a row and a column together (the row first); the player on row 6 wraps around
    state.apply((Push(6, RIGHT), Push(3, DOWN)))
    lines = GAME.turn_lines(state, 0)
    assert lines[1:8] == OFFICIAL_AFTER_PUSHES
    assert lines[8:13] == ["1 0 0 1001", "1 0 6 1001", "2", "SCROLL 3 1 0", "SCROLL 4 6 1"]
    state.apply((GAME.parse_action(state, 0, "MOVE RIGHT RIGHT RIGHT"), GAME.parse_action(state, 1, "PASS")))
    assert GAME.turn_lines(state, 0)[8] == "1 3 0 1001"
    # turn 3: two columns; the opponent's item pops onto my hand tile: -1 -1 for me
    state.apply((Push(4, DOWN), Push(3, DOWN)))
    lines = GAME.turn_lines(state, 0)
    assert lines[1:8] == OFFICIAL_AFTER_SECOND_PUSHES
    assert lines[8:13] == ["1 3 1 1101", "1 0 6 1111", "2", "SCROLL 3 2 0", "SCROLL -1 -1 1"]


GOLDEN_BOARDS = {
    # (league, seed): (board line y=0, line y=3, player 0's hand tile, first item line, last quest line)
    # first item lines: the final code (df8eb80) on a JVM, as FINAL_ITEM_LINES
    (6, 0): ("0110 0011 1101 1010 1010 1010 1010", "0111 0101 1001 1111 0110 0101 1101", "0110",
             "POTION 5 3 0", "POTION 1"),
    (6, -1): ("0110 1010 1010 1101 0011 0111 1010", "1101 1001 1001 0101 0110 0110 0111", "1010",
              "KEY 6 2 1", "CANE 1"),
    (6, -2634497367583446500): ("0110 0011 0101 1001 1101 0011 1010",
                                "0011 1010 1010 1111 1010 1010 1100", "0110", "BOOK 3 0 1", "MASK 1"),
    (6, OFFICIAL_SEED): ("0110 1101 1001 1010 0110 0101 1101", "1010 1001 0101 0101 0101 0110 1010",
                         "0110", "CANE 1 0 0", "BOOK 1"),
    (1, -1): ("0110 1010 1010 0111 1110 0111 1010", "1101 1001 1001 0101 0110 0110 0111", "1010",
              "DIAMOND 2 5 1", "DIAMOND 1"),
}


@pytest.mark.parametrize("key", sorted(GOLDEN_BOARDS))
def test_golden_boards(key):
    level, seed = key
    lines = GAME.turn_lines(GAME.new_state(seed, {"league": level}), 0)
    first, middle, hand, item, quest = GOLDEN_BOARDS[key]
    assert (lines[1], lines[4], lines[8][-4:], lines[11], lines[-1]) == (first, middle, hand, item, quest)


def test_seed_is_a_java_long():
    # Random(seed) keeps the low 48 bits: these two seeds give the same game, as on the JVM
    same = [GAME.turn_lines(GAME.new_state(seed, {"league": 6}), 0) for seed in (-1, (1 << 63) - 1)]
    assert same[0] == same[1]


@pytest.mark.parametrize("level", [1, 2, 3, 4, 6])
def test_generation_invariants(level):
    rules = league(level)
    for seed in range(12):
        setup = generate(seed, rules)
        tiles = setup.tiles
        assert all(tiles[48 - cell] == rotate(tiles[cell], 2) for cell in range(49))
        assert tiles[0] == 0b0110 and tiles[48] == 0b1001 and tiles[CENTRE] in (15, 5, 10)
        assert setup.hands[1] == rotate(setup.hands[0], 2)
        drawn = sorted(tiles[c] for c in range(49) if c % 7 + c // 7 <= 6 and c not in (0, CENTRE)
                       and not (c % 7 + c // 7 == 6 and c // 7 > 3))
        assert len(drawn) == 23
        assert len(setup.items) == 2 * rules.quests == len(setup.item_order)
        for code, cell in setup.items.items():
            assert cell not in (0, 48, CENTRE)
            twin = ((code - 1) ^ 1) + 1                   # the same name, the other owner
            assert setup.items[twin] == 48 - cell
            if rules.three_way_items:
                assert bin(tiles[cell]).count("1") >= 3
        assert len(set(setup.deck)) == rules.quests


def test_league_table():
    assert [(league(n).quests, league(n).visible, league(n).three_way_items, league(n).pool)
            for n in (1, 2, 3, 4, 5, 6, 9)] == [
        (1, 1, True, 1), (6, 1, True, 1), (12, 3, False, 1), (12, 3, False, 2), (12, 3, False, 2),
        (12, 3, False, 3), (12, 3, False, 3)]
    assert all(len(pool) == 24 for pool in TILE_POOLS.values())
    assert len(ITEM_NAMES) == 12


def test_tile_pools_are_the_final_constants():
    # Constants.TILE_PATTERNS at df8eb80 (pools 2 and 3 added by 4eb2465), in list order:
    # a pattern is drawn by its index in the shrinking list, so the order matters
    runs = {1: [("0110", 8), ("1101", 3), ("0111", 6), ("1010", 6), ("1111", 1)],
            2: [("0110", 8), ("1101", 3), ("0111", 4), ("1010", 9)],
            3: [("0110", 10), ("1101", 3), ("0111", 2), ("1010", 9)]}
    for number, pool in runs.items():
        assert list(TILE_POOLS[number]) == [pattern for pattern, count in pool for _ in range(count)]
    # Referee.init: leagues 1-3 draw from pool 1, 4-5 from pool 2, the others from pool 3
    assert [league(level).pool for level in range(1, 8)] == [1, 1, 1, 2, 2, 3, 3]


def test_answers_are_case_sensitive():
    # the final Constants.java compiles its answer regexes without CASE_INSENSITIVE and
    # Referee.parseAction applies them with matches(): lowercase is a fatal invalid input
    from referee.api import InvalidAction
    push_turn = GAME.new_state(0, {"league": 6})
    for line in ("push 1 UP", "PUSH 1 up", "Push 1 Up"):
        with pytest.raises(InvalidAction):
            GAME.parse_action(push_turn, 0, line)
    push_turn.apply((Push(1, RIGHT), Push(1, RIGHT)))
    assert not push_turn.is_push_turn()
    for line in ("move UP", "MOVE up", "pass", "Pass"):
        with pytest.raises(InvalidAction):
            GAME.parse_action(push_turn, 0, line)


def test_league_option_changes_quests_and_reveals():
    wood = GAME.new_state(5, GAME.parse_options({"league": "2"}))
    lines = GAME.turn_lines(wood, 0)
    assert lines[8].startswith("6 0 0 ") and lines[10] == "12" and lines[-3] == "2"
    assert GAME.parse_options({})["league"] == 6
