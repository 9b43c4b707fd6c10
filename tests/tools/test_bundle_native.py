"""Bundles of C, C++, Java and Rust bots: one file that compiles alone with CodinGame's options
and plays exactly as the original project (``bundle --check``: 20 seeds, every answer of every
turn). Real compilers; each test skips with one line where its compiler is missing."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from referee.games import load_game
from tests.conftest import run_cli
from tests.tools.native_bots import BOTS, bot_params, needs
from tools.arena.botspec import resolve_bot
from tools.bundle.check import check_bundle

OUTPUT = {"C++": "bot.cpp", "C": "bot.c", "Java": "Player.java", "Rust": "main.rs"}


def _bundle(bot, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return run_cli("bundle", bot.relative, "-o", str(out), *extra, timeout=600)


@pytest.mark.parametrize("bot", bot_params())
def test_the_bundle_compiles_alone_and_plays_as_the_original_on_20_seeds(bot, tmp_path,
                                                                        session_cache):
    out = tmp_path / "submit" / OUTPUT[bot.language]
    out.parent.mkdir()
    done = _bundle(bot, out, "--check", "--game", bot.game)
    assert done.returncode == 0, done.stderr
    assert re.search(r"check: the bundle answered as the original in 20 games against random "
                     r"\([\d,]+ answers the same\)", done.stdout), done.stdout
    text = out.read_text()
    assert len(text) < 100_000
    assert re.match(rf"{out}: [\d,]+ characters \(\d+% of CodinGame's limit\), \d+ files "
                    rf"\({re.escape(bot.language)}\)", done.stdout)
    # alone in its folder, as on CodinGame: nothing else of the project is there to be found
    assert sorted(path.name for path in out.parent.iterdir()) == [out.name]
    if bot.language in ("C", "C++"):
        assert not re.search(r'#\s*include\s*"', text)
        assert not re.search(r"^\s*#\s*pragma\s+once", text, re.M)
    elif bot.language == "Java":
        assert not re.search(r"^package ", text, re.M)
        assert re.findall(r"^(?:public )?(?:final )?(?:class|enum|record|interface) \w+", text, re.M) \
            == ["public class Player", "final class Strategy", "class Board", "enum Mark"]
        assert len(re.findall(r"^import java\.util\.List;$", text, re.M)) == 1   # merged, once
    else:
        assert not re.search(r"\bmod\s+\w+\s*;", text.replace("mod not_a_module;", "")
                             .replace("mod hidden;", "").replace("mod fake;", ""))


@needs("C++")
def test_cpp_headers_are_inlined_once_where_first_included_with_their_sources(tmp_path):
    out = tmp_path / "bot.cpp"
    assert _bundle(BOTS["cpp"], out).returncode == 0
    text = out.read_text()
    assert text.count("struct Board {") == 1 and text.count("#define XMAS_IO_INPUT_H") == 1
    assert text.count("bool read_turn(std::istream &in, Turn &turn) {") == 1     # io/input.cpp
    assert text.index("// ---- board.h ----") < text.index("// ---- io/input.h ----") \
        < text.index("// ---- path.h ----") < text.index("int main()") \
        < text.index("// ---- board.cpp ----")
    assert "#include <iostream>" in text and "#include <queue>" in text      # system: kept
    # <string>: main.cpp, board.h, path.h and io/input.h include it; <vector>: path.h, input.h
    assert text.count("#include <string>") == 1 and text.count("#include <vector>") == 1


_SYSTEM_MAIN = """\
#include <assert.h>
#include <stdio.h>
#include "twice.h"
#ifdef WITH_MATH
#include <math.h>
#endif
#include <math.h>
#include <stdio.h>
#include <assert.h>

int main(void) {
    printf("%d %d\\n", twice(2), (int)sqrt(16.0));
    return 0;
}
"""
_SYSTEM_HEADER = """\
#ifndef TWICE_H
#define TWICE_H
#include <stdio.h>
#include <stdlib.h>
static int twice(int value) { return 2 * value; }
#endif
"""


@needs("C")
def test_a_system_include_already_in_effect_is_not_repeated(tmp_path):
    """Once a system header is included outside every #if (an include guard aside), later
    includes of it are dropped; a first one inside an #if does not count; <assert.h> stays."""
    (tmp_path / "main.c").write_text(_SYSTEM_MAIN)
    (tmp_path / "twice.h").write_text(_SYSTEM_HEADER)
    out = tmp_path / "out" / "bundle.c"
    out.parent.mkdir()
    done = run_cli("bundle", str(tmp_path / "main.c"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    counts = {name: text.count(f"#include <{name}>")
              for name in ("stdio.h", "stdlib.h", "math.h", "assert.h")}
    assert counts == {"stdio.h": 1, "stdlib.h": 1, "math.h": 2, "assert.h": 2}, text
    subprocess.run(["gcc", str(out), "-o", str(tmp_path / "run"), "-lm"], check=True)
    assert subprocess.run([str(tmp_path / "run")], capture_output=True, text=True).stdout == "4 4\n"


_MAIN = """\
#include <stdio.h>
#include "common.h"
#include "util.h"

int main(void) {
    printf("%d %d\\n", COMMON, twice(1));
    return 0;
}
"""


def _include_project(tmp_path: Path) -> Path:
    """main.c beside common.h; -I inc holds another common.h (not used: the including file's
    folder comes first), util.h and its util.c."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "main.c").write_text(_MAIN)
    (tmp_path / "common.h").write_text("#define COMMON 7\n")
    (tmp_path / "inc" / "common.h").write_text("#define COMMON 99\n")
    (tmp_path / "inc" / "util.h").write_text("#pragma once\nint twice(int value);\n")
    (tmp_path / "inc" / "util.c").write_text('#include "util.h"\n'
                                             "int twice(int value) { return 2 * value; }\n")
    return tmp_path / "main.c"


@needs("C")
def test_includes_resolve_as_the_compiler_does_own_folder_then_dash_i(tmp_path):
    main = _include_project(tmp_path)
    out = tmp_path / "out" / "bundle.c"
    out.parent.mkdir()
    done = run_cli("bundle", str(main), "-o", str(out), "-I", str(tmp_path / "inc"))
    assert done.returncode == 0, done.stderr
    assert "4 files (C)" in done.stdout          # main.c, common.h, util.h, util.c
    text = out.read_text()
    assert "#define COMMON 7" in text and "COMMON 99" not in text
    subprocess.run(["gcc", str(out), "-o", str(tmp_path / "run")], check=True)
    assert subprocess.run([str(tmp_path / "run")], capture_output=True, text=True).stdout == "7 2\n"
    without = run_cli("bundle", str(main), "-o", str(out))
    assert without.returncode == 0 and '#include "util.h"' in out.read_text()  # left to the compiler


@needs("C")
def test_a_bundle_over_the_limit_names_its_biggest_parts(tmp_path):
    main = _include_project(tmp_path)
    (tmp_path / "table.h").write_text("static const int TABLE[] = {\n" + "1,\n" * 60_000 + "};\n")
    main.write_text('#include "table.h"\n' + main.read_text())
    done = run_cli("bundle", str(main), "-o", str(tmp_path / "out.c"), "-I", str(tmp_path / "inc"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert re.search(r"is 18\d,\d{3} characters, 8\d,\d{3} over the limit of 99,999 \(CodinGame's: "
                     r"fewer than 100,000\); its biggest parts: table.h 18\d,\d{3}, main.c \d+, ",
                     done.stderr), done.stderr
    assert not (tmp_path / "out.c").exists()


@needs("Rust")
def test_rust_modules_keep_their_tree_and_visibility(tmp_path):
    out = tmp_path / "main.rs"
    assert _bundle(BOTS["rust"], out).returncode == 0
    text = out.read_text()
    assert "pub mod strategy {" in text and "pub(crate) mod tactics {" in text
    assert text.index("pub(crate) mod tactics {") < text.index("mod lines {") \
        < text.index("pub const LINES")
    assert 'r#"mod not_a_module; } "#' in text            # a raw string, untouched


@pytest.mark.parametrize("files, message", [
    ({"Player.java": "package a;\npublic class Player {}\n"}, "its package a is not its folder"),
    ({"a/Player.java": "package a;\nimport static a.b.Util.max;\npublic class Player {}\n",
      "a/b/Util.java": "package a.b;\npublic class Util { public static int max() { return 1; } }\n"},
     "a/Player.java:2: import static a.b.Util.max: the bundle puts the bot's classes in one package"),
    ({"a/Player.java": "package a;\npublic class Player {}\n",
      "a/x/Board.java": "package a.x;\npublic class Board {}\n",
      "a/y/Board.java": "package a.y;\npublic class Board {}\n"},
     "two classes named Board (a/x/Board.java, a/y/Board.java)"),
    ({"Bot.java": "public class Bot {}\n"}, "CodinGame runs the class Player"),
    ({"main.rs": "mod gone;\nfn main() {}\n"}, "main.rs:1: mod gone; but neither gone.rs nor"),
    ({"main.rs": '#[path = "x.rs"]\nmod a;\nfn main() {}\n'}, "#[path = ...] on a module"),
    ({"main.rs": "fn main() { mod inner; }\n"}, "mod inner; inside a block is not supported"),
])
def test_what_a_bundle_cannot_hold_is_one_line(tmp_path, files, message):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    entry = next(name for name in files if Path(name).stem in ("Player", "Bot", "main"))
    output = "Player.java" if entry.endswith(".java") else "out.rs"
    done = run_cli("bundle", str(tmp_path / entry), "-o", str(tmp_path / "out" / output))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr


@pytest.mark.parametrize("args, message", [
    (["--check"], "--check needs --game GAME"),
    (["--set", "depth=2"], "--set is for Python bots"),
    (["--strip", "always"], "--strip is for Python bots"),
    (["-o", "x.java"], "-o 'x.java' is a Java file name; this bundle is C"),
    (["--seeds", "seeds.txt"], "--seeds is for --check"),
    (["--vs", "greedy"], "--vs is for --check"),
])
def test_bad_bundle_options_are_one_line(args, message, tmp_path):
    output = [] if "-o" in args else ["-o", str(tmp_path / "out.c")]
    done = run_cli("bundle", BOTS["c"].relative, *output, *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr


_RANDOM_C = """\
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    srand((unsigned) time(NULL) ^ (unsigned) getpid());  /* another game at every start */
    int row, col, count;
    while (scanf("%d %d %d", &row, &col, &count) == 3) {
        int pick = rand() % count, r = 0, c = 0;
        for (int i = 0; i < count; ++i) {
            int a, b;
            scanf("%d %d", &a, &b);
            if (i == pick) { r = a; c = b; }
        }
        printf("%d %d\\n", r, c);
        fflush(stdout);
    }
    return 0;
}
"""


@needs("C")
def test_check_fails_with_the_first_differing_answer(tmp_path, session_cache):
    """A bot that is not deterministic cannot be proven the same: exit 1, and the message names
    the seed, seat and turn where the answers first differ."""
    (tmp_path / "bot.c").write_text(_RANDOM_C)
    done = run_cli("bundle", str(tmp_path / "bot.c"), "-o", str(tmp_path / "out.c"), "--check",
                   "--game", "tictactoe", timeout=600)
    assert done.returncode == 1, done.stderr
    assert re.search(r"check failed after \d+ games? against random: seed \d+, seat [01], turn "
                     r"\d+: the original's answer was '\d \d', the bundle's '\d \d' \(is the bot "
                     r"deterministic\?", done.stderr), done.stderr


@needs("C")
@needs("Rust")
def test_check_bundle_compares_every_answer(session_cache):
    """The same strategy in two languages is the same bot; a different opponent seed is not."""
    game = load_game("tictactoe")
    c_bot, rust_bot = (resolve_bot("tictactoe", BOTS[key].relative) for key in ("c", "rust"))
    same = check_bundle(game, c_bot, rust_bot, resolve_bot("tictactoe", "random"),
                        seeds=range(1, 9))
    assert same.passed and same.games == 8 and same.answers > 20
    different = check_bundle(game, c_bot, resolve_bot("tictactoe", "random --seed 5"),
                             resolve_bot("tictactoe", "random"), seeds=range(1, 9))
    assert not different.passed and different.difference.what == "answer"


def test_python_bundles_are_checked_the_same_way(tmp_path):
    done = run_cli("bundle", "tictactoe/mcts", "-o", str(tmp_path / "mcts.py"), "--set", "seed=1",
                   "--set", "iterations=8", "--check", timeout=600)
    assert done.returncode == 0, done.stderr
    assert "check: the bundle answered as the original in 20 games against random" in done.stdout


@needs("C++")
def test_check_takes_the_seeds_of_a_file(tmp_path, session_cache):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# from CodinGame replays\n-2634497367583446500\n\nseed=42\n")
    done = _bundle(BOTS["cpp"], tmp_path / "bot.cpp", "--check", "--game", "xmas_rush",
                   "--seeds", str(seeds))
    assert done.returncode == 0, done.stderr
    assert "in 2 games against random" in done.stdout



def test_a_source_that_is_not_utf8_is_bundled_byte_for_byte(tmp_path):
    source = b'#include <stdio.h>\n/* caf\xe9, Latin-1 */\nint main(void) { puts("x"); }\n'
    (tmp_path / "main.c").write_bytes(source)
    done = run_cli("bundle", str(tmp_path / "main.c"), "-o", str(tmp_path / "out.c"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.c").read_bytes().endswith(source)
