"""Each rule of verdicts.RULES that rules version 5 keeps, and each attack of issue 32 on them that still matters, as
a test of `decide` on hand-made facts (tests/rule_facts.py): the hold kind or the mark a row gets, worked out from
the answers each test writes. Only rows NegHub ran are ranked, so a test of a ranking rule gives its row NegHub's
re-run (`rerun_record`); the rules of issue 37 are in tests/test_rules_rank_what_neghub_ran.py.

JNLI-Neg's primary board, 200 items with seeded gold labels; a row's headline is the share of items it gets right.
NegHub's own run ("Ours", the maintainers') is at 70 % unless a test says otherwise.
"""

from __future__ import annotations

import dataclasses

import pytest

from neghub.leaderboard.facts import RowFacts
from tests.rule_facts import (
    ITEMS,
    accuracy,
    baseline,
    board,
    cleared,
    constant,
    decided,
    entry,
    kinds,
    paper,
    rerun_record,
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
    tuned = row("Tuned", accuracy(0.9, 2), login="mallory", landing=2, record=rerun_record())
    lower = row(
        "Lower", accuracy(0.42, 30), login="erin", landing=3, record=rerun_record()
    )  # a second ranked row: a leader needs two
    found = decided(ours(0.58), baseline(), paper(0.60), tuned, lower)
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


def test_two_rows_that_answered_nothing_are_not_copies() -> None:
    nothing: list[int | None] = [None] * ITEMS
    found = decided(
        ours(),
        baseline(),
        row("Empty A", nothing, login="bob", landing=2, record=rerun_record()),
        row("Empty B", nothing, login="carol", record=rerun_record()),
    )
    assert "near-copy" not in kinds(found, "Empty B")


def test_independent_rows_are_not_copies() -> None:
    found = decided(
        ours(),
        baseline(),
        row("One", accuracy(0.6, 11), login="bob", landing=2, record=rerun_record()),
        row("Two", accuracy(0.6, 12), login="carol", landing=3, record=rerun_record()),
    )
    assert kinds(found, "Two") == [] and kinds(found, "One") == []


# --- the other holds and the ranking conditions ----------------------------------------------------------------


def test_a_custom_prompt_is_held_until_a_maintainer_accepts_it() -> None:
    key = dataclasses.replace(board(), prompt="custom: mine (abcdef)")
    found = decided(ours(), baseline(), row("Prompted", accuracy(0.5, 15), login="bob", key=key, record=rerun_record()))
    assert kinds(found, "Prompted") == ["custom-prompt"]


def test_a_row_under_half_parsed_is_not_ranked_and_says_its_share() -> None:
    terse = [None if i % 5 < 3 else a for i, a in enumerate(accuracy(0.6, 16))]  # 80 of 200 parsed: 40 %
    found = decided(ours(), baseline(), row("Terse", terse, login="bob", landing=2, record=rerun_record()))
    mine = entry(found, "Terse")
    assert mine.status == "unranked" and (mine.why or "").startswith("Too few of its answers parsed (40 %)")


def test_a_row_that_does_not_beat_the_best_baseline_is_not_ranked() -> None:
    found = decided(ours(), baseline(2), row("Constant", constant(2), login="bob", landing=2, record=rerun_record()))
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
