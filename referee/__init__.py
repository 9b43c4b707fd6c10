"""botarena's referee: game rules, codecs, bot processes and the match loop."""
