"""A row's answers, kept compact, and the answers view's files, made from each run's Result as it is collected.

The leaderboard reads every run's per-item outcomes (Result.items) once, while it collects the submission, and
keeps only what its rules and pages need afterwards: each run's answers as integer codes over the split's item
ids (one tuple of ids shared by every run of the split, one vocabulary of answers for the whole build), and the
files of the answers view. A thousand submissions' Results would not fit in memory together; their codes do.

The answers view is two kinds of gzip-compressed JSON file (GitHub Pages serves them as they are; the page
inflates them): per run, the entries worth reading (the minimal pairs flipped wrongly, the wrong answers, the
answers that did not parse) by item index; per split, the items' texts and gold answers once, under the
dataset's licence, which the file names. A run's file stays a few kilobytes however many runs share a split.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.results import Result

MAX_ENTRIES = 2000  # entries per run in the answers view
_VOCABULARY: dict[Any, int] = {}  # every answer of the build -> its code
_VALUES: list[Any] = []  # code -> answer
_IDS: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple object per distinct list of item ids


@dataclass(frozen=True, eq=False)
class RunAnswers:
    """One run's answers: the items' ids (a tuple shared by the runs of one split) and each answer's code."""

    ids: tuple[str, ...]
    codes: NDArray[np.int32]

    def same_as(self, other: RunAnswers) -> bool:
        return (self.ids is other.ids or self.ids == other.ids) and bool(np.array_equal(self.codes, other.codes))

    def values(self) -> list[Any]:
        return list(map(_VALUES.__getitem__, self.codes.tolist()))

    def __reduce__(self) -> tuple[Any, ...]:
        # codes are this process's: another process (a build's worker hands its rows back) gets the answers and
        # codes them with its own vocabulary
        return (from_values, (self.ids, self.values()))


def intern_ids(ids: tuple[str, ...]) -> tuple[str, ...]:
    """One tuple object (and one string per id) for every equal list of ids of the build."""
    return _IDS.setdefault(ids, ids)


def from_values(ids: tuple[str, ...], values: list[Any]) -> RunAnswers:
    # the new answers coded first, in the order they first appear; then every answer looked up without a Python
    # call per answer (a warm build codes every answer of every run it reads from the score cache: a million)
    for value in dict.fromkeys(values):
        if value not in _VOCABULARY:
            _VOCABULARY[value] = len(_VALUES)
            _VALUES.append(value)
    return RunAnswers(
        intern_ids(ids), np.fromiter(map(_VOCABULARY.__getitem__, values), dtype=np.int32, count=len(values))
    )


def unparsed_code() -> int:
    """The code of an answer that did not parse (-1 while no such answer was coded)."""
    return _VOCABULARY.get(None, -1)


def run_answers(result: Result) -> RunAnswers:
    return from_values(tuple(result.items.ids), result.items.answers)


def same_answers(first: dict[int | None, RunAnswers], second: dict[int | None, RunAnswers]) -> bool:
    """Every run, seed by seed, item by item."""
    return first.keys() == second.keys() and all(first[seed].same_as(second[seed]) for seed in first)


def view_path(sid: str, run_file: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", run_file.removeprefix("predictions/").removesuffix(".jsonl"))
    return f"answers/{sid}/{stem}.json.gz"


def items_path(result: Result) -> str:
    """The shared file of a split's items (texts, gold answers), named by the release and the split."""
    provenance = result.provenance
    digest = provenance.dataset.release_digest[:12] if provenance.dataset is not None else "none"
    split = provenance.split or "all"
    return f"data/items/{provenance.task}-{split}-{digest}.json.gz"


def _gzip_json(payload: dict[str, Any]) -> bytes:
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # level 3: a run's file is a few kilobytes either way, and a build writes thousands of them
    return gzip.compress(text.encode("utf-8"), compresslevel=3, mtime=0)


# per split (its interned tuple of ids, by identity), the row of each id and each pair's two rows: every run of
# the split shares them
_PAIR_ROWS: dict[int, tuple[tuple[str, ...], NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]] = {}


def _pair_rows(ids: tuple[str, ...], result: Result) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    pairs = result.pairs
    assert pairs is not None
    cached = _PAIR_ROWS.get(id(ids))
    if cached is None or cached[0] is not ids or cached[1].size != len(pairs.control):
        row_of = {item: row for row, item in enumerate(ids)}
        control = np.fromiter(map(row_of.__getitem__, pairs.control), dtype=np.int64, count=len(pairs.control))
        treatment = np.fromiter(map(row_of.__getitem__, pairs.treatment), dtype=np.int64, count=len(pairs.treatment))
        cached = _PAIR_ROWS[id(ids)] = (ids, control, treatment, np.array(pairs.important, dtype=np.bool_))
    return cached[1], cached[2], cached[3]


def view_files(result: Result, answers: RunAnswers, model: str, sid: str, run_file: str) -> dict[str, bytes]:
    """The answers view of one run, from its result and its answers as `run_answers` coded them (its split's items
    file is `items_file`): none where the items have no right answer and no pair (a cloze test's triplets)."""
    items = result.items
    if items.correct is None and result.pairs is None:
        return {}
    labels = items.answer_labels
    codes = answers.codes
    unparsed = unparsed_code()
    shown_of: dict[int, str] = {}

    def shown(code: int) -> str:
        text = shown_of.get(code)
        if text is None:
            value = _VALUES[code]
            text = shown_of[code] = "(did not parse)" if value is None else str(labels.get(str(value), value))
        return text

    entries: list[list[Any]] = []
    if result.pairs is not None:
        control, treatment, important = _pair_rows(answers.ids, result)
        answer_c, answer_t = codes[control], codes[treatment]
        both = (answer_c != unparsed) & (answer_t != unparsed)
        same = answer_c == answer_t
        flipped = (("negation ignored", both & important & same), ("distracted", both & ~important & ~same))
        for category, mask in flipped:
            for c, t in zip(control[mask].tolist(), treatment[mask].tolist(), strict=True):
                entries.append([category, [c, t], [shown(int(codes[c])), shown(int(codes[t]))]])
    elif items.correct is not None:
        wrong = ~np.array(items.correct, dtype=np.bool_) & np.array(items.parsed, dtype=np.bool_)
        for row in np.flatnonzero(wrong).tolist():
            text = shown(int(codes[row]))
            entries.append([text, [row], [text]])
    if items.raw_outputs:
        row_of = {item: row for row, item in enumerate(answers.ids)}
        entries += [["did not parse", [row_of[item]], [raw]] for item, raw in items.raw_outputs.items()]
    return {
        view_path(sid, run_file): _gzip_json(
            {
                "model": model,
                "run": run_file,
                "items": items_path(result),
                "entries": entries[:MAX_ENTRIES],
                "more": max(0, len(entries) - MAX_ENTRIES),
            }
        )
    }


def items_file(result: Result) -> bytes:
    """A split's items as the answers view shows them, once per split, with the dataset's licence."""
    items = result.items
    benchmark = get_benchmark(result.provenance.task)
    metadata = benchmark.metadata
    labels = items.answer_labels
    dataset = result.provenance.dataset
    return _gzip_json(
        {
            "dataset": None if dataset is None else f"{dataset.name} {dataset.version}",
            "licence": str(metadata.license),
            "licence_terms": getattr(metadata, "license_terms", None),
            "ids": items.ids,
            "texts": items.texts or [""] * len(items.ids),
            "expected": [
                None if value is None else str(labels.get(str(value), value))
                for value in (items.expected or [None] * len(items.ids))
            ],
        }
    )
