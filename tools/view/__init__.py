"""The HTML replay viewer: replay -> frames by the game's own rules -> one self-contained page."""
