"""tools.stats against the worked numbers of shared/reference/algorithms.md section 5."""
from __future__ import annotations

import itertools
import math

import pytest

from tools import stats


def test_elo_and_interval_of_w60_d10_l30():
    # score 0.65, stderr 0.045, Elo -400 log10(1/0.65 - 1) = 107.5 (algorithms.md section 5).
    # The interval, Agresti-Coull by hand: z^2/2 = 1.920729 added to L and W: L 31.920729,
    # D 10, W 61.920729, n 103.841459; mean (61.920729 + 5) / n = 0.644451; E[x^2]
    # (61.920729 + 2.5) / n = 0.620376; variance 0.620376 - 0.644451^2 = 0.205059; spread
    # 1.959964 sqrt(0.205059 / n) = 0.087097: [0.557354, 0.731548] -> Elo [+40.0, +174.2]
    estimate = stats.elo_trinomial(60, 10, 30)
    assert estimate.score == pytest.approx(0.65)
    assert estimate.stderr == pytest.approx(0.045)
    assert estimate.elo == pytest.approx(107.5, abs=0.05)
    assert estimate.low == pytest.approx(40.0, abs=0.05)
    assert estimate.high == pytest.approx(174.2, abs=0.05)


def test_pentanomial_elo_interval_and_llr_of_a_mixed_record_worked_by_hand():
    # pairs LL 2, LD 10, WL/DD 20, WD 15, WW 3 (N 50), pair scores 0, 1/4, 1/2, 3/4, 1:
    # mean (10/4 + 20/2 + 15*3/4 + 3) / 50 = 26.75 / 50 = 0.535;
    # E[x^2] (10/16 + 20/4 + 15*9/16 + 3) / 50 = 17.0625 / 50 = 0.34125; variance 0.055025.
    # Elo -400 log10(1/0.535 - 1) = +24.36 (fishtest's elo from the pentanomial mean).
    # LLR, fishtest's LLR_alt2 (elo0 0, elo1 10): s0 0.5, s1 1 / (1 + 10^(-10/400)) = 0.514387;
    # N (s1 - s0) (2 mean - s0 - s1) / (2 variance) = 50 * 0.014387 * 0.055613 / 0.11005 = 0.3635.
    # Interval (Agresti-Coull, see tools.stats.bounded_interval): 1.920729 more pairs at 0 and at
    # 1: n 53.841459, mean 28.670729 / n = 0.532503, E[x^2] 18.983229 / n = 0.352576, variance
    # 0.069017, spread 1.959964 sqrt(0.069017 / n) = 0.070173: [0.462330, 0.602676]
    # -> Elo [-26.2, +72.4]
    pairs = [2, 10, 20, 15, 3]
    estimate = stats.elo_pentanomial(pairs)
    assert estimate.score == pytest.approx(0.535)
    assert estimate.elo == pytest.approx(24.36, abs=0.005)
    assert estimate.low == pytest.approx(-26.2, abs=0.05)
    assert estimate.high == pytest.approx(72.4, abs=0.05)
    assert stats.llr_pentanomial(pairs, 0, 10) == pytest.approx(0.3635, abs=5e-5)


def test_a_perfect_record_is_unbounded_above_and_more_certain_than_an_imperfect_one():
    perfect = stats.elo_trinomial(6, 0, 0)
    assert perfect.elo == math.inf and perfect.high == math.inf
    assert 0 < perfect.low < 1000, "six wins out of six: stronger, by how much unknown"
    # the normal interval gave 6-0-0 [-42.9, +inf] and 5-1-0 [+46.6, +inf]
    assert perfect.low > stats.elo_trinomial(5, 1, 0).low > stats.elo_trinomial(5, 0, 1).low
    assert stats.elo_pentanomial([0, 0, 0, 0, 3]).low > stats.elo_pentanomial([0, 0, 0, 1, 2]).low
    assert stats.elo_trinomial(0, 0, 6).high == pytest.approx(-perfect.low)
    assert stats.elo_trinomial(0, 0, 0).stderr == math.inf


def _records(cells: int, most: int):
    for total in range(most + 1):
        for outcome in itertools.combinations_with_replacement(range(cells), total):
            yield [outcome.count(cell) for cell in range(cells)]


@pytest.mark.parametrize("values, most", [(stats.GAME_SCORES, 16), (stats.PAIR_SCORES, 9)])
def test_a_better_result_never_lowers_the_lower_bound(values, most):
    """Over every record of up to ``most`` games (pairs): adding a win, or turning any result
    into a win, never lowers the lower end; the interval holds the mean and stays in [0, 1]."""
    for counts in _records(len(values), most):
        low = stats.bounded_interval(counts, values)[0]
        more = counts[:-1] + [counts[-1] + 1]
        assert stats.bounded_interval(more, values)[0] >= low - 1e-12, (counts, "+ win")
        for cell in range(len(values) - 1):
            if counts[cell]:
                better = counts[:]
                better[cell] -= 1
                better[-1] += 1
                assert stats.bounded_interval(better, values)[0] >= low - 1e-12, (counts, cell)
        if sum(counts):
            mean = stats.mean_and_variance(counts, values)[1]
            low, high = stats.bounded_interval(counts, values)
            assert 0 <= low <= mean <= high <= 1 and low < high, counts


def test_bounded_interval_stays_in_the_range_of_the_values():
    # a tictactoe mean score of 0.5 from 1-0 and 0-1 games gave [-0.193, 1.193]
    # by hand: 1.920729 more at 0 and at 1, n 5.841459, mean 0.5, variance 0.25, spread
    # 1.959964 sqrt(0.25 / 5.841459) = 0.405469
    assert stats.bounded_interval([1, 0, 1], [0, 0.5, 1]) == pytest.approx((0.094531, 0.905469),
                                                                            abs=1e-6)
    low, high = stats.bounded_interval([1, 24], [11, 12])        # 11.96 with 12 the most
    assert 11 < low < 11.96 and high == 12
    assert stats.bounded_interval([5], [7]) == (7, 7)


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
