"""A folder served on localhost until Ctrl-C: what ``view --serve`` runs (the SDK's runner serves
its viewer the same way, with undertow). Bound to 127.0.0.1 only; nothing is cached (a folder
written again shows the new game on reload)."""
from __future__ import annotations

import functools
import http.server
import sys
from pathlib import Path

from referee.api import UsageError

TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json",
         ".fnt": "text/xml", ".atlas": "text/plain", ".wasm": "application/wasm"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:   # noqa: A002 (the base class's name)
        """Quiet: a page load is hundreds of requests."""


def open_server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1:``port`` (0: a free port); UsageError when the port
    cannot be had."""
    handler = functools.partial(_Handler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        raise UsageError(f"--serve {port}: cannot listen on 127.0.0.1:{port}: "
                         f"{error.strerror or error} (give another port, or none for a free one)") \
            from None
    server.daemon_threads = True
    return server


def serve_until_interrupted(server: http.server.ThreadingHTTPServer, url: str) -> None:
    """Serve until Ctrl-C (or SIGTERM), having printed ``url``."""
    print(f"serving {url}  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr, flush=True)
    finally:
        server.server_close()
