"""Round 4 of attacks on the verdict rules (issue 32's "Done when": attacks against the rules as written, tried as an
attacker would before reading the code's answers). Each test is one attack, on hand-made facts (tests/rule_facts.py),
and asserts what a reader of the leaderboard should see. A test marked `xfail(strict=True, reason="bought: ...")` is
a verdict the attack still buys on the rules as they stand: it fails today, and turns the suite red the day the
rules defeat it (then drop the mark).

JNLI-Neg's primary board, 200 items with seeded gold labels; a row's headline is the share it gets right. The
attacker is @mallory; NegHub's own run is the maintainers' row "Ours". Every κ quoted below is Cohen's κ over right
and wrong (copies.py), worked out by hand from the counts the test writes: κ = (c_obs − c_exp)/(1 − c_exp), standard
error √(c_obs(1 − c_obs)/n)/(1 − c_exp).

Rules version 5 (issue 37) ranks only rows NegHub ran: the attacks on claimed ranks (A1–A4, A6, A8, A11, A13 and the
copy half of A14) buy nothing there, and their tests went with the rules they tested (answers-alike, disputed,
other-answers-same-model, unreproduced-best); tests/test_rules_rank_what_neghub_ran.py tries them again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from neghub.leaderboard.board_file import LeaderboardFile, LeaderEntry
from neghub.leaderboard.facts import RowFacts
from tests.rule_facts import (
    GOLD,
    Answers,
    accuracy,
    baseline,
    board,
    cleared,
    decided,
    entry,
    kinds,
    paper,
    rerun_record,
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


# --- A9: a clearance's scope --------------------------------------------------------------------------------


def _two_boards(share: float = 0.8) -> tuple[RowFacts, RowFacts, RowFacts, RowFacts]:
    """Submission S's rows on the primary board (0-shot) and on a 3-shot board of the same data, both above a
    comparable paper result (60 %) on each board."""
    three_shot = dataclasses.replace(board(), shots=3)
    on_primary = row("S", accuracy(share, 51), login="mallory", landing=5, record=rerun_record())
    on_other = dataclasses.replace(
        row("S", accuracy(share, 52), login="mallory", landing=5, key=three_shot, record=rerun_record()),
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
    "SmolLM2 135M", which NegHub re-ran, is the runner-up. The model cells show both pins (issue 32, item 5); the
    leader's line, which names both rows, must too."""
    neghub = row(
        "Ours", accuracy(0.7, 1), login="maintainers", landing=0, pin="HuggingFaceTB/SmolLM2-135M",
        model="SmolLM2-135M",
    )  # fmt: skip
    alike = row(
        "Alike", accuracy(0.5, 81), login="mallory", landing=5, pin="mallory/smol", model="SmolLM2 135M",
        record=rerun_record(),
    )  # fmt: skip
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
        record=rerun_record(),
    )
    found = decided(baseline(), neghub, hop)
    assert kinds(found, "Hop") == []
    assert entry(found, "Hop").status == "ranked"
