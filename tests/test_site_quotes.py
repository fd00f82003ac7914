"""Every passage the site prints between quotation marks (“…”) is one of the papers' stored quotes
(evaluator/papers/quotes.json): whole sentences, each found on its line of its paper by tests/test_quotes.py. Read
from a site built of the committed submissions and every transcribed paper table, as a reader reads its pages."""

from __future__ import annotations

import re

import pytest

from neghub.evaluator.papers.quotes import quotes
from neghub.leaderboard.collect import collect
from neghub.leaderboard.site import build_pages
from tests.conftest import ROOT
from tests.histories import text_of

QUOTED = re.compile(r"“([^”]*)”")


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    board = collect(ROOT / "submissions")
    return {path: text_of(page) for path, page in build_pages(board).items() if isinstance(page, str)}


def test_every_quote_on_the_site_is_a_stored_whole_passage(pages: dict[str, str]) -> None:
    # a stored passage may hold quotation marks of its own (the paper's “vanilla” version): each stored passage is
    # taken out whole first, and what is left between quotation marks is a stray
    stored = sorted({_normal(q.text) for q in quotes().values()}, key=len, reverse=True)
    quoted = 0
    strays = []
    for path, text in pages.items():
        rest = _normal(text)
        for passage in stored:
            quoted += rest.count(f"“{passage}”")
            rest = rest.replace(f"“{passage}”", " ")
        strays += [(path, passage) for passage in QUOTED.findall(rest)]
    assert quoted, "the site quotes no paper: the paper rows' verdicts and the rules page do"
    assert strays == []


def test_the_papers_verdicts_are_quoted_with_their_place(pages: dict[str, str]) -> None:
    scn = pages["benchmarks/scn.md"]
    # roberta-base's verdict is the conclusion's whole sentence, its "but" included
    (conclusion,) = [q for q in quotes().values() if "partially passes" in q.text and "disappointing" in q.text]
    assert f"“{_normal(conclusion.text)}”" in scn
    # its place: the paper by name, then the line (issue 39 item 7: never the repository's text file)
    assert "the SCN paper, line 323" in scn and "self-contained-neg-test.txt" not in scn
