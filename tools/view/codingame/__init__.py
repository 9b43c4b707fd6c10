"""CodinGame's own viewer for a game played through an SDK referee, offline (``view --serve``)."""
