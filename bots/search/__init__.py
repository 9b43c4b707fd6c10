"""Game-agnostic, anytime search algorithms that depend only on the State interface.

Every search takes a ``Deadline`` and/or an iteration budget (whichever ends first), a
``random.Random`` when it samples, and returns a ``Choice`` (action plus statistics).

- ``single``: greedy, beam, chokudai (single-player);
- ``alternating``: minimax, alphabeta, iterative_deepening, pmc, mcts (two players in turn);
- ``simultaneous``: pmc, duct, mcts (open loop); ``hybrid``: minimax-pruned DUCT;
- ``chance``: simple_tree (single-player with chance steps).
"""
from bots.search.choice import ActionStats, Choice
from bots.search.deadline import Budget, Deadline
from bots.search.playout import outcome_value, random_playout, seat_values

__all__ = ["ActionStats", "Budget", "Choice", "Deadline", "outcome_value", "random_playout",
           "seat_values"]
