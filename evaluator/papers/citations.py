"""How a reader cites the papers behind NegHub's benchmarks: each paper's title, authors, year and venue as the
paper's own text (or its archive record, quoted on its first page) states them, a link where one exists, and its
BibTeX. A page names a paper by these words, never by the repository's text file of it (`reader_source`); the
file and its line numbers stay, secondary, for anyone who checks a quote (tests/test_quotes.py).

Where the text NegHub holds does not state a year or a venue, the record says so rather than guessing (two of the
papers' texts carry neither; one is an anonymous submission under review). The records are citations.json.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict


class PaperCitation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    file: str  # the paper's plain-text file (shared/papers/<file>): for checks, never shown as a source
    short: str  # how a page names it in a sentence ("the SCN paper")
    title: str  # as the paper prints it
    title_en: str | None = None  # an English gloss, for a paper not in English
    authors: tuple[str, ...]  # as the paper prints them ("anonymous" for a double-blind submission)
    year: int | None = None  # None: the text NegHub holds does not state it
    venue: str | None = None  # None: the text NegHub holds does not state it
    url: str | None = None  # the paper's own record (an archive), where the text gives one
    key: str  # the BibTeX key

    def authors_text(self) -> str:
        names = list(self.authors)
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def reference(self) -> str:
        """One line a reader can cite: authors (year). Title. Venue."""
        year = str(self.year) if self.year is not None else "year not stated in the paper's text"
        venue = self.venue if self.venue is not None else "venue not stated in the paper's text"
        return f"{self.authors_text()} ({year}). {self.title}. {venue}."

    def bibtex(self) -> str:
        fields = {"title": self.title, "author": " and ".join(self.authors)}
        if self.year is not None:
            fields["year"] = str(self.year)
        if self.venue is not None:
            fields["howpublished" if self.url is None else "booktitle"] = self.venue
        if self.url is not None:
            fields["url"] = self.url
        if self.year is None or self.venue is None:
            fields["note"] = (
                "year and venue as the paper's text states them: "
                + ", ".join(p for p, v in (("year", self.year), ("venue", self.venue)) if v is None)
                + " not stated"
            )
        kind = "inproceedings" if self.year is not None and self.venue is not None else "misc"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        return f"@{kind}{{{self.key},\n{body}\n}}"


# the records, one per paper text (a JSON file beside quotes.json: no module outside a benchmark's folder names it)
CITATIONS_FILE = Path(__file__).with_name("citations.json")
PAPERS: tuple[PaperCitation, ...] = tuple(
    PaperCitation.model_validate(record) for record in json.loads(CITATIONS_FILE.read_text(encoding="utf-8"))
)


@cache
def citations() -> dict[str, PaperCitation]:
    """Every paper, by its text file."""
    return {paper.file: paper for paper in PAPERS}


def citation_of(file: str) -> PaperCitation:
    return citations()[file]


_FILE = re.compile(r"[\w.-]+\.txt")


def reader_source(text: str) -> str:
    """A place in a paper, in a reader's words: each paper's text file named by the paper ("nubench.txt, line
    241" -> "the <name> paper, line 241"); any other text is left as it is."""
    return _FILE.sub(lambda m: citations()[m.group(0)].short if m.group(0) in citations() else m.group(0), text)
