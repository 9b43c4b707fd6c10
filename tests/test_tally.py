"""tools.arena.tally: the pentanomial cell of every pair, bounded mean scores, fault details."""
from __future__ import annotations

import itertools

import pytest

from tools.arena.tally import HeadToHead, shorten, summary_lines

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
