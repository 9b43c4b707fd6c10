"""Text a bot, a referee or a compiler wrote, made safe to print on the user's terminal.

What such a program writes is untrusted: an escape sequence in it could set the clipboard
(OSC 52), move the cursor and rewrite an earlier line of botarena's output, or hide a word. Every
character that is not printable (``str.isprintable``: controls such as ESC and CR, bidi and other
format characters, unassigned code points) is shown escaped instead, as Python would write it in
a string: ``\\x1b``, ``\\u202e``, ``\\U000e0001``.
"""
from __future__ import annotations


def escaped_char(char: str) -> str:
    """``char`` as it prints: itself when printable, else ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``."""
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code < 0x10000 else \
        f"\\U{code:08x}"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every character that is not printable escaped but tabs (``keep_newlines``:
    its line breaks kept too, for a message of several lines)."""
    if text.isprintable():
        return text
    if keep_newlines:
        return "\n".join(printable(line) for line in text.split("\n"))
    return "".join(char if char == "\t" else escaped_char(char) for char in text)
