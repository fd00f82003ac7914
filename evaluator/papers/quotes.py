"""The papers' sentences NegHub quotes, each stored once in quotes.json and read by key.

A page, a benchmark's verdict rule or a transcribed paper row that shows a paper's words takes them from here
(`quote(key)`), so that every quote on the site is one of these and says where it stands: the paper's plain-text
file, its section and the line of that file where the passage begins. A passage is one or more whole sentences,
as the text file gives them, less its emphasis markers (`*`, `**`, the text file's rendering of italics and bold);
a passage that a table interrupts (section 4 of the SCN paper, lines 270 and 287) is stored whole, with the line it
resumes on; tests/test_quotes.py finds each in its paper.

The file is JSON, not YAML like the transcribed tables: display blocks read it when a benchmark is imported, and
the command line does not import PyYAML at its start.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

QUOTES_FILE = Path(__file__).with_name("quotes.json")


class Quote(BaseModel):
    """One quoted passage: whole sentences of one paper, where they stand, and an English rendering where the
    paper is not in English."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: Annotated[str, Field(min_length=1)]
    paper: Annotated[str, Field(min_length=1, description="the paper's plain-text file (shared/papers/<paper>)")]
    section: Annotated[
        str, Field(min_length=1, description="the section as the paper numbers and titles it (glossed in English)")
    ]
    line: Annotated[int, Field(ge=1, description="1-based line of the paper's text file where the passage begins")]
    resumes_at_line: int | None = Field(
        default=None,
        ge=1,
        description="where a passage that a table interrupts goes on (the 1-based line after the table): the "
        "passage is stored whole, as one, and read across the table",
    )
    text: Annotated[str, Field(min_length=1, description="the whole sentences, in the paper's words")]
    english: str | None = Field(default=None, description="an English rendering, for a paper not in English")

    def citation(self) -> str:
        """Where the passage stands, for a reader: "the SCN paper (Kletz, Amsili and Candito, 2023), section 3.5,
        line 246": the paper by its name, the line of its text NegHub holds second (evaluator/papers/citations)."""
        from .citations import citation_of

        paper = citation_of(self.paper)
        year = f", {paper.year}" if paper.year is not None else ""
        lines = f"line {self.line}" if self.resumes_at_line is None else f"lines {self.line} and {self.resumes_at_line}"
        return f"{paper.short} ({paper.authors_text()}{year}), section {self.section}, {lines}"

    @property
    def cite_key(self) -> str:
        """The BibTeX key of the paper the passage stands in (a benchmark page's citation block: #cite-<key>)."""
        from .citations import citation_of

        return citation_of(self.paper).key

    @property
    def title(self) -> str:
        """The title of the paper the passage stands in."""
        from .citations import citation_of

        return citation_of(self.paper).title


@cache
def quotes() -> dict[str, Quote]:
    """Every stored quote by key, in the file's order."""
    raw: dict[str, dict[str, object]] = json.loads(QUOTES_FILE.read_text(encoding="utf-8"))
    return {key: Quote.model_validate({"key": key, **fields}) for key, fields in raw.items()}


def quote(key: str) -> Quote:
    """The stored quote of this key; a key that is not stored is a KeyError naming it (a programming error: the
    keys are the project's own)."""
    stored = quotes()
    if key not in stored:
        raise KeyError(f"no quote {key!r} in {QUOTES_FILE.name} (stored: {', '.join(stored)})")
    return stored[key]


def hedge(key: str, paper: str, phrase: str) -> str:
    """A paper's hedged finding, quoted as a hedge, for a mark of NegHub's own that points the same way (the
    negation-ignored mark): "<paper> only suggests it, of the models it ran (<phrase>, "may be"): “<the sentence>”
    (in English: …; section, line)". `phrase` is the hedge's own words, and must stand in the quote."""
    stored = quote(key)
    if phrase not in stored.text:
        raise ValueError(f"quote {key!r} does not hold the hedge {phrase!r}")
    english = "" if stored.english is None else f" (in English: {stored.english})"
    return (
        f"{paper} only suggests it, of the models it ran ({phrase}, may be): “{stored.text}”{english}, "
        f"section {stored.section}, line {stored.line}"
    )
