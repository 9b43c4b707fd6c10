"""Built-in number_maze_duel bots."""
