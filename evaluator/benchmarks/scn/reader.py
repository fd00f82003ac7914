"""Reading an SCN prediction file into columns: one row per line (NAME, PROF, ACT, variant, pattern, top-1), its
triplets and (NAME, PROF) pairs interned per variant, each line's fields checked. The checks of the whole file are
in checks.py."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.errors import FileProblems, Problem
from ...fileio.jsonl import JsonlReader, flat_string_rows, json_type_name
from .metadata import PATTERNS, VARIANTS

FIELDS = ("name", "profession", "verb", "variant", "pattern", "top1")
# Caps on a line's strings, published in schemas/prediction-scn.schema.json; they only bound abuse: the words
# are NegHub's (a few characters), top1 is one decoded token (long runs of punctuation are tokens too).
MAX_WORD_CHARS = 100
MAX_TOP1_CHARS = 1_000
# A realistic run (the paper's ~364k triplets x 5 patterns, plus the coreference variants) is a few
# million short lines, i.e. a few hundred MB; the cap only stops absurd inputs.
MAX_PREDICTION_FILE_BYTES = 1024 * 1024 * 1024


@dataclass
class Predictions:
    """A prediction file as columns: one row per line, triplets and (NAME, PROF) pairs interned per variant."""

    file: str
    line: NDArray[np.int64]
    variant: NDArray[np.int8]  # index into VARIANTS
    pattern: NDArray[np.int8]  # index into PATTERNS
    repeated: NDArray[np.bool_]  # top1 == verb
    triplet: NDArray[np.int64]  # index into triplet_keys
    triplet_keys: list[tuple[str, str, str, str]]  # (name, profession, verb, variant)
    triplet_first_line: NDArray[np.int64]
    triplet_pair: NDArray[np.int64]  # index into pair_keys, per triplet
    pair_keys: list[tuple[str, str, str]]  # (name, profession, variant)
    cptp_top1: dict[int, str]  # line -> top1, for the CpTp lines whose top1 is not the verb

    @property
    def size(self) -> int:
        return int(self.line.size)


_MAX_CHARS = {"name": MAX_WORD_CHARS, "profession": MAX_WORD_CHARS, "verb": MAX_WORD_CHARS, "top1": MAX_TOP1_CHARS}


def _field_problems(file: str, line: int, obj: dict[str, Any]) -> list[Problem]:
    """What is wrong with the fields of one line: unknown, missing, not a string, empty, too long."""
    problems = [
        Problem(file, line, key, f"unknown field (expected only {', '.join(FIELDS)})")
        for key in sorted(obj.keys() - set(FIELDS))
    ]
    for key in FIELDS:
        if key not in obj:
            problems.append(Problem(file, line, key, "missing field"))
        elif not isinstance(obj[key], str):
            problems.append(Problem(file, line, key, f"expected a string, got {json_type_name(obj[key])}"))
        elif key in ("name", "profession", "verb") and not obj[key].strip():
            problems.append(Problem(file, line, key, "must not be empty"))
        elif key in _MAX_CHARS and len(obj[key]) > _MAX_CHARS[key]:
            problems.append(
                Problem(file, line, key, f"expected at most {_MAX_CHARS[key]:,} characters, got {len(obj[key]):,}")
            )
    return problems


def _columns(file: str, rows: Iterable[tuple[int, dict[str, Any]]], problems: list[Problem]) -> Predictions:
    """Check each line's fields and intern its strings; problems are appended to `problems`."""
    variant_code = {v: i for i, v in enumerate(VARIANTS)}
    pattern_code = {p: i for i, p in enumerate(PATTERNS)}
    triplet_of: dict[tuple[str, str, str, str], int] = {}
    pair_of: dict[tuple[str, str, str], int] = {}
    lines: list[int] = []
    variants: list[int] = []
    patterns: list[int] = []
    repeated: list[bool] = []
    triplets: list[int] = []
    triplet_first_line: list[int] = []
    triplet_pair: list[int] = []
    cptp_top1: dict[int, str] = {}
    get_fields = operator.itemgetter(*FIELDS)
    for line, obj in rows:
        # the common case in one test, written out so it runs without a Python-level loop per line;
        # the field-by-field diagnosis only for lines that fail it
        try:
            name, profession, verb, variant, pattern, top1 = get_fields(obj)
            well_formed = (
                len(obj) == len(FIELDS)
                and type(name) is str
                and type(profession) is str
                and type(verb) is str
                and type(variant) is str
                and type(pattern) is str
                and type(top1) is str
                and bool(name.strip())
                and bool(profession.strip())
                and bool(verb.strip())
                and len(name) <= MAX_WORD_CHARS
                and len(profession) <= MAX_WORD_CHARS
                and len(verb) <= MAX_WORD_CHARS
                and len(top1) <= MAX_TOP1_CHARS
            )
        except KeyError:
            well_formed = False
        if not well_formed:
            row_problems = _field_problems(file, line, obj)
            if row_problems:
                problems.extend(row_problems)
                continue
            name, profession, verb, variant, pattern, top1 = get_fields(obj)
        v = variant_code.get(variant)
        p = pattern_code.get(pattern)
        if v is None:
            problems.append(
                Problem(file, line, "variant", f"unknown variant {variant!r} (expected {', '.join(VARIANTS)})")
            )
        if p is None:
            problems.append(
                Problem(file, line, "pattern", f"unknown pattern {pattern!r} (expected {', '.join(PATTERNS)})")
            )
        if v is None or p is None:
            continue
        key4 = (name, profession, verb, variant)
        t = triplet_of.get(key4)
        if t is None:
            t = triplet_of[key4] = len(triplet_of)
            triplet_first_line.append(line)
            key3 = (name, profession, variant)
            pair = pair_of.get(key3)
            if pair is None:
                pair = pair_of[key3] = len(pair_of)
            triplet_pair.append(pair)
        hit = top1 == verb
        if p == 0 and not hit:
            cptp_top1[line] = top1
        lines.append(line)
        variants.append(v)
        patterns.append(p)
        repeated.append(hit)
        triplets.append(t)
    return Predictions(
        file=file,
        line=np.array(lines, dtype=np.int64),
        variant=np.array(variants, dtype=np.int8),
        pattern=np.array(patterns, dtype=np.int8),
        repeated=np.array(repeated, dtype=np.bool_),
        triplet=np.array(triplets, dtype=np.int64),
        triplet_keys=list(triplet_of),
        triplet_first_line=np.array(triplet_first_line, dtype=np.int64),
        triplet_pair=np.array(triplet_pair, dtype=np.int64),
        pair_keys=list(pair_of),
        cptp_top1=cptp_top1,
    )


def _columns_of_plain_rows(file: str, rows: list[tuple[str, ...]]) -> Predictions | None:
    """`_columns` for a file read by `flat_string_rows` (every line i+1 is row i, six strings), a
    column at a time in C-level maps; None as soon as a value is one `_columns` would complain
    about, so that the line-by-line path names it."""
    n = len(rows)
    variant_code = {v: i for i, v in enumerate(VARIANTS)}
    pattern_code = {p: i for i, p in enumerate(PATTERNS)}
    variant_codes = list(map(variant_code.get, map(operator.itemgetter(3), rows)))
    pattern_codes = list(map(pattern_code.get, map(operator.itemgetter(4), rows)))
    if None in variant_codes or None in pattern_codes:
        return None
    # triplets numbered in the order they first appear, as `_columns` numbers them
    triplet_keys4 = list(map(operator.itemgetter(0, 1, 2, 3), rows))
    triplet_of = dict.fromkeys(triplet_keys4, 0)
    # emptiness and length checked once per distinct triplet, not once per line
    if not all(
        name.strip()
        and profession.strip()
        and verb.strip()
        and max(len(name), len(profession), len(verb)) <= MAX_WORD_CHARS
        for name, profession, verb, _ in triplet_of
    ):
        return None
    for number, key4 in enumerate(triplet_of):
        triplet_of[key4] = number
    triplet = np.fromiter(map(triplet_of.__getitem__, triplet_keys4), dtype=np.int64, count=n)
    _, first_row = np.unique(triplet, return_index=True)
    pair_of: dict[tuple[str, str, str], int] = {}
    triplet_pair = [pair_of.setdefault((name, prof, var), len(pair_of)) for name, prof, _, var in triplet_of]
    pattern = np.fromiter(pattern_codes, dtype=np.int8, count=n)
    top1s = list(map(operator.itemgetter(5), rows))
    if max(map(len, top1s), default=0) > MAX_TOP1_CHARS:
        return None
    repeated = np.fromiter(map(operator.eq, top1s, map(operator.itemgetter(2), rows)), dtype=np.bool_, count=n)
    return Predictions(
        file=file,
        line=np.arange(1, n + 1, dtype=np.int64),
        variant=np.fromiter(variant_codes, dtype=np.int8, count=n),
        pattern=pattern,
        repeated=repeated,
        triplet=triplet,
        triplet_keys=list(triplet_of),
        triplet_first_line=first_row.astype(np.int64) + 1,
        triplet_pair=np.array(triplet_pair, dtype=np.int64),
        pair_keys=list(pair_of),
        cptp_top1={int(r) + 1: top1s[r] for r in np.flatnonzero((pattern == 0) & ~repeated).tolist()},
    )


def parse_predictions(
    data: bytes, file: str, problems: list[Problem] | None = None
) -> tuple[Predictions, list[Problem]]:
    """The columns of a prediction file and the problems of its individual lines (appended to `problems`,
    a `FileProblems` by default: reading stops once there are too many)."""
    problems = FileProblems() if problems is None else problems
    rows = flat_string_rows(data, FIELDS)
    if rows is not None:  # the usual file: read a column at a time
        predictions = _columns_of_plain_rows(file, rows)
        if predictions is not None:
            return predictions, problems
    predictions = _columns(file, JsonlReader(data, file, problems), problems)
    if not predictions.size and not problems:
        problems.append(Problem(file, None, None, "no predictions (the file is empty)"))
    return predictions, problems
