"""Text from outside (a record, a file name, the command line) made safe to show a person in one line.

A hostile record may hold terminal escape sequences, bidi overrides that reorder what the reader sees, or megabytes in
one field. Everything shown from such text goes through `shown_text`: control, format (bidi included), separator,
surrogate and unassigned characters are written as visible escapes, and the result is cut to a readable length.
"""
from __future__ import annotations

import reprlib
import unicodedata

# Unicode general categories that must never reach a terminal raw: controls (Cc: ESC, BEL, NUL, ...), format
# characters (Cf: bidi overrides and isolates, zero-width joiners), line and paragraph separators (Zl, Zp),
# surrogates (Cs), private use (Co) and unassigned code points (Cn).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})

DEFAULT_LIMIT = 60


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str) -> str:
    """`text` with every unsafe character written as a visible escape. Ordinary letters, digits, punctuation and emoji
    pass unchanged. Backslashes are left alone, so escaping twice changes nothing: a message built from escaped parts
    may be escaped again where it is printed."""
    out = []
    for ch in text:
        if ch == " " or (ch.isprintable() and unicodedata.category(ch) not in _UNSAFE_CATEGORIES):
            out.append(ch)
        else:
            out.append(_escape(ch))
    return "".join(out)


def shown_text(text, limit: int = DEFAULT_LIMIT) -> str:
    """Any value as one safe, short line: escaped, then cut to `limit` characters with '...' marking the cut.

    Only a prefix of a long text is escaped, so a megabyte field costs no more than a short one."""
    text = str(text) if not isinstance(text, str) else text
    head = escaped(text[:limit + 1])
    if len(head) <= limit and len(text) <= limit:
        return head
    return head[:max(0, limit - 3)] + "..."


def shown_value(value, limit: int = DEFAULT_LIMIT) -> str:
    """A value from outside as it may appear in a message: its repr (bounded in depth and length), made safe."""
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother, short.maxlong = 3, limit, limit, limit
    try:
        text = short.repr(value)
    except Exception:  # a value whose repr fails or recurses: say what it is, not what it holds
        text = f"<{type(value).__name__}>"
    return shown_text(text, limit)
