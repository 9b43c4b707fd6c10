"""The viewer page: one self-contained HTML file (styles, scripts and the games' data inline, nothing
fetched at view time) that opens from disk or as a bug report's attachment."""
from __future__ import annotations

import html
import json
from pathlib import Path

from referee.api import UsageError
from tools.view.frames import first_difference

HERE = Path(__file__).parent


def render_page(games: list[dict]) -> str:
    """The HTML of one game, or of two side by side with one timeline and the first difference."""
    data = {"games": games,
            "diff_step": first_difference(games[0], games[1]) if len(games) == 2 else None}
    drawings = sorted({game["drawing"] for game in games if game["drawing"]})
    scripts = [_read("viewer.js")] + [_read(f"games/{name}.js") for name in drawings]
    title = " vs ".join(game["source"] for game in games)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # a page saved from a replay must never load anything: no network, no inline handlers
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        'script-src \'unsafe-inline\'; style-src \'unsafe-inline\'; img-src data:">',
        f"<title>botarena: {html.escape(title)}</title>",
        f"<style>\n{_read('viewer.css')}</style></head>",
        '<body><div id="app"></div>',
        f'<script id="botarena-data" type="application/json">{embed_json(data)}</script>',
        *(f"<script>\n{script}</script>" for script in scripts),
        "<script>BotArena.start();</script>", "</body></html>", ""])


def write_page(out: str | Path, games: list[dict]) -> int:
    """Write the page of ``games`` (``frames.page_data`` each) to ``out``; its size in bytes."""
    out = Path(out)
    text = render_page(games)
    temporary = out.with_name(out.name + ".tmp")
    temporary.write_text(text)
    temporary.replace(out)
    return len(text.encode())


def embed_json(data: object) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' survives (a bot's '</script>'
    in its stderr stays text), all of them escaped as JSON string escapes."""
    try:
        text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise UsageError("the replay holds NaN or Infinity where a number belongs") from None
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _read(name: str) -> str:
    return (HERE / name).read_text()
