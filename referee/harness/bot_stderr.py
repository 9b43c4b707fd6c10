"""What the harness keeps of a bot's stderr: a capped tail per turn, the volume, [PDATA] figures."""
from __future__ import annotations

_CARRY_BYTES = 1024             # the longest [PDATA] line kept across two reads


class StderrLog:
    """Fed with the chunks read from a bot's stderr; ``take()`` hands out one turn's tail."""

    __slots__ = ("cap", "total_bytes", "pdata", "_tail", "_dropped", "_last", "_carry")

    def __init__(self, cap: int):
        self.cap = cap
        self.total_bytes = 0
        self.pdata: dict[str, str] = {}
        self._tail = bytearray()
        self._dropped = 0
        self._last = b""
        self._carry = b""

    def absorb(self, chunk: bytes) -> None:
        size = len(chunk)
        self.total_bytes += size
        tail, cap = self._tail, self.cap
        if size >= cap:                      # a flood: keep the chunk's end, copy nothing else
            self._dropped += len(tail) + size - cap
            tail[:] = chunk[size - cap:]
        else:
            tail += chunk
            if len(tail) > cap:
                self._dropped += len(tail) - cap
                del tail[:-cap]
        self._last = chunk[-_CARRY_BYTES:] if size >= _CARRY_BYTES else \
            (self._last + chunk)[-_CARRY_BYTES:]
        cut = chunk.rfind(b"\n")
        if cut < 0:
            self._carry = chunk[-_CARRY_BYTES:] if size >= _CARRY_BYTES else \
                (self._carry + chunk)[-_CARRY_BYTES:]
            return
        if b"[PDATA]" in chunk or b"[PDATA]" in self._carry + chunk[:7]:    # (a split marker too)
            self._parse_pdata(self._carry + chunk[:cut])
        self._carry = chunk[cut + 1:][-_CARRY_BYTES:]

    def _parse_pdata(self, block: bytes) -> None:
        """psyleague's ``[PDATA] key = value`` lines: the last value of each key is kept."""
        for raw in block.split(b"\n"):
            start = raw.find(b"[PDATA]")
            if start < 0:
                continue
            key, sep, value = raw[start + 7:].decode("utf-8", "replace").partition("=")
            if sep and key.strip():
                self.pdata[key.strip()] = value.strip()

    def take(self) -> str:
        """The text written since the last call, up to the cap (its tail), decoded leniently.

        When more was written than the cap, the text starts with ``[... N bytes cut]``.
        """
        if not self._tail:
            return ""
        text = self._tail.decode("utf-8", "replace")
        self._tail.clear()
        dropped, self._dropped = self._dropped, 0
        return f"[... {dropped} bytes cut]\n{text}" if dropped else text

    def last_line(self) -> str:
        """The last non-blank line written (at most 200 characters), for a crash's detail."""
        lines = [line.strip() for line in self._last.decode("utf-8", "replace").splitlines()
                 if line.strip()]
        return lines[-1][:200] if lines else ""
