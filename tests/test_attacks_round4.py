"""Round 4 of attacks on the verdict rules (issue 32's "Done when": attacks against the rules as written, tried as an
attacker would before reading the code's answers). Each test is one attack, on hand-made facts (tests/rule_facts.py),
and asserts what a reader of the leaderboard should see. A test marked `xfail(strict=True, reason="bought: ...")` is
a verdict the attack still buys on the rules as they stand: it fails today, and turns the suite red the day the
rules defeat it (then drop the mark).

JNLI-Neg's primary board, 200 items with seeded gold labels; a row's headline is the share it gets right. The
attacker is @mallory; NegHub's own run is the maintainers' row "Ours". Every κ quoted below is Cohen's κ over right
and wrong (copies.py), worked out by hand from the counts the test writes: κ = (c_obs − c_exp)/(1 − c_exp), standard
error √(c_obs(1 − c_obs)/n)/(1 − c_exp).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from neghub.leaderboard.board_file import LeaderboardFile, LeaderEntry
from neghub.leaderboard.facts import RowFacts
from tests.rule_facts import (
    GOLD,
    ITEMS,
    Answers,
    accuracy,
    agreeing_record,
    baseline,
    board,
    changed,
    cleared,
    decided,
    entry,
    kinds,
    paper,
    row,
)


def ours(share: float = 0.7, seed: int = 1, **kwargs: object) -> RowFacts:
    return row("Ours", accuracy(share, seed), login="maintainers", landing=0, **kwargs)  # type: ignore[arg-type]


def wrong_on(items: Iterable[int]) -> Answers:
    """Right on every item but `items`, where it answers the label after the gold one."""
    wrong = set(items)
    return [int((g + 1) % 3) if i in wrong else int(g) for i, g in enumerate(GOLD)]


def towards_gold(answers: Answers, count: int) -> Answers:
    """`answers` with its first `count` wrong answers replaced by the gold label (a doctored copy)."""
    out = list(answers)
    moved = 0
    for i, g in enumerate(GOLD):
        if moved == count:
            break
        if out[i] != int(g):
            out[i] = int(g)
            moved += 1
    return out


def jnli_leader(found: LeaderboardFile) -> LeaderEntry:
    return next(leader for leader in found.leaders if leader.task == "jnli-neg")


# --- A1: a back-dated fork passes for "open at once" -------------------------------------------------------


def test_a_copy_on_a_branch_forked_from_an_old_main_does_not_hold_the_row_it_copies() -> None:
    """@victim's row lands at position 10. Afterwards @mallory makes a branch from main's commit at position 2 (any
    old commit: `git checkout -b copy <old sha>`), adds @victim's answers under a model of his own with 4 answers
    changed, and it lands at 20. GitHub's three-dot diff shows the new folder alone; git's merge base of the merge
    commit's parents is position 2, so forked_at = 2 < 10. The pull request was opened after @victim landed: the
    copy is the later row. (A placeholder opened before position 10 reads the same in RowFacts: the fix needs when
    the pull request was opened, GitHub's created_at, as a fact beside forked_at.)

    Fixed (copyfix) with git's own record of the order pull requests were opened: their numbers, in GitHub's merge
    subjects. @erin's pull request #12 forked at 11, after @victim's landing, so it was opened after it; the copy's
    number, #14, is larger: opened later still, whatever its fork point says."""
    honest = accuracy(0.6, 11)
    victim = row("Victim", honest, login="victim", landing=10, forked_at=9, pull_request=8)
    witness = row("Other", accuracy(0.5, 12), login="erin", landing=15, forked_at=11, pull_request=12)
    copy = row("Copy", changed(honest, [0, 1, 2, 3]), login="mallory", landing=20, forked_at=2, pull_request=14)
    found = decided(ours(), baseline(), victim, witness, copy)
    assert kinds(found, "Copy") == ["near-copy"]
    assert kinds(found, "Victim") == []
    assert entry(found, "Victim").status == "ranked"


def test_a_back_dated_fork_without_a_later_pull_request_to_date_it_still_reads_as_open_at_once() -> None:
    """What the fix leaves (answer_rules._open_together): with no pull request opened after @victim landed and
    numbered below the copy's, git cannot date the copy's opening, and the fork point decides: both held alike
    (the copy is never made the original, nor ranked). @erin's #16 is numbered above the copy's, so dates nothing."""
    honest = accuracy(0.6, 11)
    victim = row("Victim", honest, login="victim", landing=10, forked_at=9, pull_request=8)
    witness = row("Other", accuracy(0.5, 12), login="erin", landing=15, forked_at=11, pull_request=16)
    copy = row("Copy", changed(honest, [0, 1, 2, 3]), login="mallory", landing=20, forked_at=2, pull_request=14)
    found = decided(ours(), baseline(), victim, witness, copy)
    assert kinds(found, "Copy") == ["answers-alike"] and kinds(found, "Victim") == ["answers-alike"]


# --- A2: a placeholder "open at once" against NegHub's own run ---------------------------------------------


def test_a_placeholder_open_at_once_with_neghubs_run_holds_only_itself() -> None:
    """A placeholder pull request forked at position 3; NegHub's run of the board's best model is pushed at 10
    (forked_at None: a push); @mallory then pushes NegHub's answers, 4 of them changed, into the placeholder, which
    lands at 20 (forked_at 3 < 10: "open at once"). NegHub's run is already settled: it is not held and still
    leads; the placeholder is held."""
    neghub = row("Ours", accuracy(0.7, 1), login="maintainers", landing=10)
    placeholder = row("Placeholder", changed(accuracy(0.7, 1), [0, 1, 2, 3]), login="mallory", landing=20, forked_at=3)
    other = row("Other", accuracy(0.5, 12), login="erin", landing=5)
    found = decided(baseline(), neghub, placeholder, other)
    assert kinds(found, "Ours") == []
    assert entry(found, "Placeholder").status == "held"
    assert jnli_leader(found).row == "Ours/primary"


# --- A3: a mirror pin landed first stands beside the reproduced model it copies -----------------------------


def test_a_mirror_landed_first_does_not_stand_beside_the_reproduced_model_it_copies() -> None:
    """@mallory runs model M himself, re-uploads its weights as mallory/m-mirror (another pin: no dispute), writes
    gold on 10 of its wrong answers, and lands first (position 5). @honest lands M under its real pin at 10; NegHub
    reproduces it (agreeing record). The two rows answer alike on 190 of 200 items: κ far above 0.45. The honest row
    is no copy (the weights give its answers); the mirror answers like NegHub's reproduction of M beyond chance while
    claiming other weights, with 10 answers moved to gold: it must not rank above the model it copies.

    Fixed (copyfix) by the rule that also defeats A13: the later row reproduced, neither is called the copy and both
    are held as answering alike until a maintainer's review. The write-up hoped for more (the honest row not held),
    but the facts cannot tell this mirror from A13's rival: a reproduced row may be weights trained on the earlier
    row's answers, so the earlier is not thereby the copy either. What the attack bought is defeated: the mirror
    stands nowhere and the honest row is not called the copy."""
    honest_answers = accuracy(0.6, 21)
    mirror = row("Mirror", towards_gold(honest_answers, 10), login="mallory", landing=5, pin="mallory/m-mirror")
    honest = row("Honest", honest_answers, login="honest", landing=10, pin="org/m", record=agreeing_record())
    found = decided(ours(0.9, 1), baseline(), mirror, honest)
    assert kinds(found, "Honest") == ["answers-alike"]
    assert kinds(found, "Mirror") == ["answers-alike"]
    assert entry(found, "Mirror").status == "held"


# --- A4: a dispute squatting NegHub's run's pin -------------------------------------------------------------


def test_a_row_squatting_neghubs_pin_is_held_and_neghubs_run_still_leads() -> None:
    """NegHub's run of org/model at 70 %; @mallory pins org/model in the same setting with other answers at 80 %.
    The question is settled by NegHub's run: it is not disputed and leads; the squatter is held for other answers
    than NegHub's run of its own model."""
    neghub = ours(0.7, 1, pin="org/model")
    squatter = row("Squatter", accuracy(0.8, 31), login="mallory", landing=5, pin="org/model")
    lower = row("Lower", accuracy(0.5, 32), login="erin", landing=6)
    found = decided(baseline(), neghub, squatter, lower)
    assert "other-answers-same-model" in kinds(found, "Squatter")
    assert "disputed" not in entry(found, "Ours").mark_kinds
    assert kinds(found, "Ours") == []
    assert jnli_leader(found).row == "Ours/primary"


# --- A6: best-of-N from one account -------------------------------------------------------------------------


def test_one_accounts_two_sets_of_answers_of_one_model_are_both_disputed() -> None:
    """Issue 32 says "two rows of different accounts"; @mallory lands two submissions of org/m in one setting with
    other answers (55 % and 62 %) to keep the better without a mark. One model in one setting with two sets of
    answers is a dispute whoever submitted them."""
    first = row("First", accuracy(0.55, 41), login="mallory", landing=5, pin="org/m")
    second = row("Second", accuracy(0.62, 42), login="mallory", landing=6, pin="org/m")
    found = decided(ours(), baseline(), first, second)
    assert "disputed" in entry(found, "First").mark_kinds
    assert "disputed" in entry(found, "Second").mark_kinds


# --- A8: a copy of a near-ceiling row -----------------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="bought: near the ceiling κ's interval is too wide (lower end 0.08 < 0.45) and no other test looks at the "
    "shared errors; a copy of NegHub's 99 % run keeps a claimed rank 2",
)
def test_a_copy_of_a_near_ceiling_row_is_held() -> None:
    """NegHub's run is right on 198 of 200 items (wrong on items 0 and 1). @mallory copies every answer, its two
    errors included, and turns 3 more right answers wrong (items 2–4): 197 of 200 answers identical. By hand:
    c_obs = 197/200 = 0.985, p = 0.99 and 0.975, c_exp = 0.99·0.975 + 0.01·0.025 = 0.9655, κ = 0.0195/0.0345 = 0.565,
    SE = √(0.985·0.015/200)/0.0345 = 0.249, lower end 0.565 − 1.96·0.249 = 0.077 < 0.45: not a copy by the rule.
    Both of the source's errors kept with the same wrong label (chance: about 1/9 for a 3-label model with 2.5 %
    errors, times the chance of erring there at all) is what a copy shows."""
    neghub = row("Ours", wrong_on([0, 1]), login="maintainers", landing=0)
    copy = row("Copy", wrong_on([0, 1, 2, 3, 4]), login="mallory", landing=5)
    found = decided(baseline(), neghub, copy)
    assert kinds(found, "Copy") == ["near-copy"]


# --- A9: a clearance's scope --------------------------------------------------------------------------------


def _two_boards(share: float = 0.8) -> tuple[RowFacts, RowFacts, RowFacts, RowFacts]:
    """Submission S's rows on the primary board (0-shot) and on a 3-shot board of the same data, both above a
    comparable paper result (60 %) on each board."""
    three_shot = dataclasses.replace(board(), shots=3)
    on_primary = row("S", accuracy(share, 51), login="mallory", landing=5, record=agreeing_record())
    on_other = dataclasses.replace(
        row("S", accuracy(share, 52), login="mallory", landing=5, key=three_shot, record=agreeing_record()),
        id="S/three-shot",
    )
    paper_other = dataclasses.replace(paper(0.6, "Paper 3-shot"), key=three_shot, id="paper/three-shot")
    return on_primary, on_other, paper(0.6), paper_other


def test_a_clearance_reviewed_for_one_board_lifts_nothing_on_another_board() -> None:
    """A maintainer reviews S's row on the primary board (the one the pull request's summary puts first) and clears
    its above-published-best hold; S's 3-shot row is another result above another paper's best, not reviewed."""
    on_primary, on_other, paper_primary, paper_other = _two_boards()
    found = decided(
        ours(), baseline(), paper_primary, paper_other, on_primary, on_other,
        clearances=[cleared("S", "above-published-best", boards=[on_primary.key])],
    )  # fmt: skip
    assert kinds(found, "S") == []
    assert "above-published-best" in [hold.kind for hold in found.entries()["S/three-shot"].holds]


def test_a_clearance_of_a_custom_prompt_lifts_no_above_published_best_hold() -> None:
    """A clearance names the holds it lifts: one for another hold kind lifts nothing of the above-published hold,
    and a reproduction lifts none of it (issue 32, item 3)."""
    on_primary, _, paper_primary, _ = _two_boards()
    found = decided(ours(), baseline(), paper_primary, on_primary, clearances=[cleared("S", "custom-prompt")])
    assert kinds(found, "S") == ["above-published-best"]


# --- A11: flooding the reproduction queue with disputes ------------------------------------------------------


def test_a_dispute_of_rows_that_cannot_rank_queues_no_reproduction() -> None:
    """@mallory pins a large model another account submitted (org/big), with other answers, both rows at or below
    the board's best constant answer: neither would rank, so a reproduction changes no verdict. Done on many pins,
    each queued dispute costs a whole-run GPU reproduction and delays the honest queue."""
    victim = row("Victim", accuracy(0.0, 61), login="victim", landing=5, pin="org/big")  # always the wrong label
    squat = row("Squat", accuracy(0.05, 62), login="mallory", landing=6, pin="org/big")
    found = decided(ours(), baseline(), victim, squat)
    assert "disputed" in entry(found, "Squat").mark_kinds
    assert entry(found, "Squat").status == "unranked"
    assert entry(found, "Victim").status == "unranked"
    assert not entry(found, "Squat").queued_for_reproduction
    assert not entry(found, "Victim").queued_for_reproduction


# --- A12: names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "N\u0435gHub-run",  # Cyrillic small ie for the e
        "\uff2e\uff45\uff47 \uff28\uff55\uff42",  # full width, with a space
        "Neg\u200dHub",  # a zero-width joiner
        "\u039degHub",  # Greek capital nu for the N
        "Neg\u00adHub eval",  # a soft hyphen
        "n e g h u b",
        "\U0001d40d\U0001d41e\U0001d420\U0001d407\U0001d42e\U0001d41b",  # mathematical bold
    ],
)
def test_neghubs_name_in_disguise_is_held(name: str) -> None:
    disguised = row("Disguised", accuracy(0.6, 71), login="mallory", landing=5, model=name)
    found = decided(ours(), baseline(), disguised)
    assert "name-of-another" in kinds(found, "Disguised")


def test_the_leader_line_shows_the_pins_where_names_read_alike() -> None:
    """NegHub's run of HuggingFaceTB/SmolLM2-135M leads; @mallory's fine-tune on mallory/smol, named
    "SmolLM2 135M", is the runner-up (claimed rank). The model cells show both pins (issue 32, item 5); the leader's
    line, which names both rows, must too."""
    neghub = row(
        "Ours", accuracy(0.7, 1), login="maintainers", landing=0, pin="HuggingFaceTB/SmolLM2-135M",
        model="SmolLM2-135M",
    )  # fmt: skip
    alike = row("Alike", accuracy(0.5, 81), login="mallory", landing=5, pin="mallory/smol", model="SmolLM2 135M")
    found = decided(baseline(), neghub, alike)
    assert entry(found, "Alike").pin == "mallory/smol"
    leader = jnli_leader(found)
    assert leader.row == "Ours/primary"
    assert "HuggingFaceTB/SmolLM2-135M" in leader.text
    assert "mallory/smol" in leader.text


def test_names_alike_on_different_boards_show_their_pins() -> None:
    """@mallory's row named like NegHub's run's model sits on another board (3-shot), where NegHub has no row: the
    name there must still show its pin."""
    neghub = row(
        "Ours", accuracy(0.7, 1), login="maintainers", landing=0, pin="HuggingFaceTB/SmolLM2-135M",
        model="SmolLM2-135M",
    )  # fmt: skip
    elsewhere = dataclasses.replace(
        row("Alike", accuracy(0.5, 82), login="mallory", landing=5, pin="mallory/smol", model="SmolLM2_135M",
            key=dataclasses.replace(board(), shots=3)),
        id="Alike/three-shot",
    )  # fmt: skip
    found = decided(baseline(), neghub, elsewhere)
    assert found.entries()["Alike/three-shot"].pin == "mallory/smol"
    assert entry(found, "Ours").pin == "HuggingFaceTB/SmolLM2-135M"


# --- A13: a model trained on a rival's answers, then reproduced ----------------------------------------------


def test_a_reproduced_model_trained_on_a_rivals_answers_is_still_a_copy_and_does_not_lead() -> None:
    """@rival's API model lands at 80 % (NegHub cannot run it: only a maintainer can clear it). @mallory fine-tunes a
    small open model to emit @rival's answers on the 200 items (memorising 200 labels), submits them (4 changed so
    they are not the same answers) and NegHub reproduces it: the weights do give those answers. A reproduction shows
    that, not where the answers came from, as item 3 says of the split's gold labels: the copy stays held (a
    maintainer's review may lift it) and does not lead.

    Fixed (copyfix): a reproduction lifts no copy hold; the later row being reproduced, neither is called the copy
    (the A3 rule), so the hold is 'answers alike' on both rows, not 'near-copy' on the distilled one."""
    rival_answers = accuracy(0.8, 91)
    rival = row("Rival", rival_answers, login="rival", landing=5, pin="openai/gpt-x")
    copy = row("Distilled", changed(rival_answers, [0, 1, 2, 3]), login="mallory", landing=10, record=agreeing_record())
    found = decided(ours(0.7, 1), baseline(), rival, copy)
    assert kinds(found, "Distilled") == ["answers-alike"]
    assert "answers-alike" in kinds(found, "Rival")
    assert jnli_leader(found).row != "Distilled/primary"


# --- sanity of the hand-made facts ---------------------------------------------------------------------------


def test_the_near_ceiling_answers_are_what_the_counts_say() -> None:
    """The counts A8's docstring works from: 198 and 195 right of 200, 197 answers identical."""
    source, copy = wrong_on([0, 1]), wrong_on([0, 1, 2, 3, 4])
    assert sum(a == int(g) for a, g in zip(source, GOLD, strict=True)) == 198
    assert sum(a == int(g) for a, g in zip(copy, GOLD, strict=True)) == 195
    assert sum(a == b for a, b in zip(source, copy, strict=True)) == ITEMS - 3


# --- A14: a batch size of one more, to claim NegHub's own model above NegHub's run ----------------------------

BF16 = {"device": "cuda", "dtype": "bfloat16", "attention": "sdpa", "batch_size": 16}
ONE_MORE = dict(BF16, batch_size=17)  # in 16 bits the batches make another numeric setting (runners/setting.py)


def leaning(answers: Answers, up: int, down: int) -> Answers:
    """`answers` with `up` wrong answers turned to gold and `down` right answers (at odd items) turned wrong."""
    out = list(answers)
    moved_up = moved_down = 0
    for i, g in enumerate(GOLD):
        if out[i] != int(g) and moved_up < up:
            out[i], moved_up = int(g), moved_up + 1
        elif out[i] == int(g) and moved_down < down and i % 2 == 1:
            out[i], moved_down = int((g + 1) % 3), moved_down + 1
    assert (moved_up, moved_down) == (up, down)
    return out


def _batch_hop(up: int, down: int) -> LeaderboardFile:
    """NegHub's run of org/model (bfloat16, batches of 16) and @mallory's row of org/model claimed with batches of 17
    (another setting: no dispute, no other-answers hold; the copy rule's sign test alone), `up` answers moved to gold
    and `down` away. A better model NegHub ran (90 %) keeps the hop from being a new best."""
    base = accuracy(0.6, 1)
    top = row("Top", accuracy(0.9, 5), login="maintainers", landing=0, pin="org/top")
    neghub = row("Ours", base, login="maintainers", landing=1, pin="org/model", setting=BF16)
    hop = row("Hop", leaning(base, up, down), login="mallory", landing=5, pin="org/model", setting=ONE_MORE)
    return decided(baseline(), top, neghub, hop)


def test_a_batch_size_hop_that_only_moves_answers_to_gold_is_a_copy() -> None:
    """12 answers moved to gold, none away: exact two-sided sign test p = 2 · 2⁻¹² = 0.0005 < 0.001: held."""
    # also held for scoring above NegHub's run of its own weights in another setting (the A14 fix): both hold
    assert "near-copy" in kinds(_batch_hop(12, 0), "Hop")


def test_a_batch_size_hop_does_not_rank_above_neghubs_run_of_the_same_model() -> None:
    """30 wrong answers moved to gold, 10 right ones moved away: p = 2 · P(X ≥ 30 | n = 40, ½) = 2 · 0.00111 = 0.0022,
    not below 0.001, so no copy by the rule; the row reads 69.5 against NegHub's 59.5 for the same pinned weights,
    one batch size apart. A change of batch size moves a few answers with no lean (README, "Copies"): 40 of 200
    moved is no rounding. A row of a model NegHub ran, in another setting, must not rank above NegHub's run of it
    until reproduced."""
    found = _batch_hop(30, 10)
    hop, neghub = entry(found, "Hop"), entry(found, "Ours")
    assert hop.status == "held" or (hop.rank is not None and neghub.rank is not None and hop.rank[0] > neghub.rank[0])


def test_a_row_in_another_setting_below_neghubs_run_is_not_held_and_a_reproduction_lifts_one_above() -> None:
    """The A14 rule holds only a figure above NegHub's run of the same weights, and a reproduction settles it: 10
    answers to gold, 30 away (below NegHub's run, p = 0.0022 too) holds nothing; 30 up and 10 down, reproduced, is
    not held and ranks."""
    assert kinds(_batch_hop(10, 30), "Hop") == []
    base = accuracy(0.6, 1)
    neghub = row("Ours", base, login="maintainers", landing=1, pin="org/model", setting=BF16)
    hop = row(
        "Hop",
        leaning(base, 30, 10),
        login="mallory",
        landing=5,
        pin="org/model",
        setting=ONE_MORE,
        record=agreeing_record(),
    )
    found = decided(baseline(), neghub, hop)
    assert kinds(found, "Hop") == []
    assert entry(found, "Hop").status == "ranked"
