"""tools.stats at its edges and against independent computations, so that every mutant mutmut
makes of it either fails a test or is listed as equivalent in tests/mutation/runner.py.

The references here never call the code under test: the Bradley-Terry fit is redone by Newton's
method on its log-likelihood with a finite-difference Hessian, the constrained multinomial fit of
the exact GSPRT by a safeguarded Newton search on its convex dual.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from tools import stats

INF = math.inf


# -- edge cases -------------------------------------------------------------------------------

def test_elo_from_score_is_infinite_at_the_ends_of_the_range():
    assert stats.elo_from_score(0.0) == -INF
    assert stats.elo_from_score(1.0) == INF
    assert stats.elo_from_score(0.5) == 0.0


def test_an_empty_record_has_an_unbounded_estimate():
    empty = stats.EloEstimate(0.0, -INF, INF, 0.5, INF)
    assert stats.elo_trinomial(0, 0, 0) == empty
    assert stats.elo_pentanomial([0, 0, 0, 0, 0]) == empty


def test_bounded_interval_of_no_samples_or_of_a_single_value_is_the_whole_range():
    assert stats.bounded_interval([0, 0, 0], (0.0, 0.5, 1.0)) == (0.0, 1.0)
    assert stats.bounded_interval([0, 0], (-1.0, 3.0)) == (-1.0, 3.0)
    assert stats.bounded_interval([7], (0.5,)) == (0.5, 0.5)
    assert stats.bounded_interval([4, 3], (0.5, 0.5)) == (0.5, 0.5)


def test_wilson_without_trials_and_its_clips_at_0_and_1():
    assert stats.wilson(0, 0) == (0.0, 1.0)
    for trials in range(1, 200):
        low, high = stats.wilson(trials, trials)
        assert 1 - 1e-15 < high <= 1.0  # unclipped, rounding makes it above 1 for 9 trials
        low, high = stats.wilson(0, trials)
        assert 0.0 <= low < 1e-15      # unclipped, rounding makes it negative for 9 trials


def test_los_of_no_decisive_games_and_of_a_record():
    assert stats.los(0, 0) == 0.5
    from statistics import NormalDist
    assert stats.los(12, 5) == pytest.approx(NormalDist().cdf(7 / math.sqrt(17)), rel=1e-12)


def test_draw_ratio():
    assert stats.draw_ratio(2, 3, 5) == pytest.approx(0.3)
    assert stats.draw_ratio(0, 0, 0) == 0.0
    assert stats.draw_ratio(0, 4, 0) == 1.0


def test_llr_of_an_empty_record_is_zero():
    assert stats.llr_trinomial(0, 0, 0, 0, 10) == 0.0
    assert stats.llr_pentanomial([0] * 5, 0, 10) == 0.0
    assert stats.llr_trinomial_exact(0, 0, 0, 0, 10) == 0.0
    assert stats.llr_pentanomial_exact([0] * 5, 0, 10) == 0.0


def test_sprt_decides_exactly_on_a_bound():
    settings = stats.SprtSettings(0, 10, 0.05, 0.1)
    lower, upper = settings.bounds
    assert (lower, upper) == (math.log(0.1 / 0.95), math.log(0.9 / 0.05))
    assert stats.sprt_decision(lower, settings) == "H0"
    assert stats.sprt_decision(upper, settings) == "H1"
    assert stats.sprt_decision(math.nextafter(lower, 0), settings) is None
    assert stats.sprt_decision(math.nextafter(upper, 0), settings) is None


def test_elo_estimate_to_json_rounds_and_writes_infinities_as_none():
    estimate = stats.EloEstimate(12.3456, -INF, 40.004, 0.53, 0.0123456)
    assert estimate.to_json() == {"elo": 12.35, "elo_ci95": [None, 40.0], "score": 0.53,
                                  "score_stderr": 0.0123456}
    assert stats.EloEstimate(-1.0, -2.555, INF, 0.5, INF).to_json() == {
        "elo": -1.0, "elo_ci95": [-2.56, None], "score": 0.5, "score_stderr": INF}


def test_sprt_settings_to_json():
    assert stats.SprtSettings(-1, 4, 0.1, 0.2).to_json() == {
        "elo0": -1, "elo1": 4, "alpha": 0.1, "beta": 0.2}
    assert stats.SprtSettings() == stats.SprtSettings(0.0, 10.0, 0.05, 0.05)


# -- error messages ---------------------------------------------------------------------------

def _message(call, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as caught:
        call(*args, **kwargs)
    return str(caught.value)


def test_parse_sprt_messages():
    keys = "elo0, elo1, alpha, beta"
    assert _message(stats.parse_sprt, "elo2=3") == f"'elo2=3': expected one of {keys} as KEY=VALUE"
    assert _message(stats.parse_sprt, "elo0") == f"'elo0': expected one of {keys} as KEY=VALUE"
    assert _message(stats.parse_sprt, "elo0=1=2") == "'elo0=1=2': '1=2' is not a number"
    assert _message(stats.parse_sprt, "elo1= x ") == "'elo1= x': 'x' is not a number"
    bounds = "alpha and beta must be between 0 and 1"
    for text in ("alpha=0", "alpha=1", "beta=0", "beta=1", "alpha=-0.1", "beta=1.5"):
        assert _message(stats.parse_sprt, text) == bounds, text
    assert _message(stats.parse_sprt, "elo0=5,elo1=5") == "elo1 (5) must be greater than elo0 (5)"
    assert _message(stats.parse_sprt, "elo0=2.5,elo1=-1") == \
        "elo1 (-1) must be greater than elo0 (2.5)"


def test_parse_sprt_accepts_spaces_empty_items_and_values_near_the_bounds():
    assert stats.parse_sprt(" elo0 = -2 ,, elo1=3,alpha=0.001, beta=0.999 ,") == \
        stats.SprtSettings(-2.0, 3.0, 0.001, 0.999)
    assert stats.parse_sprt("") == stats.SprtSettings()


def test_pentanomial_messages():
    assert _message(stats.elo_pentanomial, [1, 2, 3]) == "pentanomial counts need 5 cells, got 3"
    assert _message(stats.llr_pentanomial, [1] * 6, 0, 5) == \
        "pentanomial counts need 5 cells, got 6"
    assert _message(stats.llr_pentanomial_exact, [1] * 4, 0, 5) == \
        "pentanomial counts need 5 cells, got 4"


def test_bradley_terry_anchor_message():
    assert _message(stats.bradley_terry, ["a", "b"], [[0, 1], [1, 0]], [[0, 2], [2, 0]],
                    anchor="c") == "anchor 'c' is not one of the rated bots"


# -- Bradley-Terry against Newton's method and a numerical Hessian -----------------------------

NAMES = ["ann", "bob", "cat", "dan"]
# ann-bob 10 games, ann-cat 3, bob-cat 7, cat-dan 5, and ann-dan, bob-dan never met
GAMES = [[0, 10, 3, 0], [10, 0, 7, 0], [3, 7, 0, 5], [0, 0, 5, 0]]
SCORES = [[0, 6.5, 2.5, 0], [3.5, 0, 4.0, 0], [0.5, 3.0, 0, 1.5], [0, 0, 3.5, 0]]


def _log_likelihood(theta, scores, games) -> float:
    """Bradley-Terry with the prior: each bot drew one game against a fixed bot of theta 0."""
    count = len(theta)
    total = 0.0
    for i in range(count):
        total += 0.5 * theta[i] - math.log(math.exp(theta[i]) + 1)
        for j in range(i + 1, count):
            total += scores[i][j] * theta[i] + scores[j][i] * theta[j]
            total -= games[i][j] * math.log(math.exp(theta[i]) + math.exp(theta[j]))
    return total


def _numerical_gradient(theta, scores, games, step=1e-5):
    gradient = np.zeros(len(theta))
    for k in range(len(theta)):
        up, down = np.array(theta, float), np.array(theta, float)
        up[k] += step
        down[k] -= step
        gradient[k] = (_log_likelihood(up, scores, games)
                       - _log_likelihood(down, scores, games)) / (2 * step)
    return gradient


def _numerical_hessian(theta, scores, games, step=1e-4):
    count = len(theta)
    hessian = np.zeros((count, count))
    for k in range(count):
        for m in range(count):
            corners = []
            for sk, sm in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                point = np.array(theta, float)
                point[k] += sk * step
                point[m] += sm * step
                corners.append(_log_likelihood(point, scores, games))
            hessian[k, m] = (corners[0] - corners[1] - corners[2] + corners[3]) / (4 * step ** 2)
    return hessian


def _newton_fit(scores, games):
    """Maximum-likelihood log-strengths: Newton steps with an analytic gradient, then the
    numerical Hessian at the optimum for the covariance."""
    count = len(scores)
    theta = np.zeros(count)
    for _ in range(100):
        gradient = np.zeros(count)
        hessian = np.zeros((count, count))
        for i in range(count):
            p = 1 / (1 + math.exp(-theta[i]))
            gradient[i] += 0.5 - p
            hessian[i, i] -= p * (1 - p)
            for j in range(count):
                if j != i:
                    q = 1 / (1 + math.exp(theta[j] - theta[i]))
                    gradient[i] += scores[i][j] - games[i][j] * q
                    hessian[i, i] -= games[i][j] * q * (1 - q)
                    hessian[i, j] += games[i][j] * q * (1 - q)
        theta = theta - np.linalg.solve(hessian, gradient)
        if np.max(np.abs(gradient)) < 1e-13:
            break
    assert np.max(np.abs(_numerical_gradient(theta, scores, games))) < 1e-6
    covariance = np.linalg.inv(-_numerical_hessian(theta, scores, games))
    return theta, covariance


def _reference_ratings(names, scores, games, anchor=None):
    theta, covariance = _newton_fit(scores, games)
    count = len(names)
    expected = {}
    for i, name in enumerate(names):
        contrast = np.zeros(count)
        contrast[i] += 1
        if anchor is None:
            contrast -= 1 / count
        else:
            contrast[names.index(anchor)] -= 1
        centre = contrast @ theta
        spread = stats.Z95 * math.sqrt(max(contrast @ covariance @ contrast, 0.0))
        played = sum(games[i])
        mean = sum(scores[i]) / played if played else 0.5
        scale = 400 / math.log(10)
        expected[name] = (scale * centre, scale * (centre - spread), scale * (centre + spread),
                          played, mean)
    return expected


def _check_against_reference(names, scores, games, anchor=None):
    ratings = stats.bradley_terry(names, scores, games, anchor=anchor)
    expected = _reference_ratings(names, scores, games, anchor)
    assert [rating.elo for rating in ratings] == sorted((rating.elo for rating in ratings),
                                                        reverse=True)
    assert sorted(rating.name for rating in ratings) == sorted(names)
    for rating in ratings:
        elo, low, high, played, mean = expected[rating.name]
        assert rating.elo == pytest.approx(elo, abs=1e-6), rating
        assert rating.low == pytest.approx(low, abs=1e-4), rating
        assert rating.high == pytest.approx(high, abs=1e-4), rating
        assert rating.games == played
        assert rating.score == pytest.approx(mean, rel=1e-12)
    return {rating.name: rating for rating in ratings}


def test_bradley_terry_matches_newton_on_an_uneven_four_bot_league():
    rated = _check_against_reference(NAMES, SCORES, GAMES)
    assert sum(rating.elo for rating in rated.values()) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("anchor", NAMES)
def test_bradley_terry_anchored_matches_newton(anchor):
    rated = _check_against_reference(NAMES, SCORES, GAMES, anchor)
    assert rated[anchor].elo == 0
    assert rated[anchor].low == rated[anchor].high == 0


def test_bradley_terry_with_a_bot_that_never_played():
    names = ["x", "y", "idle"]
    games = [[0, 6, 0], [6, 0, 0], [0, 0, 0]]
    scores = [[0, 4.5, 0], [1.5, 0, 0], [0, 0, 0]]
    rated = _check_against_reference(names, scores, games)
    assert rated["idle"].games == 0
    assert rated["idle"].score == 0.5
    _check_against_reference(names, scores, games, anchor="idle")


def test_bradley_terry_three_bots_in_an_order_that_needs_pivoting():
    # the strongest bot listed last and a lopsided record: the information matrix's rows differ
    # by orders of magnitude
    names = ["weak", "mid", "strong"]
    games = [[0, 40, 2], [40, 0, 9], [2, 9, 0]]
    scores = [[0, 11.0, 0.0], [29.0, 0, 1.5], [2.0, 7.5, 0]]
    _check_against_reference(names, scores, games)
    _check_against_reference(names, scores, games, anchor="strong")


def test_invert_against_numpy():
    matrix = [[4.0, -1.0, 0.5, 0.0], [-1.0, 3.0, -0.5, 0.2], [0.5, -0.5, 2.0, -0.3],
              [0.0, 0.2, -0.3, 0.7]]
    assert np.allclose(stats._invert(matrix), np.linalg.inv(np.array(matrix)), rtol=0,
                       atol=1e-12)
    # a zero on the diagonal needs a row swap; a zero below it needs none
    swapped = [[0.0, 2.0, 1.0], [3.0, 0.0, 0.0], [1.0, 1.0, 5.0]]
    assert np.allclose(stats._invert(swapped), np.linalg.inv(np.array(swapped)), rtol=0,
                       atol=1e-12)
    small_pivot = [[1e-3, 1.0], [1.0, 1.0]]
    assert np.allclose(stats._invert(small_pivot), np.linalg.inv(np.array(small_pivot)),
                       rtol=1e-12, atol=0)


# -- the exact GSPRT against a Newton search on the dual --------------------------------------

def _mle_with_mean_newton(observed, values, mean):
    """max sum p log q with sum q = 1 and sum q v = mean: q = p / (1 + x d), x minimising the
    convex dual -sum p log(1 + x d); damped Newton that stays inside the poles."""
    shifts = [value - mean for value in values]
    x = 0.0
    for _ in range(200):
        first = -sum(p * d / (1 + x * d) for p, d in zip(observed, shifts))
        second = sum(p * d * d / (1 + x * d) ** 2 for p, d in zip(observed, shifts))
        step = -first / second
        while any(1 + (x + step) * d <= 0 for d in shifts):
            step /= 2
        x += step
        if abs(step) < 1e-17:
            break
    fitted = [p / (1 + x * d) for p, d in zip(observed, shifts)]
    assert sum(fitted) == pytest.approx(1, abs=1e-12)
    assert sum(q * v for q, v in zip(fitted, values)) == pytest.approx(mean, abs=1e-12)
    return fitted


def _llr_exact_reference(counts, values, elo0, elo1):
    total = sum(counts)
    regular = [max(count, 1e-3) for count in counts]
    observed = [count / sum(regular) for count in regular]
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    q1 = _mle_with_mean_newton(observed, values, s1)
    q0 = _mle_with_mean_newton(observed, values, s0)
    return total * sum(p * math.log(a / b) for p, a, b in zip(observed, q1, q0))


@pytest.mark.parametrize("pairs, elo0, elo1", [
    ([3, 11, 20, 14, 2], 0, 10),
    ([0, 7, 25, 9, 4], -5, 5),
    ([1, 0, 0, 0, 12], 0, 50),
    ([5, 9, 2, 0, 0], 10, 30),
])
def test_llr_pentanomial_exact_matches_the_newton_reference(pairs, elo0, elo1):
    expected = _llr_exact_reference(pairs, stats.PAIR_SCORES, elo0, elo1)
    assert stats.llr_pentanomial_exact(pairs, elo0, elo1) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("wins, draws, losses, elo0, elo1", [
    (30, 12, 25, 0, 10),
    (7, 0, 2, -10, 10),
    (0, 5, 9, 0, 20),
    (40, 80, 31, 2, 8),
])
def test_llr_trinomial_exact_matches_the_newton_reference(wins, draws, losses, elo0, elo1):
    expected = _llr_exact_reference((losses, draws, wins), stats.GAME_SCORES, elo0, elo1)
    assert stats.llr_trinomial_exact(wins, draws, losses, elo0, elo1) == \
        pytest.approx(expected, rel=1e-9)


def test_mle_with_mean_matches_the_newton_reference():
    observed = [0.1, 0.25, 0.3, 0.2, 0.15]
    for mean in (0.3, 0.5, 0.55, 0.8):
        fitted = stats._mle_with_mean(observed, stats.PAIR_SCORES, mean)
        expected = _mle_with_mean_newton(observed, stats.PAIR_SCORES, mean)
        assert fitted == pytest.approx(expected, rel=1e-9)


def test_llr_approximation_of_a_mixed_record_by_hand():
    # W 30 D 12 L 25: mean (30 + 6) / 67, E[x^2] (30 + 3) / 67
    n, mean = 67, 36 / 67
    variance = 33 / 67 - mean ** 2
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    expected = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert stats.llr_trinomial(30, 12, 25, 0, 10) == pytest.approx(expected, rel=1e-12)


def test_parse_sprt_elo_range_is_closed():
    assert stats.parse_sprt("elo0=-1000,elo1=1000") == stats.SprtSettings(-1000.0, 1000.0)
    for text in ("elo0=-1000.001", "elo1=1000.001", "elo1=inf", "elo0=nan"):
        assert _message(stats.parse_sprt, text) == "elo0 and elo1 must be from -1000 to 1000", text


def test_a_single_sample_already_has_an_interval():
    # one win: Agresti-Coull adds z^2/2 to each end: W 1 + c, L c, c = z^2/2
    c = stats.Z95 ** 2 / 2
    n, mean = 1 + 2 * c, (1 + c) / (1 + 2 * c)
    high = mean + stats.Z95 * math.sqrt(mean * (1 - mean) / n)
    assert stats.bounded_interval([0, 1], (0.0, 1.0)) == (
        pytest.approx(mean - stats.Z95 * math.sqrt(mean * (1 - mean) / n), rel=1e-12), 1.0)
    assert high > 1
    assert stats.mean_and_variance([0, 1], (0.0, 1.0)) == (1, 1.0, 0.0)
    assert stats.mean_and_variance([0, 0], (0.0, 1.0)) == (0, 0.5, 0.0)
    # Wilson with one trial, by its formula: centre (1 + z^2/2) / (1 + z^2), spread z sqrt(z^2/4)
    z2 = stats.Z95 ** 2
    assert stats.wilson(1, 1) == (pytest.approx((1 + z2 / 2 - z2 / 2) / (1 + z2), rel=1e-12),
                                  pytest.approx(1.0))
