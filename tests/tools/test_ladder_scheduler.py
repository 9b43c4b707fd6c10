"""The ladder's model and scheduler: the fit is league's, games go where the questions are."""
from __future__ import annotations

import itertools
import math

import pytest

from tools import stats
from tools.ladder.model import PairTally, fit
from tools.ladder.scheduler import Scheduler, pair_information, questions, unit_pairs, urgency

NAMES = ["a", "b", "c", "d", "e"]


def _tally(strengths: dict[str, float], games: int = 40, skip: set = frozenset()) -> PairTally:
    """Expected results of a Bradley-Terry world with these strengths (nats)."""
    tally = PairTally()
    for first, second in itertools.combinations(strengths, 2):
        if {first, second} & set(skip):
            continue
        p = 1 / (1 + math.exp(strengths[second] - strengths[first]))
        tally.add(first, second, games * p, games)
    return tally


def test_the_fit_is_leagues_bradley_terry():
    tally = _tally({"a": 1.0, "b": 0.4, "c": 0.0, "d": -0.8})
    tally.add("a", "b", 0.5, 3)                       # draws and uneven counts too
    names = ["a", "b", "c", "d"]
    ours = fit(names, tally)
    scores = [[tally.points(x, y) for y in names] for x in names]
    games = [[tally.games(x, y) for y in names] for x in names]
    for rating in stats.bradley_terry(names, scores, games):
        assert ours.elo_interval(rating.name) == pytest.approx((rating.elo, rating.low, rating.high),
                                                               abs=1e-4)


def test_separation_and_rank_range():
    current = fit(["a", "b", "c"], _tally({"a": 2.0, "b": 0.0, "c": -0.05}, games=200))
    assert current.separated("a", "b") and not current.separated("b", "c")
    assert current.rank_range("a") == (1, 1) and current.rank_range("c") == (2, 3)


def test_questions_weigh_the_top_and_the_newest():
    current = fit(NAMES, _tally({"a": 2, "b": 1, "c": 0, "d": -1, "e": -2}))
    asked = questions(current, NAMES, "c")
    assert [(q.first, q.second) for q in asked[:4]] == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]
    assert asked[0].weight > asked[1].weight > asked[3].weight
    assert {(q.first, q.second) for q in asked[4:]} == {("b", "c"), ("c", "d")}
    assert urgency(0) > 0.99 and urgency(1.96) == pytest.approx(0.5, abs=1e-3) and urgency(4) < 0.01


def test_a_pairs_information_is_capped():
    assert pair_information(1, 0.5) == pytest.approx(0.25, rel=0.02)
    assert pair_information(10**6, 0.5) < 1 / 0.2 ** 2, "a pair alone cannot settle the ratings"
    assert pair_information(200, 0.5) - pair_information(198, 0.5) < 0.5 * 2 * 0.25


def test_a_new_bot_first_meets_a_bot_near_its_estimate():
    strengths = {"a": 3.0, "b": 1.5, "c": 0.0, "d": -1.5, "e": -3.0}
    tally = _tally(strengths, skip={"c"})          # c is new: no games yet
    current = fit(NAMES, tally)
    first, second = Scheduler(current, tally, NAMES, "c").choose()
    assert "c" in (first, second)
    assert {first, second} - {"c"} <= {"b", "d"}, "a neighbour of its estimate, not the extremes"


def test_games_go_to_the_unsettled_top():
    strengths = {"a": 1.0, "b": 0.95, "c": -1.0, "d": -2.5, "e": -4.0}
    tally = _tally(strengths, games=60)
    current = fit(NAMES, tally)
    chosen = Scheduler(current, tally, NAMES, None).choose()
    assert set(chosen) & {"a", "b"}, chosen


def test_games_in_flight_spread_the_workers():
    strengths = {"a": 1.0, "b": 0.95, "c": -1.0, "d": -2.5, "e": -4.0}
    tally = _tally(strengths, games=60)
    scheduler = Scheduler(fit(NAMES, tally), tally, NAMES, None)
    first = scheduler.choose()
    alone = scheduler.value(first)
    scheduler.add_pending([first] * 40)
    assert scheduler.value(first) < alone / 2, "games in flight count as played"
    scheduler.add_pending([first] * 500)
    assert scheduler.choose() != first


def test_units_of_more_players():
    assert unit_pairs(("a", "b")) == [("a", "b", 2)]
    assert sorted(unit_pairs(("a", "b", "c"))) == [("a", "b", 3), ("a", "c", 3), ("b", "c", 3)]
    assert sorted(unit_pairs(("a", "b", "b"))) == [("a", "b", 6)], "3 rotations, 2 pairs each"
    current = fit(NAMES, _tally({"a": 2, "b": 1, "c": 0, "d": -1, "e": -2}))
    scheduler = Scheduler(current, PairTally(), NAMES, None)
    lineups = scheduler.candidates(4)
    assert len(lineups) == 10 and all(len(set(lineup)) == 4 for lineup in lineups)
    assert ("a", "b", "c", "d") in lineups, "a pair with the bots nearest them"
    few = Scheduler(fit(["a", "b"], PairTally()), PairTally(), ["a", "b"], None)
    assert few.candidates(3) == [("a", "b", "a")], "fewer bots than seats: seats taken again"
    assert len(scheduler.choose(4)) == 4
