"""Generated results tables in the docs: each table between markers holds the commands that
print it, and ``python -m tools.doctables NAME`` re-runs them and rewrites the table.

A table in README.md or docs/ (docs/games/ too) looks like this in the Markdown source::

    <!-- table:tools-match check=quick
    $ botarena match tictactoe "mcts --iterations 200 --seed 1" random -n 200 --seed 1 \\
        --first-turn-ms 5000 --turn-ms 2000 --jobs 2
    -->
    (generated: a fenced block with each command and what it printed, then a line saying
    when, at which commit, and how it is checked)
    <!-- /table:tools-match -->

Inside the opening comment, one directive per line:

- ``$ COMMAND`` (``\\`` at the end of a line continues it): a command, split as a shell would
  (never run through one). ``botarena`` runs this worktree's CLI and ``python`` the same
  interpreter. Each runs in a fresh temporary folder, so ``--out`` files never resume an old
  run; files named by ``--csv``, ``--plot`` and ``-o`` under ``docs/`` are copied back.
- ``NAME=VALUE``: ``$NAME`` in the commands below stands for VALUE (shown as ``$NAME``).
- ``| a | {match} | `{command}` |``: a row template. Followed by a ``$`` line, the command runs
  with ``--json`` and the row is filled from its summary (see :mod:`tools.doctables.render`);
  not followed by one, the line is copied as it is (a header, a separator).

Options on the opening line: ``check=quick`` (deterministic, re-run by the doc test),
``check=slow`` (deterministic, re-run with ``--runslow``), ``check=statistical`` (timed bots:
regenerated, never compared); ``output=markdown`` inserts the commands' output as it is
instead of in a fenced block.
"""
