"""Round 5 of the attacker's tries on the rules (issue 37's "Done when": a helper playing the attacker tries the new
rules as worded, before reading the code). The plan, written from the rules' words alone, is
/work/issues/h9-attack-plan.md (A1-A20); the attacks tests/test_rules_rank_what_neghub_ran.py already holds (seed
games on NegHub's pin, copies under another seed, fabricated rows, NUBench's memoriser, JNLI-Neg 1-shot trained on
valid, the placeholder, the back-dated copy, the front-runner's credit, 120 rows of one account, closed weights) are
not repeated here. Each test asserts what the rules' words promise, at `decide` on hand-made facts
(tests/rule_facts.py), or at the board where the attack is a slug. An attack that still buys its verdict is marked
xfail (strict), with what it buys.
"""

from __future__ import annotations

import dataclasses

import pytest

from neghub.leaderboard.boards import prompt_style
from neghub.leaderboard.names import holds_neghubs_name
from tests.rule_facts import (
    GOLD,
    ITEMS,
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

# --- A9: names that read as NegHub's ------------------------------------------------------------------------------

# letters of category Lo that render as nothing: the Hangul fillers (U+3164 HANGUL FILLER, U+115F HANGUL CHOSEONG
# FILLER, U+1160 HANGUL JUNGSEONG FILLER, U+FFA0 HALFWIDTH HANGUL FILLER); a reader sees "NegHub"
HANGUL_FILLERS = ("\u3164", "\u115f", "\u1160", "\uffa0")


@pytest.mark.parametrize("filler", HANGUL_FILLERS, ids=[f"U+{ord(c):04X}" for c in HANGUL_FILLERS])
def test_a9_a_blank_letter_inside_neghubs_name_is_held(filler: str) -> None:
    """Rule 3: "compared ... through spaces, punctuation and look-alike letters": a letter that draws nothing
    between `Neg` and `Hub` reads "NegHub", so the row is held."""
    name = f"Neg{filler}Hub 7B"
    assert holds_neghubs_name(name)
    found = decided(baseline(), row("Squat", accuracy(0.6, 1), login="mallory", model=name))
    assert kinds(found, "Squat") == ["name-of-another"]


@pytest.mark.parametrize(
    "name",
    [
        "N\u0435gHub",
        "Neg\u200bHub",
        "Neg\u0301Hub",
        "\uff2e\uff45\uff47\uff28\uff55\uff42",
        "\u039degHub",
        "\u1d3a\u1d49\u1d4d\u1d34\u1d58\u1d47",
        "Neg\u2060Hub",
        "NegHu\u0299",
        "Neg\u0640Hub",
    ],
)
def test_a9_other_look_alikes_of_neghubs_name_are_held(name: str) -> None:
    """Cyrillic е, a zero-width space, a combining accent, fullwidth letters, Greek Ν, modifier letters, a word
    joiner, a small capital B, an Arabic tatweel: each reads "NegHub"."""
    assert holds_neghubs_name(name)


# --- A10/A11: the queue -------------------------------------------------------------------------------------------


def test_a10_front_running_an_honest_pin_does_not_send_it_behind_the_flooders_queue() -> None:
    """@flood lands 30 pins of its own, then lands @bob's pin (seen in bob's open pull request) before bob's
    submission lands. The words: round robin over accounts, one entry per pin and setting: bob's only pin is bob's
    first turn, so it is second in the queue, not the flooder's 31st."""
    flood = [row(f"F{i:02d}", accuracy(0.5, i), login="flood", landing=i + 1) for i in range(30)]
    front = row("Front", accuracy(0.5, 77), login="flood", landing=31, pin="bob/model")
    bob = row("Bob", accuracy(0.5, 78), login="bob", landing=32, pin="bob/model")
    found = decided(baseline(), *flood, front, bob)
    assert entry(found, "Bob").queue_position == 2


def test_a11_many_settings_of_one_account_wait_behind_another_accounts_first() -> None:
    """@flood lands one pin in 10 numeric settings, then @bob one row: round robin puts bob second."""
    flood = [
        dataclasses.replace(
            row(f"S{i}", accuracy(0.5, i), login="flood", landing=i + 1, pin="flood/model"),
            numeric_setting=f"cuda float{16 + i}",
        )
        for i in range(10)
    ]
    found = decided(baseline(), *flood, row("Bob", accuracy(0.5, 99), login="bob", landing=20))
    assert len(found.queue) == 11
    assert entry(found, "Bob").queue_position == 2


# --- A14: weights copied to a second pin, landing first -----------------------------------------------------------


def test_a14_a_mirror_of_an_honest_models_weights_landing_first_shows_both_pins() -> None:
    """@mallory copies @sam's public weights to mallory/mirror and lands first; NegHub re-runs both (one
    checksum). Rule 5: "one model under two pins ... both are shown"; rule 6 credits both accounts. The honest
    row is not folded under the mirror's name and pin without its pin shown."""
    answers = accuracy(0.6, 1)
    found = decided(
        baseline(),
        row("Mirror", answers, login="mallory", landing=1, pin="mallory/mirror", record=rerun_record(weights="f" * 64)),
        row("Orig", answers, login="sam", landing=2, pin="sam/model", record=rerun_record(weights="f" * 64)),
    )
    standing = next(e for e in found.rows if e.kind == "verified" and e.status != "duplicate")
    assert standing.credited == ["@mallory", "@sam"]
    shown_pins = " ".join(str(e.pin) for e in found.rows if e.kind == "verified") + " ".join(
        " ".join(e.marks) for e in found.rows if e.kind == "verified"
    )
    assert "sam/model" in shown_pins and "mallory/mirror" in shown_pins


@pytest.mark.xfail(
    strict=True,
    reason="round 5 A14b: a degraded copy of an honest public model, landed first, holds the original as a "
    "near-copy and takes the leader line (the rules cannot tell which of two re-run models copied the other)",
)
def test_a14b_a_degraded_mirror_landed_first_does_not_take_the_leader_from_the_original() -> None:
    """@mallory takes @sam's public model (ranked nowhere yet), perturbs its weights so 30 right answers turn
    wrong, lands that pin first, and NegHub re-runs both: the original now "leans to gold" against the mirror
    (30 right here and wrong there, 0 the other way, p < 0.01). The honest outcome: the original is not held and
    leads; the words of rule 8 ("copy those of the other row, ranked earlier") promise the hold instead."""
    original = accuracy(0.7, 1)
    degraded = list(original)
    for i in [i for i in range(ITEMS) if original[i] == int(GOLD[i])][:30]:
        degraded[i] = (int(GOLD[i]) + 1) % 3
    found = decided(
        baseline(),
        row("Mirror", degraded, login="mallory", landing=1, pin="mallory/mirror", record=rerun_record()),
        row("Orig", original, login="sam", landing=2, pin="sam/model", record=rerun_record()),
    )
    assert kinds(found, "Orig") == []
    leader = next(item for item in found.leaders if item.task == "jnli-neg")
    assert leader.row == "Orig/primary"


# --- A15: a clearance lifting more than it should -----------------------------------------------------------------


def test_a15_a_clearance_of_one_board_lifts_no_hold_on_another() -> None:
    """Rule 9 holds the 1-shot and the 3-shot rows above 58.96; the clearance names the 1-shot board only."""
    one, three = dataclasses.replace(board(), shots=1), dataclasses.replace(board(), shots=3)
    rows = [
        dataclasses.replace(
            row("High", accuracy(0.9, 3), login="mallory", key=key, record=rerun_record()), id=f"High/{key.shots}"
        )
        for key in (one, three)
    ]
    found = decided(
        paper(0.5896, "LLM-jp-3-13B-instruct"),
        *rows,
        clearances=[cleared("High", "above-published-best", boards=[one])],
    )
    entries = found.entries()
    assert entries["High/1"].holds == []
    assert [h.kind for h in entries["High/3"].holds] == ["above-published-best"]


def test_a15_a_clearance_naming_no_board_lifts_only_a_name_hold() -> None:
    found = decided(
        paper(0.5896, "LLM-jp-3-13B-instruct"),
        row("High", accuracy(0.9, 3), login="mallory", record=rerun_record(), model="NegHub-9"),
        clearances=[cleared("High", "above-published-best", "name-of-another")],
    )
    assert kinds(found, "High") == ["above-published-best"]


# --- A16: board slugs --------------------------------------------------------------------------------------------


def test_a16_custom_prompts_that_slug_alike_get_two_boards() -> None:
    keys = [
        dataclasses.replace(board(), prompt=prompt_style("jnli-neg", name, "0" * 64))
        for name in ("neg-cot", "neg_cot", "NEG COT")
    ]
    assert len({k.slug for k in keys}) == 3


# --- A17: a look-alike name to grief an honest row ----------------------------------------------------------------


def test_a17_a_look_alike_name_marks_and_holds_no_honest_row() -> None:
    found = decided(
        baseline(),
        row("Honest", accuracy(0.7, 1), login="hana", landing=1, model="Kumo-7B", record=rerun_record()),
        row("Alike", accuracy(0.6, 2), login="mallory", landing=2, model="Kum0-7B", record=rerun_record()),
        row("Alike2", accuracy(0.6, 3), login="mallory", landing=3, model="Kumo\u20137B", record=rerun_record()),
    )
    honest = entry(found, "Honest")
    assert honest.holds == [] and honest.status == "ranked"


# --- A3/A13/A18: a listed figure read as a best -------------------------------------------------------------------


def test_a18_no_listed_figure_is_named_by_a_leader_line() -> None:
    """A closed model (0.99) and a submitted claim of NegHub's own pin (0.95) above NegHub's runs: the leader line
    names NegHub's row and neither claim."""
    found = decided(
        baseline(),
        row("NegHub A", accuracy(0.62, 1), login="maintainers", landing=1, pin="neghub/a"),
        row("NegHub B", accuracy(0.5, 2), login="maintainers", landing=2, pin="neghub/b"),
        row("Closed", accuracy(0.99, 3), login="bob", landing=3, open_weights=False),
        row("Claim", accuracy(0.95, 4), login="carol", landing=4, pin="neghub/a"),
    )
    leader = next(item for item in found.leaders if item.task == "jnli-neg")
    assert leader.row == "NegHub A/primary"
    assert "Closed" not in leader.text and "Claim" not in leader.text
    for name in ("Closed", "Claim"):
        assert entry(found, name).rank is None and entry(found, name).status == "listed"


def test_a19_an_inflated_file_ranks_by_neghubs_answers() -> None:
    """The submitter's file claims 0.95; NegHub's kept answers are 0.55: rank and leader by 0.55, so an honest row
    at 0.6 leads."""
    found = decided(
        baseline(),
        row(
            "Inflated", accuracy(0.55, 1), login="mallory", landing=1, record=rerun_record(80), submitted_headline=0.95
        ),
        row("Honest", accuracy(0.62, 2), login="hana", landing=2, record=rerun_record()),
    )
    leader = next(item for item in found.leaders if item.task == "jnli-neg")
    assert entry(found, "Inflated").submitted_headline == 0.95
    assert entry(found, "Honest").rank is not None and entry(found, "Honest").rank[0] == 1
    assert leader.row in (None, "Honest/primary")


# --- A8b: a copied file on an honest row's pin, landing after it ------------------------------------------------


def test_a8b_a_copy_of_a_ranked_rows_file_on_its_pin_is_credited_as_the_words_say() -> None:
    """@mallory copies @hana's prediction file onto hana's pin after NegHub re-ran it. Rule 6's words: "the same
    pinned model with the same answer on every item: shown once, there, with everyone who submitted these answers
    credited": the copier is credited on the honest row (what the words promise; the report lists it as the one
    credit a copy still buys), and the row shown is hana's, ranked, with no hold."""
    answers = accuracy(0.7, 1)
    found = decided(
        baseline(),
        row("Hana", answers, login="hana", landing=1, pin="hana/model", record=rerun_record()),
        row("Copy", answers, login="mallory", landing=2, pin="hana/model"),
    )
    hana = entry(found, "Hana")
    assert hana.status == "ranked" and hana.holds == [] and hana.credited == ["@hana", "@mallory"]
    assert entry(found, "Copy").status == "duplicate" and entry(found, "Copy").duplicate_of == "Hana/primary"


# --- A1b: a submitted row of the pin and setting NegHub ran -------------------------------------------------------


def test_a1b_a_row_of_neghubs_own_pin_and_setting_takes_a_queue_turn_but_no_rank() -> None:
    """@mallory submits NegHub's own pin in the setting NegHub ran it, with 70 answers moved to gold: listed, never
    ranked; it does take a queue entry (a re-run would give NegHub's answers again): one turn of @mallory's round,
    so it delays no other account's first entry."""
    setting = "cpu float32"
    honest = accuracy(0.55, 1)
    doctored = list(honest)
    for i in [i for i in range(ITEMS) if honest[i] != int(GOLD[i])][:70]:
        doctored[i] = int(GOLD[i])
    neghub = dataclasses.replace(
        row("NegHub Run", honest, login="maintainers", landing=1, pin="neghub/model"), numeric_setting=setting
    )
    squat = dataclasses.replace(
        row("Squat", doctored, login="mallory", landing=2, pin="neghub/model"), numeric_setting=setting
    )
    found = decided(baseline(), neghub, squat, row("Bob", accuracy(0.5, 9), login="bob", landing=3))
    assert entry(found, "Squat").status == "listed" and entry(found, "Squat").rank is None
    assert entry(found, "NegHub Run").status == "ranked"
    assert entry(found, "Bob").queue_position == 2
