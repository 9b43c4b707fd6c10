"""Built-in number_maze bots."""
