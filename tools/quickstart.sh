#!/usr/bin/env bash
# Set up a virtual environment in .venv (once), then: `demo` plays a demo game, `test` runs the tests,
# `check` the type and lint gate (mypy and ruff, configured in pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "botarena needs Python >= 3.11 (set PYTHON=/path/to/python3.11)" >&2
    exit 2
fi
# setup EXTRAS MODULES [DISTRIBUTIONS]: a .venv with botarena installed (and those extras), once;
# again whenever one of MODULES cannot be imported or one of DISTRIBUTIONS (type stubs, which
# import as nothing) is not installed (a new dependency since the last run), or the install is
# setuptools' default editable kind. That one puts an import hook in every interpreter's start
# (pathlib, re, importlib.util...: ~10 ms at each start of every Python bot); "compat" is a
# plain path entry instead.
setup() {
    if [ ! -x .venv/bin/python ]; then
        echo "setting up .venv (once: about a minute)..." >&2
        "$python" -m venv .venv
    fi
    if ! .venv/bin/python -c "import $2" 2>/dev/null \
            || ! .venv/bin/python -c "import importlib.metadata as m, sys; [m.version(d) for d in sys.argv[1:]]" \
                ${3:-} 2>/dev/null \
            || compgen -G ".venv/lib/python3*/site-packages/__editable___botarena*finder.py" >/dev/null; then
        echo "installing botarena${1:+ with $1} into .venv (once: about a minute)..." >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check \
            --config-settings editable_mode=compat -e ".$1"
    fi
}
# The tests use the optional parts for real: matplotlib (sweep --plot), distributed (--cluster),
# Playwright driving the system's chromium (the replay viewer); a part that is missing is skipped
# with one line in the summary.
TEST_EXTRAS="[test,cluster,view-test]"
TEST_MODULES="psutil, tqdm, pytest, pytest_timeout, xdist, coverage, matplotlib, hypothesis, mypy, ruff, distributed, playwright, referee"
TEST_STUBS="types-psutil types-tqdm"
case "${1:-}" in
    demo)
        shift
        setup "" "psutil, tqdm, referee"
        exec .venv/bin/botarena play xmas_rush greedy random --seed 1 --replay replays/demo.json "$@" ;;
    test)
        # the first tier, stage by stage (tests/stages.py); --all: every tier, as CI runs it
        shift
        setup "$TEST_EXTRAS" "$TEST_MODULES" "$TEST_STUBS"
        exec .venv/bin/python -m tests.stages "$@" ;;
    check)
        # every finding printed, both run, the status non-zero if either found anything
        shift
        setup "$TEST_EXTRAS" "$TEST_MODULES" "$TEST_STUBS"
        status=0
        .venv/bin/mypy || status=1
        .venv/bin/ruff check || status=1
        exit $status ;;
    coverage)
        # the suite under coverage, bots and CLI subprocesses included; prints the total
        shift
        setup "$TEST_EXTRAS" "$TEST_MODULES" "$TEST_STUBS"
        export BOTARENA_COVERAGE_DIR="$PWD/build/coverage" BOTARENA_COVERAGE_RCFILE="$PWD/pyproject.toml"
        rm -rf "$BOTARENA_COVERAGE_DIR" && mkdir -p "$BOTARENA_COVERAGE_DIR/slots"
        # every Python process started from here (pytest, CLI, bots) passes tests/coverage_gate.py,
        # which measures the first BOTARENA_COVERAGE_SAMPLE (default 3) of each command line
        site=$(.venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
        cp tests/coverage_gate.py "$site/botarena_coverage_gate.py"
        echo 'import os; os.environ.get("BOTARENA_COVERAGE_DIR") and __import__("botarena_coverage_gate")' \
            > "$site/botarena_coverage_gate.pth"
        status=0
        started=$SECONDS
        # bounded (BOTARENA_COVERAGE_MINUTES, default 40), a safety net: an interrupted run still
        # reports what it measured
        timeout --signal=INT --kill-after=60 "${BOTARENA_COVERAGE_MINUTES:-40}m" \
            .venv/bin/python -m pytest "$@" || status=$?
        if [ "$status" = 124 ]; then
            echo "coverage: the run was stopped after ${BOTARENA_COVERAGE_MINUTES:-40} min; the figure below covers the tests that ran"
        fi
        unset BOTARENA_COVERAGE_DIR
        # its one line of counts: "errored" are data files of processes killed while writing them
        { .venv/bin/python -m coverage combine --data-file=build/coverage/.coverage build/coverage 2>&1 \
            | grep '^Combined'; } || true
        rm -f build/coverage/.coverage.*        # the errored ones, left by combine (json would warn)
        .venv/bin/python -m coverage json -q --data-file=build/coverage/.coverage -o build/coverage/coverage.json
        echo "coverage: $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        .venv/bin/python -m tests.coverage_report build/coverage/coverage.json || status=$?
        exit $status ;;
    *)
        echo "usage: bash tools/quickstart.sh demo|test|check|coverage" >&2
        exit 2 ;;
esac
