"""tools.arena.tally: the pentanomial cell of every pair, bounded mean scores, fault details."""
from __future__ import annotations

import itertools
import math

import pytest

from referee.match import latency_summary
from tools import stats
from tools.arena.tally import (
    HeadToHead,
    LatencyCounts,
    RunningMean,
    format_bounds,
    format_elo,
    format_interval,
    game_score,
    mean_with_interval,
    rerun_command,
    shorten,
    summary_lines,
)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def _record(pair: int, seats: list[str], first_score: float, scores=(0, 0)) -> dict:
    """A finished game in the results file's form; ``first_score`` is seats[0]'s result."""
    ranks = {WIN: (0, 1), DRAW: (0, 0), LOSS: (1, 0)}[first_score]
    return {"pair": pair, "seats": seats, "seed": 1, "game": "tictactoe",
            "players": [{"rank": rank, "score": score} for rank, score in zip(ranks, scores)]}


# a's two results in a pair -> the pentanomial cell [LL, LD+DL, LW+DD+WL, DW+WD, WW]
CELLS = {(LOSS, LOSS): 0, (LOSS, DRAW): 1, (DRAW, LOSS): 1, (LOSS, WIN): 2, (DRAW, DRAW): 2,
         (WIN, LOSS): 2, (DRAW, WIN): 3, (WIN, DRAW): 3, (WIN, WIN): 4}


@pytest.mark.parametrize("first, second", list(itertools.product((LOSS, DRAW, WIN), repeat=2)))
def test_each_seat_swapped_pair_lands_in_its_pentanomial_cell(first, second):
    tally = HeadToHead("a", "b")
    tally.add(_record(7, ["a", "b"], first))               # a in seat 0
    tally.add(_record(7, ["b", "a"], 1.0 - second))        # seats swapped: b's result first
    expected = [0] * 5
    expected[CELLS[first, second]] = 1
    assert tally.pentanomial() == expected
    assert tally.points == first + second


def test_an_incomplete_pair_is_not_counted():
    tally = HeadToHead("a", "b")
    tally.add(_record(1, ["a", "b"], WIN))
    assert tally.pentanomial() == [0] * 5 and tally.games == 1


def test_mean_scores_stay_within_the_scores_seen():
    tally = HeadToHead("a", "b")
    for pair in range(12):            # a scores 12 (the most) in 23 games and 11 in one
        tally.add(_record(pair, ["a", "b"], WIN, (12 if pair else 11, 3)))
        tally.add(_record(pair, ["b", "a"], LOSS, (3, 12)))
    means = tally.mean_scores()
    low, high = means["a"]["ci95"]
    assert means["a"]["mean"] == pytest.approx(11.958, abs=1e-3)
    assert 11 < low < 11.958 and high == 12
    assert means["b"] == {"mean": 3.0, "ci95": [3.0, 3.0]}


def test_a_long_fault_detail_is_cut_at_a_word_and_kept_whole_in_json():
    detail = ("the bot used no CPU while waiting for a CPU at the deadline: the machine is "
              "overloaded (load 12 on 2 cores); lower --jobs or raise --turn-ms, then re-run "
              "this game with the command below to see whether it is the bot")
    tally = HeadToHead("a", "b")
    record = _record(0, ["a", "b"], LOSS)
    record["players"][0]["fault"] = {"kind": "timeout", "turn": 3, "detail": detail}
    tally.add(record)
    summary = tally.summary()
    assert summary["first_faults"]["a"]["detail"] == detail
    line = next(line for line in summary_lines(summary) if "first fault of a" in line)
    shown = line.split("timeout at turn 3: ", 1)[1]
    assert shown.endswith("… (whole text: --json)")
    kept = shown.removesuffix("… (whole text: --json)")
    assert detail.startswith(kept) and detail[len(kept)] == " "      # cut between words
    assert shorten("short enough", 160) == "short enough"


# -- exact figures and text (tests/mutation/runner.py: every mutant of tally.py must fail one) --

def _game(pair: int, seats: list[str], ranks: tuple, scores=(0, 0), **fields) -> dict:
    record = {"pair": pair, "seats": seats, "seed": 40 + pair, "game": "tictactoe",
              "players": [{"rank": rank, "score": score} for rank, score in zip(ranks, scores)]}
    return {**record, **fields}


def _mixed_tally() -> HeadToHead:
    """a against "b #2": pair 0 W then D, pair 1 L then W, pair 2 D alone, one void game."""
    tally = HeadToHead("a", "b #2")
    tally.add(_game(0, ["a", "b #2"], (0, 1), (5, 1), latencies_ms=[[1.0, 2.0, 3.0], [10.0]]))
    tally.add(_game(0, ["b #2", "a"], (0, 0), (2, 2)))
    tally.add(_game(1, ["a", "b #2"], (1, 0), (0, 4)))
    faulty = _game(1, ["b #2", "a"], (1, 0), (1, 6), options={"size": 3},
                   time_control={"turn_ms": 50, "grace_ms": 5, "first_turn_ms": 1000, "x": 1})
    faulty["players"][0]["fault"] = {"kind": "timeout", "turn": 3, "detail": "no answer"}
    tally.add(faulty)
    tally.add(_game(2, ["a", "b #2"], (0, 0), (3, 3)))
    tally.add({"referee_error": "boom", "seats": ["a", "b #2"]})
    return tally


RERUN = ("botarena play tictactoe b a --seed 41 --option size=3 --first-turn-ms 1000 "
         "--turn-ms 50 --grace-ms 5 --replay fault.json")


def test_the_summary_of_a_mixed_record_holds_hand_worked_figures():
    summary = _mixed_tally().summary()
    # 5 games: a won 2 (pair 0 seat 0, pair 1 seat 1), drew 2, lost 1: score 3/5 = 0.6
    # trinomial Elo -400 log10(1/0.6 - 1) = 70.4; pairs: W+D = 0.75 and L+W = 0.5, mean
    # 0.625: Elo -400 log10(0.6) = 88.7; LOS 0.5 + 0.5 erf((2 - 1) / sqrt(2 * 3)) = 0.7181
    assert summary == {
        "bot_a": "a", "bot_b": "b #2", "games": 5, "wins": 2, "draws": 2, "losses": 1,
        "score": 0.6, "elo": 88.7, "elo_ci95": [-235.2, 346.7], "elo_model": "pentanomial",
        "elo_trinomial": {"elo": 70.4, "elo_ci95": [-173.6, 293.4]},
        "los": 0.7181, "draw_ratio": 0.4, "pentanomial": [0, 0, 1, 1, 0],
        "by_seat": [{"seat": 0, "wins": 1, "draws": 1, "losses": 1},
                    {"seat": 1, "wins": 1, "draws": 1, "losses": 0}],
        "faults": {"a": {}, "b #2": {"timeout": 1}},
        # a answered 1, 2, 3 ms: p50 is the value at index int(0.5 * 3) = 1
        "latency_ms": {"a": {"p50": 2.0, "p99": 3.0, "max": 3.0},
                       "b #2": {"p50": 10.0, "p99": 10.0, "max": 10.0}},
        "answers": {"a": 3, "b #2": 1}, "void": 1, "timing_uncertain": 0,
        # a scored 5, 2, 0, 6, 3 (mean 16/5); b 1, 2, 4, 1, 3 (mean 11/5)
        "mean_score": {"a": {"mean": 3.2, "ci95": [1.433, 4.793]},
                       "b #2": {"mean": 2.2, "ci95": [1.454, 3.207]}},
        "first_faults": {"b #2": {"kind": "timeout", "turn": 3, "detail": "no answer",
                                  "rerun": RERUN}},
        "solo": False}


def test_the_summary_text_of_a_mixed_record_line_by_line():
    tally = _mixed_tally()
    assert summary_lines(tally.summary()) == [
        "a vs b #2: 5 games",
        "  wins 2  draws 2  losses 1  score 60.0%  draw ratio 40.0%",
        "  Elo +88.7 [-235.2, +346.7] (95 %, over 2 seat-swapped pairs)  LOS 71.8%",
        "  pairs 2: LL 0  LD 0  WL/DD 1  WD 1  WW 0",
        "  a in seat 0: wins 1  draws 1  losses 1",
        "  a in seat 1: wins 1  draws 1  losses 0",
        "  a: mean score 3.200 [1.433, 4.793] (95 %)",
        "  b #2: mean score 2.200 [1.454, 3.207] (95 %)",
        "  a: latency p50 2.0  p99 3.0  max 3.0 ms;  faults: none",
        "  b #2: latency p50 10.0  p99 10.0  max 10.0 ms;  faults: timeout 1",
        "  first fault of b #2: timeout at turn 3: no answer",
        f"    re-run it: {RERUN}",
        "  void: 1 game(s) without a result (referee error; see referee_error in the results file)"]
    assert tally.progress_text() == "2-2-1 score 60.0% Elo +88.7 [-235.2, +346.7]"
    assert HeadToHead("a", "b").progress_text() == ""
    assert summary_lines(HeadToHead("a", "b").summary()) == ["a vs b: no games finished"]


def test_only_the_first_fault_of_each_bot_is_kept_and_counted_by_kind():
    tally = HeadToHead("a", "b")
    for turn, kind in ((4, "timeout"), (2, "illegal"), (7, "timeout")):
        record = _game(turn, ["a", "b"], (1, 0))
        record["players"][0]["fault"] = {"kind": kind, "turn": turn, "detail": "x"}
        tally.add(record)
    summary = tally.summary()
    assert summary["faults"] == {"a": {"timeout": 2, "illegal": 1}, "b": {}}
    assert summary["first_faults"]["a"]["turn"] == 4
    assert "  a: no answers;  faults: illegal 1, timeout 2" in summary_lines(summary)


def test_a_perfect_record_shows_an_unbounded_elo_by_its_sign():
    for ranks, shown in (((0, 1), "+inf"), ((1, 0), "-inf")):
        tally = HeadToHead("a", "b")
        tally.add(_game(0, ["a", "b"], ranks))      # one game, no pair: per game
        summary = tally.summary()
        assert summary["elo"] is None and summary["elo_model"] == "trinomial"
        assert summary_lines(summary)[2].startswith(f"  Elo {shown} [")
        assert summary_lines(summary)[2].endswith("(95 %, per game)  LOS " +
                                                  ("84.1%" if shown == "+inf" else "15.9%"))


def test_a_solo_comparison_counts_games_not_pairs_and_reruns_one_bot():
    tally = HeadToHead("a", "b")
    tally.solo = True
    record = _game(0, ["a", "b"], (0, 1), (30, 20))
    record["players"][1]["fault"] = {"kind": "crash", "turn": 1, "detail": "died"}
    tally.add(record)
    tally.add(_game(0, ["a", "b"], (1, 0), (10, 20)))
    tally.add(_game(1, ["a", "b"], (0, 0), (20, 20)))
    assert tally.pentanomial() == [0] * 5 and (tally.wins, tally.draws, tally.losses) == (1, 1, 1)
    assert tally.first_faults["b"]["rerun"] == \
        "botarena play tictactoe b --seed 40 --replay fault.json"
    lines = summary_lines(tally.summary())
    assert lines[2] == ("  Elo 0.0 [-296.2, +296.2] (95 %, per seed, each bot alone, higher score "
                        "wins)  LOS 50.0%")
    # 1 win, 1 draw, 1 loss plus z^2/2 = 1.92 games at each end: mean 0.5, spread
    # 1.96 * sqrt(0.25 * 5.84 / 6.84 / 6.84) = 0.346: Elo -400 log10(1 / 0.846 - 1) = 296.2
    assert not any(line.startswith("  pairs") or " in seat " in line for line in lines)
    settings = stats.SprtSettings(elo0=0.0, elo1=5.0)
    tally.add(_game(2, ["a", "b"], (0, 1)))                      # 2 wins, 1 draw, 1 loss
    assert tally.llr(settings) == stats.llr_trinomial_exact(2, 1, 1, 0.0, 5.0)
    assert tally.llr_approximation(settings) == stats.llr_trinomial(2, 1, 1, 0.0, 5.0)


def test_the_sprt_figures_of_a_head_to_head_use_its_pairs():
    tally = _mixed_tally()
    settings = stats.SprtSettings(elo0=-5.0, elo1=5.0)
    assert tally.llr(settings) == stats.llr_pentanomial_exact([0, 0, 1, 1, 0], -5.0, 5.0)
    assert tally.llr_approximation(settings) == stats.llr_pentanomial([0, 0, 1, 1, 0], -5.0, 5.0)
    assert tally.llr(settings) != stats.llr_trinomial_exact(2, 2, 1, -5.0, 5.0)


def test_game_score_by_rank():
    record = _game(0, ["x", "y"], (0, 1))
    assert (game_score(record, "x", "y"), game_score(record, "y", "x")) == (WIN, LOSS)
    assert game_score(_game(0, ["x", "y"], (1, 1)), "y", "x") == DRAW


@pytest.mark.parametrize("value, text", [(None, "inf"), (math.inf, "+inf"), (-math.inf, "-inf"),
                                         (12.34, "+12.3"), (-3.0, "-3.0"), (0.04, "0.0"),
                                         (-0.04, "0.0"), (0.06, "+0.1")])
def test_format_elo(value, text):
    assert format_elo(value) == text


def test_format_bounds_names_unbounded_ends():
    assert format_bounds(None, None) == "[-inf, +inf]"
    assert format_bounds(-1.25, 7.0) == "[-1.2, +7.0]"
    assert format_interval(stats.EloEstimate(3.0, -2.0, math.inf, 0.5, 0.1)) == "[-2.0, +inf]"


def test_rerun_command_without_game_options_or_clock():
    record = {"seats": ["a #3", "b"], "seed": 7}
    assert rerun_command(record) == "botarena play GAME a b --seed 7 --replay fault.json"
    assert rerun_command({**record, "options": None, "time_control": None}, ["b"]) == \
        "botarena play GAME b --seed 7 --replay fault.json"
    assert rerun_command({**record, "seats": ["a #12 x"]}) == \
        "botarena play GAME 'a #12 x' --seed 7 --replay fault.json"


@pytest.mark.parametrize("text, width, short", [
    ("one two  three", 14, "one two three"),
    ("alpha beta gamma delta", 12, "alpha beta…"),
    ("alpha, beta gamma", 8, "alpha…"),              # the comma before the cut goes too
    ("abcdefghij klm", 8, "abcdefg…"),               # no space in the cut's second half
    ("abcde fghijklmn", 10, "abcde…"),               # a space just at the half: cut there
    ("abcd efghijklmn", 10, "abcd efgh…"),           # a space before the half: a hard cut
])
def test_shorten_cuts_at_a_word_in_the_second_half(text, width, short):
    assert shorten(text, width) == short


def test_running_mean_and_its_standard_error():
    mean = RunningMean()
    assert (mean.count, mean.mean, mean.standard_error()) == (0, 0.0, 0.0)
    for value in (1.0, 2.0, 6.0):
        mean.add(value)
    # mean 3, population variance (4 + 1 + 9) / 3 = 14/3, standard error sqrt(14/3 / 3)
    assert mean.count == 3 and mean.mean == pytest.approx(3.0)
    assert mean.standard_error() == pytest.approx(math.sqrt(14 / 9))


def test_latency_counts_give_the_percentiles_of_the_list():
    counts = LatencyCounts()
    assert counts.summary() == {"p50": 0.0, "p99": 0.0, "max": 0.0}
    values = [5.0] * 98 + [1.0, 9.12345]            # sorted: 1, 5 x 98, 9.12345
    counts.add(values[:60])
    counts.add(values[60:])
    # p50 at index int(0.5 * 100) = 50 (a 5), p99 at index 99 (the 9.12345, rounded)
    assert counts.count == 100
    assert counts.summary() == {"p50": 5.0, "p99": 9.123, "max": 9.123}
    assert counts.summary() == latency_summary(values)
    two = LatencyCounts()
    two.add([2.0, 1.0])
    assert two.summary() == {"p50": 2.0, "p99": 2.0, "max": 2.0}


def test_interleaved_pairs_and_repeated_cells_are_counted_by_pair_number():
    tally = HeadToHead("a", "b")
    # (pair, a's seat, a's result): pairs 5 and 6 interleaved; pair 9 never completed
    games = [(5, 0, WIN), (6, 1, LOSS), (5, 1, WIN), (6, 0, DRAW), (7, 0, WIN), (7, 1, WIN),
             (8, 0, WIN), (8, 1, DRAW), (9, 0, LOSS)]
    for pair, seat, result in games:
        seats = ["a", "b"] if seat == 0 else ["b", "a"]
        first_result = result if seat == 0 else 1.0 - result
        scores = (2, 0) if pair == 9 else (1, 1)           # a scores 1 in all but one game: 2
        tally.add(_record(pair, seats, first_result, scores if seat == 0 else scores[::-1]))
    tally.add({"referee_error": "x"})
    tally.add({"referee_error": "y"})
    summary = tally.summary()
    # pairs: 5 WW, 6 LD, 7 WW, 8 WD -> [LL 0, LD 1, WL/DD 0, WD 1, WW 2]
    assert summary["pentanomial"] == [0, 1, 0, 1, 2]
    # 9 games: 5 wins, 2 draws, 2 losses: score 6/9, draw ratio 2/9; a's mean score 10/9
    assert (summary["score"], summary["draw_ratio"], summary["void"]) == (0.6667, 0.2222, 2)
    assert summary["mean_score"]["a"]["mean"] == 1.111
    assert summary["by_seat"] == [{"seat": 0, "wins": 3, "draws": 1, "losses": 1},
                                  {"seat": 1, "wins": 2, "draws": 1, "losses": 1}]
    assert "  pairs 4: LL 0  LD 1  WL/DD 0  WD 1  WW 2" in summary_lines(summary)


def test_a_bot_without_scores_has_a_zero_mean():
    tally = HeadToHead("a", "b")
    tally.add({"referee_error": "x"})
    assert tally.mean_scores() == {name: {"mean": 0.0, "ci95": [0.0, 0.0]} for name in "ab"}


def test_an_even_score_with_an_unbounded_pair_elo_shows_the_pairs_sign():
    tally = HeadToHead("a", "b")
    # pair 0 lost twice (pair Elo -inf); two unpaired wins make the game score 2/4 = 0.5
    for pair, seats, result in ((0, ["a", "b"], LOSS), (0, ["b", "a"], WIN),
                                (1, ["a", "b"], WIN), (2, ["a", "b"], WIN)):
        tally.add(_record(pair, seats, result))
    summary = tally.summary()
    assert summary["score"] == 0.5 and summary["elo"] is None
    assert summary_lines(summary)[2].startswith("  Elo -inf [")


def test_a_detail_one_character_too_long_is_cut():
    tally = HeadToHead("a", "b")
    record = _record(0, ["a", "b"], LOSS)
    detail = "word " * 31 + "tail!"                       # 160 characters: shown whole
    record["players"][0]["fault"] = {"kind": "crash", "turn": 1, "detail": detail + "x"}
    tally.add(record)
    line = next(line for line in summary_lines(tally.summary()) if "first fault" in line)
    assert line.endswith("… (whole text: --json)")
    assert shorten(detail, 160) == detail


@pytest.mark.parametrize("text, width, short", [
    ("abc de", 6, "abc de"),                              # exactly the width: kept whole
    ("abcX defghij", 8, "abcX…"),                         # only spaces and ,;: are trimmed
])
def test_shorten_at_the_edges(text, width, short):
    assert shorten(text, width) == short


def test_latency_counts_p99_below_the_maximum():
    counts = LatencyCounts()
    counts.add([5.0] * 197 + [1.0, 8.0, 9.12345])
    # 200 answers: p99 at index int(0.99 * 200) = 198 of the sorted list: the 8.0
    assert counts.summary() == {"p50": 5.0, "p99": 8.0, "max": 9.123}


def test_running_mean_standard_error_of_a_small_spread():
    mean = RunningMean()
    mean.add(1.0)
    mean.add(1.2)
    # mean 1.1, squared deviations 0.02 in all: sqrt(0.02 / 2 / 2) = 0.0707
    assert mean.standard_error() == pytest.approx(math.sqrt(0.005))


def test_latency_counts_keep_three_figures_from_10_ms():
    counts = LatencyCounts()
    counts.add([9.87, 10.55, 12.345])
    # below 10 ms as recorded; 10.55 -> 10.6 and 12.345 -> 12.3 (three significant figures)
    assert sorted(counts._counts) == [9.87, 10.6, 12.3]
    assert counts.summary() == {"p50": 10.6, "p99": 12.3, "max": 12.3}


def test_a_mean_score_and_its_interval_share_one_number_of_decimals():
    assert mean_with_interval(7.98, 7.341, 8.619) == "7.980 [7.341, 8.619]"      # was 7.98 [7.341, 8.619]
    assert mean_with_interval(0.953, 0.9162, 0.972) == "0.953 [0.916, 0.972]"
    assert mean_with_interval(43.35, 41.2, 45.5) == "43.35 [41.20, 45.50]"
    assert mean_with_interval(1, 1, 1) == "1.000 [1.000, 1.000]"
    assert mean_with_interval(1500, 1234.56, 1800) == "1500.0 [1234.6, 1800.0]"


def test_a_game_of_uncertain_timing_is_kept_apart_and_counted_in_the_summary():
    tally = HeadToHead("a", "b")
    tally.add(_record(1, ["a", "b"], WIN))
    tally.add({**_record(1, ["b", "a"], WIN), "timing_uncertain": True})
    assert (tally.wins, tally.draws, tally.losses, tally.pentanomial()) == (1, 0, 0, [0] * 5)
    summary = tally.summary()
    assert summary["timing_uncertain"] == 1 and summary["games"] == 1
    assert "  timing uncertain: 1 game(s) kept apart, not counted above (see timing_uncertain " \
           "in the results file)" in summary_lines(summary)
