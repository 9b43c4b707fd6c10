"""Alpha-beta to a fixed depth with the shared evaluation, corners first (default depth 3)."""
from __future__ import annotations

import argparse

from bots.othello.minimax import fixed_depth_main, fixed_depth_parser
from bots.search.alternating import alphabeta


def build_parser() -> argparse.ArgumentParser:
    return fixed_depth_parser(__doc__, depth=3)


def main(argv: list[str] | None = None) -> None:
    fixed_depth_main(alphabeta, build_parser(), argv)


if __name__ == "__main__":
    main()
