"""A generated page's raw HTML blocks kept out of Markdown, so that MkDocs converts only the few lines that are
Markdown (the headings, which keep their anchors and the page's table of contents).

A model page is a few Markdown headings around large HTML blocks (its tables, its provenance). Python-Markdown
passes such a block through unchanged, but only after reading all of it with an HTML parser: at 150 submissions,
the model pages' conversion was 7 of a warm build's 25 s. `stash` takes each block out before the conversion, as
Python-Markdown delimits it (a line opening a block-level element, after a blank line or a heading, up to the line
that closes that element, with the elements that open right below it), leaving a placeholder paragraph; `restore`
puts the block back where Python-Markdown would have put it. A page with anything else (a fenced block, text after
a closing tag, an element never closed, a tag right below a paragraph) is left whole to Markdown (`stash` returns
None). tests/test_raw_html.py holds the two to the same HTML, byte for byte, on every generated page.
"""

from __future__ import annotations

import re

# Python-Markdown's block-level elements (markdown.Markdown().block_level_elements), less the void `hr`
BLOCK_LEVEL = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "canvas",
        "center",
        "colgroup",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "group",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "html",
        "iframe",
        "legend",
        "li",
        "main",
        "map",
        "math",
        "menu",
        "nav",
        "noscript",
        "object",
        "ol",
        "option",
        "output",
        "p",
        "pre",
        "progress",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "video",
    ]
)
_OPENING = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)[\s>]")
PLACEHOLDER = "NEGHUBRAWBLOCK{}X"
_PLACED = re.compile(r"<p>NEGHUBRAWBLOCK(\d+)X</p>")


def stash(markdown: str) -> tuple[str, list[str]] | None:
    """The page with each top-level raw HTML block replaced by a placeholder paragraph, and the blocks; None where
    the page holds anything this does not read as Python-Markdown does."""
    if "```" in markdown or "~~~" in markdown or "NEGHUBRAWBLOCK" in markdown:
        return None
    lines = markdown.split("\n")
    out: list[str] = []
    blocks: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = _OPENING.match(line)
        if opening is None or opening.group(1).lower() not in BLOCK_LEVEL:
            out.append(line)
            index += 1
            continue
        if index > 0 and lines[index - 1].strip() and not lines[index - 1].startswith("#"):
            return None  # a block-level tag right below text (not a heading): Python-Markdown's own rules apply
        start = index
        while opening is not None and opening.group(1).lower() in BLOCK_LEVEL:
            # one element, up to the line that closes it; an element opening right below it joins the block
            tag = opening.group(1).lower()
            marks = re.compile(rf"<(/?){tag}(?:[\s>]|$)", re.IGNORECASE)
            depth, opened = 0, index
            while index < len(lines) and (index == opened or depth > 0):
                for mark in marks.finditer(lines[index]):
                    depth += -1 if mark.group(1) else 1
                    if depth == 0 and lines[index][lines[index].index(">", mark.end() - 1) + 1 :].strip():
                        return None  # text after the closing tag: Python-Markdown's own rules apply
                index += 1
            if depth != 0:
                return None  # never closed
            opening = _OPENING.match(lines[index]) if index < len(lines) else None
        if index < len(lines) and lines[index].strip():
            return None  # Markdown right below the block: left to Python-Markdown
        out.append(PLACEHOLDER.format(len(blocks)))
        blocks.append("\n".join(lines[start:index]))
    return "\n".join(out), blocks


def restore(html: str, blocks: list[str]) -> str:
    """The converted page with every placeholder paragraph replaced by its block."""
    return _PLACED.sub(lambda found: blocks[int(found.group(1))] + "\n", html).rstrip("\n")
