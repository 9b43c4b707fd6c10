"""A bot's compile runs confined as the bot does: a cgroup of its own, a memory cap, a time
limit, everything it started killed when it ends or when botarena dies (even by SIGKILL), its
build folder removed, in bubblewrap with --sandbox; javac runs no annotation processor; a cache
entry botarena did not write is built again. Real compilers, and a stand-in for the sandbox."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from referee.api import UsageError
from referee.harness import cgroup
from referee.harness.sandbox import bwrap_program
from tests.conftest import ROOT, run_cli
from tests.tools.native_bots import BOTS, needs
from tools.languages import build as build_module
from tools.languages.build import build
from tools.languages.compilers import compiler_for

needs_bwrap = pytest.mark.skipif(bwrap_program() is None, reason="optional: bwrap not installed")


def _processes_naming(text: str) -> list[str]:
    """The live processes whose command line holds ``text`` (a test's own folder)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{name}/stat", "rb") as handle:
                if handle.read().rpartition(b")")[2].split()[0] == b"Z":
                    continue
        except (OSError, IndexError):
            continue
        if text in command:
            found.append(f"{name}: {command}")
    return found


def _leftovers(cache: Path) -> list[str]:
    folder = cache / "compiled"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def _wait_until(check, timeout_s: float = 30.0) -> bool:
    """Poll ``check`` until true (a bound for the guardian's clean-up, not a timing claim)."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _blocked_bot(folder: Path) -> Path:
    """A C++ bot whose compile never ends: it includes a FIFO nobody writes to."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "never.h")
    source = folder / "main.cpp"
    source.write_text('#include "never.h"\nint main() {}\n')
    return source


@needs("C++")
def test_a_compile_past_its_time_is_one_line_and_leaves_no_compiler_nor_folder(
        tmp_path, monkeypatch):
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(build_module, "COMPILE_TIMEOUT_S", 1)
    source = _blocked_bot(tmp_path / "bot")
    with pytest.raises(UsageError) as raised:
        build(source)
    assert "\n" not in str(raised.value)
    assert "did not finish compiling it in 1 s" in str(raised.value)
    assert _processes_naming(str(tmp_path)) == []       # cc1plus is not left waiting
    assert _leftovers(tmp_path / "cache") == []


_HUNGRY = {
    "C++": ("main.cpp", '#include "/dev/zero"\nint main() {}\n'),
    "C": ("main.c", "#define A0 x x\n"
          + "".join(f"#define A{n} A{n - 1} A{n - 1}\n" for n in range(1, 41)) + "A40\n"),
    "Rust": ("main.rs", 'static DATA: &[u8] = include_bytes!("/dev/zero");\n'
             'fn main() { println!("{}", DATA.len()); }\n'),
}


@pytest.mark.parametrize("language", [pytest.param(name, marks=needs(name)) for name in _HUNGRY])
def test_a_compile_that_runs_out_of_memory_is_one_line_under_the_cap(language, tmp_path,
                                                                     monkeypatch):
    """``#include "/dev/zero"``, a macro bomb, Rust's ``include_bytes!("/dev/zero")``: each grows
    until the cap (lowered here) stops it, in one line, leaving nothing."""
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(build_module, "COMPILE_MEMORY_MB", 256)
    name, text = _HUNGRY[language]
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / name).write_text(text)
    with pytest.raises(UsageError) as raised:
        build(tmp_path / "bot" / name)
    message = str(raised.value)
    assert "\n" not in message and "ran out of memory compiling it (the cap is 256 MB" in message
    assert _processes_naming(str(tmp_path)) == []
    assert _leftovers(tmp_path / "cache") == []


@pytest.mark.full        # ~5 s; first tier: the same at a lowered cap, above
@needs("C++")
def test_through_the_cli_the_dev_zero_include_ends_in_one_line_at_the_default_cap(tmp_path):
    (tmp_path / "main.cpp").write_text('#include "/dev/zero"\nint main() {}\n')
    done = run_cli("play", "tictactoe", str(tmp_path / "main.cpp"), "random",
                   env={**os.environ, "BOTARENA_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"(the cap is {build_module.COMPILE_MEMORY_MB} MB a process)" in done.stderr
    assert _leftovers(tmp_path / "cache") == []


_KILLED_WHILE = {
    # where botarena is SIGKILLed: before the compiler starts (its folder made), while it runs,
    # after it finished (before its folder is renamed into the cache)
    "folder-made": "build.run_confined = lambda *a, **k: os.kill(os.getpid(), 9)",
    "compiling": "",
    "compiled": "build.os.rename = lambda *a: os.kill(os.getpid(), 9)",
}


@needs("C++")
@pytest.mark.parametrize("stage", list(_KILLED_WHILE))
def test_botarena_sigkilled_during_a_compile_leaves_nothing(stage, tmp_path):
    """No compiler left running, no ``.build-*`` folder left in the cache, at each stage."""
    if stage == "compiling":
        source = _blocked_bot(tmp_path / "bot")
    else:
        (tmp_path / "bot").mkdir()
        source = tmp_path / "bot" / "main.cpp"
        source.write_text("int main() {}\n")
    script = textwrap.dedent(f"""
        import os
        from tools.languages import build
        {_KILLED_WHILE[stage]}
        build.build({str(source)!r})
        """)
    harness = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT,
                               env={**os.environ, "BOTARENA_CACHE_DIR": str(tmp_path / "cache")},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stage == "compiling":
        assert _wait_until(lambda: any("cc1plus" in line
                                       for line in _processes_naming(str(tmp_path))))
        assert _leftovers(tmp_path / "cache")               # its .build-* folder is there
        harness.kill()
    assert harness.wait(timeout=120) == -signal.SIGKILL, harness.stderr.read()
    harness.stderr.close()
    assert _wait_until(lambda: not _processes_naming(str(tmp_path))), \
        _processes_naming(str(tmp_path))
    assert _wait_until(lambda: not _leftovers(tmp_path / "cache")), _leftovers(tmp_path / "cache")


_SPY = """\
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

@SupportedAnnotationTypes("*")
public class Spy extends AbstractProcessor {
    static {
        try { Files.writeString(Path.of(MARK), "ran"); } catch (Exception e) { }
    }
    public boolean process(Set<? extends TypeElement> types, RoundEnvironment round) {
        return false;
    }
    public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }
}
"""


def test_javac_is_told_to_run_no_annotation_processor():
    """The first tier's sibling of the next test (a JVM compiling and playing: ~14 s)."""
    assert "-proc:none" in compiler_for("Player.java").flags


@pytest.mark.full
@needs("Java")
def test_an_annotation_processor_beside_a_java_bot_does_not_run(tmp_path):
    """A processor's class and its META-INF/services entry in the bot's folder (javac's class
    path when none is given): javac would run it before any game; -proc:none runs none."""
    mark = tmp_path / "processor-ran"
    spy_source = tmp_path / "spy" / "Spy.java"
    spy_source.parent.mkdir()
    spy_source.write_text(_SPY.replace("MARK", f'"{mark}"'))
    subprocess.run(["javac", "-d", str(spy_source.parent), str(spy_source)], check=True,
                   capture_output=True)
    project = tmp_path / "project"
    (project / "bot").mkdir(parents=True)
    player = project / "bot" / "Player.java"
    player.write_text(BOTS["java"].path.read_text())
    for other in BOTS["java"].path.parent.rglob("*.java"):
        target = project / "bot" / other.relative_to(BOTS["java"].path.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(other.read_text())
    (spy_source.parent / "Spy.class").rename(project / "bot" / "Spy.class")
    services = project / "bot" / "META-INF" / "services"
    services.mkdir(parents=True)
    (services / "javax.annotation.processing.Processor").write_text("Spy\n")
    done = run_cli("play", "tictactoe", str(player), "random", "--seed", "1", "--quiet",
                   "--first-turn-ms", "20000",
                   env={**os.environ, "BOTARENA_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    assert "botarena: compiled" in done.stderr
    assert not mark.exists()


def _stand_in_compiler(folder: Path) -> None:
    """A ``gcc`` that writes into its working folder (the bot's) and says whether it could,
    then makes the program."""
    folder.mkdir()
    script = folder / "gcc"
    script.write_text(textwrap.dedent("""\
        #!/bin/sh
        case "$1" in --version|-print-file-name=*) echo "stand-in 1.0"; exit 0 ;; esac
        if touch ./written-by-the-compiler 2>/dev/null; then echo "source folder: writable" >&2
        else echo "source folder: read-only" >&2; fi
        echo "data limit: $(ulimit -d)" >&2
        echo "cgroup: $(grep '^0::' /proc/self/cgroup)" >&2
        echo "interfaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ')" >&2
        while [ "$#" -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done
        printf '#!/bin/sh\\nexit 0\\n' > "$out" && chmod +x "$out"
        exit 1
        """))
    script.chmod(0o755)


@needs_bwrap
@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_with_sandbox_the_compiler_runs_in_bubblewrap(sandboxed, tmp_path, monkeypatch):
    """The stand-in fails on purpose, so that its lines come back in the error: it ran under the
    memory cap, and with --sandbox it could not write beside the source and saw no network but
    loopback."""
    _stand_in_compiler(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "main.c").write_text("int main(void) { return 0; }\n")
    with pytest.raises(UsageError) as raised:
        build(tmp_path / "bot" / "main.c", sandboxed=sandboxed)
    message = str(raised.value)
    assert f"data limit: {build_module.COMPILE_MEMORY_MB * 1024}\n" in message   # (KB)
    if sandboxed:
        assert "source folder: read-only" in message
        assert message.splitlines()[-1].strip() == "interfaces: lo"
        assert not (tmp_path / "bot" / "written-by-the-compiler").exists()
    else:
        assert "source folder: writable" in message
        if cgroup.run_folder() is not None:                 # a cgroup of its own
            assert f"/botarena.{os.getpid()}/bot." in message
    assert _leftovers(tmp_path / "cache") == []


@needs("C")
@pytest.mark.parametrize("entry", ["plain file", "half-written folder", "empty build.json"])
def test_a_cache_entry_botarena_did_not_write_is_built_again(entry, tmp_path, monkeypatch):
    monkeypatch.setenv("BOTARENA_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "bot").mkdir()
    source = tmp_path / "bot" / "main.c"
    source.write_text("int main(void) { return 0; }\n")
    first = build(source)
    assert first.compiled_now
    assert (tmp_path / "cache" / "compiled").stat().st_mode & 0o777 == 0o700
    for path in sorted(first.folder.rglob("*"), reverse=True):
        path.unlink() if not path.is_dir() else path.rmdir()
    first.folder.rmdir()
    if entry == "plain file":
        first.folder.write_text("not a build\n")
    else:
        first.folder.mkdir()
        (first.folder / "bot").write_text("half a program")
        if entry == "empty build.json":
            (first.folder / "build.json").write_text("")
    again = build(source)
    assert again.compiled_now and again.folder == first.folder
    assert subprocess.run(list(again.argv)).returncode == 0
    assert not build(source).compiled_now
    assert _leftovers(tmp_path / "cache") == [first.folder.name]
