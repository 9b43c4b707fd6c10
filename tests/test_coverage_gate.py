"""The coverage run's sampling gate (tests/coverage_gate.py), on real Python processes.

Each process imports the gate the way the coverage run's ``.pth`` line does, with the coverage
folder in its environment: the first processes of a command line are measured (a data file
appears), the others are not, and without the folder nothing happens at all.
"""
from __future__ import annotations

import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import ROOT
from tests.coverage_gate import command_key

pytest.importorskip("coverage")

# what the copy of the gate that the .pth line imports does, then the work of a "bot": importing
# one module of the project. Started with -S (no .pth files: the venv may hold the gate's .pth
# from a coverage run) and the venv's packages added by hand.
IMPORT_GATE = ("import sys; sys.path += [{tests!r}, {packages!r}]; import coverage_gate; "
               "measured = coverage_gate.start_quietly(); import referee.api; print(measured)")
PACKAGES = sysconfig.get_paths()["purelib"]


def _run(folder, *args: str, sample: str | None = "2", then: str = "") -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin"}
    if folder is not None:
        env.update(BOTARENA_COVERAGE_DIR=str(folder), BOTARENA_COVERAGE_RCFILE=str(ROOT / "pyproject.toml"))
    if sample is not None:
        env["BOTARENA_COVERAGE_SAMPLE"] = sample
    code = IMPORT_GATE.format(tests=str(ROOT / "tests"), packages=PACKAGES) + then
    return subprocess.run([sys.executable, "-S", "-c", code, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=True)


def _data_files(folder) -> list:
    return sorted(folder.glob(".coverage.*"))


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "slots").mkdir()
    return tmp_path


def test_the_first_processes_of_a_command_are_measured_and_the_rest_are_not(folder):
    with ThreadPoolExecutor(5) as pool:        # at the same time: the slots are taken once each
        runs = list(pool.map(lambda _: _run(folder, "--seed", "7"), range(5)))
    assert sorted(run.stdout.strip() for run in runs) == ["False"] * 3 + ["True"] * 2
    assert len(_data_files(folder)) == 2
    assert _run(folder, "--seed", "8").stdout.strip() == "False"     # numbers do not make a new command
    assert _run(folder, "--other").stdout.strip() == "True"          # another command has its own slots
    assert len(_data_files(folder)) == 3


def test_a_measured_process_records_the_project_lines_it_ran(folder):
    coverage = pytest.importorskip("coverage")
    _run(folder)
    [data_file] = _data_files(folder)
    data = coverage.CoverageData(str(data_file))
    data.read()
    measured = {path for path in data.measured_files() if path.endswith("referee/api.py")}
    assert measured and data.lines(measured.pop())


def test_a_measured_process_does_not_pass_coverage_on_to_its_children(folder):
    # COVERAGE_PROCESS_START left in the environment would make coverage's own .pth measure
    # every child (every bot of a measured CLI run), past the sample
    done = _run(folder,
                then="; import os; print(sorted(name for name in os.environ if 'COVERAGE_P' in name))")
    assert done.stdout.split("\n")[:2] == ["True", "[]"]


def test_sample_zero_measures_every_process(folder):
    for _ in range(3):
        assert _run(folder, sample="0").stdout.strip() == "True"
    assert len(_data_files(folder)) == 3


def test_without_the_coverage_folder_nothing_is_measured_or_imported(folder):
    code = (IMPORT_GATE.format(tests=str(ROOT / "tests"), packages=PACKAGES)
            + "; print('coverage' in sys.modules)")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, env={"PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "False"]
    assert not list(folder.iterdir())[1:]


def test_an_unwritable_folder_leaves_the_process_unmeasured_and_working(tmp_path):
    # a sandboxed bot cannot write the coverage folder: it runs, unmeasured
    done = _run(tmp_path / "missing")
    assert done.stdout.strip() == "False" and done.stderr == ""


def test_the_command_key_ignores_numbers_only():
    assert command_key(["-m", "bots.x", "--seed", "1"]) == \
        command_key(["-m", "bots.x", "--seed", "440650819"])
    assert command_key(["-m", "bots.x"]) != command_key(["-m", "bots.y"])
    assert command_key(["a b"]) != command_key(["a", "b"])
