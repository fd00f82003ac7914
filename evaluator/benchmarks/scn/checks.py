"""The checks of a whole SCN prediction file (SPEC §3): no (triplet, pattern) twice, only selected triplets, at most
MAX_VERBS_PER_PAIR verbs per (NAME, PROF), every pattern of every triplet; and, for the leaderboard, only words
from NegHub's lists."""

from __future__ import annotations

import operator
from pathlib import Path

import numpy as np

from ...core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ...fileio.files import read_bytes
from .metadata import PATTERNS
from .reader import MAX_PREDICTION_FILE_BYTES, Predictions, parse_predictions
from .words import WordLists, load_word_lists

MAX_VERBS_PER_PAIR = 20  # the paper keeps at most 20 random verbs per (NAME, PROF) pair and variant


def _triplet_text(key: tuple[str, str, str, str]) -> str:
    name, profession, verb, variant = key
    return f"triplet ({name!r}, {profession!r}, {verb!r}) in variant {variant}"


def check_predictions(predictions: Predictions, *, complete: bool = True) -> list[Problem]:
    """The checks of the whole file (SPEC §3, issue 4 point 3), vectorised over rows:

    - no (triplet, variant, pattern) twice;
    - CpTp's top-1 is the verb (selection keeps only those triplets);
    - at most MAX_VERBS_PER_PAIR verbs per (NAME, PROF, variant);
    - every triplet has all five patterns (only when `complete`: skipped while some lines are
      unreadable, whose triplets would otherwise also be reported incomplete).
    """
    file = predictions.file
    problems: list[Problem] = []
    n_patterns = len(PATTERNS)
    n_triplets = len(predictions.triplet_keys)
    cell = predictions.triplet * n_patterns + predictions.pattern
    per_cell = np.bincount(cell, minlength=n_triplets * n_patterns)
    if (per_cell > 1).any():  # only then is the O(n log n) sort paid, to name the first line of each
        order = np.argsort(cell, kind="stable")  # stable: the first occurrence in the file comes first
        sorted_cell = cell[order]
        repeat = np.flatnonzero(sorted_cell[1:] == sorted_cell[:-1]) + 1
        run_start = np.flatnonzero(np.concatenate(([True], sorted_cell[1:] != sorted_cell[:-1])))
        first_of = run_start[np.searchsorted(run_start, repeat, side="right") - 1]
        for dup, first in zip(repeat.tolist(), first_of.tolist(), strict=True):
            row = int(order[dup])
            key = predictions.triplet_keys[int(predictions.triplet[row])]
            problems.append(
                Problem(
                    file,
                    int(predictions.line[row]),
                    "pattern",
                    f"duplicate prediction for the {_triplet_text(key)}, pattern "
                    f"{PATTERNS[int(predictions.pattern[row])]} (first on line {int(predictions.line[order[first]])})",
                )
            )

    for row in np.flatnonzero((predictions.pattern == 0) & ~predictions.repeated).tolist():
        line = int(predictions.line[row])
        verb = predictions.triplet_keys[int(predictions.triplet[row])][2]
        problems.append(
            Problem(
                file,
                line,
                "top1",
                f"CpTp top-1 is {predictions.cptp_top1[line]!r}, not the verb {verb!r}: the triplet was not "
                "selected (only triplets whose CpTp top-1 is the verb itself are kept; drop it from the file)",
            )
        )

    verbs_per_pair = np.bincount(predictions.triplet_pair, minlength=len(predictions.pair_keys))
    too_many = np.flatnonzero(verbs_per_pair > MAX_VERBS_PER_PAIR)
    if too_many.size:
        # triplets are numbered in the order they first appear, so a stable sort by pair lists each
        # pair's triplets in file order, and position start + 20 is where the 21st verb first appears
        triplets_by_pair = np.argsort(predictions.triplet_pair, kind="stable")
        pair_start = np.concatenate(([0], np.cumsum(verbs_per_pair)[:-1]))
    for pair in too_many.tolist():
        extra_triplet = triplets_by_pair[int(pair_start[pair]) + MAX_VERBS_PER_PAIR]
        line = int(predictions.triplet_first_line[extra_triplet])
        name, profession, variant = predictions.pair_keys[pair]
        problems.append(
            Problem(
                file,
                line,
                "verb",
                f"({name!r}, {profession!r}) in variant {variant} has {int(verbs_per_pair[pair])} verbs "
                f"(at most {MAX_VERBS_PER_PAIR} per name and profession)",
            )
        )

    if complete and n_triplets:
        present = per_cell.reshape(n_triplets, n_patterns) > 0
        for t in np.flatnonzero(~present.all(axis=1)).tolist():
            missing = ", ".join(PATTERNS[p] for p in np.flatnonzero(~present[t]).tolist())
            problems.append(
                Problem(
                    file,
                    int(predictions.triplet_first_line[t]),
                    "pattern",
                    f"{_triplet_text(predictions.triplet_keys[t])} lacks {missing} "
                    f"(every kept triplet needs all of {', '.join(PATTERNS)})",
                )
            )
    return problems


def _sort_key(problem: Problem) -> tuple[int, str, str]:
    return (problem.line or 0, problem.field or "", problem.message)


def load_predictions(path: Path, *, display_name: str | None = None, data: bytes | None = None) -> Predictions:
    """Read and check a prediction file (its `data` where the caller has read it already); every problem is
    raised together (exit code 2 on the command line)."""
    file = display_name or str(path)
    if data is None:
        data = read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES)
    problems = FileProblems()
    try:
        predictions, _ = parse_predictions(data, file, problems)
        problems += check_predictions(predictions, complete=not problems)
    except TooManyProblems:
        raise stopped(file, sorted(problems, key=_sort_key)) from None
    if problems:
        raise InputError(sorted(problems, key=_sort_key))
    return predictions


def check_vocabulary(predictions: Predictions, lists: WordLists | None = None) -> list[Problem]:
    """For the leaderboard: every name, profession and verb must come from NegHub's lists, so rows stay
    comparable. One problem per unknown word, at the first line that uses it."""
    lists = lists or load_word_lists()
    known = {
        "name": set(lists.female_names) | set(lists.male_names),
        "profession": set(lists.articles),
        "verb": set(lists.verbs),
    }
    where = {"name": "female_names.txt / male_names.txt", "profession": "professions.tsv", "verb": "verbs.txt"}
    # the usual answer, every word known, from set differences in C; the per-triplet walk only to place a problem
    if all(
        set(map(operator.itemgetter(i), predictions.triplet_keys)) <= known[field_name]
        for i, field_name in enumerate(("name", "profession", "verb"))
    ):
        return []
    first_line: dict[tuple[str, str], int] = {}
    for key, line in zip(predictions.triplet_keys, predictions.triplet_first_line.tolist(), strict=True):
        for field_name, word in zip(("name", "profession", "verb"), key[:3], strict=True):
            if word not in known[field_name] and (field_name, word) not in first_line:
                first_line[(field_name, word)] = line
    return sorted(
        (
            Problem(
                predictions.file,
                line,
                field_name,
                f"{word!r} is not in NegHub's {where[field_name]} (the leaderboard accepts only NegHub's words)",
            )
            for (field_name, word), line in first_line.items()
        ),
        key=_sort_key,
    )
