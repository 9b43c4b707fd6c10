"""A C, C++, Java or Rust source file is a bot: compiled as CodinGame compiles it, once (a cache
keyed by the files, the compiler and its options), before any game; a compile error or a missing
compiler is one message and exit status 2. Real compilers, real games through the CLI."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.tools.native_bots import BOTS, bot_params, needs
from tools.languages.build import ERROR_LINES

QUIET = ("--quiet",)
CALM = ("--first-turn-ms", "20000", "--turn-ms", "10000")    # a JVM starting on a busy machine
OPPONENT = {"xmas_rush": "greedy", "tictactoe": "random"}


def _entries(cache: Path) -> list[Path]:
    folder = cache / "compiled"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _play_json(*args: str, **kwargs) -> tuple[subprocess.CompletedProcess, dict]:
    done = run_cli("play", *args, "--json", **kwargs)
    assert done.returncode == 0, done.stderr
    return done, json.loads(done.stdout)


@pytest.mark.parametrize("bot", bot_params())
def test_a_source_file_plays_a_whole_game_through_play(bot, session_cache):
    _, result = _play_json(bot.game, bot.relative, OPPONENT[bot.game], "--seed", "3", *CALM)
    assert result["players"][0]["fault"] is None, result["players"][0]["fault"]
    assert result["turns"] > 4


@pytest.mark.parametrize("bot", bot_params())
def test_it_compiles_once_and_again_only_when_a_file_it_is_made_of_changes(bot, tmp_path,
                                                                          monkeypatch):
    """A fresh cache: the first run compiles, the second finds it; an edit in a file the bot
    includes (a header, a module, another class) compiles again."""
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "project"
    shutil.copytree(bot.path.parent if bot.language != "Java" else bot.path.parent.parent, project)
    entry = project / bot.path.relative_to(bot.path.parent if bot.language != "Java"
                                           else bot.path.parent.parent)
    first = run_cli("play", bot.game, str(entry), "random", "--seed", "1", *QUIET)
    assert first.returncode == 0, first.stderr
    assert f"botarena: compiled {entry}" in first.stderr
    again = run_cli("play", bot.game, str(entry), "random", "--seed", "2", *QUIET)
    assert again.returncode == 0 and "compiled" not in again.stderr, again.stderr
    assert len(_entries(tmp_path / "cache")) == 1
    other = {"C++": "path.h", "C": "lib/order.h", "Java": "bot/model/Board.java",
             "Rust": "strategy/tactics/lines.rs"}[bot.language]
    edited = project / other
    edited.write_text(edited.read_text() + "\n// edited\n")
    third = run_cli("play", bot.game, str(entry), "random", "--seed", "2", *QUIET)
    assert third.returncode == 0 and "botarena: compiled" in third.stderr, third.stderr
    assert len(_entries(tmp_path / "cache")) == 2
    assert not [path for path in (tmp_path / "cache" / "compiled").iterdir()
                if path.name.startswith(".build-")]


_BROKEN = {
    "C++": ("main.cpp", "#include <iostream>\nint main() {\n    std::cout << undefined_name;\n}\n",
            "undefined_name"),
    "C": ("main.c", "int main(void) {\n    return missing_function(;\n}\n", "error"),
    "Java": ("Player.java", "public class Player {\n    void f() { int x = \"text\"; }\n}\n",
             "incompatible types"),
    "Rust": ("main.rs", "fn main() {\n    let x: u8 = \"text\";\n}\n", "mismatched types"),
}


@pytest.mark.parametrize("language", [pytest.param(name, marks=needs(name)) for name in _BROKEN])
def test_a_compile_error_is_one_message_with_the_compilers_first_lines_and_no_game(
        language, tmp_path, monkeypatch):
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    name, text, expected = _BROKEN[language]
    (tmp_path / name).write_text(text)
    done = run_cli("match", "tictactoe", str(tmp_path / name), "random", "-n", "2",
                   "--out", str(tmp_path / "out.jsonl"), *QUIET)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith(f"botarena: bot {str(tmp_path / name)!r} does not compile ("), lines
    assert expected in done.stderr and len(lines) <= ERROR_LINES + 2
    assert "Traceback" not in done.stderr and not (tmp_path / "out.jsonl").exists()
    assert done.stdout == ""
    assert not [path for path in (tmp_path / "cache" / "compiled").iterdir()]   # nothing kept


@pytest.mark.parametrize("bot, program", [
    pytest.param(BOTS["cpp"], "g++", id="cpp"), pytest.param(BOTS["c"], "gcc", id="c"),
    pytest.param(BOTS["java"], "javac", id="java"), pytest.param(BOTS["rust"], "rustc", id="rust")])
def test_a_missing_compiler_is_one_line_naming_it_and_how_to_get_it(bot, program, tmp_path):
    env = {**os.environ, "PATH": str(tmp_path), "BOTARENA_CACHE_DIR": str(tmp_path / "cache")}
    done = run_cli("play", bot.game, bot.relative, "random", env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"needs {program}, which is not installed here (Debian/Ubuntu: apt-get install" \
        in done.stderr


_SLOW_GCC = """#!/bin/sh
# gcc, 4 s slower to compile (not to tell its version): longer than the first turn's budget
case "$1" in --version|-print-file-name=*) ;; *) sleep 4 ;; esac
exec {gcc} "$@"
"""


@needs("C")
def test_compile_time_is_not_charged_to_the_first_turn(tmp_path, monkeypatch):
    """A compiler slower than the first turn's 2 s budget (gcc behind a 4 s sleep), a fresh
    cache: the bot still answers its first turn in time (the compile happened before the game)."""
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "bin").mkdir()
    wrapper = tmp_path / "bin" / "gcc"
    wrapper.write_text(_SLOW_GCC.format(gcc=shutil.which("gcc")))
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    done, result = _play_json("tictactoe", BOTS["c"].relative, "random", "--seed", "4",
                              "--first-turn-ms", "2000", "--turn-ms", "2000", env=env)
    assert "botarena: compiled" in done.stderr
    assert result["players"][0]["fault"] is None


_INCLUDE_BOT = """\
#include <stdio.h>
#include "answer.h"

int main(int argc, char **argv) {
    int row, col, count;
    while (scanf("%d %d %d", &row, &col, &count) == 3) {
        int r = 0, c = 0;
        for (int i = 0; i < count; ++i) {
            int a, b;
            scanf("%d %d", &a, &b);
            if (i == PICK(count)) { r = a; c = b; }
        }
        if (argc != 3) return 1;            /* its own two arguments reached it */
        printf("%d %d\\n", r, c);
        fflush(stdout);
    }
    return 0;
}
"""


@needs("C")
def test_include_folders_go_to_the_compiler_and_the_other_arguments_to_the_bot(tmp_path,
                                                                            session_cache):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "answer.h").write_text("#define PICK(count) ((count) - 1)\n")
    (tmp_path / "bot.c").write_text(_INCLUDE_BOT)
    def play_here(bot: str) -> subprocess.CompletedProcess:    # relative paths: from tmp_path
        return subprocess.run([sys.executable, "-m", "tools.cli", "play", "tictactoe", bot,
                               "random", "--seed", "1", "--json"], cwd=tmp_path, text=True,
                              capture_output=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    done = play_here("bot.c -I inc --level 3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["fault"] is None
    without = play_here("bot.c")
    assert without.returncode == 2 and "answer.h" in without.stderr


@needs("C")
def test_match_league_sweep_and_tune_take_a_source_file(session_cache):
    bot = BOTS["c"].relative
    for args in (["match", "tictactoe", bot, "random", "-n", "2"],
                 ["league", "tictactoe", bot, "random", BOTS["c"].relative + " --x 1", "-n", "2"],
                 ["sweep", "tictactoe", bot + " --level {1,2}", "--vs", "random", "-n", "2"],
                 ["tune", "tictactoe", bot + " --level {1..3}", "--vs", "random",
                  "--iterations", "1", "-n", "2"]):
        done = run_cli(*args, "--seed", "1", "--json", *QUIET)
        assert done.returncode == 0, (args, done.stderr)
        assert done.stderr.count("botarena: compiled") <= 1, done.stderr
        json.loads(done.stdout)


@needs("C")
def test_on_a_cluster_each_worker_compiles_it(tmp_path, monkeypatch):
    pytest.importorskip("distributed", reason="optional: Dask cluster tests skipped: distributed "
                        "is not installed (pip install 'botarena[cluster]')")
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    done = run_cli("match", "tictactoe", BOTS["c"].relative, "random", "-n", "4", "--seed", "1",
                   "--cluster", "local:1", "--json", *QUIET, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4
    assert len(_entries(tmp_path / "cache")) == 1        # compiled by the worker, kept


@needs("C")
def test_two_processes_compiling_the_same_bot_at_once_both_get_it(tmp_path):
    env = {**os.environ, "BOTARENA_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys; from tools.languages.build import build; "
            f"print(build({str(BOTS['c'].path)!r}).argv[0])")
    processes = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(2)]
    outputs = [process.communicate(timeout=300) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    binaries = {stdout.strip() for stdout, _ in outputs}
    assert len(binaries) == 1 and os.access(binaries.pop(), os.X_OK)
    assert [path.name.startswith(".build-") for path in (tmp_path / "cache" / "compiled").iterdir()] \
        == [False]


_EDITION_2015_BOT = """\
use std::io::BufRead;

fn main() {
    let async = 0;            // an identifier in the 2015 edition only: the edition is Cargo's
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map(|line| line.unwrap());
    while lines.next().is_some() {
        let count: usize = lines.next().unwrap().trim().parse().unwrap();
        let cells: Vec<String> = (0..count).map(|_| lines.next().unwrap()).collect();
        println!("{}", cells[async]);
    }
}
"""


@needs("Rust")
def test_a_cargo_projects_main_rs_compiles_with_its_edition(tmp_path, session_cache):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(_EDITION_2015_BOT)
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "bot"\nversion = "0.1.0"\n'
                                         'edition = "2015"\n')
    _, result = _play_json("tictactoe", str(tmp_path / "src" / "main.rs"), "random", "--seed", "1")
    assert result["players"][0]["fault"] is None
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "bot"\nversion = "0.1.0"\n')
    refused = run_cli("play", "tictactoe", str(tmp_path / "src" / "main.rs"), "random")
    assert refused.returncode == 2 and "does not compile" in refused.stderr    # 2021: a keyword
