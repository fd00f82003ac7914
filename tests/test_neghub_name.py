"""NegHub's name is read by its letters (issue 37, item 4): a model name that a reader reads as "NegHub" holds it,
whatever letters, marks or symbols dress it up; a name whose letters are not NegHub's does not.

The reading (names.holds_neghubs_name): NFKC; every letter whose Unicode name is LATIN LETTER SMALL CAPITAL X or
MODIFIER LETTER ... X read as X; then only letters (L) and numbers (N) are kept, modifier letters (Lm) dropped; then
UTS #39's skeleton; compared with "neghub" in any letter case. Each disguise below passed the check on main
(issue 37's "Identity and boards") and is written from the Unicode names of its characters, not from the code.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import pytest

from neghub.evaluator.submissions.format import Metadata
from neghub.leaderboard.history import History, Landing
from neghub.leaderboard.names import holds_neghubs_name, neghub_letters, submitted_by

DISGUISES = {
    "NᴇgHub 7B": "LATIN LETTER SMALL CAPITAL E for the e",
    "Neg─Hub 7B": "BOX DRAWINGS LIGHT HORIZONTAL (a symbol, So) between the halves",
    "NegˍHub 7B": "MODIFIER LETTER LOW MACRON (Lm, a letter that reads as an underscore)",
    "ɴᴇɢʜᴜʙ": "six LATIN LETTER SMALL CAPITALs",
    "Negʜub": "LATIN LETTER SMALL CAPITAL H",
    "NegーHub": "KATAKANA-HIRAGANA PROLONGED SOUND MARK (Lm, a dash to a reader)",
    "Neg+Hub": "a plus sign (Sm)",
}


@pytest.mark.parametrize("name", list(DISGUISES), ids=list(DISGUISES.values()))
def test_a_disguised_neghub_holds_neghubs_name(name: str) -> None:
    assert holds_neghubs_name(name), f"{name!r} ({DISGUISES[name]}) reads as NegHub"


@pytest.mark.parametrize(
    "name",
    [
        "NegHub",
        "neghub-7b",
        "NEGHUB",
        "Neg Hub",
        "Neg_Hub v2",
        "ＮｅｇＨｕｂ",  # fullwidth: NFKC reads them as ASCII
        "N\u200deg\u00adHub",  # a zero-width joiner and a soft hyphen (format characters, Cf)
        "Nég̣Hub",  # combining marks
        "NeɡHub",  # LATIN SMALL LETTER SCRIPT G, confusable with g (UTS #39)
        "ɴᴇɢʜᴜʙ-ᶦ",  # small capitals, and a MODIFIER LETTER SMALL CAPITAL I that means nothing here
    ],
)
def test_neghubs_name_in_plain_or_known_forms_holds_it(name: str) -> None:
    assert holds_neghubs_name(name)


@pytest.mark.parametrize(
    "name",
    [
        # NegHub's letters not in its order, or with other letters between: another name
        "HubNeg",
        "Negative Hubble",
        "NegBERT",
        "Hub-Neg 7B",
        "Neg2Hub",  # a digit is kept (category N): "neg2hub" is not "neghub"
        "Negation-Hub",
        "SmolLM2-135M-Instruct",
        "ネグハブ",  # katakana reading of the name: another script's letters, which no skeleton maps to Latin
    ],
)
def test_an_honest_name_does_not_hold_neghubs_name(name: str) -> None:
    assert not holds_neghubs_name(name)


def test_a_name_with_neghub_inside_a_longer_word_holds_it() -> None:
    """The check reads containment: "NegHubert" holds NegHub's letters in order, so a reader can take it for a
    NegHub model (the cost, a name-of-another verdict on an unlucky honest name, is a rename; the other way round, a
    lookalike ranking as NegHub's, is a false claim of identity)."""
    assert holds_neghubs_name("NegHubert-base")


def test_the_letters_read_are_those_the_unicode_names_say() -> None:
    """neghub_letters keeps L and N, drops Lm, and reads small capitals and modifier letters by their names."""
    assert unicodedata.name("ᴇ") == "LATIN LETTER SMALL CAPITAL E"
    assert neghub_letters("NᴇgHub 7B") == "NEgHub7B"
    assert unicodedata.name("ᵂ") == "MODIFIER LETTER CAPITAL W"
    assert neghub_letters("aᵂb") == "aWb"  # NFKC already reads ᵂ as W
    assert unicodedata.name("ᶦ") == "MODIFIER LETTER SMALL CAPITAL I"
    assert neghub_letters("xᶦy") == "xIy"  # NFKC gives ɪ (a small capital), read by its name
    assert unicodedata.category("ˍ") == "Lm"
    assert neghub_letters("aˍb") == "ab"
    assert neghub_letters("a─b+c 1") == "abc1"


# --- who submitted: the account GitHub recorded, never metadata's `submitter.name` ---


def _history(sid: str, *, pull_request: int | None, branch: str | None) -> History:
    landing = Landing(position=3, commit="c" * 40, pull_request=pull_request, branch=branch, paths=frozenset())
    return History(recorded=True, submissions={sid: landing}, added={sid: landing}, prefix="submissions/")


def _metadata(github: str, name: str = "NegHub maintainers") -> Metadata:
    return SimpleNamespace(submitter=SimpleNamespace(github=github, name=name))  # type: ignore[return-value]


def test_a_pull_request_named_as_the_maintainers_prints_its_account() -> None:
    """`submitter.name: NegHub maintainers` in @mallory's pull request must not print like NegHub's own runs."""
    history = _history("s", pull_request=7, branch="mallory/add-row")
    assert submitted_by(history, "s", _metadata("mallory")) == "@mallory"


def test_a_maintainers_push_prints_neghubs_maintainers_whatever_name_it_gives() -> None:
    history = _history("s", pull_request=None, branch=None)
    assert submitted_by(history, "s", _metadata("someone", name="Jane Doe")) == "NegHub's maintainers"


def test_the_gpu_eval_workflows_branch_prints_neghubs_maintainers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_REPOSITORY", "neghub/neghub")
    monkeypatch.delenv("REPRODUCTION_BOT", raising=False)
    history = _history("s", pull_request=9, branch="neghub/gpu-eval/run-1")
    assert submitted_by(history, "s", _metadata("github-actions[bot]")) == "NegHub's maintainers"
    # the same branch name from a fork reads FORK_OWNER/gpu-eval/...: its author's
    forked = _history("s", pull_request=9, branch="mallory/gpu-eval/run-1")
    assert submitted_by(forked, "s", _metadata("github-actions[bot]")) == "@github-actions[bot]"


def test_no_history_prints_not_on_record() -> None:
    history = History(recorded=False, why_not="no git repository")
    assert submitted_by(history, "s", _metadata("alice", name="NegHub")) == "not on record"


def test_the_home_pages_latest_submissions_show_the_account_not_the_name_given(tmp_path: Path) -> None:
    """The issue's case on the page: @tester's pull request gives `submitter.name: NegHub maintainers`; the home
    page's latest submissions and the models list print "@tester", and nothing there reads as NegHub's own."""
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.home import home_page
    from neghub.leaderboard.site import environment, models_index_page
    from tests.test_leaderboard import write_submission

    write_submission(tmp_path, "posing", "Posing", ["choice1"], submitter="NegHub maintainers")
    landing = Landing(position=2, commit="c" * 40, pull_request=7, branch="tester/add-posing", paths=frozenset())
    history = History(recorded=True, submissions={"posing": landing}, added={"posing": landing}, prefix="")
    board = collect(tmp_path, reported=False, history=history)
    env = environment()
    for page in (home_page(env, board, board.tables()), models_index_page(env, board, {})):
        cells = re.findall(r"<td>([^<]*)</td></tr>", page)
        assert cells == ["@tester"]
        assert "NegHub maintainers" not in page and "NegHub&#39;s maintainers" not in page
