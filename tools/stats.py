"""The statistics of bot-vs-bot testing, stdlib only.

Elo from a score with a 95 % interval (per game, or per seat-swapped pair: pentanomial; an
Agresti-Coull interval, bounded and sane for perfect records), LOS,
the Wilson interval, the SPRT bounds and fishtest's GSPRT approximation (``LLR_alt2``) on
trinomial or pentanomial counts, and a Bradley-Terry fit (Hunter's MM) on the Elo scale with
intervals from the Fisher information. Formulas and worked numbers:
``shared/reference/algorithms.md`` section 5.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)          # 1.95996...
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pentanomial: LL, LD+DL, LW+DD+WL, DW+WD, WW
GAME_SCORES = (0.0, 0.5, 1.0)              # trinomial: L, D, W
_EPSILON = 1e-3                            # fishtest's regularisation of empty cells
ELO_PER_NAT = 400 / math.log(10)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference with its 95 % interval, from a score and its standard error."""

    elo: float
    low: float
    high: float
    score: float
    stderr: float          # of the mean score

    def to_json(self) -> dict:
        return {"elo": _finite(self.elo), "elo_ci95": [_finite(self.low), _finite(self.high)],
                "score": self.score, "score_stderr": self.stderr}


def _finite(value: float) -> float | None:
    return round(value, 2) if math.isfinite(value) else None


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference (the logistic curve)."""
    return 1 / (1 + 10 ** (-elo / 400))


def mean_and_variance(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float, float]:
    """Total, mean and (population) variance of a distribution given as counts over values."""
    total = sum(counts)
    if total <= 0:
        return 0, 0.5, 0.0
    mean = sum(count * value for count, value in zip(counts, values)) / total
    variance = sum(count * (value - mean) ** 2 for count, value in zip(counts, values)) / total
    return total, mean, variance


def _estimate(counts: Sequence[float], values: Sequence[float]) -> EloEstimate:
    total, score, variance = mean_and_variance(counts, values)
    if total == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, math.inf)
    low, high = bounded_interval(counts, values)
    return EloEstimate(elo_from_score(score), elo_from_score(low), elo_from_score(high), score,
                       math.sqrt(variance / total))


def bounded_interval(counts: Sequence[float], values: Sequence[float],
                     z: float = Z95) -> tuple[float, float]:
    """A 95 % interval of the mean of samples worth ``values`` (ascending) seen ``counts`` times,
    never outside [values[0], values[-1]].

    Agresti and Coull's adjusted interval, the practical form of Wilson's score interval,
    generalised from wins/losses to any outcomes: add z^2/2 samples at each end of the range,
    then take mean +- z * sqrt(variance / n) of the augmented sample, clipped to the range. For
    wins and losses it is Agresti-Coull's interval itself; on large samples it is the normal
    interval; unlike the normal one it keeps a width when every sample is alike (a perfect
    record is not certain) and never leaves the range. Adding a top sample (a win) never lowers
    the lower end; tests/tools/test_stats.py checks that over every small record.
    """
    bottom, top = values[0], values[-1]
    if top == bottom or sum(counts) <= 0:
        return bottom, top
    augmented = list(counts)
    augmented[0] += z * z / 2
    augmented[-1] += z * z / 2
    total, mean, variance = mean_and_variance(augmented, values)
    spread = z * math.sqrt(variance / total)
    return max(bottom, mean - spread), min(top, mean + spread)


def elo_trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo and 95 % interval treating every game as independent (cutechess's error margin)."""
    return _estimate((losses, draws, wins), GAME_SCORES)


def elo_pentanomial(pairs: Sequence[int]) -> EloEstimate:
    """Elo and 95 % interval from pair counts [LL, LD+DL, LW+DD+WL, DW+WD, WW].

    Each pair is one sample (its mean score), so the variance a seed and a seat add to both
    games of a pair is counted once, as fastchess and fishtest do.
    """
    _check_pentanomial(pairs)
    return _estimate(pairs, PAIR_SCORES)


def _check_pentanomial(pairs: Sequence[int]) -> None:
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts need 5 cells, got {len(pairs)}")


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(true Elo > 0), from wins and losses (draws carry no sign)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (sane at 0 and 1, unlike the normal interval)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = p + z2 / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    scale = 1 + z2 / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def draw_ratio(wins: int, draws: int, losses: int) -> float:
    total = wins + draws + losses
    return draws / total if total else 0.0


# -- sequential testing ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SprtSettings:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def to_json(self) -> dict:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}

    def problem(self) -> str | None:
        """Why no SPRT can run with these values (NaN included), or None."""
        if not all(-MAX_SPRT_ELO <= value <= MAX_SPRT_ELO for value in (self.elo0, self.elo1)):
            return f"elo0 and elo1 must be from {-MAX_SPRT_ELO:g} to {MAX_SPRT_ELO:g}"
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            return "alpha and beta must be between 0 and 1"
        if self.elo1 <= self.elo0:
            return f"elo1 ({self.elo1:g}) must be greater than elo0 ({self.elo0:g})"
        return None


MAX_SPRT_ELO = 1000.0      # a score of 99.7 %: beyond it (or inf, nan) the LLR is undefined


def parse_sprt(text: str) -> SprtSettings:
    """``elo0=0,elo1=10,alpha=0.05,beta=0.05`` (any subset; the rest keep these defaults)."""
    values = SprtSettings().to_json()
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in values:
            raise ValueError(f"{item!r}: expected one of {', '.join(values)} as KEY=VALUE")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"{item!r}: {value.strip()!r} is not a number") from None
    settings = SprtSettings(**values)
    problem = settings.problem()
    if problem is not None:
        raise ValueError(problem)
    return settings


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: accept H0 below the first, H1 above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """fishtest's ``LLR_alt2``: N (s1 - s0) (2 mean - s0 - s1) / (2 variance)."""
    if sum(counts) == 0:
        return 0.0
    regular = [max(count, _EPSILON) for count in counts]
    total, mean, variance = mean_and_variance(regular, values)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """fishtest's approximation on game counts (W, D, L)."""
    return _llr((losses, draws, wins), GAME_SCORES, elo0, elo1)


def llr_pentanomial(pairs: Sequence[int], elo0: float, elo1: float) -> float:
    """fishtest's approximation on pair counts [LL, LD+DL, LW+DD+WL, DW+WD, WW]."""
    _check_pentanomial(pairs)
    return _llr(pairs, PAIR_SCORES, elo0, elo1)


def llr_pentanomial_exact(pairs: Sequence[int], elo0: float, elo1: float) -> float:
    """The exact multinomial GSPRT on pair counts (fishtest's ``LLR_logistic``).

    The log-likelihood ratio of the counts under the two maximum-likelihood distributions whose
    mean score is L(elo1) and L(elo0). It agrees with :func:`llr_pentanomial` on large samples,
    but stays sane on small, uniform ones where the approximation's variance is near 0 (one won
    pair gives the approximation an LLR of +17.8 for elo1 = 50, this one +0.13): so ``match
    --sprt`` decides with it.
    """
    _check_pentanomial(pairs)
    return _llr_exact(pairs, PAIR_SCORES, elo0, elo1)


def llr_trinomial_exact(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The exact multinomial GSPRT on game counts (for games that cannot be paired)."""
    return _llr_exact((losses, draws, wins), GAME_SCORES, elo0, elo1)


def _llr_exact(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    total = sum(counts)
    if total == 0:
        return 0.0
    regular = [max(count, _EPSILON) for count in counts]
    weight = sum(regular)
    observed = [count / weight for count in regular]
    under_h1 = _mle_with_mean(observed, values, score_from_elo(elo1))
    under_h0 = _mle_with_mean(observed, values, score_from_elo(elo0))
    return total * sum(p * math.log(q1 / q0) for p, q1, q0 in zip(observed, under_h1, under_h0))


def _mle_with_mean(observed: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``values`` closest (in likelihood) to ``observed`` with this mean:
    q_i = p_i / (1 + x (v_i - mean)), x the root of sum p_i (v_i - mean) / (1 + x (v_i - mean))
    = 0, which decreases in x; found by bisection between the poles."""
    shifts = [value - mean for value in values]
    low, high = -1 / max(shifts), -1 / min(shifts)
    def slope(x: float) -> float:
        return sum(p * d / (1 + x * d) for p, d in zip(observed, shifts))
    span = high - low
    low, high = low + span * 1e-12, high - span * 1e-12
    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    fitted = [p / (1 + x * d) for p, d in zip(observed, shifts)]
    norm = sum(fitted)
    return [q / norm for q in fitted]


def sprt_decision(llr: float, settings: SprtSettings) -> str | None:
    """'H0' or 'H1' once the LLR leaves the bounds, else None (keep playing)."""
    lower, upper = settings.bounds
    if llr <= lower:
        return "H0"
    if llr >= upper:
        return "H1"
    return None


# -- Bradley-Terry -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float           # mean score over its games


def bradley_terry(names: Sequence[str], scores: Sequence[Sequence[float]],
                  games: Sequence[Sequence[int]], *, anchor: str | None = None,
                  iterations: int = 10000, tolerance: float = 1e-10) -> list[Rating]:
    """Bradley-Terry ratings on the Elo scale, by Hunter's MM iteration.

    ``scores[i][j]`` is i's total score against j (a draw is half a win to each side) and
    ``games[i][j]`` the number of games between them. A weak prior, one virtual draw against a
    fixed player of strength 1, keeps an undefeated bot finite. Ratings are shifted so their mean
    is 0, or so ``anchor`` is 0; the 95 % intervals come from the inverse Fisher information of
    that contrast. Sorted best first.
    """
    count = len(names)
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the rated bots")
    strength = [1.0] * count
    wins = [sum(scores[i][j] for j in range(count) if j != i) + 0.5 for i in range(count)]
    for _ in range(iterations):
        change = 0.0
        for i in range(count):
            denominator = 1 / (strength[i] + 1)      # the virtual game against strength 1
            for j in range(count):
                if j != i and games[i][j]:
                    denominator += games[i][j] / (strength[i] + strength[j])
            updated = wins[i] / denominator
            change = max(change, abs(math.log(updated / strength[i])))
            strength[i] = updated
        if change < tolerance:
            break
    theta = [math.log(value) for value in strength]
    covariance = _invert(_information(strength, games))
    if anchor is None:
        contrasts = [[(1 if k == i else 0) - 1 / count for k in range(count)] for i in range(count)]
    else:
        a = names.index(anchor)
        contrasts = [[(1 if k == i else 0) - (1 if k == a else 0) for k in range(count)]
                     for i in range(count)]
    ratings = []
    for i in range(count):
        centre = sum(c * t for c, t in zip(contrasts[i], theta))
        variance = sum(contrasts[i][k] * covariance[k][m] * contrasts[i][m]
                       for k in range(count) for m in range(count))
        spread = Z95 * math.sqrt(max(variance, 0.0))
        played = sum(games[i][j] for j in range(count) if j != i)
        total = sum(scores[i][j] for j in range(count) if j != i)
        ratings.append(Rating(names[i], ELO_PER_NAT * centre, ELO_PER_NAT * (centre - spread),
                              ELO_PER_NAT * (centre + spread), played,
                              total / played if played else 0.5))
    return sorted(ratings, key=lambda rating: -rating.elo)


def _information(strength: list[float], games: Sequence[Sequence[int]]) -> list[list[float]]:
    """Fisher information of the log-strengths (the prior's virtual game included)."""
    count = len(strength)
    matrix = [[0.0] * count for _ in range(count)]
    for i in range(count):
        p = strength[i] / (strength[i] + 1)
        matrix[i][i] += p * (1 - p)
        for j in range(count):
            if j != i and games[i][j]:
                p = strength[i] / (strength[i] + strength[j])
                weight = games[i][j] * p * (1 - p)
                matrix[i][i] += weight
                matrix[i][j] -= weight
    return matrix


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive definite matrix."""
    size = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(work[row][column]))
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        work[column] = [value / lead for value in work[column]]
        for row in range(size):
            if row != column and work[row][column]:
                factor = work[row][column]
                work[row] = [a - factor * b for a, b in zip(work[row], work[column])]
    return [row[size:] for row in work]
