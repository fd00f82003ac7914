"""Markdown from Jinja2 templates, escaped by default: the dataset cards (templates/card.md.j2).

Jinja2's autoescaping writes HTML entities, which is right for HTML and wrong for Markdown: in a code span
or a fenced block `&lt;` shows as written. So the environment escapes for Markdown instead, through
`finalize`, which Jinja2 applies to every `{{ ... }}` it prints: a value from the metadata is written as
plain text (`escape`), whatever characters it holds, unless a filter has already made it Markdown for the
place it goes (a `Markdown` string). The filters are the only ways in:

- `code`: an inline code span, delimited by more backticks than the value holds;
- `cell`: a table cell (`|` escaped, one line), applied to plain text or to Markdown (`x|code|cell`);
- `url`: an autolink `<https://...>`, for a URL with nothing that could end it early;
- `fence`: a fenced code block (citation, Python, shell) whose fence no line of the content can close;
- `markdown`: prose the metadata declares to be Markdown (CardText), which its model has already checked
  holds no raw HTML, passed through as written;
- `count`: a number with thousands separators.

Plain-text escaping writes `&`, `<` and `>` as entities (no HTML reaches the site, which embeds the card),
puts a backslash before the characters that start inline Markdown (`\\`, `` ` ``, `*`, `[`, `]`, `|`, and `_`
where it could open emphasis), and writes the first character of what would open a block at the start of a
line (`# `, `- `, `1. `, `===`) as a character reference.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATES = Path(__file__).parent / "templates"
# an underscore between letters or digits opens no emphasis (CommonMark's flanking rules; Python-Markdown's
# "smart emphasis"), so `choice2_type` stays as written
_INLINE = re.compile(r"([\\`*\[\]|]|(?<![^\W_])_|_(?![^\W_]))")
# what opens a block at the start of a line: a heading (Python-Markdown needs no space after #), a list item,
# a setext underline
_LINE_START = re.compile(r"^([ \t]*)(#|[-+*](?=\s)|\d{1,9}[.)](?=\s|$)|(?:=+|-+)[ \t]*$)", re.M)
_EDGE_SPACE = re.compile(r"^[ \t]+|[ \t]+$", re.M)
_BACKTICKS = re.compile(r"`+")
_AUTOLINK = re.compile(r"^https://[^\s<>`]+$")


class Markdown(str):
    """Text that is Markdown already, made so by a filter: printed as it is."""

    __slots__ = ()


def escape(value: Any) -> Markdown:
    """`value` as plain text in Markdown: it reads the same once rendered, and opens no markup."""
    if isinstance(value, Markdown):
        return value
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # an indented line opens a code block, trailing spaces a line break; in a paragraph neither shows
    text = _EDGE_SPACE.sub("", text)
    text = _INLINE.sub(r"\\\1", text)
    return Markdown(_LINE_START.sub(_escape_block_start, text))


def _escape_block_start(found: re.Match[str]) -> str:
    # a character reference, not a backslash: Python-Markdown (MkDocs) takes a backslash before `#`, `-`, `+`
    # and `.` but not before `=`, and every Markdown reads `&#61;` as `=`
    indent, marker = found.group(1), found.group(2)
    if marker[0].isdigit():
        return f"{indent}{marker[:-1]}&#{ord(marker[-1])};"
    return f"{indent}&#{ord(marker[0])};{marker[1:]}"


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def code(value: Any) -> Markdown:
    """An inline code span holding `value` verbatim (on one line)."""
    text = str(value).replace("\n", " ")
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markdown(f"{ticks}{pad}{text}{pad}{ticks}")


def cell(value: Any) -> Markdown:
    """`value` in a table cell, on one line: plain text escaped (its pipes too), Markdown with its pipes
    escaped (GFM splits a row on them even inside a code span)."""
    text = value.replace("|", "\\|") if isinstance(value, Markdown) else escape(value)
    return Markdown(text.replace("\n", " "))


def url(value: Any) -> Markdown:
    """An https URL as an autolink; anything else as plain text."""
    text = str(value)
    return Markdown(f"<{text}>") if _AUTOLINK.match(text) else escape(text)


def fence(value: Any, language: str = "") -> Markdown:
    """A fenced code block holding `value` verbatim."""
    text = str(value).rstrip("\n")
    ticks = "`" * max(3, _longest_backticks(text) + 1)
    return Markdown(f"{ticks}{language}\n{text}\n{ticks}")


def markdown(value: Any) -> Markdown:
    """Prose that its metadata model declares Markdown and has checked (no raw HTML)."""
    return Markdown(str(value))


def count(value: int) -> Markdown:
    """A count with thousands separators, as the papers print them (5,494)."""
    return Markdown(f"{value:,}")


def python_string(value: Any) -> str:
    """A double-quoted Python string literal of `value` (JSON's escapes are Python's too)."""
    return json.dumps(str(value), ensure_ascii=False)


def environment() -> Environment:
    """The cards' environment: Markdown escaping on every printed value, strict about undefined names."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,  # HTML escaping; Markdown's is `finalize` (see the module docstring)
        finalize=escape,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(code=code, cell=cell, url=url, fence=fence, markdown=markdown, count=count)
    return env
