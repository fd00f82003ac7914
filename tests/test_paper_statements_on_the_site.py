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
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # the committed submissions as the maintainers pushed them (NegHub's runs), whether or not this checkout has
    # its git history (an unpacked sdist has none)
    root = maintainers_pushed_submissions(tmp_path_factory.mktemp("site") / "repo", ROOT / "submissions")
    board = collect(root / "submissions")
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
    scn = home.index("SmolLM2-135M-Instruct (NegHub's run): NegHub's negation contrast 28.75 points")
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


# --- issue 39 item 1: the home page says what the papers print and conclude, and NegHub's own rows' verdicts --------


def _mini(home: str, task_name: str, next_name: str | None) -> str:
    start = home.index(f"{task_name} Table")
    return home[start : home.index(f"{next_name} Table", start) if next_name else home.index("What the papers found")]


def test_the_home_pages_scn_board_shows_table_6_in_the_papers_order(pages: dict[str, str]) -> None:
    """self-contained-neg-test.txt l.256 ("the roberta models ... better than bert ... within a family of models, the
    large version performs better") with l.323 ("bert-base is globally unable ..., bert-large is a little better at
    first sight"): roberta-large, roberta-base, bert-large, bert-base. Table 6 prints four drops per model, not the
    negation contrast (21.20 / 4.40 / -24.30 for roberta-large / roberta-base / bert-base were credited to it)."""
    scn = _mini(pages["index.md"], "SCN", None)
    order = [
        scn.index(f"{model} paper, Table 6")
        for model in ("roberta-large", "roberta-base", "bert-large-cased", "bert-base-cased")
    ]
    assert order == sorted(order), scn
    # Table 6's figures, as printed (roberta-large: 64.7, 82.8, 43.5, 26; bert-base-cased: 3.6, 1.2, 1.5, 25.5)
    assert "64.70 82.80 43.50 26.00" in scn and "3.60 1.20 1.50 25.50" in scn, scn
    for contrast in ("21.20", "4.40", "-24.30"):
        assert contrast not in scn, contrast
    # each model's verdict, quoted, on the board
    for key in ("scn.roberta-large", "scn.conclusion-roberta-base", "scn.bert-large", "scn.bert-base"):
        assert f"“{_normal(quote(key).text)}”" in scn, key
    # NegHub's contrast, where shown (NegHub's own run), is called NegHub's and defined beside it
    assert "NegHub's negation contrast 28.75 points" in scn
    assert "NegHub's negation contrast: SCN: min(CpTn drop, CnTp drop) − max(CnTn drop, CpTv drop)" in scn


def test_every_cell_credited_to_a_papers_table_on_the_home_page_holds_a_value_stored_for_that_table() -> None:
    from neghub.leaderboard.paper_results import load_reported

    stored: dict[tuple[str, str], set[float]] = {}
    for _, table in load_reported():
        for row in table.rows:
            values = stored.setdefault((table.table, row.model), set())
            values.update(round(100 * v, 2) for v in row.metrics.values())
            values.update(round(v, 2) for v in row.metrics.values())
    home = build_pages(collect(ROOT / "submissions"))["index.md"]
    assert isinstance(home, str)
    checked = 0
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", home, flags=re.DOTALL):
        credit = re.search(r"paper, (Table \d+)", row)
        if credit is None:
            continue
        model = text_of(row.split("<", 1)[0]) or text_of(re.sub(r"<a .*", "", row, flags=re.DOTALL))
        cells = [text_of(c) for c in re.findall(r'<td class="neghub-num">(.*?)</td>', row, flags=re.DOTALL)]
        numbers = [float(re.match(r"-?[\d.]+", c).group(0)) for c in cells if re.match(r"-?[\d.]+", c)]  # type: ignore[union-attr]
        assert numbers, row
        for number in numbers:
            assert number in stored[(credit.group(1), model.strip())], (model, credit.group(1), number)
            checked += 1
    assert checked >= 16  # SCN's 4 x 4, and the three other boards' rows


def test_the_home_page_gives_neghubs_own_rows_verdicts_where_they_stand(
    pages: dict[str, str], shared_datasets: Path
) -> None:
    # SmolLM2's JNLI-Neg row and the baselines stand only where the build can read the release (skipped without it)
    home = pages["index.md"]
    # SCN: SmolLM2 fails, for its CpTv drop over NegHub's veto (section 3.3's words: "prevent any positive
    # interpretation of a drop")
    scn = _mini(home, "SCN", None)
    assert "NegHub's verdict: fails" in scn and "CpTv drop 61.3" in scn, scn
    assert "positive interpretation of a drop" in scn
    # JNLI-Neg: SmolLM2's log-likelihood run answers every item as the always-'contradiction' rule (computed by
    # comparing its answers with the baseline's)
    jnli = _mini(home, "JNLI-Neg", "JSTS-Neg")
    assert "It answers as the always 'contradiction' baseline on every item" in jnli, jnli


def test_a_row_answers_as_a_baseline_only_where_every_answer_is_the_same() -> None:
    from types import SimpleNamespace

    from neghub.leaderboard.answers import from_values
    from neghub.leaderboard.home import _answers_as_baseline

    ids = ("a", "b", "c")
    rule = SimpleNamespace(model="Rule: always 'contradiction'", answers={None: from_values(ids, ["c", "c", "c"])})
    same = SimpleNamespace(model="m", answers={None: from_values(ids, ["c", "c", "c"])})
    one_off = SimpleNamespace(model="m", answers={None: from_values(ids, ["c", "e", "c"])})
    assert _answers_as_baseline(same, [rule]) == "always 'contradiction'"  # type: ignore[arg-type]
    assert _answers_as_baseline(one_off, [rule]) is None  # type: ignore[arg-type]


def test_the_best_baseline_under_a_paper_row_that_scores_below_it_is_explained(
    pages: dict[str, str], shared_datasets: Path
) -> None:
    # the baselines are computed from the release: skipped where the build cannot read it
    # JNLI-Neg's Table 2: LLM-jp-3-3.7B-instruct at 44.98, listed above the always-'contradiction' rule at 45.36
    jnli = _mini(pages["index.md"], "JNLI-Neg", "JSTS-Neg")
    said = "The baseline, NegHub's rule on the same items, is listed apart: LLM-jp-3-3.7B-instruct (44.98) scores below"
    assert said in jnli, jnli


def test_the_glossary_defines_d_jnli_as_table_2_does_and_the_scn_terms(pages: dict[str, str]) -> None:
    # jnli-neg-ja.txt l.173 (表 2) with l.195 (every experiment evaluated on the validation set): D_JNLI is accuracy on
    # JNLI's validation set, not its training data
    glossary = pages["glossary.md"]
    assert "JNLI's training data" not in glossary
    assert "Table 2 column D_JNLI is accuracy on its validation set" in glossary
    assert "drop:" in glossary and "negation contrast: NegHub's figure, not the paper's" in glossary


def test_the_jnli_neg_finding_on_the_home_page_speaks_of_the_zero_shot_models_it_shows(pages: dict[str, str]) -> None:
    # jnli-neg-ja.txt l.214 is about MLMs fine-tuned on D_JNLI (not on the home page's 0-shot board); l.215 speaks of
    # the LLMs' zero-shot results
    found = pages["index.md"].split("What the papers found", 1)[1]
    assert _normal(quote("jnli-neg.zero-shot-llms-vary").text) in found
    assert _normal(quote("jnli-neg.d-jnli-mlms-ignore-negation").text) not in found
    assert quote("jnli-neg.zero-shot-llms-vary").line == 215


def test_neghubs_choices_are_said_as_neghubs(pages: dict[str, str]) -> None:
    assert "a table of its paper (NegHub's choice)" in pages["index.md"]
    jnli = pages["benchmarks/jnli-neg.md"]
    assert "NegHub ranks by M_i Acc′" in jnli and "The figure a board ranks by is NegHub's choice" in jnli
    assert "headline table" not in jnli


def test_a_build_that_cannot_read_a_pinned_release_does_not_say_neghub_lacks_the_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # JNLI-Neg's release is pinned: a build without ../shared could not read it; NegHub does hold its items
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(tmp_path / "no-data"))
    board = collect(ROOT / "submissions")
    home = _normal(text_of(build_pages(board)["index.md"]))
    jnli = _mini(home, "JNLI-Neg", "JSTS-Neg")
    assert "NegHub does not hold" not in jnli, jnli
    assert "could not read the release NegHub pins" in jnli, jnli


# --- issue 39 item 8: reasons in a reader's words ---------------------------------------------------------------

DIGESTS = re.compile(r"\b[0-9a-f]{12,40}\b|sha256|\bcommit\b|pushed to main")


def test_a_rows_fold_says_why_in_a_readers_words_its_commits_only_in_its_provenance_fold(
    tmp_path: Path, shared_datasets: Path
) -> None:
    # it reads SmolLM2's JNLI-Neg row, which the build has only where it can read the release
    root = maintainers_pushed_submissions(tmp_path / "repo", ROOT / "submissions")
    raw = {p: page for p, page in build_pages(collect(root / "submissions")).items() if isinstance(page, str)}
    folds = 0
    for path, page in raw.items():
        if not path.startswith(("benchmarks/", "data/rows/")):
            continue
        for fold in re.findall(r'<details class="neghub-why">(.*?)</td>', page, flags=re.DOTALL):
            outside = re.sub(r'<details class="neghub-provenance">.*?</details>', " ", fold, flags=re.DOTALL)
            assert not DIGESTS.search(text_of(outside)), (path, text_of(outside))
            folds += 1
    assert folds
    # SmolLM2's JNLI-Neg row: why first (the baseline), where it came from in words; the commit in its own fold
    jnli = raw["benchmarks/jnli-neg.md"]
    fold = re.search(r"why not ranked</summary>(.*?)</td>", jnli[jnli.index("It does not beat") - 400 :], re.DOTALL)
    assert fold is not None
    words = text_of(fold.group(1))
    assert words.startswith("not ranked: It does not beat the board's best baseline"), words
    # rules version 5: the maintainers' run is NegHub's own run (nothing to reproduce); said before the provenance fold
    assert "run by NegHub's maintainers" in words.split("provenance", 1)[0], words
    assert '<details class="neghub-provenance"><summary>provenance</summary>' in fold.group(1)


def test_the_rules_page_opens_with_what_a_reader_must_know() -> None:
    rules = _normal(text_of(str(build_pages(collect(ROOT / "submissions"))["rules.md"])))
    know = rules.index("What a reader must know")
    assert know < rules.index("The rules in force") < rules.index("The facts a verdict may rest on")
    for words in ("What ranks.", "What is shown for context.", "What a hold means."):
        assert know < rules.index(words) < rules.index("The rules in force"), words
    assert rules.index("landing order") > rules.index("The facts a verdict may rest on")


def test_the_jsts_neg_page_does_not_say_no_paper_ran_its_data(pages: dict[str, str]) -> None:
    # jsts-neg.txt, section 4 (Table 3): the paper ran JSTS-Neg's test split; what NegHub lacks is a release of it
    assert "no paper ran this data" not in pages["benchmarks/jsts-neg.md"]
    assert "no paper ran this data" not in pages["index.md"]
