"""The rules of leaderboard/verdicts.py one by one, each on a git history and one site build read as a reader reads it.

The rows are made so that their verdicts are known before the code runs, on the real JNLI-Neg validation split
(../shared; the tests skip without it), with tests/test_evidence_attacks.py's models: the gold label on a seeded
random share of the instances, the next label after the gold elsewhere. The floor of every JNLI-Neg board is the
constant answer 'contradiction': the gold label of 357 of the 787 M_i treatments (45.36 %).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.histories import Main, build, hub_model, jnli_primary_slug, jnli_run, submission
from tests.test_evidence_attacks import ALICE, honest_main, model, primary, push_neghubs_run, rerun

PRIMARY = "valid split · 0-shot · prompt llm-jp-eval · chat template: no"


def test_a_ranked_row_beats_the_floor_and_says_by_how_much(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, _ = honest_main(tmp_path, split)
    rows = primary(build(main.root))
    assert "against the best baseline: Rule: always 'contradiction': difference +" in rows["Alice 55"]
    assert "paired 95 % interval [+" in rows["Alice 55"]


def test_the_rule_rows_are_on_every_board_of_the_data_and_the_best_is_the_floor(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, answers = honest_main(tmp_path, split)
    main.merge(2, "alice", submission("alice-3shot", ALICE, "alice", [jnli_run(answers["alice"], shots=3)]))
    site = build(main.root)
    for board in (PRIMARY, "3-shot"):
        rows = site.rows("jnli-neg", board)
        assert rows["Rule: always 'contradiction'"].startswith("baseline"), rows
        assert "45.36" in rows["Rule: always 'contradiction'"]
        assert "33.33" in rows["Rule: random guessing (expected score)"]
    (board,) = [b for b in site.file()["boards"] if b["primary"] and b["task"] == "jnli-neg"]
    assert board["floor"].startswith("rule/rule-always-contradiction/")


def test_a_custom_prompt_is_a_board_of_its_own_and_held(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, answers = honest_main(tmp_path, split)
    main.push(
        "A custom prompt",
        submission(
            "own", hub_model("Prompted", "org/p", "e" * 40), "neghub", [jnli_run(answers["alice"], prompt="my-secret")]
        ),
    )
    rows = build(main.root).rows("jnli-neg", "custom: my-secret")
    assert "held" in rows["Prompted"] and "not one of the benchmark's" in rows["Prompted"]


def test_a_row_under_the_parse_share_is_not_ranked(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, _ = honest_main(tmp_path, split)
    ids, gold = split
    # unparsed where the line number is 0, 1 or 2 mod 5: 272 * 3 + 3 = 819 lines; parsed 544 (39.9 %)
    terse = {i: (None if n % 5 < 3 else g) for n, (i, g) in enumerate(zip(ids, gold, strict=True))}
    main.push("Terse", submission("terse", hub_model("Terse", "org/terse", "8" * 40), "neghub", [jnli_run(terse)]))
    rows = primary(build(main.root))
    assert (
        rows["Terse"].startswith("not ranked")
        and "Too few of its answers parsed (40 %); a row is ranked from 50 %" in rows["Terse"]
    )


def test_a_row_that_cannot_rank_is_told_why_not_held_for_a_reproduction(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    # a board NegHub has run nothing on: a row that could rank would wait for a reproduction, but a reproduction
    # cannot rank a row whose answers did not parse, so the reader is told that instead (as an sdist's build, which
    # has no history and so counts no record, showed: the SmolLM2 row read "held" there and "not ranked" here)
    main = Main.create(tmp_path / "repo")
    ids, gold = split
    # unparsed where the line number is 0, 1 or 2 mod 5, as in the test above: parsed 544 of 1,363 (39.9 %)
    terse = {i: (None if n % 5 < 3 else g) for n, (i, g) in enumerate(zip(ids, gold, strict=True))}
    main.merge(2, "carol", submission("terse", hub_model("Terse", "carol/terse", "8" * 40), "carol", [jnli_run(terse)]))
    main.push("NegHub's re-run of terse", rerun(main, "terse"))  # NegHub ran it: only its conditions are left
    row = primary(build(main.root))["Terse"]
    assert row.startswith("not ranked") and "Too few of its answers parsed (40 %); a row is ranked from 50 %" in row, (
        row
    )
    assert "needs a reproduction" not in row


def test_a_tie_is_said_and_never_broken_by_a_name(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    # two runs of NegHub right on the same instances; where one is wrong the other picks the other wrong label:
    # the same score on every pair, other answers (no duplicate), and the second's name sorts first
    main = Main.create(tmp_path / "repo")
    _, gold = split
    labels = ["entailment", "neutral", "contradiction"]
    right = model(split, 0.55, 1)  # below the best published result (58.96): no maintainer's review needed
    shifted = {
        i: (a if a == g else labels[(labels.index(g) + 2) % 3]) for (i, a), g in zip(right.items(), gold, strict=True)
    }
    main.push("Zeta", submission("zeta", hub_model("Zeta", "org/zeta", "a" * 40), "neghub", [jnli_run(right)]))
    main.push(
        "Aardvark", submission("aard", hub_model("!!! Aardvark", "org/aard", "b" * 40), "neghub", [jnli_run(shifted)])
    )
    site = build(main.root)
    rows = primary(site)
    assert rows["Zeta"].startswith("1–2") and rows["!!! Aardvark"].startswith("1–2")
    assert site.leader("JNLI-Neg").startswith("no leader: rank 1 is shared by !!! Aardvark, Zeta")


def test_one_ranked_row_alone_is_no_leader(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main = Main.create(tmp_path / "repo")
    push_neghubs_run(main, model(split, 0.7, 1))
    leader = build(main.root).leader("JNLI-Neg")
    assert "NegHub has checked one model above the best baseline on this board, Maintained 70" in leader
    assert "a leader needs two to compare" in leader and leader.startswith("The paper's best: ")


def test_a_clearance_counts_as_landed_and_names_who_landed_it(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(2, "carol", submission("strong", hub_model("Strong", "carol/s", "a" * 40), "carol", [jnli_run(strong)]))
    main.push("NegHub's re-run of strong", rerun(main, "strong"))
    entry = (
        "clearances:\n  - submission: strong\n    holds: [above-published-best]\n"
        f"    boards: [{jnli_primary_slug()}]\n"
        "    by: a-maintainer\n"
        '    date: "2026-11-26"\n    why: an API model whose provider re-ran 200 items for us\naccepted_prompts: []\n'
    )
    # written in the tree but not landed: it does not count
    (main.root / "clearances.yaml").write_text(entry, encoding="utf-8")
    assert "held" in primary(build(main.root))["Strong"]
    main.merge(3, "a-maintainer", {"clearances.yaml": entry}, branch="clear-strong")
    row = primary(build(main.root))["Strong"]
    assert row.startswith("1"), row
    assert "lifted by a maintainer's review (@a-maintainer (pull request #3), 2026-11-26): an API model" in row


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"metadata_sha256": "0" * 64}, "the metadata changed since"),
        ({"schema_version": 4}, "kept none of NegHub's answers to score"),
    ],
)
def test_only_a_record_that_kept_neghubs_answers_to_these_files_ranks_a_row(
    tmp_path: Path, split: tuple[list[int], list[str]], change: dict[str, object], words: str
) -> None:
    main, _ = honest_main(tmp_path, split)
    weaker = model(split, 0.50, 50)
    main.merge(2, "carol", submission("weak", hub_model("Weak", "carol/w", "a" * 40), "carol", [jnli_run(weaker)]))
    files = rerun(main, "weak")
    text = json.loads(str(files["reproductions/weak.json"]))
    text.update(change)
    if text["schema_version"] == 4:
        for run in text["runs"]:
            for kept in ("rerun_file", "rerun_sha256", "items_not_in_file", "probe"):
                run.pop(kept, None)
    files["reproductions/weak.json"] = json.dumps(text)
    main.merge(3, "neghub", files, branch="reproduce/weak")
    row = primary(build(main.root))["Weak"]
    assert row.startswith("submitted, not run by NegHub") and words in row, row


def test_a_reproduction_clears_a_hold_but_not_a_custom_prompts(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, answers = honest_main(tmp_path, split)
    files = submission(
        "private", hub_model("Prompted", "carol/p", "e" * 40), "carol", [jnli_run(answers["alice"], prompt="my-secret")]
    )
    main.merge(2, "carol", files)
    main.merge(3, "neghub", rerun(main, "private"), branch="reproduce/private")
    row = build(main.root).rows("jnli-neg", "custom: my-secret")["Prompted"]
    items = len(split[0])  # the record re-ran every item of the run
    assert f"NegHub's run agrees on {items}/{items} items" in row
    assert "held" in row and "not one of the benchmark's" in row
