"""Built-in bots (``bots/<game>/<name>.py``) and the game-agnostic search library (``bots/search``)."""
