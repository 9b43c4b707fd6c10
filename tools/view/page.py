"""The viewer page: one self-contained HTML file (styles, scripts and the games' data inline, nothing
fetched at view time) that opens from disk or as a bug report's attachment."""
from __future__ import annotations

import base64
import hashlib
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
    scripts = [f"\n{_read('viewer.js')}"] + [f"\n{_read(f'games/{name}.js')}" for name in drawings] \
        + ["BotArena.start();"]
    title = " vs ".join(game["source"] for game in games)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(scripts)}">',
        f"<title>botarena: {html.escape(title)}</title>",
        f"<style>\n{_read('viewer.css')}</style></head>",
        '<body><div id="app"></div>',
        f'<script id="botarena-data" type="application/json">{embed_json(data)}</script>',
        *(f"<script>{script}</script>" for script in scripts), "</body></html>", ""])


def content_security_policy(scripts: list[str]) -> str:
    """A page saved from a replay must never load anything (no network) nor run any script but
    its own: each of these is allowed by its SHA-256, and nothing else, so an event handler
    (``onerror=...``) or a script element that slipped into the page does not run. Styles may
    be inline: with no network and no script, CSS can neither fetch nor run anything."""
    hashes = " ".join(f"'sha256-{_sha256(script)}'" for script in scripts)
    return (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
            "base-uri 'none'; form-action 'none'")


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


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
