"""Issue 33 item 4, read on a site built of the committed submissions and every transcribed paper table, as a
reader reads its pages: each statement the site makes of a paper's figures says what the paper says of them.

- SCN (self-contained-neg-test.txt, section 6, line 331): the test is for masked language models; where a causal
  model is judged (the committed SmolLM2 run, on the "prompt causal" board) the board quotes that limitation.
- SCN: the negation contrast of a paper row is computed by NegHub from the paper's drops (the paper prints no such
  figure): the SCN page and the profile both say so, cell by cell.
- NUBench (nubench.txt, appendix R, line 1631): the paper's error analyses are of one run, seed 1234: every
  error-analysis board says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neghub.evaluator.benchmarks.nubench import ERROR_ANALYSIS_NOTE
from neghub.evaluator.benchmarks.scn.display import CAUSAL_LIMITATION
from neghub.evaluator.papers.quotes import quote
from neghub.leaderboard.collect import collect
from neghub.leaderboard.paper_results import COMPUTED_WORDS
from neghub.leaderboard.site import build_pages
from tests.conftest import ROOT
from tests.histories import maintainers_pushed_submissions, text_of


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    board = collect(ROOT / "submissions")
    return {path: _normal(text_of(page)) for path, page in build_pages(board).items() if isinstance(page, str)}


def test_a_causal_model_judged_on_scn_is_shown_with_the_papers_limitation(pages: dict[str, str]) -> None:
    limitation = quote("scn.limitation")
    assert (limitation.line, limitation.section) == (331, "6 Limitations")
    assert "only works on a Masked language modeling task" in limitation.text
    scn = pages["benchmarks/scn.md"]
    # the causal board holds a row (the committed SmolLM2 run) and, with it, the limitation quoted whole
    causal = scn.index("prompt causal scn neghub-1 0 ranked of 1 rows")
    assert scn.index(_normal(CAUSAL_LIMITATION), causal) > causal
    assert f"“{_normal(limitation.text)}”" in scn
    # the masked boards (the paper's) do not carry it
    assert scn.count(_normal(limitation.text)) == 1


def test_the_home_page_gives_the_limitation_where_it_shows_a_causal_models_scn_row(tmp_path: Path) -> None:
    # the committed SmolLM2 SCN run (a causal model, NegHub's run as the maintainers pushed it) is named under SCN's
    # mini board: the paper's limitation (section 6, l.331) stands beside it, quoted whole, once
    root = maintainers_pushed_submissions(tmp_path / "repo", ROOT / "submissions")
    home = _normal(text_of(build_pages(collect(root / "submissions"))["index.md"]))
    scn = home.index("SmolLM2-135M-Instruct (NegHub's run): 28.75 points")
    assert home.index(_normal(CAUSAL_LIMITATION), scn) > scn
    assert home.count(_normal(quote("scn.limitation").text)) == 1


def test_the_scn_papers_negation_contrast_is_flagged_as_neghubs_on_the_page_and_the_profile(
    pages: dict[str, str],
) -> None:
    # Tables 6, 8 and 9 print drops, not the contrast min(CpTn, CnTp) - max(CnTn, CpTv): each of Table 6's four
    # models, shown with its contrast, says NegHub computed it, on the SCN page and in its profile cell
    assert pages["benchmarks/scn.md"].count(f"negation contrast {COMPUTED_WORDS}") >= 4
    # the profile shows its first rows on the page and loads the rest from data/rows/profile.html
    profile = pages["profile.md"] + " " + pages["data/rows/profile.html"]
    for model in ("bert-base-cased", "bert-large-cased", "roberta-base", "roberta-large"):
        # the model's profile row: from its name to the next row's "paper:" (each SCN paper row is one)
        row = re.search(rf"{model} paper: the SCN paper (.*?)(?: \S+ paper: | M_i: |$)", profile)
        assert row is not None, model
        assert f"reported · paper row ⚑ {COMPUTED_WORDS}" in row.group(1), (model, row.group(1))


def test_nubench_error_analysis_boards_say_one_run_seed_1234(pages: dict[str, str]) -> None:
    seed = quote("nubench.error-analysis-seed")
    assert (seed.paper, seed.line) == ("nubench.txt", 1631)
    assert ERROR_ANALYSIS_NOTE.startswith("One run, seed 1234 (the paper's, line 1631)")
    nubench = pages["benchmarks/nubench.md"]
    # every error-analysis board, under its heading, says it; no other board does
    headings = re.findall(
        r"error analysis · [^—:]*? as reported: the paper's data \d+ ranked of \d+ rows (.{50})", nubench
    )
    assert len(headings) >= 9  # Tables 16 to 24, at least one board each
    assert all(after.startswith("One run, seed 1234 (the paper's, line 1631)") for after in headings)
    assert nubench.count(_normal(ERROR_ANALYSIS_NOTE)) == len(headings)


def test_board_notes_apply_to_their_test_and_prompt_style_only() -> None:
    from neghub.evaluator.core.registry import get_benchmark

    scn, nubench = get_benchmark("scn").display, get_benchmark("nubench").display
    assert scn.notes_for("base", "causal") == (CAUSAL_LIMITATION,)
    assert scn.notes_for("base", "masked") == () and scn.notes_for("co-reference controls", "paper") == ()
    assert nubench.notes_for("error analysis", "simple") == (ERROR_ANALYSIS_NOTE,)
    assert nubench.notes_for("base", "simple") == ()


def test_without_history_the_latest_submissions_say_no_date_even_where_rows_are_missing(tmp_path: Path) -> None:
    """A newcomer's offline build (no history, a release not here) printed the "rows are missing" sentence in the
    latest submissions' date column, as a list wider than a phone's page: the page's sign for no figure is n/a."""
    import re
    import shutil

    from neghub.evaluator.core.numbers import MISSING
    from neghub.leaderboard.home import home_page
    from neghub.leaderboard.site import environment

    shutil.copytree(ROOT / "submissions", tmp_path / "submissions")  # a copy without git: no history
    board = collect(tmp_path / "submissions")
    assert not board.history.recorded
    sentence = "Rows are missing: this build could not read the release."
    page = home_page(environment(), board, board.tables(), {"jnli-neg": sentence})
    latest = page[page.index('id="latest"') :]
    dates = re.findall(r"<tr><td>(.*?)</td>", latest)
    assert dates and set(dates) == {MISSING}, dates
    assert page.count(sentence) == 1 and sentence not in latest
