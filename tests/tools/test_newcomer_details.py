"""Small things a newcomer trips on (issue 33, item 5): quickstart's first line, what '(margin N)'
means, a quoted #include found nowhere, view --open without a browser, the bundle's Made by:
line, one size for one bundle in bundling.md."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from tests.conftest import ROOT, run_cli
from tools.starters import starter_text


def test_quickstart_says_it_sets_up_before_the_long_silent_step(tmp_path):
    """The first demo creates .venv and installs botarena (about a minute, silent): a line first."""
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "quickstart.sh", tmp_path / "tools" / "quickstart.sh")
    stub = tmp_path / "python-stub"
    stub.write_text('#!/bin/bash\n'
                    'if [ "$1" = -m ] && [ "$2" = venv ]; then\n'
                    '  mkdir -p .venv/bin && cp "$0" .venv/bin/python\n'
                    '  printf "#!/bin/bash\\necho demo game played\\n" > .venv/bin/botarena\n'
                    '  chmod +x .venv/bin/botarena\nfi\n'
                    'exit 0\n')
    stub.chmod(0o755)
    done = subprocess.run(["bash", str(tmp_path / "tools" / "quickstart.sh"), "demo"],
                          env={**os.environ, "PYTHON": str(stub)}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("setting up .venv (once: about a minute)...")
    assert done.stdout == "demo game played\n"


def test_the_margin_on_plays_lines_is_explained_where_it_is_read():
    done = run_cli("play", "--help")
    assert "'(margin N)': the least time, in ms," in " ".join(done.stdout.split())
    tools = " ".join((ROOT / "docs" / "tools.md").read_text().split())
    assert "`(margin N)`, the least time it had left in any turn, in ms" in tools


def test_a_quoted_include_found_nowhere_is_bundled_with_a_warning(tmp_path):
    (tmp_path / "mine.h").write_text("int mine(void) { return 1; }\n")
    main = tmp_path / "main.c"
    main.write_text('#include "mine.h"\n#include "stdio.h"\n#include "utils.h"\n'
                    'int main(void) { return mine(); }\n')
    done = run_cli("bundle", str(main), "-o", str(tmp_path / "bot.c"))
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert warnings == ['botarena bundle: warning: main.c:3: #include "utils.h" is found nowhere '
                        "(not beside it, not in an -I folder, not a system header): kept as "
                        "written; if it is a file of yours, give its folder with -I"]
    assert '#include "utils.h"' in (tmp_path / "bot.c").read_text()


def test_view_open_without_a_browser_says_so(tmp_path):
    replay = tmp_path / "game.json"
    assert run_cli("play", "tictactoe", "random", "random", "--seed", "1", "--replay", str(replay),
                   "--quiet").returncode == 0
    empty = tmp_path / "no-programs"
    empty.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PATH"] = str(empty)
    done = subprocess.run([sys.executable, "-m", "tools.cli", "view", str(replay), "--open"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and (tmp_path / "game.html").is_file(), done.stderr
    assert done.stderr == (f"botarena view: no browser found here (none on the PATH, no $BROWSER, "
                           f"no display): open {tmp_path / 'game.html'} in a browser yourself, or "
                           "set BROWSER=/path/to/browser\n")


def test_the_bundles_made_by_line_is_the_whole_command(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(starter_text("tictactoe", "python"))
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("4\n")
    out = tmp_path / "submit.py"
    done = run_cli("bundle", str(bot), "-o", str(out), "--check", "--game", "tictactoe",
                   "--vs", "random --seed 2", "--seeds", str(seeds))
    assert done.returncode == 0, done.stderr
    made_by = next(line for line in out.read_text().splitlines() if line.startswith("# Made by:"))
    assert made_by == (f"# Made by: botarena bundle {bot} -o {out} --game tictactoe --check "
                       f"--vs 'random --seed 2' --seeds {seeds}")


def test_bundling_md_shows_one_size_for_greedys_bundle():
    page = (ROOT / "docs" / "bundling.md").read_text()
    printed = re.search(r"greedy\.py: ([\d,]+) characters", page).group(1)
    row = re.search(r"\| xmas_rush/greedy \| ([\d,]+) \|", page).group(1)
    assert printed == row
