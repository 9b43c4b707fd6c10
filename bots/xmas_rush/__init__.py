"""Built-in Xmas Rush bots."""
