"""NegHub ranks what it ran (issue 37, rules version 5), tested at `decide` on hand-made facts (tests/rule_facts.py).

A row is ranked only by a figure NegHub computed from its own run's answers: the maintainers' runs, and NegHub's
re-run of a submitted open-weights model (a schema-5 record, whose kept answers the build scores: the row's facts
then carry NegHub's answers, and the submitter's figure as `submitted_headline`). Every other submitted row is
listed with its own figure and its place in the queue, never ranked, never a leader, never a best. The attacks of
issue 37 that still matter are here, each with the figures worked out from the answers the test writes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from neghub.evaluator.core.registry import get_benchmark
from neghub.leaderboard.boards import primary_board
from neghub.leaderboard.facts import RowFacts
from tests.rule_facts import (
    GOLD,
    IDS,
    ITEMS,
    accuracy,
    baseline,
    board,
    changed,
    decided,
    entry,
    kinds,
    paper,
    rerun_record,
    row,
)

NEGHUB = "maintainers"
UNRUN = ("listed",)


def _only_neghubs_rows_rank(found: object) -> None:
    from neghub.leaderboard.board_file import LeaderboardFile

    assert isinstance(found, LeaderboardFile)
    for item in found.rows:
        if item.rank is not None or item.status == "ranked":
            assert item.trust in ("neghub-run", "reproduced"), item
    ran = {item.row for item in found.rows if item.trust in ("neghub-run", "reproduced")}
    for leader in found.leaders:
        assert leader.row is None or leader.row in ran
        assert leader.runner_up is None or leader.runner_up in ran


# --- (a) submitted rows claiming figures above NegHub's run ---------------------------------------------------


def test_no_row_neghub_did_not_run_has_a_rank_a_leader_or_a_best() -> None:
    """Two NegHub runs (62 % and 50 %) and two submitted rows claiming 90 % and 95 %, never run: the claims are
    listed with their figures and queue positions; NegHub's 62 % leads; nothing ranks the claims."""
    found = decided(
        baseline(),
        row("NegHub A", accuracy(0.62, 1), login=NEGHUB, landing=1, pin="neghub/a"),
        row("NegHub B", accuracy(0.50, 2), login=NEGHUB, landing=2, pin="neghub/b"),
        row("Claim One", accuracy(0.90, 3), login="bob", landing=3),
        row("Claim Two", accuracy(0.95, 4), login="carol", landing=4),
    )
    _only_neghubs_rows_rank(found)
    for name, place in (("Claim One", 1), ("Claim Two", 2)):
        claim = entry(found, name)
        assert claim.status == "listed" and claim.rank is None and claim.floor is None
        assert claim.headline is not None and claim.headline > 0.85  # its own figure, shown
        assert f"submitted, not run by NegHub yet: queue position {place}" in (claim.why or "")
        assert claim.queue_position == place
    assert entry(found, "NegHub A").status == "ranked" and entry(found, "NegHub A").rank == (1, 1)
    leader = next(item for item in found.leaders if item.task == "jnli-neg")
    assert leader.row == "NegHub A/primary"
    assert [q.submission for q in found.queue] == ["Claim One", "Claim Two"]
    assert not hasattr(entry(found, "Claim One"), "claimed")


def test_closed_weights_are_listed_and_never_queued() -> None:
    found = decided(baseline(), row("Closed", accuracy(0.9, 3), login="bob", open_weights=False))
    closed = entry(found, "Closed")
    assert closed.status == "listed" and closed.rank is None
    assert closed.why is not None and closed.why.startswith("closed weights: NegHub cannot check this")
    assert found.queue == [] and closed.queue_position is None


# --- (b) NegHub's re-run differs from the submitted answers -----------------------------------------------------


def test_a_rerun_that_differs_ranks_by_neghubs_figure_with_the_difference_marked() -> None:
    """The submitter claimed 90 %; NegHub's re-run of the pin answered 60 % right, 58 items otherwise: the row ranks
    by 60 %, with the submitted 90 % beside it and the difference marked (beyond: same setting allows none)."""
    neghubs = accuracy(0.6, 5)
    value = float(np.mean([a == g for a, g in zip(neghubs, GOLD, strict=True)]))
    found = decided(
        baseline(),
        row("Re-run", neghubs, login="dora", record=rerun_record(58), submitted_headline=0.9),
    )
    rerun = entry(found, "Re-run")
    assert rerun.status == "ranked" and rerun.trust == "reproduced"
    assert rerun.headline == pytest.approx(value) and rerun.submitted_headline == 0.9
    assert f"NegHub's run differs on 58 of {ITEMS} items, beyond the drift its setting allows" in " ".join(rerun.marks)
    assert rerun.holds == []


def test_an_honest_bf16_run_from_other_hardware_ranks_by_neghubs_figure() -> None:
    """NegHub re-ran in its own setting (float32): 3 of 200 answers differ from the submitted bf16 ones, within the
    drift NegHub measured between bfloat16 and float32 (half the items); the row ranks."""
    found = decided(
        baseline(),
        row("Bf16", accuracy(0.6, 5), login="dora", record=rerun_record(3, across=True), submitted_headline=0.61),
    )
    item = entry(found, "Bf16")
    assert item.status == "ranked"
    assert f"differs on 3 of {ITEMS} items, within the drift its setting allows" in " ".join(item.marks)


def test_a_rerun_that_agrees_says_so() -> None:
    found = decided(baseline(), row("Same", accuracy(0.6, 5), login="dora", record=rerun_record(0)))
    assert f"NegHub's run agrees on {ITEMS}/{ITEMS} items" in " ".join(entry(found, "Same").marks)


# --- (c) the attacks of issue 37 that still matter ---------------------------------------------------------------


def test_a_seed_7_row_of_neghubs_pin_changes_no_rank() -> None:
    """@mallory pins NegHub's own model with `seed: 7` and 70 answers moved to gold: listed, NegHub's run untouched."""
    honest = accuracy(0.55, 1)
    wrong = [i for i in range(ITEMS) if honest[i] != int(GOLD[i])][:70]
    doctored = list(honest)
    for i in wrong:
        doctored[i] = int(GOLD[i])
    neghub = row("NegHub Run", honest, login=NEGHUB, landing=1, pin="neghub/model")
    squat = dataclasses.replace(
        row("Seed Seven", doctored, login="mallory", landing=2, pin="neghub/model"), setting={"seed": 7}
    )
    found = decided(baseline(), neghub, squat)
    _only_neghubs_rows_rank(found)
    assert entry(found, "Seed Seven").status == "listed"
    assert entry(found, "NegHub Run").status == "ranked" and entry(found, "NegHub Run").holds == []


def test_a_copy_under_another_seed_ranks_nothing_and_holds_no_one() -> None:
    alice = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Alice", alice, login="alice", landing=1, record=rerun_record()),
        row("Copy", changed(alice, [0, 1, 2]), login="mallory", landing=2, pin="alice/alice"),
    )
    assert entry(found, "Alice").status == "ranked" and entry(found, "Alice").holds == []
    assert entry(found, "Copy").status == "listed" and entry(found, "Copy").rank is None


def test_a_fabricated_row_of_a_new_pin_is_listed_and_queued() -> None:
    found = decided(baseline(), row("Invented", accuracy(0.99, 9), login="mallory", pin="mallory/new-model"))
    made = entry(found, "Invented")
    assert made.status == "listed" and made.rank is None and made.queue_position == 1
    assert found.queue[0].pin == "mallory/new-model" and found.queue[0].account == "@mallory"


def _nubench_row(name: str, value: float, **facts: object) -> RowFacts:
    key = primary_board("nubench")
    assert key is not None and key.is_sample
    display = get_benchmark("nubench").display
    ci = display.headline.ci_path
    assert ci is not None
    ids = tuple(f"nb-{i}" for i in range(46))
    right = np.array([i < round(46 * value) for i in range(46)], dtype=np.float64)
    return RowFacts(
        id=f"{name}/nubench",
        kind="verified",
        task="nubench",
        key=key,
        model=name,
        metrics={display.headline.path: value, f"{ci}.0": 0.92, f"{ci}.1": 1.0, "answers.parsed_share": 1.0},
        submission_id=name,
        headline_items=(ids, right),
        **facts,  # type: ignore[arg-type]
    )


def _table_12_row(model: str, value: float, shots: int) -> RowFacts:
    key = primary_board("nubench")
    assert key is not None
    display = get_benchmark("nubench").display
    paper_key = dataclasses.replace(key, dataset="paper:nubench.txt", is_sample=False, shots=shots, prompt="paper")
    return RowFacts(
        id=f"paper/{model}/{shots}",
        kind="reported",
        task="nubench",
        key=paper_key,
        model=model,
        metrics={display.headline.path: value},
        source="Table 12",
        paper="NUBench",
    )


def test_a_memoriser_on_nubenchs_sample_is_held_above_table_12_and_the_board_names_no_leader() -> None:
    """A model NegHub ran that answers NegHub's 46-item sample perfectly: above Table 12's best on the full test set
    (0.846, 10-shot), so held for a maintainer; and the sample board names no leader, saying why."""
    memoriser = _nubench_row("Memoriser", 1.0, maintainers_run=True)
    found = decided(memoriser, _table_12_row("gpt-4.1-mini", 0.846, 10), _table_12_row("gpt-4.1-mini", 0.797, 0))
    item = found.entries()["Memoriser/nubench"]
    assert [h.kind for h in item.holds] == ["above-published-best"]
    assert "84.6" in item.holds[0].reason and "Table 12" in item.holds[0].reason
    leader = next(item for item in found.leaders if item.task == "nubench")
    assert leader.row is None and "official test set is pinned" in leader.text
    assert "The paper's best: gpt-4.1-mini 79.7" in leader.text  # the same shots (0) on the full set


def test_a_jnli_neg_1_shot_row_trained_on_valid_is_held_above_58_96() -> None:
    """JNLI-Neg's papers ran 0-shot only; a 1-shot board compares with the best published result on the same data
    and split at any number of shots (58.96), so NegHub's re-run of a model trained on valid waits for a person."""
    one_shot = dataclasses.replace(board(), shots=1)
    found = decided(
        paper(0.5896, "LLM-jp-3-13B-instruct"),
        row("Trained", accuracy(0.925, 3), login="mallory", key=one_shot, record=rerun_record()),
    )
    assert kinds(found, "Trained") == ["above-published-best"]
    assert "58.96" in entry(found, "Trained").holds[0].reason


def test_a_placeholder_filled_with_an_honest_rows_answers_holds_nothing() -> None:
    """A placeholder pull request opened first (number 3, forked early), later filled with the honest row's answers
    under its own pin and merged first: its prediction file is a claim NegHub never ran, so the honest row, which
    NegHub re-ran, ranks unheld."""
    honest = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Placeholder", honest, login="mallory", landing=2, forked_at=1, pull_request=3),
        row("Honest", honest, login="hana", landing=3, forked_at=1, pull_request=4, record=rerun_record()),
    )
    assert entry(found, "Honest").status == "ranked" and entry(found, "Honest").holds == []
    assert entry(found, "Placeholder").status == "listed"


def test_a_back_dated_copy_holds_no_honest_row() -> None:
    honest = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Honest", honest, login="hana", landing=2, record=rerun_record()),
        row("Back-dated", changed(honest, [5]), login="mallory", landing=3, forked_at=0, pull_request=1),
    )
    assert entry(found, "Honest").holds == [] and entry(found, "Honest").status == "ranked"


def test_a_front_runner_credits_both_accounts_alphabetically() -> None:
    """@zed lands @amy's pin and answers first: one row, both credited alphabetically, each submission kept."""
    answers = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Front", answers, login="zed", landing=1, pin="amy/model"),
        row("Amy", answers, login="amy", landing=2, pin="amy/model"),
    )
    shown_once = [e for e in found.rows if e.kind == "verified" and e.status != "duplicate"]
    assert len(shown_once) == 1 and shown_once[0].credited == ["@amy", "@zed"]
    assert any("(Amy)" in who or "(Front)" in who for who in shown_once[0].also_submitted_by)


def test_a_rerun_row_is_shown_for_its_answers_over_a_front_runner() -> None:
    answers = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Front", answers, login="zed", landing=1, pin="amy/model"),
        row("Amy", answers, login="amy", landing=2, pin="amy/model", record=rerun_record()),
    )
    assert entry(found, "Front").status == "duplicate" and entry(found, "Front").duplicate_of == "Amy/primary"
    assert entry(found, "Amy").status == "ranked" and entry(found, "Amy").credited == ["@amy", "@zed"]


def test_120_rows_of_one_account_do_not_flood_the_queue() -> None:
    """@flood lands 120 submissions (its own pins) before @bob's one: round robin puts @bob second; @flood's 2-shot
    rows (not a stated few-shot count) are listed, never queued."""
    from neghub.leaderboard.queue import QUEUED_SHOTS

    assert 2 not in QUEUED_SHOTS
    two_shot = dataclasses.replace(board(), shots=2)
    flood = [row(f"F{i:03d}", accuracy(0.5, i), login="flood", landing=i + 1) for i in range(60)]
    flood += [row(f"S{i:03d}", accuracy(0.5, i), login="flood", landing=61 + i, key=two_shot) for i in range(60)]
    found = decided(baseline(), *flood, row("Bob", accuracy(0.5, 999), login="bob", landing=500))
    assert [q.account for q in found.queue[:3]] == ["@flood", "@bob", "@flood"]
    assert entry(found, "Bob").queue_position == 2
    assert len(found.queue) == 61
    assert all(entry(found, f"S{i:03d}").queue_position is None for i in range(60))
    assert [q.position for q in found.queue] == list(range(1, 62))


def test_one_queue_entry_per_pin_and_setting() -> None:
    answers = accuracy(0.6, 1)
    found = decided(
        baseline(),
        row("First", answers, login="ann", landing=1, pin="org/model"),
        row("Second", changed(answers, [1]), login="ben", landing=2, pin="org/model"),
    )
    assert len(found.queue) == 1 and found.queue[0].submission == "First"
    assert entry(found, "Second").queue_position == 1


# --- what stays of the copy rule ----------------------------------------------------------------------------------


def _tuned_on(source: list[int | None], towards: int, away: int) -> list[int | None]:
    """`source`'s answers with `towards` of its wrong answers made right and `away` of its right ones made wrong."""
    out = list(source)
    wrong = [i for i in range(ITEMS) if source[i] != int(GOLD[i])][:towards]
    right = [i for i in range(ITEMS) if source[i] == int(GOLD[i])][:away]
    for i in wrong:
        out[i] = int(GOLD[i])
    for i in right:
        out[i] = (int(GOLD[i]) + 1) % 3
    return out


def test_weights_trained_on_a_ranked_rows_answers_leaning_to_gold_are_held() -> None:
    """Both rows NegHub re-ran, other pins; the later answers as the earlier but 30 items moved to gold and 10 away
    (exact sign test p = 0.002, below 0.01): held for a maintainer's review, naming the earlier row."""
    source = accuracy(0.55, 1)
    found = decided(
        baseline(),
        row("Source", source, login="sam", landing=1, record=rerun_record()),
        row("Tuned", _tuned_on(source, 30, 10), login="tom", landing=2, record=rerun_record()),
    )
    assert kinds(found, "Tuned") == ["near-copy"] and kinds(found, "Source") == []
    assert "30 are right here and wrong there, 10 the other way round" in entry(found, "Tuned").holds[0].reason


def test_two_independent_rows_neghub_ran_are_not_copies() -> None:
    found = decided(
        baseline(),
        row("One", accuracy(0.6, 1), login="sam", landing=1, record=rerun_record()),
        row("Two", accuracy(0.6, 2), login="tom", landing=2, record=rerun_record()),
    )
    assert kinds(found, "One") == [] and kinds(found, "Two") == []


def test_rows_whose_reruns_loaded_the_same_weights_are_one_model_with_both_pins_shown() -> None:
    answers = accuracy(0.6, 1)
    found = decided(
        baseline(),
        row("Orig", answers, login="sam", landing=1, pin="sam/model", record=rerun_record(weights="f" * 64)),
        row("Mirror", answers, login="tom", landing=2, pin="tom/mirror", record=rerun_record(weights="f" * 64)),
    )
    mirror = entry(found, "Mirror")
    assert mirror.status == "duplicate" or "same-weights" in mirror.mark_kinds
    orig = entry(found, "Orig")
    assert orig.credited == ["@sam", "@tom"] or orig.pin == "sam/model"


def test_the_queue_reads_no_submitted_figure() -> None:
    """Two accounts' first entries: the order is landing order, whatever figure each claims."""
    found = decided(
        baseline(),
        row("Low", accuracy(0.4, 1), login="ann", landing=1),
        row("High", accuracy(0.99, 2), login="ben", landing=2),
    )
    assert [q.submission for q in found.queue] == ["Low", "High"]


def test_ids_match_the_items() -> None:
    assert len(IDS) == ITEMS
