"""``botarena ladder``: a folder of bots of one game that plays all day, each game chosen where
it tells the most (docs/ladder.md). ``folder`` keeps the config, the bots and the run's lock;
``model`` fits the ratings; ``scheduler`` picks the next game; ``run`` plays; ``table`` shows."""
