"""The bundler: every built-in bot, bundled, plays exactly as the original; bad input is one line."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.api import TimeControl, UsageError
from referee.games import game_names, load_game
from referee.match import MatchResult, PlayerSpec, play_match
from tests.conftest import ROOT, run_cli
from tools.arena.botspec import bot_parser, builtin_bots, resolve_bot
from tools.bundle.builder import build_bundle, resolve_entry, to_literal
from tools.bundle.defaults import parse_defaults
from tools.bundle.strip import strip_source

SEED = 1
ITERATIONS = 8                      # small: the bots' own clocks never cut a search short
SHORT_GAME_TURNS = 12               # for games with a ``turns`` option
GENEROUS = TimeControl(first_turn_ms=20_000, turn_ms=10_000, grace_ms=1_000)
ALL_BOTS = [(game, bot) for game in game_names() for bot in builtin_bots(game)]


def _isolated(bundle: Path, run_dir: Path, scratch: Path, *args: str) -> PlayerSpec:
    """The bundle as CodinGame runs it: isolated mode, no site-packages (so not this project),
    from an empty folder, with its own empty TMPDIR; ``sh`` only changes into the folder."""
    argv = ("/bin/sh", "-c", 'cd "$0" && exec "$@"', str(run_dir),
            sys.executable, "-I", "-S", str(bundle), *args)
    return PlayerSpec(name=f"bundle {bundle.name}", argv=argv,
                      env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TMPDIR": str(scratch)})


def _outputs(result: MatchResult) -> list[tuple[int, int, str | None]]:
    return [(record.turn, seat.seat, seat.output) for record in result.records for seat in record.seats]


def _short_options(game) -> dict:
    options = game.parse_options({})
    if options.get("turns", 0) > SHORT_GAME_TURNS:
        options["turns"] = SHORT_GAME_TURNS
    return options


def _play(game, first: PlayerSpec, other: PlayerSpec) -> MatchResult:
    players = [first] + [other] * (game.seats[0] - 1)
    result = play_match(game, players, seed=SEED, options=_short_options(game), time_control=GENEROUS,
                        memory_mb=None)
    faults = [player.fault for player in result.players if player.fault]
    assert not faults, f"{result.reason}: {faults}"
    return result


def _folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    folders = tuple(tmp_path / name for name in ("out", "run", "tmp"))
    for folder in folders:
        folder.mkdir()
    return folders


def test_every_game_has_a_bot_to_bundle():
    assert ALL_BOTS and {game for game, _ in ALL_BOTS} >= {"tictactoe"}


@pytest.mark.parametrize("game_name, bot", ALL_BOTS, ids=[f"{g}/{b}" for g, b in ALL_BOTS])
def test_bundle_plays_exactly_like_the_original(game_name, bot, tmp_path):
    """Same seed and iteration budget, baked in with --set so the bundle runs without arguments
    (as on CodinGame): every answer of every turn is the same, with the sources verbatim and
    stripped, and nothing is written to disk."""
    game = load_game(game_name)
    dests = {action.dest for action in bot_parser(game_name, bot)._actions}
    settings = {key: value for key, value in (("seed", SEED), ("iterations", ITERATIONS))
                if key in dests}
    args = " ".join(f"--{key} {value}" for key, value in settings.items())
    original = resolve_bot(game_name, f"{bot} {args}")
    if "iterations" not in settings:
        once, again = _play(game, original, original), _play(game, original, original)
        if _outputs(once) != _outputs(again):
            pytest.skip(f"{game_name}/{bot} has no deterministic mode (no --iterations, and two "
                        "runs with the same seed differ): nothing to compare a bundle with")
    entry = resolve_entry(f"{game_name}/{bot}")
    defaults = parse_defaults(entry, [f"{key}={value}" for key, value in settings.items()])
    out, run_dir, scratch = _folders(tmp_path)
    submitted = build_bundle(entry, defaults=defaults)     # what `botarena bundle` writes
    assert len(submitted.text) < 100_000 and submitted.text.isascii()
    bundles = []
    for strip in ("never", "always"):    # both, whichever `auto` chose (verbatim may be too long)
        bundle = build_bundle(entry, defaults=defaults, strip=strip, limit=10**9)
        (out / f"{strip}.py").write_text(bundle.text, encoding="ascii")
        bundles.append(_isolated(out / f"{strip}.py", run_dir, scratch))
    expected = _play(game, original, original)
    if game.seats[0] == 1:          # one game per bundle
        played = [_play(game, bundles[0], original), _play(game, bundles[1], original)]
    else:                           # verbatim in seat 0, stripped in the others: one game
        played = [_play(game, bundles[0], bundles[1])]
    for actual in played:
        assert _outputs(actual) == _outputs(expected)
        assert [seat.score for seat in actual.players] == [seat.score for seat in expected.players]
    assert list(run_dir.iterdir()) == [] and list(scratch.iterdir()) == []
    assert sorted(out.iterdir()) == [out / "always.py", out / "never.py"]


_HELPER = '''\
"""A helper module next to the script: globals, a relative-import-free sibling, non-ASCII text."""
import sys

GREETING = "h\\u00e9llo w\\u00f6rld"      # the bundler escapes what is not ASCII: caf\u00e9
COUNT = 0


def bump():
    global COUNT
    COUNT += 1
    return COUNT


def fail():
    raise ValueError("raised in helper")
'''

_SCRIPT = '''\
"""A script outside the project: a sibling module and package, a project module."""
from __future__ import annotations

import sys
import types

import helper
import strategy.weights
from bots.runtime import answer
from helper import bump
from strategy import best


def main() -> None:
    bump()
    bump()
    answer(f"{helper.GREETING.encode('unicode_escape').decode()} {helper.COUNT} {'\u00f1'!a}")
    real = (type(sys.modules["helper"]) is types.ModuleType and type(vars(helper)) is dict
            and bump.__globals__ is vars(helper) and main.__globals__ is vars(sys.modules["__main__"]))
    answer(f"real modules: {real}, name {__name__}, package {__package__}")
    answer(f"relative imports: {best([1, 2])} {strategy.weights.BONUS} {strategy.core.__package__}")
    if sys.argv[1:] == ["--fail"]:
        helper.fail()


if __name__ == "__main__":
    main()
'''


_PACKAGE = {
    "__init__.py": '"""A package next to the script: relative imports."""\nfrom .core import best\n',
    "core.py": "from . import weights\nfrom .weights import BONUS\n\n\n"
               "def best(values):\n    return max(values) + BONUS + weights.EXTRA\n",
    "weights.py": "BONUS = 1\nEXTRA = 10\n",
}


def _script_bot(tmp_path: Path) -> Path:
    folder = tmp_path / "mybot"
    (folder / "strategy").mkdir(parents=True)
    for name, text in _PACKAGE.items():
        (folder / "strategy" / name).write_text(text, encoding="utf-8")
    (folder / "helper.py").write_text(_HELPER, encoding="utf-8")
    (folder / "main.py").write_text(_SCRIPT, encoding="utf-8")
    return folder / "main.py"


def _run_isolated(path: Path, run_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-S", str(path), *args], cwd=run_dir,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("strip", ["never", "always"])
def test_script_with_sibling_modules_runs_the_same_bundled(tmp_path, strip):
    script = _script_bot(tmp_path)
    out, run_dir, _ = _folders(tmp_path)
    result = run_cli("bundle", str(script), "-o", str(out / "bot.py"), "--strip", strip)
    assert result.returncode == 0, result.stderr
    text = (out / "bot.py").read_text(encoding="ascii")
    assert text.isascii()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    original = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                              timeout=60)
    bundled = _run_isolated(out / "bot.py", run_dir)
    assert bundled.returncode == 0, bundled.stderr
    assert bundled.stdout == original.stdout
    assert "real modules: True, name __main__, package None" in bundled.stdout
    assert "relative imports: 13 1 strategy" in bundled.stdout


def test_a_traceback_in_a_bundle_shows_the_inlined_source_line(tmp_path):
    script = _script_bot(tmp_path)
    out, run_dir, _ = _folders(tmp_path)
    assert run_cli("bundle", str(script), "-o", str(out / "bot.py")).returncode == 0
    crashed = _run_isolated(out / "bot.py", run_dir, "--fail")
    assert crashed.returncode == 1
    assert 'File "helper.py", line 15, in fail' in crashed.stderr
    assert 'raise ValueError("raised in helper")' in crashed.stderr
    assert list(run_dir.iterdir()) == []


def test_set_bakes_defaults_and_arguments_still_win(tmp_path):
    out, run_dir, _ = _folders(tmp_path)
    result = run_cli("bundle", "random", "--game", "tictactoe", "-o", str(out / "bot.py"),
                     "--set", "seed=7")
    assert result.returncode == 0, result.stderr
    assert "modules" in result.stdout
    turn = "-1 -1\n4\n0 0\n0 1\n1 1\n2 2\n"

    def answers(argv, cwd, env=None):
        return subprocess.run(argv, input=turn * 3, capture_output=True, text=True, cwd=cwd,
                              env=env, timeout=60).stdout

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    original = [sys.executable, "-P", "-m", "bots.tictactoe.random_bot"]
    bundle = [sys.executable, "-I", "-S", str(out / "bot.py")]
    assert answers(bundle, run_dir) == answers([*original, "--seed", "7"], ROOT, env)
    assert answers([*bundle, "--seed", "3"], run_dir) == answers([*original, "--seed", "3"], ROOT, env)
    assert "[bundled default: 7]" in subprocess.run([*bundle, "--help"], capture_output=True,
                                                     text=True, timeout=60).stdout


@pytest.mark.parametrize("args, message", [
    (["tictactoe/nobody"], "unknown bot 'nobody' for tictactoe"),
    (["nogame/random"], "unknown game 'nogame'"),
    (["random"], "give it as GAME/NAME"),
    (["missing.py"], "no such file"),
    (["tictactoe/random", "--set", "depth=2"], "has no parameter 'depth' (known: seed)"),
    (["tictactoe/random", "--set", "seed=abc"], "--set 'seed=abc': argument --seed: invalid int value"),
    (["tictactoe/random", "--set", "seed"], "expected KEY=VALUE"),
    (["tictactoe/random", "--limit", "1000"], "characters even with comments and docstrings "
                                                "stripped, "),

])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    out = tmp_path / "bot.py"
    result = run_cli("bundle", *args, "-o", str(out))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not out.exists()


def test_a_bot_over_codingame_limit_is_refused_or_stripped_to_fit(tmp_path):
    script = tmp_path / "big.py"
    script.write_text("# " + "x" * 100_000 + "\nprint('small once stripped')\n", encoding="utf-8")
    refused = run_cli("bundle", str(script), "-o", str(tmp_path / "out.py"), "--strip", "never")
    assert refused.returncode == 2 and not (tmp_path / "out.py").exists()
    assert "over the limit of 99,999 (CodinGame's: fewer than 100,000)" in refused.stderr
    fitted = run_cli("bundle", str(script), "-o", str(tmp_path / "out.py"))
    assert fitted.returncode == 0 and "comments and docstrings stripped" in fitted.stdout
    assert _run_isolated(tmp_path / "out.py", tmp_path).stdout == "small once stripped\n"


def test_too_long_says_by_how_much():
    entry = resolve_entry("tictactoe/random")
    size = len(build_bundle(entry, strip="never").text)
    expected = f" is {size:,} characters, 1 over the limit of {size - 1:,}; --strip auto would"
    with pytest.raises(UsageError, match=expected):
        build_bundle(entry, strip="never", limit=size)
    assert len(build_bundle(entry, strip="auto", limit=size).text) < size      # auto strips to fit


@pytest.mark.parametrize("module, named", [("psutil", "psutil"),
                                           ("not_a_module_anywhere.sub", "not_a_module")])
def test_a_non_standard_import_is_named(tmp_path, module, named):
    script = tmp_path / "bot.py"
    script.write_text(f"import sys\n\nimport {module}\n", encoding="utf-8")
    result = run_cli("bundle", str(script), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 2
    assert f"bot.py:3 imports {module}, which is not in Python's standard library" in result.stderr
    assert named in result.stderr


def test_guarded_optional_imports_are_allowed(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"
                      "print(numpy is None or 'numpy')\n", encoding="utf-8")
    assert run_cli("bundle", str(script), "-o", str(tmp_path / "out.py")).returncode == 0
    assert _run_isolated(tmp_path / "out.py", tmp_path).stdout == "True\n"


@pytest.mark.parametrize("text", ["", "plain\n", "a 'quote' and \"double\" \\ back\\slash\n\t\x0c\r",
                                  "''' \"\"\" '''\"", "caf\u00e9 \u20ac \U0001f600 \x00\x7f",
                                  "ends with \\"])
def test_to_literal_round_trips_in_ascii(text):
    literal = to_literal(text)
    assert literal.isascii() and ast.literal_eval(literal) == text


def test_strip_keeps_every_project_module_equivalent():
    """strip_source checks itself (same AST minus docstrings); here on every module we have."""
    paths = sorted(path for folder in ("bots", "referee", "tools")
                   for path in (ROOT / folder).rglob("*.py"))
    saved = 0
    for path in paths:
        source = path.read_text(encoding="utf-8")
        stripped = strip_source(source, label=str(path))
        assert len(stripped) <= len(source)
        saved += len(source) - len(stripped)
    assert saved > 0


def test_strip_handles_awkward_docstrings():
    source = ('"""mod"""\nclass A:\n    """only a docstring"""\n\n\ndef f(x):  # note\n'
              '    "doc"; y = x\n    return (y +\n            1)\n\n\ndef g(): "lone"\n')
    stripped = strip_source(source)
    assert "doc" not in stripped and "#" not in stripped and "mod" not in stripped
    namespace: dict = {}
    exec(stripped, namespace)
    assert namespace["f"](1) == 2 and namespace["g"]() is None


_PARAMETER_BOT = '''\
"""Prints its parameters."""
import argparse


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--weights", type=float, nargs="+", default=[1.0])
    parser.add_argument("--mode", choices=["a", "b"], default="a")
    parser.add_argument("--playout-depth", type=int, default=10)
    return parser


def main():
    print(sorted(vars(build_parser().parse_args()).items()))


if __name__ == "__main__":
    main()
'''


def test_set_converts_flags_lists_and_choices_with_the_bots_parser(tmp_path):
    script = tmp_path / "params.py"
    script.write_text(_PARAMETER_BOT, encoding="utf-8")
    entry = resolve_entry(str(script))
    defaults = parse_defaults(entry, ["fast=true", "weights=1 2.5", "mode=b", "--playout-depth=3"])
    assert defaults == {"fast": True, "weights": [1.0, 2.5], "mode": "b", "playout_depth": 3}
    (tmp_path / "out.py").write_text(build_bundle(entry, defaults=defaults).text, encoding="ascii")
    printed = _run_isolated(tmp_path / "out.py", tmp_path).stdout
    assert printed == "[('fast', True), ('mode', 'b'), ('playout_depth', 3), ('weights', [1.0, 2.5])]\n"
    with pytest.raises(UsageError, match="invalid choice: 'c'"):
        parse_defaults(entry, ["mode=c"])
    with pytest.raises(UsageError, match="expected true or false"):
        parse_defaults(entry, ["fast=maybe"])
