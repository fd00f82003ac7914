"""Text from a submission made safe for a log line: one line, no terminal control sequences, and never a
GitHub Actions workflow command (a line starting with `::` is one: `::error::`, `::add-mask::`, ...)."""

from __future__ import annotations

import unicodedata


def log_safe(text: str) -> str:
    """`text` as one printable line: control, format and line-break characters escaped (\\n, \\x1b, \\u202e),
    and a leading `::` (after any spaces) escaped so that no runner reads it as a command."""
    out = "".join(_escape(ch) for ch in text)
    stripped = out.lstrip(" \t")
    if stripped.startswith("::"):
        out = out[: len(out) - len(stripped)] + "\\:\\:" + stripped[2:]
    return out


def _escape(ch: str) -> str:
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if ch == "\t":
        return "\\t"
    if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch
