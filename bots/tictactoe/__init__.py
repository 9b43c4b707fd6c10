"""Built-in tic-tac-toe bots."""
