"""Hand-made row facts for tests of `verdicts.decide`: no git history, no data, no site build.

Rows sit on JNLI-Neg's primary board (the benchmark's own release, valid split, 0-shot, llm-jp-eval). A row's
answers are label codes on ITEMS items with a seeded gold label; its headline is the share it gets right (each item
one unit of the paired test), with a normal-approximation 95 % interval, so that every figure a test expects can
be worked out by hand from the answers the test wrote.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from neghub.evaluator.core.registry import get_benchmark
from neghub.leaderboard.answers import from_values
from neghub.leaderboard.board_file import HistoryEntry, LeaderboardFile, RowEntry
from neghub.leaderboard.boards import Board, primary_board
from neghub.leaderboard.facts import Account, RecordFacts, RowFacts
from neghub.leaderboard.verdicts import Clearance, Context, decide

TASK = "jnli-neg"
ITEMS = 200
LABELS = ("entailment", "neutral", "contradiction")
IDS = tuple(f"item-{i:03d}" for i in range(ITEMS))
GOLD = np.random.default_rng(7).integers(0, 3, ITEMS)

Answers = list[int | None]  # a label index per item, None: the answer did not parse


def board() -> Board:
    found = primary_board(TASK)
    assert found is not None
    return found


def accuracy(share: float, seed: int) -> Answers:
    """Right on a seeded share of the items; elsewhere the label after the gold one."""
    rng = np.random.default_rng(seed)
    right = rng.random(ITEMS) < share
    return [int(g) if r else int((g + 1) % 3) for g, r in zip(GOLD, right, strict=True)]


def constant(label: int) -> Answers:
    return [label] * ITEMS


def account(login: str) -> Account:
    if login == "maintainers":
        return Account("maintainers", "the maintainers", maintainers=True)
    return Account(f"github:{login}", f"@{login}")


def rerun_record(
    differing: int = 0, *, compared: int = ITEMS, across: bool = False, weights: str | None = None
) -> RecordFacts:
    """An accepted schema-5 record: NegHub re-ran the row's pin and kept its answers, which the build scored (the
    row's answers and figures are then NegHub's: give them to `row`); `differing` of the `compared` items answered
    otherwise in the submitted files; `across`: NegHub ran in its own numeric setting."""
    return RecordFacts(
        accepted=True,
        words="run by NegHub: NegHub re-ran every item of its run (2026-12-01) and scored its own answers",
        checked=compared,
        agreeing=compared,
        rerun=True,
        compared=compared,
        differing=differing,
        across_settings=across,
        weights_sha256=weights,
    )


def _metrics(answers: Answers, ids: Sequence[str]) -> tuple[dict[str, float], np.ndarray]:
    display = get_benchmark(TASK).display
    index = {item: i for i, item in enumerate(IDS)}
    right = np.array([a is not None and a == int(GOLD[index[item]]) for item, a in zip(ids, answers, strict=True)])
    value = float(right.mean())
    half = 1.959964 * math.sqrt(max(value * (1 - value), 1e-9) / len(right))
    ci = display.headline.ci_path
    assert ci is not None
    parsed = sum(a is not None for a in answers) / len(answers)
    return (
        {
            display.headline.path: value,
            f"{ci}.0": max(0.0, value - half),
            f"{ci}.1": min(1.0, value + half),
            "answers.parsed_share": parsed,
        },
        right,
    )


def row(
    name: str,
    answers: Answers,
    *,
    login: str = "alice",
    landing: int | None = 1,
    forked_at: int | None = None,
    pull_request: int | None = None,
    record: RecordFacts | None = None,
    pin: str | None = None,
    ids: Sequence[str] = IDS,
    setting: dict[str, object] | None = None,
    key: Board | None = None,
    model: str | None = None,
    submitted_headline: float | None = None,
    open_weights: bool | None = True,
) -> RowFacts:
    """A submission's row: `name` is its submission id (and its model's name unless `model` gives one); `pin` a
    Hub repo (revision all 'a'), by default one of the submitter's own. A row NegHub re-ran (`record=rerun_record()`)
    takes NegHub's answers here, and the submitter's figure as `submitted_headline`."""
    metrics, right = _metrics(answers, ids)
    repo = pin or f"{login}/{name.lower().replace(' ', '-')}"
    values = [None if a is None else LABELS[a] for a in answers]
    return RowFacts(
        id=f"{name}/primary",
        kind="verified",
        task=TASK,
        key=key or board(),
        model=model or name,
        metrics=metrics,
        submission_id=name,
        account=account(login),
        landing=landing,
        forked_at=forked_at,
        pull_request=pull_request,
        maintainers_run=login == "maintainers",
        record=record,
        open_weights=open_weights,
        submitted_headline=submitted_headline,
        identity=f"hub:{repo.lower()}@{'a' * 40}",
        identity_words=f"{repo} at revision {'a' * 12}…",
        setting_fields=dict(setting or {}),
        headline_items=(tuple(ids), right.astype(np.float64)),
        answers={None: from_values(tuple(ids), values)},
        correct=right,
    )


def baseline(label: int = 2) -> RowFacts:
    """The constant answer `label` as NegHub computes it: a baseline of the board."""
    answers = constant(label)
    metrics, right = _metrics(answers, IDS)
    return RowFacts(
        id=f"rule/always-{label}/primary",
        kind="reference",
        task=TASK,
        key=board(),
        model=f"Rule: always {LABELS[label]!r}",
        metrics=metrics,
        headline_items=(IDS, right.astype(np.float64)),
        rule=f"always {LABELS[label]}",
    )


def paper(value: float, name: str = "Paper Model") -> RowFacts:
    """A paper's result on the same data, split, shots and fine-tuning (comparable with the board)."""
    display = get_benchmark(TASK).display
    return RowFacts(
        id=f"paper/{name}",
        kind="reported",
        task=TASK,
        key=board(),
        model=name,
        metrics={display.headline.path: value},
        source="Table 2",
        paper="A paper",
    )


def cleared(submission: str, *holds: str, boards: Sequence[Board] = ()) -> Clearance:
    """A maintainer's clearance of `holds` of `submission`, on the `boards` reviewed (none named: only the
    submission-wide holds lift)."""
    return Clearance(
        submission,
        tuple(holds),  # type: ignore[arg-type]
        "@a-maintainer",
        "2026-11-28",
        "reviewed",
        tuple(b.slug for b in boards),
    )


def decided(*rows: RowFacts, clearances: Sequence[Clearance] = ()) -> LeaderboardFile:
    history = HistoryEntry(recorded=True, words="main's history as GitHub recorded it")
    return decide(list(rows), Context(history=history, clearances=tuple(clearances)))


def entry(found: LeaderboardFile, name: str) -> RowEntry:
    return found.entries()[f"{name}/primary"]


def kinds(found: LeaderboardFile, name: str) -> list[str]:
    return [hold.kind for hold in entry(found, name).holds]


def changed(answers: Answers, items: Sequence[int]) -> Answers:
    """`answers` with the answer of each of `items` moved to the next label."""
    out = list(answers)
    for i in items:
        value = out[i]
        out[i] = 0 if value is None else (value + 1) % 3
    return out
