"""Every verdict the site prints rests on what NegHub computed or GitHub recorded: the attacks of the evidence issue,
each built as a git history that GitHub could have produced, then one site build read as a reader reads it.

The honest rows are made so that their verdicts are known before the code runs, on the real JNLI-Neg validation
split (../shared; the tests skip without it): each model answers the gold label on a seeded random share of the
instances and the next label after the gold elsewhere, so two models' errors are independent. The constant
answer 'contradiction' is the floor of every board (45.36 % M_i Acc′: 357 of the 787 M_i treatments):

- "Maintained 70" (org/maintained @ 1…1): 70 % right, pushed to main by the maintainers (NegHub's run);
- "Alice 55" (org/alice @ 2…2), @alice's pull request: 55 % right;
- "Bob 57" (org/bob @ 3…3), @bob's pull request: 57 % right.
A community row ranks only once NegHub re-ran it (rules version 5); until then it is listed with its figure. Both
stay below the
best comparable published result (LLM-jp-3-13B-instruct's 58.96, 表2, zero-shot on the same data); NegHub's own run
is above it, which its being NegHub's run clears.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.benchmarks import jnli_neg
from tests.histories import Main, Site, build, clearances_yaml, hub_model, jnli_run, submission

LABELS = jnli_neg.LABELS
Answers = dict[int, str | None]
ROOT = Path(__file__).resolve().parent.parent


def model(split: tuple[list[int], list[str]], share: float, seed: int) -> Answers:
    """Gold on a seeded random `share` of the instances, the next label after the gold elsewhere."""
    rng = random.Random(seed)
    ids, gold = split
    return {i: g if rng.random() < share else LABELS[(LABELS.index(g) + 1) % 3] for i, g in zip(ids, gold, strict=True)}


def changed(
    source: Answers, split: tuple[list[int], list[str]], share: float, towards_gold: bool, seed: int = 7
) -> Answers:
    """`source` with a seeded `share` of its answers changed: to the gold label, or to another label at random."""
    rng = random.Random(seed)
    gold = dict(zip(*split, strict=True))
    out = dict(source)
    for item in rng.sample(sorted(out), round(share * len(out))):
        if towards_gold:
            out[item] = gold[item]
        else:
            out[item] = rng.choice([label for label in LABELS if label != out[item]])
    return out


MAINTAINED = hub_model("Maintained 70", "org/maintained", "1" * 40)
ALICE = hub_model("Alice 55", "org/alice", "2" * 40)
BOB = hub_model("Bob 57", "org/bob", "3" * 40)


MAINTAINED_CLEARANCE = clearances_yaml(
    "maintained",
    ["above-published-best"],
    "neghub-maint",
    "2026-11-28",
    "NegHub's own run of a model whose training data the maintainers checked for the evaluation split",
)


def clearances_with_maintained(submission: str, holds: list[str], why: str) -> str:
    """clearances.yaml with the maintainers' review of NegHub's run (MAINTAINED_CLEARANCE) and one entry more."""
    more = clearances_yaml(submission, holds, "neghub-maint", "2026-11-28", why)
    entries = more.removeprefix("clearances:\n").removesuffix("accepted_prompts: []\n")
    return MAINTAINED_CLEARANCE.replace("accepted_prompts: []\n", entries + "accepted_prompts: []\n")


def push_neghubs_run(main: Main, answers: Answers) -> None:
    """NegHub's run ("Maintained 70"), pushed by the maintainers, and their review of it above the published best."""
    main.push("NegHub's run", submission("maintained", MAINTAINED, "neghub", [jnli_run(answers)]))
    main.push("Clear NegHub's run", {"clearances.yaml": MAINTAINED_CLEARANCE})


def honest_main(
    tmp_path: Path, split: tuple[list[int], list[str]], *, rerun_alice: bool = True
) -> tuple[Main, dict[str, Answers]]:
    """main with NegHub's run (pushed by the maintainers) and Alice's row (her pull request #1, then NegHub's re-run
    of it, a schema-5 record pushed by the maintainers: her row ranks by NegHub's figure). NegHub's run is
    above the best published result (58.96), which only a maintainer's review lifts, even for NegHub's own run: the
    maintainers cleared it (the review a real run above the papers would get)."""
    main = Main.create(tmp_path / "repo")
    answers = {"maintained": model(split, 0.70, 1), "alice": model(split, 0.55, 2), "bob": model(split, 0.57, 3)}
    push_neghubs_run(main, answers["maintained"])
    main.merge(1, "alice", submission("alice-55", ALICE, "alice", [jnli_run(answers["alice"])]))
    if rerun_alice:
        main.push("NegHub's re-run of alice-55", rerun(main, "alice-55"))
    return main, answers


def primary(site: Site) -> dict[str, str]:
    return site.rows("jnli-neg", "valid split · 0-shot · prompt llm-jp-eval · chat template: no")


# --- the honest state -------------------------------------------------------------------------------------


def test_honest_rows_neghubs_run_leads_a_rerun_row_ranks_and_an_unrun_row_is_listed(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, answers = honest_main(tmp_path, split)
    main.merge(2, "bob", submission("bob-57", BOB, "bob", [jnli_run(answers["bob"])]))
    site = build(main.root)
    rows = primary(site)
    assert rows["Maintained 70"].startswith("1 ")
    assert "NegHub's run" in rows["Maintained 70"]
    assert rows["Alice 55"].startswith("2 ") and "re-run by NegHub" in rows["Alice 55"], rows["Alice 55"]
    assert rows["Bob 57"].startswith("submitted, not run by NegHub") and "queue position 1" in rows["Bob 57"]
    leader = site.leader("JNLI-Neg")
    assert leader.startswith("Maintained 70 (run by NegHub)"), leader


# --- copies -------------------------------------------------------------------------------------------------


def test_independent_honest_rows_are_not_held_as_copies(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, _ = honest_main(tmp_path, split)
    for number, seed in enumerate(range(20, 26), start=2):
        other = model(split, 0.6, seed)
        name = f"Independent {seed}"
        main.merge(
            number,
            f"user{seed}",
            submission(f"ind-{seed}", hub_model(name, f"u{seed}/m", f"{seed:040d}"), f"user{seed}", [jnli_run(other)]),
        )
    rows = primary(build(main.root))
    for seed in range(20, 26):
        assert "copy those of" not in rows[f"Independent {seed}"], rows[f"Independent {seed}"]


# --- floors: NegHub's rule rows -------------------------------------------------------------------------------


def test_a_row_that_answers_one_label_everywhere_is_not_ranked(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    constant = dict.fromkeys(split[0], "contradiction")
    main.merge(
        2, "eve", submission("one-label", hub_model("One Label", "eve/one", "9" * 40), "eve", [jnli_run(constant)])
    )
    main.push("NegHub's re-run of one-label", rerun(main, "one-label"))
    rows = primary(build(main.root))
    assert rows["One Label"].startswith("not ranked"), rows["One Label"]
    assert (
        "does not beat the board's best baseline" in rows["One Label"]
        and "Rule: always 'contradiction'" in rows["One Label"]
    )
    assert rows["Rule: always 'contradiction'"].startswith("baseline")


def test_a_submission_of_kind_baseline_is_refused(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, _ = honest_main(tmp_path, split)
    gold = dict(zip(*split, strict=True))
    oracle = {
        "kind": "baseline",
        "name": "Baseline: oracle",
        "baseline": "oracle",
        "parameters": 0,
        "open_weights": True,
        "license": "apache-2.0",
    }
    main.merge(2, "mallory", submission("baseline-oracle", oracle, "mallory", [jnli_run(gold)]))
    site = build(main.root)
    assert "Baseline: oracle" not in site.text("benchmarks/jnli-neg.md")
    assert "baseline-oracle" in site.text("maintainers.md") and "refused" in site.text("maintainers.md")


def test_no_row_on_a_split_that_is_not_the_evaluation_split_is_ranked(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    import os

    train = jnli_neg.load("train", data_dir=Path(os.environ["NEGHUB_DATA_DIR"]))
    answers = {int(i): LABELS[int(g)] for i, g in zip(train.ids, train.gold, strict=True)}
    main = Main.create(tmp_path / "repo")
    main.push("NegHub's run on train", submission("m-train", MAINTAINED, "neghub", [jnli_run(answers, split="train")]))
    rows = build(main.root).rows("jnli-neg", "train split")
    assert rows["Maintained 70"].startswith("not ranked") and "evaluation split" in rows["Maintained 70"]


# --- flooding ---------------------------------------------------------------------------------------------------


def test_flooding_another_board_does_not_move_the_leader(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    main, _ = honest_main(tmp_path, split)
    for number in range(2, 6):
        flood = model(split, 0.66, 40 + number)
        name = f"Sybil {number}"
        files = submission(
            f"sybil-{number}",
            hub_model(name, f"s{number}/m", f"{number:040d}"),
            f"sybil{number}",
            [jnli_run(flood, shots=3)],
        )
        main.merge(number, f"sybil{number}", files)
    site = build(main.root)
    assert site.leader("JNLI-Neg").startswith("Maintained 70 (run by NegHub)")
    # and on their own board no row NegHub did not run is ranked: each is listed, in the queue
    for name, row in site.rows("jnli-neg", "3-shot").items():
        if name.startswith("Sybil"):
            assert row.startswith("submitted, not run by NegHub") and "queue position" in row


def test_an_unrun_row_above_neghubs_run_is_never_named_leader(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(
        2, "mallory", submission("strong", hub_model("Strong", "mallory/s", "a" * 40), "mallory", [jnli_run(strong)])
    )
    site = build(main.root)
    row = primary(site)["Strong"]
    assert row.startswith("submitted, not run by NegHub") and "queue position 1" in row
    leader = site.leader("JNLI-Neg")
    assert leader.startswith("Maintained 70 (run by NegHub)") and "Strong" not in leader


# --- reproductions: bound to content and to the workflow -----------------------------------------------------------


def rerun(main: Main, sid: str, *, differ: int = 0, **extra: Any) -> dict[str, str | bytes | None]:
    """NegHub's re-run of submissions/<sid>'s runs as the gpu-reproduce workflow lands it: a schema-5 record and the
    answers it kept (the submitted ones, the first `differ` of each run changed)."""
    from tests.reproduction_records import landed_rerun

    return dict(landed_rerun(main.root, sid, differ=differ, **extra))


def record(main: Main, sid: str, *, differ: int = 0, checked: int | None = None, **extra: Any) -> str:
    """A record of every item of submissions/<sid>'s runs, as the gpu-reproduce workflow writes it."""
    from tests.reproduction_records import landed_record

    return landed_record(main.root, sid, differ=differ, checked=checked, **extra)


def test_a_reproduction_landed_by_the_workflow_makes_a_row_reproduced_and_first_once_reviewed(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    """Reproduced, a row above every published result still waits for a maintainer's review (the reproduction shows
    the weights give the answers, not that they never saw the split's labels); reviewed, it ranks first and leads."""
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(2, "carol", submission("strong", hub_model("Strong", "carol/s", "a" * 40), "carol", [jnli_run(strong)]))
    main.merge(3, "neghub", rerun(main, "strong"), branch="reproduce/strong")
    row = primary(build(main.root))["Strong"]
    items = len(split[0])  # every item of the run: the record re-ran the whole run
    assert row.startswith("held") and f"NegHub's run agrees on {items}/{items} items" in row
    assert "waits for a maintainer's review" in row
    reviewed = clearances_with_maintained(
        "strong", ["above-published-best"], "trained on no JNLI-Neg data, per its model card and its authors"
    )
    main.push("Review strong", {"clearances.yaml": reviewed})
    site = build(main.root)
    row = primary(site)["Strong"]
    assert row.startswith("1 ") and f"NegHub's run agrees on {items}/{items} items" in row
    assert site.leader("JNLI-Neg").startswith("Strong (re-run by NegHub)")


def test_a_record_from_another_branch_or_beside_other_files_does_not_count(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    files = submission("strong", hub_model("Strong", "mallory/s", "a" * 40), "mallory", [jnli_run(strong)])
    # the record rides in the submission's own pull request, from a fork's branch
    main.merge(2, "mallory", {**files})
    main.merge(3, "mallory", rerun(main, "strong"), branch="reproduce/strong")
    row = primary(build(main.root))["Strong"]
    assert row.startswith("submitted, not run by NegHub") and "does not count" in row


def test_editing_the_reproduced_metadata_withdraws_the_reproduction(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(2, "carol", submission("strong", hub_model("Strong", "carol/s", "a" * 40), "carol", [jnli_run(strong)]))
    main.merge(3, "neghub", rerun(main, "strong"), branch="reproduce/strong")
    text = (main.root / "submissions/strong/metadata.yaml").read_text(encoding="utf-8")
    edited = text.replace("name: Strong", "name: Strong 70B").replace("parameters: 1000000", "parameters: 70000000000")
    main.merge(4, "carol", {"submissions/strong/metadata.yaml": edited})
    site = build(main.root)
    row = primary(site)["Strong 70B"]
    assert "NegHub's run agrees" not in row and "the metadata changed since" in row
    assert row.startswith("submitted, not run by NegHub")


# --- links ----------------------------------------------------------------------------------------------------------


def test_a_submissions_folder_behind_a_link_is_refused(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    from neghub.evaluator.core.errors import InputError

    main, _ = honest_main(tmp_path, split)
    (main.root / "elsewhere").mkdir()
    (main.root / "submissions").rename(main.root / "elsewhere" / "submissions")
    (main.root / "submissions").symlink_to("elsewhere/submissions")
    main.push("Move submissions", {})
    with pytest.raises(InputError, match="symbolic link"):
        build(main.root)


# --- identity and names -----------------------------------------------------------------------------------------------


def test_a_look_alike_name_of_another_accounts_model_holds_no_one_and_both_rows_show_their_pin(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    """Only NegHub's own name is reserved: a name that reads as NegHub's run's name (a Cyrillic а) is no hold; both
    rows show their pinned model. Each look-alike form is tests/test_rules_decide.py's (on decide alone)."""
    main, _ = honest_main(tmp_path, split)
    name = "M\u0430intained 70"
    main.merge(
        2,
        "mallory",
        submission("alike", hub_model(name, "mallory/x", "c" * 40), "mallory", [jnli_run(model(split, 0.5, 70))]),
    )
    site = build(main.root)
    rows = {e["submission"]: e for e in site.file()["rows"] if e["kind"] == "verified"}
    assert "name-of-another" not in [h["kind"] for h in rows["alike"]["holds"]], rows["alike"]
    assert rows["alike"]["pin"] == "mallory/x" and rows["maintained"]["pin"] == "org/maintained"


def test_sybil_accounts_submitting_one_fabrication_are_one_row_without_trust(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main, _ = honest_main(tmp_path, split)
    fake = model(split, 0.65, 80)
    pin = hub_model("Fabricated", "mallory/fab", "d" * 40)
    main.merge(2, "mallory", submission("fab-1", pin, "mallory", [jnli_run(fake)]))
    main.merge(3, "sybil", submission("fab-2", pin, "sybil", [jnli_run(fake)]))
    page = build(main.root)
    rows = primary(page)
    assert "Fabricated #2" not in rows
    assert "also submitted by @sybil (fab-2)" in rows["Fabricated"]
    assert "confirmed" not in rows["Fabricated"] and "reproduced:" not in rows["Fabricated"]


# --- a second SCN row ---------------------------------------------------------------------------------------------


def scn_files(sid: str, name: str, github: str, names: slice, repeat_every: int) -> dict[str, str | bytes | None]:
    """An SCN submission (causal) on its own triplets: the first 20 verbs with each of `names` and 2 professions, in
    every variant; the top-1 repeats the verb in CpTp always, in the other patterns where (verb index) % every."""
    from neghub.evaluator.benchmarks.scn.baselines import prediction_row
    from neghub.evaluator.benchmarks.scn.metadata import PATTERNS, VARIANTS
    from neghub.evaluator.benchmarks.scn.words import load_word_lists

    lists = load_word_lists()
    lines = []
    for variant in VARIANTS:
        for person in (lists.female_names + lists.male_names)[names]:
            for profession in lists.professions[:2]:
                for i, verb in enumerate(lists.verbs[:20]):
                    for pattern in PATTERNS:
                        repeats = pattern == "CpTp" or i % repeat_every == 0
                        top1 = verb if repeats else lists.verbs[(i + 1) % 20]
                        lines.append(json.dumps(prediction_row(person, profession, verb, variant, pattern, top1)))
    run = {"task": "scn", "split": None, "file": "predictions/scn/run.jsonl", "shots": 0, "seed": 0, "prompt": "causal"}
    return submission(sid, hub_model(name, f"{github}/scn", "f" * 40), github, [(run, "\n".join(lines) + "\n")])


def test_a_second_scn_row_on_other_triplets_builds_and_is_compared_on_shared_ones_only(tmp_path: Path) -> None:
    import subprocess
    import sys

    main = Main.create(tmp_path / "repo")
    main.push("NegHub's SCN run", scn_files("scn-neghub", "Causal One", "neghub", slice(0, 4), 3))
    main.merge(1, "carol", scn_files("scn-carol", "Causal Two", "carol", slice(3, 8), 4))
    out = tmp_path / "site"
    env = {
        **__import__("os").environ,
        "NEGHUB_SUBMISSIONS_DIR": str(main.root / "submissions"),
        "NO_MKDOCS_2_WARNING": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    from tests.histories import text_of

    page = text_of((out / "benchmarks" / "scn.html").read_text(encoding="utf-8"))
    assert "Causal One" in page and "Causal Two" in page
