"""The two tuning methods as producers of game jobs: SPSA iterations and racing rounds, each a
list of jobs played through a :class:`TuneSession`, then the verification matches."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tools import stats
from tools.arena.grid import fill
from tools.arena.schedule import GameJob, derive_seed, paired_jobs
from tools.arena.seeds import SeedList
from tools.arena.tally import HeadToHead
from tools.tune.race import Race
from tools.tune.session import TuneSession, score_of
from tools.tune.spsa import Spsa

SPSA_GAMES = ("mirror", "opponent")
VERIFY_PAIRS_FROM = 10_000_000          # verification pairs: seeds no tuning game used
WINDOW = 20                             # iterations in the progress figure


@dataclass
class SpsaRun:
    """An SPSA run: ``mirror`` plays theta+ against theta- (fishtest); ``opponent`` plays
    each of them against the opponent on the same seeds and takes the difference."""

    spsa: Spsa
    template: str
    opponent: str
    iterations: int
    pairs: int
    games: str = "mirror"
    game_seeds: int | SeedList | None = None     # None: derived from the SPSA seed
    iteration: int = 0
    window: deque = field(default_factory=lambda: deque(maxlen=WINDOW))

    def bot(self, units) -> str:
        return fill(self.template, self.spsa.texts(units))

    def games_per_iteration(self) -> int:
        return self.pairs * (2 if self.games == "mirror" else 4)

    def run(self, session: TuneSession) -> None:
        for k in range(self.iteration + 1, self.iterations + 1):
            plus, minus, delta = self.spsa.sides(k)
            plus_bot, minus_bot = self.bot(plus), self.bot(minus)
            if plus_bot == minus_bot:          # rounded to one bot: no information to gain
                self.spsa.update(k, delta, 0.0)
                self.iteration = k
                continue
            jobs, tags = self._jobs(k, plus_bot, minus_bot, plus, minus)
            records = session.play(jobs, tags)
            self.spsa.update(k, delta, self._result(records, plus_bot, minus_bot))
            self.iteration = k

    def _jobs(self, k: int, plus_bot: str, minus_bot: str, plus, minus):
        names = [p.name for p in self.spsa.parameters]
        given = {plus_bot: dict(zip(names, self.spsa.values(plus))),
                 minus_bot: dict(zip(names, self.spsa.values(minus)))}
        jobs = []
        for index in range(self.pairs):
            number = (k - 1) * self.pairs + index
            seed = derive_seed(self.spsa.seed if self.game_seeds is None else self.game_seeds,
                               number)
            if self.games == "mirror":
                jobs += [GameJob(number, (plus_bot, minus_bot), seed),
                         GameJob(number, (minus_bot, plus_bot), seed)]
            else:
                for side, bot in enumerate((plus_bot, minus_bot)):
                    jobs += [GameJob(2 * number + side, (bot, self.opponent), seed),
                             GameJob(2 * number + side, (self.opponent, bot), seed)]
        tags = [{"phase": "spsa", "step": k,
                 "parameters": [given.get(name) for name in job.seats]} for job in jobs]
        return jobs, tags

    def _result(self, records: list[dict], plus_bot: str, minus_bot: str) -> float:
        """Plus's wins minus losses (mirror), or plus's points minus minus's on the same seeds."""
        if self.games == "mirror":
            result = sum(2 * score_of(record, plus_bot, minus_bot) - 1 for record in records)
            self.window.append((result, len(records)))
            return result
        plus_scores = [score_of(r, plus_bot, self.opponent) for r in records if plus_bot in r["seats"]]
        minus_scores = [score_of(r, minus_bot, self.opponent) for r in records
                        if minus_bot in r["seats"]]
        self.window.append((sum(plus_scores) + sum(minus_scores), len(records)))
        return sum(plus_scores) - sum(minus_scores)

    def progress_text(self) -> str:
        names = [p.name for p in self.spsa.parameters]
        theta = " ".join(f"{name}={text}" for name, text in zip(names, self.spsa.texts()))
        text = f"iteration {self.iteration}/{self.iterations}  {theta}"
        if self.window:
            total, games = (sum(value for value, _ in self.window),
                            sum(count for _, count in self.window))
            if self.games == "opponent":
                score = total / games
                text += f"  last {len(self.window)}: {score:.0%} vs opponent (Elo " \
                        f"{_elo_text(score)})"
            else:
                text += f"  last {len(self.window)}: plus-minus {total:+.0f} in {games} games"
        return text


def _elo_text(score: float) -> str:
    elo = stats.elo_from_score(score)
    return f"{elo:+.0f}" if abs(elo) != float("inf") else ("+inf" if elo > 0 else "-inf")


@dataclass
class RaceRun:
    race: Race
    rounds: int
    names: list[str]
    round_number: int = 0
    history: list[dict] = field(default_factory=list)

    def run(self, session: TuneSession, base_seed: int | SeedList) -> None:
        while self.round_number < self.rounds and len(self.race.live) > 1:
            session.plan(self.planned_games())
            jobs = self.race.round_jobs(self.round_number, base_seed)
            values = {e.point.bot: e.point.values for e in self.race.entrants}
            names = self.names
            tags = [{"phase": "race", "step": self.round_number,
                     "parameters": [dict(zip(names, values[name])) if name in values else None
                                    for name in job.seats]} for job in jobs]
            for record in session.play(jobs, tags):
                self.race.add(record)
            dropped = self.race.cut(self.round_number)
            self.history.append({"round": self.round_number, "live": len(self.race.live),
                                 "dropped": [e.point.bot for e in dropped]})
            self.round_number += 1

    def planned_games(self) -> int:
        """Games so far plus the most the rounds left could take."""
        left = self.rounds - self.round_number
        return self.race.games_played() + left * len(self.race.live) * 2 * self.race.pairs_per_round

    def progress_text(self) -> str:
        best = self.race.best()
        return (f"round {min(self.round_number + 1, self.rounds)}/{self.rounds}  {len(self.race.live)} of "
                f"{len(self.race.entrants)} points live  best {best.point.bot!r} "
                f"{best.score:.0%}")


def verify(session: TuneSession, tuned: str, others: dict[str, str | None],
           games: int) -> dict[str, HeadToHead]:
    """``tuned`` against each of ``others`` (label -> bot: the opponent, the starting
    parameters) on the same seeds, in seat-swapped pairs no tuning game used."""
    tallies = {}
    pairs = (games + 1) // 2
    for number, (label, other) in enumerate(others.items()):
        if other is None or other == tuned or games <= 0:
            continue
        jobs = [GameJob(VERIFY_PAIRS_FROM * (number + 1) + job.pair, job.seats, job.seed)
                for job in paired_jobs(tuned, other, pairs, session.game_seeds,
                                       start=VERIFY_PAIRS_FROM)]
        tags = [{"phase": f"verify-{label}", "step": 0, "parameters": [None, None]}
                for _ in jobs]
        tally = HeadToHead(tuned, other)
        for record in session.play(jobs, tags):
            tally.add(record)
        tallies[label] = tally
    return tallies
