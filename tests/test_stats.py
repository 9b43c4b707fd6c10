"""tools.stats against the worked numbers of shared/reference/algorithms.md section 5."""
from __future__ import annotations

import math

import pytest

from tools import stats


def test_elo_and_interval_of_w60_d10_l30():
    estimate = stats.elo_trinomial(60, 10, 30)
    assert estimate.score == pytest.approx(0.65)
    assert estimate.stderr == pytest.approx(0.045)
    assert estimate.elo == pytest.approx(107.5, abs=0.05)
    assert estimate.low == pytest.approx(43.2, abs=0.05)
    assert estimate.high == pytest.approx(180.1, abs=0.05)


def test_elo_of_even_score_is_zero_and_symmetric():
    estimate = stats.elo_trinomial(30, 40, 30)
    assert estimate.elo == pytest.approx(0.0)
    assert estimate.low == pytest.approx(-estimate.high)
    assert stats.elo_from_score(stats.score_from_elo(123.4)) == pytest.approx(123.4)


def test_a_perfect_score_is_unbounded_above_with_a_wilson_lower_bound():
    estimate = stats.elo_trinomial(10, 0, 0)
    assert estimate.elo == math.inf and estimate.high == math.inf
    assert estimate.low == pytest.approx(stats.elo_from_score(stats.wilson(10, 10)[0]))
    assert 0 < estimate.low < 1000, "ten wins out of ten: clearly stronger, by how much unknown"
    assert stats.elo_trinomial(0, 0, 10).high == pytest.approx(-estimate.low)
    assert stats.elo_trinomial(0, 0, 0).stderr == math.inf


def test_wilson_interval():
    low, high = stats.wilson(65, 100)
    assert (round(low, 4), round(high, 4)) == (0.5525, 0.7364)
    low, high = stats.wilson(0, 20)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(0.161, abs=5e-4)


def test_sprt_bounds():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=5e-4) and upper == pytest.approx(2.944, abs=5e-4)
    assert stats.sprt_bounds(0.05, 0.1)[0] == pytest.approx(math.log(0.1 / 0.95))


def test_llr_trinomial_of_w300_d100_l250():
    assert stats.llr_trinomial(300, 100, 250, 0, 20) == pytest.approx(2.1428, abs=5e-5)


def test_llr_pentanomial_equals_the_alt2_formula_over_pairs():
    pairs = [10, 40, 120, 60, 20]
    total = sum(pairs)
    mean = sum(c * v for c, v in zip(pairs, stats.PAIR_SCORES)) / total
    variance = sum(c * (v - mean) ** 2 for c, v in zip(pairs, stats.PAIR_SCORES)) / total
    s0, s1 = stats.score_from_elo(0), stats.score_from_elo(10)
    expected = total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert stats.llr_pentanomial(pairs, 0, 10) == pytest.approx(expected)


def test_exact_gsprt_agrees_with_the_approximation_on_large_samples():
    pairs = [100, 200, 400, 300, 100]
    exact = stats.llr_pentanomial_exact(pairs, 0, 10)
    assert exact == pytest.approx(stats.llr_pentanomial(pairs, 0, 10), rel=0.03)


def test_exact_gsprt_stays_sane_on_a_uniform_sample():
    # one won pair: the approximation's variance is ~0 and its LLR explodes past the bound
    assert stats.llr_pentanomial([0, 0, 0, 0, 1], 0, 50) > 10
    exact = stats.llr_pentanomial_exact([0, 0, 0, 0, 1], 0, 50)
    assert exact == pytest.approx(math.log(stats.score_from_elo(50) / 0.5), abs=0.002)
    assert stats.llr_pentanomial_exact([3, 0, 0, 0, 0], 0, 50) < 0
    # all won: H1 (elo1 = 50) is accepted after 23 pairs, not 22
    bound = stats.sprt_bounds(0.05, 0.05)[1]
    assert stats.llr_pentanomial_exact([0, 0, 0, 0, 22], 0, 50) < bound
    assert stats.llr_pentanomial_exact([0, 0, 0, 0, 23], 0, 50) >= bound
    assert stats.llr_pentanomial_exact([0, 0, 0, 0, 0], 0, 50) == 0


def test_pentanomial_interval_is_narrower_when_pairs_cancel_seat_bias():
    # every pair is one win and one loss (the seat decides): the pair score never varies
    tight = stats.elo_pentanomial([0, 0, 90, 5, 5])
    loose = stats.elo_trinomial(95 + 10, 0, 95)
    assert tight.high - tight.low < loose.high - loose.low


def test_los():
    assert stats.los(0, 0) == 0.5
    assert stats.los(60, 30) == pytest.approx(0.5 + 0.5 * math.erf(30 / math.sqrt(180)))
    assert stats.los(30, 60) == pytest.approx(1 - stats.los(60, 30))


def test_sprt_settings_parse_and_decide():
    settings = stats.parse_sprt("elo0=0,elo1=20")
    assert (settings.elo0, settings.elo1, settings.alpha, settings.beta) == (0, 20, 0.05, 0.05)
    assert stats.sprt_decision(3.0, settings) == "H1"
    assert stats.sprt_decision(-3.0, settings) == "H0"
    assert stats.sprt_decision(2.1428, settings) is None
    for bad in ("elo0=5,elo1=5", "elo2=1", "alpha=2", "elo1=ten"):
        with pytest.raises(ValueError):
            stats.parse_sprt(bad)


def test_bradley_terry_recovers_the_pairwise_elo_of_a_two_bot_league():
    # 70 % against one opponent: the MLE is 400 log10(0.7/0.3) = 147.2 apart (the prior pulls
    # it in a little at 1000 games)
    ratings = stats.bradley_terry(["a", "b"], [[0, 700], [300, 0]], [[0, 1000], [1000, 0]])
    by_name = {rating.name: rating for rating in ratings}
    assert by_name["a"].elo - by_name["b"].elo == pytest.approx(147.2, abs=1.0)
    assert by_name["a"].elo == pytest.approx(-by_name["b"].elo)
    assert by_name["a"].low < by_name["a"].elo < by_name["a"].high


def test_bradley_terry_anchor_sorting_and_finite_undefeated():
    names = ["weak", "strong", "middle"]
    scores = [[0, 0, 5], [20, 0, 14], [15, 6, 0]]
    games = [[0, 20, 20], [20, 0, 20], [20, 20, 0]]
    ratings = stats.bradley_terry(names, scores, games, anchor="weak")
    assert [rating.name for rating in ratings] == ["strong", "middle", "weak"]
    weak = ratings[-1]
    assert weak.elo == 0 and weak.low == pytest.approx(0) and weak.high == pytest.approx(0)
    assert all(math.isfinite(rating.elo) for rating in ratings)
    assert ratings[0].games == 40 and ratings[0].score == pytest.approx(34 / 40)
    centred = stats.bradley_terry(names, scores, games)
    assert sum(rating.elo for rating in centred) == pytest.approx(0, abs=1e-6)
    gaps = {r.name: r.elo for r in ratings}
    centred_gaps = {r.name: r.elo for r in centred}
    assert gaps["strong"] - gaps["middle"] == pytest.approx(centred_gaps["strong"]
                                                            - centred_gaps["middle"])
    with pytest.raises(ValueError):
        stats.bradley_terry(names, scores, games, anchor="nobody")


def test_bradley_terry_interval_shrinks_with_more_games():
    small = stats.bradley_terry(["a", "b"], [[0, 14], [6, 0]], [[0, 20], [20, 0]])
    large = stats.bradley_terry(["a", "b"], [[0, 1400], [600, 0]], [[0, 2000], [2000, 0]])
    assert large[0].high - large[0].low < (small[0].high - small[0].low) / 5
