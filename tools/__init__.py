"""botarena's command line and the tools built on the match loop."""
