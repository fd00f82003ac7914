"""Round 2 of the attacks on the leaderboard's verdicts: what a pull request can write (file modes, names the checks
skip, submodule entries, model names, pins, metadata, the order pull requests are opened in) against what a reader
should see.

Each test builds a history GitHub could have produced (tests/histories.py). Where the attack goes through a pull
request, the pull-request check (leaderboard/pull_request.py, as submission.yml runs it: the base branch's checkout
and the pull request's checkout side by side, the event's fields) is run first: if it refuses the pull request,
the attack is defeated there; if it passes, the pull request is merged as GitHub merges it and the site is built
and read. Every test asserts what a reader SHOULD see: a test that fails is a verdict an attacker can buy.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.histories import Main, Site, build, git, hub_model, jnli_run, submission
from tests.test_evidence_attacks import (
    ALICE,
    MAINTAINED_CLEARANCE,
    changed,
    clearances_with_maintained,
    honest_main,
    model,
    primary,
    push_neghubs_run,
    rerun,
)

REPOSITORY = "neghub/neghub"
Split = tuple[list[int], list[str]]


# --- a pull request as GitHub and submission.yml see it ------------------------------------------------------------


@dataclass
class PullRequest:
    number: int
    owner: str
    branch: str
    head: str
    base: str
    problems: list[str]  # what the pull-request check refuses (empty: the check passes)
    head_root: Path
    base_root: Path


def open_pull_request(
    main: Main,
    tmp: Path,
    number: int,
    owner: str,
    change: Callable[[Path], None],
    *,
    branch: str | None = None,
    member: bool = False,
    message: str | None = None,
) -> PullRequest:
    """A fork's pull request from OWNER/BRANCH: `change` edits and stages the checkout (on a branch from main's tip),
    one commit; then the check of submission.yml on the base branch's checkout and the pull request's."""
    name = branch or f"pr-{number}"
    git(main.root, "checkout", "-q", "-b", name, "main")
    change(main.root)
    git(main.root, "commit", "-q", "--allow-empty", "-m", message or f"{owner}'s change")
    git(main.root, "checkout", "-q", "main")
    head, base = git(main.root, "rev-parse", name).strip(), main.head()
    base_root, head_root = tmp / f"base-{number}", tmp / f"pull-request-{number}"
    subprocess.run(["git", "clone", "-q", str(main.root), str(base_root)], check=True, timeout=120)
    subprocess.run(["git", "clone", "-q", str(main.root), str(head_root)], check=True, timeout=120)
    git(head_root, "checkout", "-q", head)
    changed_files = len(git(main.root, "diff", "--name-only", f"{base}...{head}").split())
    event = {
        "pull_request": {
            "number": number,
            "user": {"login": owner},
            "author_association": "MEMBER" if member else "CONTRIBUTOR",
            "changed_files": changed_files,
            "head": {"sha": head, "ref": name, "repo": {"full_name": f"{owner}/neghub", "owner": {"login": owner}}},
            "base": {"sha": base, "ref": "main", "repo": {"full_name": REPOSITORY}},
        }
    }
    from neghub.leaderboard.pull_request import all_problems

    problems = all_problems(event, head_root, base_root)
    return PullRequest(number, owner, name, head, base, problems, head_root, base_root)


def land(main: Main, pull: PullRequest) -> str:
    """GitHub's merge button: a merge commit with GitHub's subject."""
    git(
        main.root,
        "merge",
        "-q",
        "--no-ff",
        "-m",
        f"Merge pull request #{pull.number} from {pull.owner}/{pull.branch}",
        pull.branch,
    )
    return main.head()


def stage(root: Path) -> None:
    git(root, "add", "-A")


def chmod(path: str) -> Callable[[Path], None]:
    """A mode-only change: the file's bytes stay, its executable bit is set (git records 100644 -> 100755)."""

    def change(root: Path) -> None:
        os.chmod(root / path, 0o755)
        stage(root)

    return change


def gitlink(path: str) -> Callable[[Path], None]:
    """A submodule entry (mode 160000) at `path`: a checkout without submodules makes it an empty folder."""

    def change(root: Path) -> None:
        commit = git(root, "rev-parse", "HEAD").strip()
        git(root, "update-index", "--add", "--cacheinfo", f"160000,{commit},{path}")

    return change


def write(files: dict[str, str | bytes | None]) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        Main(root)._write(files)
        stage(root)

    return change


def entry(site: Site, sid: str) -> dict[str, Any]:
    (found,) = [e for e in site.file()["rows"] if e["submission"] == sid and e["board"].startswith("jnli-neg")]
    return found


def entries(site: Site, sid: str) -> list[dict[str, Any]]:
    return [e for e in site.file()["rows"] if e["submission"] == sid]


def hold_kinds(row: dict[str, Any]) -> list[str]:
    return [h["kind"] for h in row["holds"]]


# --- 1. landing order: a change the check cannot see moves another account's landing --------------------------------


@pytest.mark.parametrize(
    "attack",
    [
        pytest.param(chmod("submissions/alice-55/predictions/jnli-neg/run.jsonl"), id="mode-only-change"),
        pytest.param(gitlink("submissions/alice-55/predictions/CVS"), id="submodule-named-CVS"),
    ],
)
def test_a_change_to_another_accounts_folder_the_check_cannot_see_does_not_move_its_landing(
    tmp_path: Path, split: Split, attack: Callable[[Path], None]
) -> None:
    """Mallory lands a copy of Alice's answers (held as a copy), then touches Alice's folder in a way the check's
    byte comparison (filecmp: contents only; dircmp: skips CVS, RCS, tags, ...) does not see, but git records: the
    executable bit of Alice's prediction file, or a submodule entry named CVS. Alice's landing would move after
    Mallory's copy, and the copy rule would turn round."""
    main, answers = honest_main(tmp_path, split)
    copy = changed(answers["alice"], split, 0.03, towards_gold=False)
    main.merge(2, "mallory", submission("copy", hub_model("Copy", "mallory/c", "7" * 40), "mallory", [jnli_run(copy)]))
    pull = open_pull_request(main, tmp_path, 3, "mallory", attack)
    if pull.problems:
        return  # defeated: the check refuses a change to a folder another account landed
    land(main, pull)
    site = build(main.root)
    rows = primary(site)
    assert "held" in rows["Copy"] and "copy those of alice-55" in rows["Copy"], rows["Copy"]
    assert "claimed rank" in rows["Alice 55"], rows["Alice 55"]


# --- 2. trust: a mode-only change strips NegHub's run or a reproduction record ---------------------------------------


@pytest.mark.parametrize(
    "target",
    ["submissions/maintained/predictions/jnli-neg/run.jsonl", "reproductions/strong.json"],
    ids=["neghubs-run-file", "reproduction-record"],
)
def test_a_mode_only_change_does_not_strip_neghubs_run_or_a_reproduction(
    tmp_path: Path, split: Split, target: str
) -> None:
    """The leader is NegHub's row (its own run; or Carol's row that the workflow reproduced). Mallory's pull
    request sets the executable bit of its prediction file or of its record: the check compares bytes and passes,
    and git records the change as the file's last landing: a pull request's, not the maintainers' push nor the
    reproduce/ branch."""
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(2, "carol", submission("strong", hub_model("Strong", "carol/s", "a" * 40), "carol", [jnli_run(strong)]))
    main.merge(3, "neghub", rerun(main, "strong"), branch="reproduce/strong")
    pull = open_pull_request(main, tmp_path, 4, "mallory", chmod(target))
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    rows = primary(site)
    assert "NegHub's run" in rows["Maintained 70"], rows["Maintained 70"]
    items = len(split[0])  # the record re-ran every item of the run
    assert f"reproduced: {items}/{items} items agree" in rows["Strong"], rows["Strong"]
    assert site.leader("JNLI-Neg").startswith("Strong (reproduced by NegHub)"), site.leader("JNLI-Neg")


# --- 3. refusal: a file the check does not compare in another account's folder --------------------------------------


@pytest.mark.parametrize("name", ["tags", "CVS", "RCS", "predictions/jnli-neg/__pycache__/x"])
def test_a_file_the_check_skips_cannot_get_another_accounts_row_refused(
    tmp_path: Path, split: Split, name: str
) -> None:
    """Mallory adds `submissions/maintained/<name>` (a name filecmp.dircmp ignores by default). The check sees no
    change to the folder, validates nothing and passes; the build's validator finds an unlisted file and refuses
    NegHub's own run: the leader disappears from the board."""
    main, _ = honest_main(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 2, "mallory", write({f"submissions/maintained/{name}": "x\n"}))
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    assert "Maintained 70" in primary(site)
    assert site.leader("JNLI-Neg").startswith("Maintained 70 (run by NegHub)"), site.leader("JNLI-Neg")


# --- 4. names ---------------------------------------------------------------------------------------------------------


def test_an_earlier_look_alike_name_does_not_hold_neghubs_run_of_the_real_model(tmp_path: Path, split: Split) -> None:
    """Mallory lands "Llama Next" first, pinned to her own repository. NegHub then runs the real model (another pin)
    under its name: the name rule gave the name to the first landing and held NegHub's own run as "reads as
    another account's model". No name is reserved but NegHub's now: both rows show their pins."""
    main, _ = honest_main(tmp_path, split)
    squat = hub_model("Llama Next", "mallory/llama-next", "e" * 40)
    main.merge(2, "mallory", submission("llama-next", squat, "mallory", [jnli_run(model(split, 0.5, 90))]))
    real = hub_model("Llama Next", "org/llama-next", "f" * 40)
    main.push(
        "NegHub's run of org/llama-next",
        submission("llama-next-neghub", real, "neghub", [jnli_run(model(split, 0.72, 91))]),
    )
    site = build(main.root)
    mine = entry(site, "llama-next-neghub")
    assert "name-of-another" not in hold_kinds(mine), mine["holds"]
    # its one hold is the papers' (72 % is above the best published result, which only a maintainer's review lifts)
    assert hold_kinds(mine) == ["above-published-best"], mine["holds"]
    assert mine["pin"] == "org/llama-next" and entry(site, "llama-next")["pin"] == "mallory/llama-next"


# the names padded with blank letters (Hangul fillers, the braille blank) are tests/test_rules_decide.py's now: no
# name but NegHub's is reserved, and a look-alike name on another pin shows both pins (a test of decide alone)


# --- 6. clearances and records keyed by a submission id --------------------------------------------------------------


def test_a_clearance_does_not_cover_predictions_changed_after_it(tmp_path: Path, split: Split) -> None:
    """A maintainer clears Mallory's API row (above the published best and NegHub's run; "the provider's logs
    agree"). Mallory then replaces the predictions with fabricated ones (the gold labels are public): the clearance
    names only a submission id and hold kinds, so it lifts the new content's holds too."""
    main, _ = honest_main(tmp_path, split)
    api = hub_model("API Model", "mallory/api", "9" * 40)
    main.merge(2, "mallory", submission("api-model", api, "mallory", [jnli_run(model(split, 0.75, 96))]))
    clearance = clearances_with_maintained(
        "api-model",
        ["above-published-best"],
        "API model; the provider's logs and a re-run of 200 items agree",
    )
    main.push("Clear api-model", {"clearances.yaml": clearance})
    fabricated = model(split, 0.97, 97)
    pull = open_pull_request(
        main,
        tmp_path,
        3,
        "mallory",
        write({"submissions/api-model/predictions/jnli-neg/run.jsonl": jnli_run(fabricated)[1]}),
    )
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    row = entry(site, "api-model")
    assert row["status"] in ("held", "listed") and row["rank"] is None, row
    assert not site.leader("JNLI-Neg").startswith("no leader: rank 1 is shared by API Model"), site.leader("JNLI-Neg")


def test_a_withdrawn_rows_reproduction_does_not_pass_to_whoever_lands_its_files_again(
    tmp_path: Path, split: Split
) -> None:
    """Carol's row was reproduced by the workflow and leads. Carol withdraws it (her pull request removes her folder;
    it cannot remove the record: only the workflow changes records). Mallory adds a folder of the same id with the
    same files under her own account: metadata_sha256 leaves the submitter out, the sha256s match, and the record
    landed by the workflow: Mallory's row would be reproduced and lead."""
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    pin = hub_model("Strong", "carol/s", "a" * 40)
    main.merge(2, "carol", submission("strong", pin, "carol", [jnli_run(strong)]))
    main.merge(3, "neghub", rerun(main, "strong"), branch="reproduce/strong")
    withdraw = open_pull_request(main, tmp_path, 4, "carol", write({"submissions/strong": None}))
    assert not withdraw.problems, withdraw.problems
    land(main, withdraw)
    pull = open_pull_request(
        main, tmp_path, 5, "mallory", write(submission("strong", pin, "mallory", [jnli_run(strong)]))
    )
    if pull.problems:
        return
    land(main, pull)
    site = build(main.root)
    row = entry(site, "strong")
    assert row["account"] == "@mallory"
    assert row["trust"] != "reproduced", row
    assert not site.leader("JNLI-Neg").startswith("Strong (re-run by NegHub)"), site.leader("JNLI-Neg")


# --- 7. the leader ------------------------------------------------------------------------------------------------


def test_a_fabricated_row_just_below_neghubs_run_does_not_take_the_leader_away(tmp_path: Path, split: Split) -> None:
    """The gold labels of the validation split are public: Mallory fabricates an independent row a little below
    NegHub's run and below the best published result (so neither 'new best' nor 'above the published best' holds
    it), statistically tied with NegHub's run. NegHub's run then no longer ranks 1 alone, and the home page says
    rank 1 is shared by Mallory's unreproduced row: a claim vetoes the leader."""
    main = Main.create(tmp_path / "repo")
    ours = hub_model("Maintained 61", "org/maintained", "1" * 40)
    main.push("NegHub's run", submission("maintained", ours, "neghub", [jnli_run(model(split, 0.61, 1))]))
    main.push("Review NegHub's run", {"clearances.yaml": MAINTAINED_CLEARANCE})  # 61 % is above the papers' best
    main.merge(1, "alice", submission("alice-55", ALICE, "alice", [jnli_run(model(split, 0.55, 2))]))
    main.push("NegHub's re-run of alice-55", rerun(main, "alice-55"))
    before = build(main.root).leader("JNLI-Neg")
    assert before.startswith("Maintained 61 (run by NegHub)"), before  # the set-up: NegHub's run leads
    fabricated = model(split, 0.585, 98)
    main.merge(
        2, "mallory", submission("tie", hub_model("Tie", "mallory/tie", "b" * 40), "mallory", [jnli_run(fabricated)])
    )
    site = build(main.root)
    tie, neghub = entry(site, "tie"), entry(site, "maintained")
    assert tie["headline"] < neghub["headline"] and tie["status"] == "listed", (tie, neghub)  # listed, never ranked
    assert site.leader("JNLI-Neg").startswith("Maintained 61 (run by NegHub)"), site.leader("JNLI-Neg")


# --- 8. the pull-request summary: "opened before" is the number, not when the answers were pushed ------------------


def test_a_placeholder_pull_request_opened_first_does_not_brand_the_source_a_copy(
    tmp_path: Path, split: Split, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mallory opens #10 with junk answers; Alice opens #11 with hers; Mallory force-pushes #10 with a copy of
    Alice's (her pull request's files are public). Alice's summary compares her rows with every open pull request
    opened before hers (a lower number) and tells the maintainers that Alice's row is a near-copy of #10:
    "merge #10 first" (Mallory's summary compares with nothing)."""
    from neghub.evaluator.core.registry import benchmark_names
    from neghub.leaderboard import summary
    from neghub.leaderboard.collect import collect_submission

    main = Main.create(tmp_path / "repo")
    answers = {"maintained": model(split, 0.70, 1), "alice": model(split, 0.55, 2)}
    push_neghubs_run(main, answers["maintained"])
    junk = model(split, 0.34, 99)
    placeholder = submission("mallory-first", hub_model("First", "mallory/f", "c" * 40), "mallory", [jnli_run(junk)])
    opened = open_pull_request(main, tmp_path, 10, "mallory", write(placeholder))
    alice = open_pull_request(
        main, tmp_path, 11, "alice", write(submission("alice-55", ALICE, "alice", [jnli_run(answers["alice"])]))
    )
    # Mallory's force-push to #10: Alice's answers, 2 % changed
    git(main.root, "checkout", "-q", opened.branch)
    copy = changed(answers["alice"], split, 0.02, towards_gold=False)
    write({"submissions/mallory-first/predictions/jnli-neg/run.jsonl": jnli_run(copy)[1]})(main.root)
    git(main.root, "commit", "-q", "-m", "mallory's force-push")
    mallory_head = git(main.root, "rev-parse", "HEAD").strip()
    git(main.root, "checkout", "-q", "main")
    git(main.root, "update-ref", "refs/pull/10/head", mallory_head)
    git(main.root, "update-ref", "refs/pull/11/head", alice.head)

    def api(url: str) -> Any:
        if "page=1" in url:
            return [{"number": 10, "head": {"sha": mallory_head}}, {"number": 11, "head": {"sha": alice.head}}]
        return []

    monkeypatch.setattr(summary, "_api_get", api)
    event = {"pull_request": {"number": 11, "base": {"sha": alice.base, "repo": {"full_name": REPOSITORY}}}}
    rows = collect_submission(alice.head_root / "submissions" / "alice-55", None, benchmark_names()).rows
    lines = summary.open_copies(rows, event, alice.base_root / "submissions", None)
    # rules version 5: a submitted prediction file ranks nothing and is compared with none, so the placeholder
    # brands no one: nothing names Alice's row a copy of #10
    for line in lines:
        assert "near-copy" not in line and "Merge #10 first" not in line, line


# --- defeated: a branch or a commit subject that names the workflow's branch ------------------------------------------


@pytest.mark.parametrize("how", ["fork-branch-named-like-the-workflows", "forged-merge-subject-in-the-branch"])
def test_naming_the_workflows_branch_does_not_land_a_record(tmp_path: Path, split: Split, how: str) -> None:
    """Mallory's record of her own row arrives from her fork's branch `neghub/reproduce/strong` (GitHub writes
    "from mallory/neghub/reproduce/strong"), or in a commit of her branch whose subject is GitHub's merge subject
    naming neghub/reproduce/strong (not on main's first-parent history)."""
    main, _ = honest_main(tmp_path, split)
    strong = model(split, 0.80, 50)
    main.merge(
        2, "mallory", submission("strong", hub_model("Strong", "mallory/s", "a" * 40), "mallory", [jnli_run(strong)])
    )
    files = rerun(main, "strong")
    if how == "fork-branch-named-like-the-workflows":
        pull = open_pull_request(main, tmp_path, 3, "mallory", write(files), branch="neghub/reproduce/strong")
    else:
        pull = open_pull_request(
            main, tmp_path, 3, "mallory", write(files), message="Merge pull request #3 from neghub/reproduce/strong"
        )
    assert pull.problems  # the check refuses a record from anyone but the workflow
    land(main, pull)  # and were it merged all the same, the build does not count it
    row = primary(build(main.root))["Strong"]
    assert row.startswith("submitted, not run by NegHub") and "does not count" in row, row
