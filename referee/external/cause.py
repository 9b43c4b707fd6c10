"""The line that says why a referee failed, picked from its stack trace or its stderr.

A Java stack trace ends with frames (``at ...``) and ``... 3 more`` lines; its cause is the last
``Caused by:`` (the root cause), or else the exception's own line (``Exception in thread "main"
java.lang.IllegalStateException: ...``). Other referees' stderr gives its last line that is not
a frame.
"""
from __future__ import annotations

import re

_FRAME = re.compile(r"\s*(at |\.\.\. \d+ more|Suppressed: |\^|~+$)")
_CAUSED_BY = re.compile(r"\s*Caused by: (.+)")
_EXCEPTION = re.compile(r'(?:Exception in thread "[^"]*" )?((?:[\w$]+\.)*[\w$]*(?:Exception|Error)\b.*)')


def cause_line(text: str) -> str | None:
    """The cause ``text`` (a stack trace, a stderr tail) names, on one line; None for no text."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    causes = [match.group(1) for line in lines if (match := _CAUSED_BY.fullmatch(line))]
    if causes:
        return causes[-1].strip()
    for line in lines:
        match = _EXCEPTION.fullmatch(line.strip())
        if match and not _FRAME.match(line):
            return match.group(1)
    plain = [line.strip() for line in lines if not _FRAME.match(line)]
    return plain[-1] if plain else None
