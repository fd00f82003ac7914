"""The papers' words NegHub shows (evaluator/papers/quotes.json): each passage stands in its paper, whole, on the
line the file names, and every quoted verdict of a transcribed table and every benchmark's verdict rule takes its
words from there. Tests that read a paper skip where ../shared is absent; the quotes themselves are the project's."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pytest
from pydantic import ValidationError

from neghub.evaluator.core.registry import benchmarks
from neghub.evaluator.papers.quotes import Quote, quote, quotes
from neghub.leaderboard.paper_results import load_reported

from .test_paper_tables import PAPERS, needs_papers

SENTENCE_END = ".!?。！？"


@dataclass(frozen=True)
class PaperText:
    """A paper's text as a reader reads it: emphasis markers dropped, a word hyphenated at a line's end joined,
    every run of white space one space; for each character, the 1-based line it comes from and whether it opens
    a paragraph (the line before is blank)."""

    text: str
    line_of: tuple[int, ...]
    opens_paragraph: tuple[bool, ...]


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "")).strip()


@functools.cache
def paper_text(name: str, skipped: tuple[int, int] | None = None) -> PaperText:
    """The paper as a reader reads it; `skipped` (first, last) leaves out those lines (a table a passage runs
    across, read as the reader reads the passage)."""
    chars: list[str] = []
    line_of: list[int] = []
    opens: list[bool] = []
    previous_blank = True
    for number, raw in enumerate((PAPERS / name).read_text(encoding="utf-8").split("\n"), start=1):
        if skipped is not None and skipped[0] <= number <= skipped[1]:
            continue
        line = collapse(raw)
        if not line:
            previous_blank = True
            continue
        if chars and chars[-1] == "-" and len(chars) > 1 and chars[-2].isalpha() and line[0].islower():
            chars.pop()  # hyphenated at the line's end: the word goes on
            line_of.pop()
            opens.pop()
        elif chars:
            chars.append(" ")
            line_of.append(number)
            opens.append(False)
        for index, char in enumerate(line):
            chars.append(char)
            line_of.append(number)
            opens.append(index == 0 and previous_blank)
        previous_blank = False
    return PaperText("".join(chars), tuple(line_of), tuple(opens))


def test_the_quotes_load_typed_and_by_key() -> None:
    stored = quotes()
    assert stored, "no quote stored"
    assert all(key == q.key for key, q in stored.items())
    # a reader's citation names the paper, never the repository's text file (issue 39 item 7); the line stays
    assert quote("scn.criterion").citation() == (
        "the SCN paper (David Kletz, Pascal Amsili and Marie Candito, 2023), section 3.5 Models evaluation, line 246"
    )
    with pytest.raises(KeyError, match=r"no quote 'scn\.nothing'"):
        quote("scn.nothing")
    with pytest.raises(ValidationError, match="Extra inputs"):
        Quote.model_validate({"key": "k", "paper": "p.txt", "section": "1", "line": 1, "text": "A.", "page": 3})


def test_each_passage_is_stored_once() -> None:
    texts = [collapse(q.text) for q in quotes().values()]
    assert len(texts) == len(set(texts))


@needs_papers
@pytest.mark.parametrize("key", list(quotes()))
def test_each_quote_stands_whole_in_its_paper_on_its_line(key: str) -> None:
    stored = quote(key)
    paper = paper_text(stored.paper, _interruption(stored))
    wanted = collapse(stored.text)
    starts = [m.start() for m in re.finditer(re.escape(wanted), paper.text)]
    assert len(starts) == 1, f"{key}: found {len(starts)} times in {stored.paper}"
    start, end = starts[0], starts[0] + len(wanted)
    assert paper.line_of[start] == stored.line, f"{key}: begins on line {paper.line_of[start]}, not {stored.line}"
    # whole sentences: the passage opens a paragraph or follows a sentence's end, and ends one
    before = paper.text[:start].rstrip()
    assert paper.opens_paragraph[start] or before[-1:] in SENTENCE_END, f"{key}: begins inside a sentence"
    assert wanted[-1] in SENTENCE_END or wanted.endswith((".)", "。」")), f"{key}: does not end a sentence"
    assert paper.text[end : end + 1] in ("", " "), f"{key}: the sentence goes on after the quote"
    if stored.resumes_at_line is not None:
        # the passage does go on there: its words stand on both sides of the table
        assert stored.resumes_at_line in paper.line_of[start:end], f"{key}: does not resume on its line"


def _interruption(stored: Quote) -> tuple[int, int] | None:
    """The lines a passage runs across: from the end of the paragraph it begins in to the line it resumes on. They
    must hold a table (its caption), and the passage must end its line before them."""
    if stored.resumes_at_line is None:
        return None
    lines = (PAPERS / stored.paper).read_text(encoding="utf-8").split("\n")
    first = next(n for n in range(stored.line + 1, stored.resumes_at_line) if not lines[n - 1].strip())
    assert any(line.startswith("Table ") for line in lines[first : stored.resumes_at_line - 1]), stored.key
    return first, stored.resumes_at_line - 1


@needs_papers
def test_the_scn_passage_across_table_6_is_one_quote() -> None:
    # self-contained-neg-test.txt, section 4: line 270 ends "... while retaining" above Tables 6 and 7, and the
    # sentence resumes on line 287, "large drops in the Coref column, ..."; stored as one passage
    stored = quote("scn.noncoref-small")
    assert (stored.line, stored.resumes_at_line) == (270, 287)
    assert "while retaining large drops in the Coref column" in stored.text
    assert stored.citation().endswith("section 4 Additional controls: forcing non-coreference, lines 270 and 287")
    # read without the table's lines, it is not in the paper: the test above does read across the table
    assert collapse(stored.text) not in paper_text(stored.paper).text


def _reported_verdicts() -> list[object]:
    return [
        pytest.param(table, row, id=f"{table.task} {table.table} {row.model}")
        for _, table in load_reported()
        for row in table.rows
        if row.verdict is not None
    ]


@pytest.mark.parametrize(("table", "row"), _reported_verdicts())
def test_every_quoted_verdict_of_a_paper_table_is_a_stored_quote(table: object, row: object) -> None:
    from neghub.leaderboard.paper_results import ReportedRow, ReportedTable

    assert isinstance(table, ReportedTable) and isinstance(row, ReportedRow)
    source = row.verdict_source
    assert source is not None
    matching = [
        q
        for q in quotes().values()
        if (q.text, q.english, q.paper, q.line, q.section)
        == (row.verdict, row.verdict_en, source.file, source.line, source.section)
    ]
    assert len(matching) == 1, f"{table.table} {row.model}: its verdict is no stored quote (or its source differs)"
    assert matching[0].paper == table.paper.file


def test_every_verdict_rule_quotes_its_passages_whole() -> None:
    for benchmark in benchmarks():
        display = benchmark.display
        for key in display.verdict_quotes:
            assert display.verdict_rule is not None and quote(key).text in display.verdict_rule, (benchmark.name, key)


def _quoted_in(words: str | None) -> set[str]:
    return {key for key, q in quotes().items() if words is not None and f"“{q.text}”" in words}


def test_every_stored_quote_is_shown_somewhere() -> None:
    used = {key for benchmark in benchmarks() for key in benchmark.display.verdict_quotes}
    for benchmark in benchmarks():
        # the negation-ignored mark's hedge and the board notes (SCN's limitation, NUBench's one seed) quote too
        used |= _quoted_in(benchmark.display.ignored_negation)
        for note in benchmark.display.board_notes:
            used |= _quoted_in(note.words)
    # the papers' findings about negation, quoted whole beside each benchmark's mini board on the home page
    used |= {b.display.headline_board.finding for b in benchmarks() if b.display.headline_board is not None}
    # and the sentences that give a mini board's order of the paper's models (SCN: l.256 with l.323)
    used |= {
        k for b in benchmarks() if b.display.headline_board is not None for k in b.display.headline_board.order_quotes
    }
    by_words = {(q.text, q.line): key for key, q in quotes().items()}
    for _, table in load_reported():
        for row in table.rows:
            if row.verdict is not None and row.verdict_source is not None:
                used.add(by_words[(row.verdict, row.verdict_source.line)])
    assert set(quotes()) == used, f"stored but shown nowhere: {sorted(set(quotes()) - used)}"
