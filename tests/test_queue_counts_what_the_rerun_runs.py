"""A queue entry lists, counts and prices what NegHub's re-run of its submission will run (issue 38 item 4).

`neghub reproduce` re-runs every run of a submission on its benchmark's evaluation split (runners/reproduce.py,
`runs_to_rerun`), not only the runs of the boards that queued it. The walk of the maintainers' path found the
Maintainers page counting 46 items where the re-run ran 92, so its estimate was half the cost. Tested at `decide` on
hand-made facts (tests/rule_facts.py), with prediction files of known length for the page to count.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.leaderboard.facts import RowFacts
from tests.rule_facts import accuracy, baseline, board, decided, row


def _with_runs(made: RowFacts, suffix: str, *files: str, **key: object) -> RowFacts:
    """`made` as another row of its submission: on the board `key` changes, holding the runs `files`."""
    return dataclasses.replace(
        made,
        id=f"{made.submission_id}/{suffix}",
        key=dataclasses.replace(made.key, **key),
        provenance=tuple({"file": f} for f in files),
    )


def test_an_entry_lists_counts_and_prices_every_evaluation_split_run_of_its_submission(tmp_path: Path) -> None:
    """One submission: two seeds on JNLI-Neg's primary board (valid split, 0-shot), a 2-shot run on the valid split
    (not a queued count, so it queues nothing, but the re-run runs it: it is on the evaluation split), and a run on
    the train split (never ranked, never re-run). Each file holds 200 lines. The re-run runs 3 files, 600 items;
    the page's measured rates, 0.35 and 0.64 s an item, make it 600 × 0.35 / 60 = 3.5 (rounds to 4) to
    600 × 0.64 / 60 = 6.4 (6) minutes. Before the fix the entry held the primary board's two files alone: 400."""
    from neghub.leaderboard.maintainers import queue_entries

    primary = dataclasses.replace(
        row("Many", accuracy(0.6, 1), login="alice"),
        provenance=({"file": "p/seed-0.jsonl"}, {"file": "p/seed-1.jsonl"}),
    )
    two_shot = _with_runs(primary, "two-shot", "p/two-shot.jsonl", shots=2)
    train = _with_runs(primary, "train", "p/train.jsonl", split="train")
    assert board().split == "valid" and board().shots == 0  # what the expected counts above assume
    for name in ("seed-0", "seed-1", "two-shot", "train"):
        path = tmp_path / "Many" / "p" / f"{name}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n" * 200, encoding="utf-8")

    found = decided(baseline(), primary, two_shot, train)

    (queued,) = found.queue
    assert queued.runs == ["p/seed-0.jsonl", "p/seed-1.jsonl", "p/two-shot.jsonl"]
    assert queued.boards == [board().slug]  # the boards it could rank on: the primary board alone
    (shown,) = queue_entries(found, tmp_path)
    assert (shown["item_count"], shown["minutes"]) == (600, (4, 6))


@pytest.mark.parametrize("task", benchmark_names())
def test_the_queue_and_neghub_reproduce_choose_the_same_runs(task: str) -> None:
    """The queue's choice (row_figures.on_evaluation_split) and the re-run's (reproduce.runs_to_rerun) agree on a
    run of each benchmark with no split, its evaluation split and another split."""
    from neghub.evaluator.runners.reproduce import runs_to_rerun
    from neghub.leaderboard.row_figures import on_evaluation_split

    evaluation = get_benchmark(task).default_split
    for split in dict.fromkeys([None, evaluation, "train"]):
        metadata = SimpleNamespace(runs=[SimpleNamespace(task=task, split=split, file="run.jsonl")])
        chosen, _ = runs_to_rerun(metadata, None)  # type: ignore[arg-type]
        made = row("One", accuracy(0.6, 1))
        made = dataclasses.replace(made, task=task, key=dataclasses.replace(made.key, task=task, split=split))
        assert on_evaluation_split(made) == bool(chosen), (task, split)
