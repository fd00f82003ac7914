"""Each rule of verdicts.RULES, and each attack of issue 32 on them, as a test of `decide` on hand-made facts
(tests/rule_facts.py): the hold kind or the mark a row gets, worked out from the answers each test writes.

JNLI-Neg's primary board, 200 items with seeded gold labels; a row's headline is the share of items it gets right.
NegHub's own run ("Ours", the maintainers') is at 70 % unless a test says otherwise, so that no row below it is a
new best waiting for a reproduction.
"""

from __future__ import annotations

import dataclasses

import pytest

from neghub.leaderboard.facts import RecordFacts, RowFacts
from tests.rule_facts import (
    GOLD,
    IDS,
    ITEMS,
    accuracy,
    agreeing_record,
    baseline,
    board,
    changed,
    cleared,
    constant,
    decided,
    entry,
    kinds,
    paper,
    row,
)


def ours(share: float = 0.7, seed: int = 1) -> RowFacts:
    return row("Ours", accuracy(share, seed), login="maintainers", landing=0)


# --- above every published result: a person ------------------------------------------------------------------


def test_neghubs_own_run_above_the_published_best_is_held() -> None:
    found = decided(ours(), baseline(), paper(0.60))
    assert kinds(found, "Ours") == ["above-published-best"]
    assert entry(found, "Ours").status == "held"


def test_training_on_the_ranked_split_is_not_lifted_by_a_reproduction() -> None:
    """Attack: a model fine-tuned on the ranked split (whose gold ships in the public release) is honestly
    reproduced; the reproduction shows the weights give the answers, not that they never saw the labels."""
    tuned = row("Tuned", accuracy(0.9, 2), login="mallory", landing=2, record=agreeing_record())
    lower = row("Lower", accuracy(0.42, 30), login="erin", landing=3)  # a second ranked row: a leader needs two
    found = decided(ours(0.5), baseline(), paper(0.60), tuned, lower)
    assert "above-published-best" in kinds(found, "Tuned")
    reason = entry(found, "Tuned").holds[0].reason
    assert "never saw the evaluation split's gold labels" in reason
    assert found.leaders[0].row == "Ours/primary"


def test_only_a_maintainers_review_lifts_the_above_published_best_hold() -> None:
    found = decided(
        ours(), baseline(), paper(0.60), clearances=[cleared("Ours", "above-published-best", boards=[board()])]
    )
    assert kinds(found, "Ours") == []
    assert entry(found, "Ours").status == "ranked"
    assert "a maintainer's review" in entry(found, "Ours").cleared[0]


def test_a_clearance_of_a_figure_lifts_nothing_where_it_names_no_board() -> None:
    """A review of a figure is of one board's row: an entry naming no board lifts no figure's hold anywhere."""
    found = decided(ours(), baseline(), paper(0.60), clearances=[cleared("Ours", "above-published-best")])
    assert kinds(found, "Ours") == ["above-published-best"]


def test_a_clearance_of_a_name_lifts_it_on_every_board_of_the_submission() -> None:
    """A model's name is the submission's, one for all its boards: its clearance needs no board named."""
    three_shot = dataclasses.replace(board(), shots=3)
    here = row("Named", accuracy(0.5, 91), login="bob", landing=2, model="NegHub eval")
    there = dataclasses.replace(
        row("Named", accuracy(0.5, 92), login="bob", landing=2, model="NegHub eval", key=three_shot),
        id="Named/three-shot",
    )
    held = decided(ours(), baseline(), here, there)
    assert kinds(held, "Named") == ["name-of-another"]
    assert "name-of-another" in [hold.kind for hold in held.entries()["Named/three-shot"].holds]
    found = decided(ours(), baseline(), here, there, clearances=[cleared("Named", "name-of-another")])
    assert kinds(found, "Named") == []
    assert "name-of-another" not in [hold.kind for hold in found.entries()["Named/three-shot"].holds]


# --- a dispute holds no one ------------------------------------------------------------------------------------


def test_two_accounts_pinning_one_model_with_other_answers_are_both_disputed_and_neither_held() -> None:
    first = row("Pinned A", accuracy(0.45, 2), login="bob", pin="org/model", landing=2)
    second = row("Pinned B", accuracy(0.47, 3), login="carol", pin="org/model", landing=3)
    found = decided(ours(), baseline(), first, second)
    for name, other in (("Pinned A", "Pinned B"), ("Pinned B", "Pinned A")):
        mine = entry(found, name)
        assert kinds(found, name) == [], mine.holds
        assert "disputed" in mine.mark_kinds and "disputed" in mine.tags
        (mark,) = [m for m in mine.marks if m.startswith("Disputed")]
        assert other in mark
        assert mine.queued_for_reproduction
    # each names the other's figure: Pinned B's share right, as the page prints it
    b_share = sum(a == g for a, g in zip(accuracy(0.47, 3), GOLD, strict=True)) / ITEMS
    assert f"{100 * b_share:.2f}" in next(m for m in entry(found, "Pinned A").marks if m.startswith("Disputed"))


def test_a_disputed_row_above_neghubs_run_is_no_new_best_and_does_not_lead() -> None:
    first = row("Pinned A", accuracy(0.85, 2), login="bob", pin="org/model", landing=2)
    second = row("Pinned B", accuracy(0.86, 3), login="carol", pin="org/model", landing=3)
    lower = row("Lower", accuracy(0.45, 30), login="erin", landing=4)  # a second ranked row: a leader needs two
    found = decided(ours(), baseline(), first, second, lower)
    assert "unreproduced-best" in kinds(found, "Pinned A") and "unreproduced-best" in kinds(found, "Pinned B")
    assert found.leaders[0].row == "Ours/primary"


def test_one_pull_request_pinning_other_accounts_models_holds_none_of_their_rows() -> None:
    """Attack: one pull request with three folders pinning three other accounts' models with other answers (one an
    API model's) held all three honest rows, and NegHub's run stopped being named leader."""
    honest = [
        row(f"Honest {i}", accuracy(0.5, 10 + i), login=login, pin=f"{login}/model", landing=1 + i)
        for i, login in enumerate(("bob", "carol", "dave"))
    ]
    forged = [
        row(f"Forged {i}", accuracy(0.5, 20 + i), login="mallory", pin=f"{login}/model", landing=5)
        for i, login in enumerate(("bob", "carol", "dave"))
    ]
    found = decided(ours(), baseline(), *honest, *forged)
    for i in range(3):
        assert kinds(found, f"Honest {i}") == []
        assert entry(found, f"Honest {i}").status == "ranked"
        assert "disputed" in entry(found, f"Honest {i}").mark_kinds
    assert found.leaders[0].row == "Ours/primary"


def test_a_row_with_other_answers_than_neghubs_run_of_its_model_is_held() -> None:
    mine = row("Ours", accuracy(0.7, 1), login="maintainers", landing=0, pin="org/model")
    other = row("Theirs", accuracy(0.6, 5), login="bob", pin="org/model", landing=2)
    found = decided(mine, baseline(), other)
    assert kinds(found, "Theirs") == ["other-answers-same-model"]
    assert "Ours" in entry(found, "Theirs").holds[0].reason


def test_rows_of_one_model_on_different_samples_are_compared_on_shared_items_only() -> None:
    """SCN's `--max-pairs`: two runs of one model on other samples share some items; where no shared item differs
    nothing says "other answers"."""
    answers = accuracy(0.5, 6)
    first = row("Sample A", answers[:120], login="bob", pin="org/model", landing=2, ids=IDS[:120])
    second = row("Sample B", answers[80:], login="carol", pin="org/model", landing=3, ids=IDS[80:])
    found = decided(ours(), baseline(), first, second)
    for name in ("Sample A", "Sample B"):
        mine = entry(found, name)
        assert kinds(found, name) == [] and "disputed" not in mine.mark_kinds
        words = " ".join([*mine.marks, *(h.reason for h in mine.holds), mine.why or ""])
        assert "other answers" not in words and "answers otherwise" not in words


def test_rows_on_different_samples_that_differ_on_shared_items_say_how_many_of_the_shared() -> None:
    answers = accuracy(0.5, 6)
    # items 80..119 are shared (40); the second row moves 5 of them
    moved = changed(answers, [80, 85, 90, 95, 100])
    first = row("Sample A", answers[:120], login="bob", pin="org/model", landing=2, ids=IDS[:120])
    second = row("Sample B", moved[80:], login="carol", pin="org/model", landing=3, ids=IDS[80:])
    found = decided(ours(), baseline(), first, second)
    assert "5 of the 40 items both answered differ" in " ".join(entry(found, "Sample A").marks)


# --- names ---------------------------------------------------------------------------------------------------


def test_a_squatters_name_landed_first_holds_no_one_and_both_show_their_pin() -> None:
    """Attack: a model name landed first on the squatter's own pin held the real owner's later row."""
    squat = row("squat", accuracy(0.5, 7), login="mallory", pin="mallory/smollm2", landing=1, model="SmolLM2-135M")
    real = row("real", accuracy(0.52, 8), login="hf", pin="HuggingFaceTB/SmolLM2-135M", landing=2, model="SmolLM2-135M")
    found = decided(ours(), baseline(), squat, real)
    assert kinds(found, "real") == [] and kinds(found, "squat") == []
    assert entry(found, "real").pin == "HuggingFaceTB/SmolLM2-135M"
    assert entry(found, "squat").pin == "mallory/smollm2"
    assert "names-alike" in entry(found, "real").mark_kinds


def test_names_that_read_alike_only_through_confusables_show_their_pins() -> None:
    first = row("first", accuracy(0.5, 7), login="bob", landing=1, model="SmolLM2-135M-Instruct")
    second = row("second", accuracy(0.5, 8), login="carol", landing=2, model="SmolLM2-135M-lnstruct")
    found = decided(ours(), baseline(), first, second)
    assert entry(found, "second").pin == "carol/second" and entry(found, "first").pin == "bob/first"


def test_only_neghubs_own_name_is_reserved() -> None:
    found = decided(ours(), baseline(), row("claim", accuracy(0.5, 9), login="bob", model="NegHub-7B"))
    assert kinds(found, "claim") == ["name-of-another"]


# --- copies --------------------------------------------------------------------------------------------------


def test_a_copy_that_keeps_the_score_with_nulls_is_held() -> None:
    """Attack: a row copies another's right answers and leaves null elsewhere: on the items both answered it is
    right everywhere, so its error consistency was undefined or 0 and it got a claimed rank."""
    source = accuracy(0.6, 4)
    copy = [a if a == g else None for a, g in zip(source, GOLD, strict=True)]
    # three of the copied right answers made wrong, so that the answers are not identical where both answered:
    # there the source is right everywhere, so c_exp is the copy's accuracy and κ was exactly 0
    rights = [i for i, a in enumerate(copy) if a is not None][:3]
    copy = changed(copy, rights)
    found = decided(
        ours(), baseline(), row("Source", source, login="bob", landing=2), row("Copy", copy, login="mallory", landing=3)
    )
    assert kinds(found, "Copy") == ["near-copy"]
    assert kinds(found, "Source") == []


def test_two_rows_that_answered_nothing_are_not_copies() -> None:
    nothing: list[int | None] = [None] * ITEMS
    found = decided(
        ours(), baseline(), row("Empty A", nothing, login="bob", landing=2), row("Empty B", nothing, login="carol")
    )
    assert "near-copy" not in kinds(found, "Empty B") and "answers-alike" not in kinds(found, "Empty B")


def test_a_copy_merged_before_the_row_it_copies_does_not_make_the_honest_row_the_copy() -> None:
    """Attack: Mallory copies Alice's open pull request and gets hers merged first; Alice's row, landing later,
    was "the copy". Alice's branch forked from main (position 1) before the copy landed (position 2)."""
    honest = accuracy(0.6, 5)
    copy = changed(honest, range(0, ITEMS, 40))  # 5 of 200 answers moved
    found = decided(
        ours(),
        baseline(),
        row("Copy", copy, login="mallory", landing=2, forked_at=1),
        row("Honest", honest, login="alice", landing=3, forked_at=1),
    )
    assert kinds(found, "Honest") == ["answers-alike"] and kinds(found, "Copy") == ["answers-alike"]
    assert "Copy" in entry(found, "Honest").holds[0].reason and "Honest" in entry(found, "Copy").holds[0].reason
    assert entry(found, "Honest").queued_for_reproduction


def test_a_row_submitted_after_its_source_landed_is_the_copy() -> None:
    honest = accuracy(0.6, 5)
    copy = changed(honest, range(0, ITEMS, 40))
    found = decided(
        ours(),
        baseline(),
        row("Honest", honest, login="alice", landing=2, forked_at=1),
        row("Copy", copy, login="mallory", landing=3, forked_at=2),
    )
    assert kinds(found, "Copy") == ["near-copy"] and kinds(found, "Honest") == []


def test_a_reproduction_settles_no_answers_alike_and_a_maintainers_review_does() -> None:
    """A reproduction shows that the weights give the answers, not where they came from (round 4, A13): both rows
    stay held until a maintainer's review clears one."""
    honest = accuracy(0.6, 5)
    copy = changed(honest, range(0, ITEMS, 40))
    rows = (
        ours(),
        baseline(),
        row("Copy", copy, login="mallory", landing=2, forked_at=1),
        row("Honest", honest, login="alice", landing=3, forked_at=1, record=agreeing_record()),
    )
    found = decided(*rows)
    assert kinds(found, "Honest") == ["answers-alike"] and kinds(found, "Copy") == ["answers-alike"]
    # the review names the board it looked at (round 4, A9): a review of no board lifts nothing
    assert kinds(decided(*rows, clearances=[cleared("Honest", "answers-alike")]), "Honest") == ["answers-alike"]
    reviewed = decided(*rows, clearances=[cleared("Honest", "answers-alike", boards=[board()])])
    assert kinds(reviewed, "Honest") == [] and kinds(reviewed, "Copy") == ["answers-alike"]


def test_a_reproduced_row_that_landed_after_the_row_it_answers_alike_is_not_the_copy() -> None:
    """The later row reproduced, the two never open at once: neither is called the copy (round 4, A3 and A13)."""
    honest = accuracy(0.6, 5)
    found = decided(
        ours(),
        baseline(),
        row("Earlier", changed(honest, range(0, ITEMS, 40)), login="mallory", landing=2, forked_at=1),
        row("Later", honest, login="alice", landing=3, forked_at=2, record=agreeing_record()),
    )
    assert kinds(found, "Later") == ["answers-alike"] and kinds(found, "Earlier") == ["answers-alike"]


def test_neghubs_own_run_is_never_held_as_a_copy_and_a_row_answering_alike_it_is_the_copy() -> None:
    """Only NegHub's own run is exempt from the copy rule: a row that answers alike it is the copy, even where its
    pull request was open before NegHub's run landed."""
    answers = accuracy(0.6, 5)
    found = decided(
        baseline(),
        row("Ours", answers, login="maintainers", landing=2),
        row("Alike", changed(answers, range(0, ITEMS, 40)), login="mallory", landing=3, forked_at=1),
    )
    assert kinds(found, "Ours") == [] and kinds(found, "Alike") == ["near-copy"]


def test_independent_rows_are_not_copies() -> None:
    found = decided(
        ours(),
        baseline(),
        row("One", accuracy(0.6, 11), login="bob", landing=2),
        row("Two", accuracy(0.6, 12), login="carol", landing=3),
    )
    assert kinds(found, "Two") == [] and kinds(found, "One") == []


# --- the other holds and the ranking conditions ----------------------------------------------------------------


def test_an_unreproduced_new_best_is_held_queued_and_a_maintainers_review_lifts_it() -> None:
    claim = row("Claim", accuracy(0.85, 13), login="bob", landing=2)
    found = decided(ours(0.6), baseline(), claim)
    assert kinds(found, "Claim") == ["unreproduced-best"] and entry(found, "Claim").queued_for_reproduction
    lifted = decided(ours(0.6), baseline(), claim, clearances=[cleared("Claim", "unreproduced-best", boards=[board()])])
    assert kinds(lifted, "Claim") == [] and entry(lifted, "Claim").status == "ranked"


def test_a_reproduction_that_disagrees_holds_the_row() -> None:
    record = RecordFacts(accepted=True, words="40 of 46 sampled items agree", checked=46, agreeing=40)
    found = decided(ours(), baseline(), row("Claim", accuracy(0.5, 14), login="bob", landing=2, record=record))
    assert kinds(found, "Claim") == ["reproduction-disagrees"]


def test_a_custom_prompt_is_held_until_a_maintainer_accepts_it() -> None:
    key = dataclasses.replace(board(), prompt="custom: mine (abcdef)")
    found = decided(ours(), baseline(), row("Prompted", accuracy(0.5, 15), login="bob", key=key))
    assert kinds(found, "Prompted") == ["custom-prompt"]


def test_a_row_under_half_parsed_is_not_ranked_and_says_its_share() -> None:
    terse = [None if i % 5 < 3 else a for i, a in enumerate(accuracy(0.6, 16))]  # 80 of 200 parsed: 40 %
    found = decided(ours(), baseline(), row("Terse", terse, login="bob", landing=2))
    mine = entry(found, "Terse")
    assert mine.status == "unranked" and (mine.why or "").startswith("Too few of its answers parsed (40 %)")


def test_a_row_that_does_not_beat_the_best_baseline_is_not_ranked() -> None:
    found = decided(ours(), baseline(2), row("Constant", constant(2), login="bob", landing=2))
    assert entry(found, "Constant").status == "unranked"
    assert (entry(found, "Constant").why or "").startswith("It does not beat the board's best baseline")


@pytest.mark.parametrize(
    "name",
    [
        "SmolLM2_135M",
        "SmolLM2-135M ",
        "SmolLM2\u00a0135M",
        "SmoILM2-135M",  # a capital I for the l
        "Smo\u0323lLM2-135M",  # a combining dot below
        "SmolLM2-135M\u00a0",  # a trailing no-break space
        "SMOLLM2-135M",
        "Sm\u043elLM2-135M",  # Cyrillic о
        "SmolLM2-135M\u3164",  # HANGUL FILLER (Lo, default ignorable): renders blank
        "SmolLM2\u3164-135M",
        "SmolLM2-135M\uffa0",  # HALFWIDTH HANGUL FILLER
        "SmolLM2-135M\u115f",  # HANGUL CHOSEONG FILLER
        "SmolLM2\u2800-135M",  # BRAILLE PATTERN BLANK (So): a blank glyph
    ],
)
def test_a_look_alike_name_on_another_pin_holds_no_one_and_both_show_their_pin(name: str) -> None:
    first = row("first", accuracy(0.5, 7), login="bob", landing=1, model="SmolLM2-135M")
    second = row("second", accuracy(0.5, 8), login="mallory", landing=2, model=name)
    found = decided(ours(), baseline(), first, second)
    assert kinds(found, "second") == [] and kinds(found, "first") == []
    assert entry(found, "second").pin == "mallory/second" and entry(found, "first").pin == "bob/first"


def test_rows_of_two_accounts_landed_in_one_commit_that_answer_alike_are_both_held_neither_the_copy() -> None:
    honest = accuracy(0.6, 5)
    found = decided(
        ours(),
        baseline(),
        row("One", honest, login="alice", landing=2),
        row("Other", changed(honest, range(0, ITEMS, 40)), login="mallory", landing=2),
    )
    assert kinds(found, "One") == ["answers-alike"] and kinds(found, "Other") == ["answers-alike"]


def test_where_each_model_selects_its_items_an_item_one_row_left_out_is_not_compared() -> None:
    """A cloze test's rows keep the triplets each model selects: a triplet one row left out is no wrong answer
    there (copies.Answered.nulls_wrong False), while on a benchmark of fixed items it is."""
    import numpy as np

    from neghub.leaderboard.copies import Answered, agreement

    ids = tuple(str(i) for i in range(40))
    right = np.array([i % 2 == 0 for i in range(40)])
    codes = np.where(right, 0, 1).astype(np.int32)
    half = codes.copy()
    half[20:] = -1  # the second row answered the first 20 items only
    fixed = agreement(Answered(ids, codes, right), Answered(ids, half, right & (half >= 0)))
    selected = agreement(
        Answered(ids, codes, right, nulls_wrong=False), Answered(ids, half, right & (half >= 0), nulls_wrong=False)
    )
    assert fixed.items == 40 and selected.items == 20


def test_the_pin_of_a_name_that_reads_alike_is_shown_in_the_model_cell() -> None:
    """The pin the rule gives is what the page shows beside the name (page_rows.row_view, the model cell)."""
    from neghub.evaluator.core.registry import get_benchmark
    from neghub.leaderboard.facts import joined
    from neghub.leaderboard.page_rows import row_view

    first = row("first", accuracy(0.5, 7), login="bob", landing=1, model="SmolLM2-135M")
    second = row("second", accuracy(0.5, 8), login="mallory", landing=2, model="Sm\u043elLM2-135M")
    found = decided(ours(), baseline(), first, second)
    display = get_benchmark("jnli-neg").display
    view = row_view(joined(second, entry(found, "second")), display, "../")
    assert (view["model"], view["pin"]) == ("Sm\u043elLM2-135M", "mallory/second")
    assert row_view(joined(ours(), entry(found, "Ours")), display, "../")["pin"] is None
