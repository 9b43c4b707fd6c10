"""The command line: argument parsing and printing only; the work is in ``tools.arena`` and beside it."""
from tools.cli.main import main

__all__ = ["main"]
