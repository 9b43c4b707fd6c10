"""A results file's records are checked when it is read, before any game is played: a number the
summary cannot use (1e300, NaN, Infinity) or of the wrong type is one line naming the file and
the line, and the file is left as it was (issue 23, defect 7: 1e300 crashed the summary with
OverflowError after the missing games were played)."""
from __future__ import annotations

import json
import math

import pytest

from tests.conftest import run_cli

MATCH = ("match", "tictactoe", "random", "random --seed 5", "--seed", "3", "--first-turn-ms",
         "30000", "--turn-ms", "30000")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("results") / "games.jsonl"
    done = run_cli(*MATCH, "-n", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_text().splitlines()


@pytest.mark.parametrize("field, value", [
    ("score", 1e300), ("score", -1e300), ("score", math.nan), ("score", math.inf),
    ("score", -math.inf), ("score", "1"), ("score", True), ("score", None), ("score", [1]),
    ("rank", 0.5), ("rank", "0"), ("rank", False),
    ("latencies_ms", 1e300), ("latencies_ms", -1.0), ("latencies_ms", math.nan),
])
def test_a_record_the_summary_cannot_use_is_refused_before_any_game(tmp_path, played, field, value):
    record = json.loads(played[1])
    if field == "latencies_ms":
        record["latencies_ms"][0].append(value)
    else:
        record["players"][0][field] = value
    out = tmp_path / "games.jsonl"
    out.write_text(played[0] + "\n" + json.dumps(record) + "\n")     # NaN, Infinity as json writes them
    before = out.read_bytes()
    done = run_cli(*MATCH, "-n", "6", "--out", str(out))
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.startswith(f"botarena: results file {str(out)!r}: line 2 is not a botarena "
                                  "results line ("), done.stderr
    assert out.read_bytes() == before, "no game was played into the file"


def test_the_largest_score_allowed_is_summarised(tmp_path, played):
    record = json.loads(played[1])
    record["players"][0]["score"] = 1e15
    out = tmp_path / "games.jsonl"
    out.write_text(played[0] + "\n" + json.dumps(record) + "\n")
    done = run_cli(*MATCH, "-n", "2", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
