"""Board slugs that cannot collide (issue 37, item 5).

A slug names a board's page anchor, its `data/<slug>.csv` and every row id ("<submission>/<slug>"): two boards
with one slug would write one file, the later board's rows replacing the earlier's. A custom prompt's name is
free text a submitter writes, and `_slug` folds case and punctuation, so `neg-cot` and `neg_cot` (with the same
prompt text, so the same sha256) were one slug on main. A custom prompt's board now gains a short hash of its full
key; every other board keeps the slug it has today (clearances.yaml and published links name them). Two boards or
two rows with one id anywhere else fail the build with both named.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from neghub.leaderboard.boards import Board, SlugCollision, check_unique_ids, verified_board
from neghub.leaderboard.facts import RowFacts

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NEGHUB_DATA_DIR", ROOT.parent / "shared" / "datasets"))

# the slugs of every board today's repository builds (its submission, the rule rows and the papers' tables), as
# main wrote them before this change: clearances.yaml and published links name these
TODAYS_SLUGS = {
    "jnli-neg--valid--0shot--llm-jp-eval--jnli-neg-1-1-da30782abc73--chat-yes",
    "jnli-neg--valid--0shot--llm-jp-eval-loglikelihood--jnli-neg-1-1-da30782abc73--chat-yes",
    "jnli-neg--valid--0shot--paper--jnli-neg-1-1-da30782abc73",
    "jnli-neg--valid--paper--finetuned--jnli-neg-1-1-da30782abc73--on-d-jnli-d-neg--runs-not-stated",
    "jnli-neg--valid--paper--finetuned--jnli-neg-1-1-da30782abc73--on-d-jnli-jnli-train--5seeds",
    "jnli-neg--valid--paper--jnli-neg-1-1-da30782abc73",
    "jsts-neg--test--0shot--paper--paper-jsts-neg-txt",
    "jsts-neg--test--11shot--paper--paper-jsts-neg-txt--5seeds",
    "jsts-neg--test--4shot--paper--paper-jsts-neg-txt--5seeds",
    "nubench--test--completion--0shot--detail--paper-nubench-txt",
    "nubench--test--completion--0shot--simple--nubench-neghub-sample-1-70d8cb635fef",
    "nubench--test--completion--0shot--simple--paper-nubench-txt",
    "nubench--test--completion--0shot--simple--paper-nubench-txt--error-analysis",
    "nubench--test--completion--10shot--simple--paper-nubench-txt--5seeds",
    "nubench--test--completion--1shot--detail--paper-nubench-txt--5seeds",
    "nubench--test--completion--5shot--simple--paper-nubench-txt--error-analysis",
    "nubench--test--option--0shot--simple--nubench-neghub-sample-1-70d8cb635fef",
    "nubench--test--option--0shot--simple--finetuned--paper-nubench-txt--on-nubench-sentence-negation-train-lora-"
    "sft-llama-factory",
    "nubench--test--option--10shot--detail--paper-nubench-txt--5seeds",
    "scn--all--causal--scn-neghub-1-dd51e766745f",
    "scn--all--paper--paper-self-contained-neg-test-txt",
    "scn--all--paper--paper-self-contained-neg-test-txt--co-reference-controls",
    "scn--all--paper--paper-self-contained-neg-test-txt--gh22-replication",
}


def custom(prompt: str, sha256: str | None = "ab" * 32) -> Board:
    return verified_board(
        "jnli-neg",
        dataset=("JNLI-Neg v1.1 da30782abc73", "JNLI-Neg v1.1"),
        is_sample=False,
        split="valid",
        mode=None,
        shots=0,
        prompt=prompt,
        chat_template=False,
        fine_tuned=False,
        prompt_sha256=sha256,
    )


def test_custom_prompts_whose_names_differ_by_punctuation_get_two_slugs() -> None:
    dash, underscore = custom("neg-cot"), custom("neg_cot")
    assert dash != underscore
    assert dash.slug != underscore.slug


def test_custom_prompts_without_a_recorded_sha256_get_two_slugs() -> None:
    assert custom("Neg CoT", None).slug != custom("neg-cot", None).slug


def test_a_custom_prompts_slug_is_the_same_in_every_build() -> None:
    """The hash is of the board's key alone, never of which other boards a build holds: a slug that changed when
    another board landed would break its links and its clearances."""
    assert custom("neg-cot").slug == custom("neg-cot").slug
    assert custom("neg-cot").slug.startswith("jnli-neg--valid--0shot--custom-neg-cot-sha256-abababababab--")


def test_todays_boards_keep_their_slugs() -> None:
    if not (DATA / "jnli-neg").is_dir():
        pytest.skip(f"JNLI-Neg's release is not at {DATA}")
    from neghub.leaderboard.collect import collect

    os.environ.setdefault("NEGHUB_DATA_DIR", str(DATA))
    slugs = {row.key.slug for row in collect(ROOT / "submissions").facts}
    assert TODAYS_SLUGS - slugs == set()


def _row(row_id: str, key: Board, submission: str = "s") -> RowFacts:
    return RowFacts(id=row_id, kind="verified", task=key.task, key=key, model="m", metrics={}, submission_id=submission)


def test_two_boards_with_one_slug_fail_with_both_named() -> None:
    first = custom("llm-jp-eval")  # a style the benchmark declares: no hash
    # a board whose slug a maintainer's data made equal to another's (today only a custom prompt's name is free
    # text; any other collision is a mistake in a paper's table or a benchmark's declared settings)
    second = dataclasses.replace(first, dataset_label="JNLI-Neg v1.1, another label")
    assert first.slug == second.slug
    with pytest.raises(SlugCollision) as raised:
        check_unique_ids([_row("a/x", first, "a"), _row("b/y", second, "b")])
    message = str(raised.value)
    assert "\n" not in message
    assert first.title in message and second.title in message
    assert first.slug in message


def test_two_rows_with_one_id_fail_with_both_named() -> None:
    key = custom("neg-cot")
    with pytest.raises(SlugCollision) as raised:
        check_unique_ids([_row("dup/x", key, "first"), _row("dup/x", key, "second")])
    message = str(raised.value)
    assert "dup/x" in message and "first" in message and "second" in message
    assert "\n" not in message


def test_distinct_boards_and_rows_pass() -> None:
    check_unique_ids([_row("a/x", custom("neg-cot"), "a"), _row("a/y", custom("neg_cot"), "a")])


def test_the_hook_turns_a_collision_into_one_line_and_exit_2(tmp_path: Path) -> None:
    """What `mkdocs build` prints: one line naming both, exit code 2, no traceback (the hook's error class)."""
    script = (
        "import sys\n"
        "from neghub.leaderboard.boards import SlugCollision\n"
        "from neghub.leaderboard.mkdocs_hooks import BuildRefused\n"
        "try:\n"
        "    raise SlugCollision('two boards share the slug x: A and B')\n"
        "except SlugCollision as error:\n"
        "    refused = BuildRefused(str(error))\n"
        "refused.show()\n"
        "sys.exit(refused.exit_code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert [line for line in (done.stderr + done.stdout).splitlines() if line] == [
        "two boards share the slug x: A and B"
    ]


def test_neg_cot_and_neg_under_cot_are_two_boards_two_tables_two_files(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    """The issue's case at the build: two submissions whose custom prompts are `neg-cot` and `neg_cot` (no
    sha256 recorded: the same board words but for the name). On main the later board replaced the earlier on its
    page and in data/<slug>.csv."""
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.exports import files
    from tests.histories import hub_model, jnli_run, submission

    ids, gold = split
    answers = dict(zip(ids, gold, strict=True))
    subs = tmp_path / "submissions"
    for sid, prompt in (("first", "neg-cot"), ("second", "neg_cot")):
        folder = submission(
            sid, hub_model(sid.title(), f"org/{sid}", "e" * 40), sid, [jnli_run(answers, prompt=prompt)]
        )
        for path, text in folder.items():
            target = tmp_path / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(text), encoding="utf-8")
    board = collect(subs, reported=False)
    tables = board.tables()
    custom_boards = [key for key in tables if key.is_custom_prompt]
    assert sorted(key.prompt.split(" (")[0] for key in custom_boards) == ["custom: neg-cot", "custom: neg_cot"]
    assert len({key.slug for key in custom_boards}) == 2
    written = files(board, tables)
    for key in custom_boards:
        data = written[f"data/{key.slug}.csv"]
        assert isinstance(data, bytes)
        text = data.decode("utf-8")
        mine, other = ("First", "Second") if "neg-cot" in key.prompt else ("Second", "First")
        assert f",{mine}," in text and f",{other}," not in text
