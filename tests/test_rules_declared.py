"""The rules are declared once (verdicts.RULES) and every text that states them is generated from that list: the
module docstring's list, README's table, the Ranking rules page and the leaderboard file's hold kinds."""

from __future__ import annotations

import html
import re
import typing
from pathlib import Path

import pytest

from neghub.leaderboard import rules_text, verdicts
from neghub.leaderboard.board_file import HoldKind
from neghub.leaderboard.rules_page import rules_page
from neghub.leaderboard.site import environment

ROOT = Path(__file__).resolve().parents[1]
# repository mechanics a researcher does not read in a rule's phrase (issue 33, "Researchers' words")
MECHANICS = re.compile(
    r"\blanded\b|\blanding\b|position \d+ of main|\b[0-9a-f]{12,40}\b|sha256|clearance|\baccount\b|rule row|\bfloor\b",
    re.IGNORECASE,
)


def test_every_hold_kind_of_the_leaderboard_file_is_one_rule_that_holds() -> None:
    holds = {rule.kind for rule in verdicts.RULES if rule.gives == "hold"}
    assert holds == set(typing.get_args(HoldKind))


def test_the_leaderboard_file_names_the_rules_in_force_in_their_order() -> None:
    from tests.rule_facts import baseline, decided

    found = decided(baseline())
    assert [(r.kind, r.phrase, r.sentence) for r in found.rules] == [
        (rule.kind, rule.phrase, rule.general) for rule in verdicts.RULES
    ]


def test_each_rule_is_declared_once_and_found_by_its_kind() -> None:
    found = [rule.kind for rule in verdicts.RULES]
    assert len(found) == len(set(found))
    for rule in verdicts.RULES:
        assert verdicts.rule_for(rule.kind) is rule
    with pytest.raises(KeyError):
        verdicts.rule_for("no-such-rule")


@pytest.mark.parametrize("rule", verdicts.RULES, ids=lambda r: r.kind)
def test_a_rules_phrase_is_short_and_in_researchers_words(rule: verdicts.Rule) -> None:
    assert len(rule.phrase.split()) <= 12, rule.phrase
    assert not MECHANICS.search(rule.phrase), rule.phrase
    assert not MECHANICS.search(rule.general), rule.general
    assert "{" not in rule.general and "}" not in rule.general


def test_a_sentence_takes_the_rows_evidence_in_its_fields() -> None:
    said = verdicts.rule_for("custom-prompt").say(prompt="my-secret")
    assert said == "Its prompt (my-secret) is not one of the benchmark's: held until a maintainer's review accepts it."


def test_the_module_docstring_lists_the_rules_as_declared() -> None:
    assert verdicts.__doc__ is not None
    assert rules_text.docstring_list() in verdicts.__doc__


def test_readme_and_the_docstring_are_what_the_rules_generate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert rules_text.main(["--check"]) == 0
    assert rules_text.readme_table() in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_drifted_readme_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "leaderboard").mkdir()
    (tmp_path / "leaderboard" / "verdicts.py").write_text(
        f'"""\n{rules_text.BEGIN}\n{rules_text.docstring_list()}\n{rules_text.END}\n"""\n', encoding="utf-8"
    )
    (tmp_path / "README.md").write_text(f"{rules_text.BEGIN}\nan old table\n{rules_text.END}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert rules_text.main(["--check"]) == 1
    assert "README.md: the rules text differs from verdicts.RULES" in capsys.readouterr().err


def test_the_rules_page_states_every_rule_wraps_its_cells_and_says_shared_sentences_once() -> None:
    page = html.unescape(rules_page(environment()))
    for rule in verdicts.RULES:
        assert rule.phrase in page
        assert rule.general in page
    changes = page[page.index('id="rules-changelog"') :]
    assert changes.count('<td class="neghub-wrap">') == len(verdicts.RULES_CHANGELOG)
    rules_table = page[page.index('id="rules-in-force"') : page.index("</table>", page.index('id="rules-in-force"'))]
    assert rules_table.count('class="neghub-wrap"') == 6 * len(verdicts.RULES)
    # the conditions shared by every benchmark are on the page once, not once per benchmark
    assert page.count("beats the board's best baseline under the paired test") <= 1


def test_the_changelog_of_this_version_says_each_change() -> None:
    version, _, what = verdicts.RULES_CHANGELOG[-1]
    assert version == verdicts.RULES_VERSION == "5"
    for change in (
        "NegHub ranks what it ran",
        "listed, unnumbered",
        "'claimed rank' is gone",
        "round robin over accounts",
        "other-setting, other-answers-same-model, disputed, answers-alike and unreproduced-best",
        "lean to the gold",
        "at any number of shots",
        "no leader until the official test set is",
        "alphabetically",
    ):
        assert change in what, change
