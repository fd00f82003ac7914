"""A multiple-choice split as the family scores it: its release file read, checked against its pin, every record
validated, and the arrays scoring needs (answers, item types, option lengths)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from ...core.errors import InputError, Problem
from ...fileio.files import read_bytes
from ...fileio.jsonl import parse_jsonl
from ...releases.loading import Release, ResolvedFile, find_release
from ..reading import record_problem
from .spec import MultipleChoiceSpec

# the words of the family's readers for a refused release record (nubench's own files use them too)
validation_problem = record_problem


@dataclass(frozen=True)
class MultipleChoiceSplit:
    """One multiple-choice split, ready to score: records in file order and their arrays."""

    split: str
    release: Release
    file: ResolvedFile
    records: tuple[Any, ...]
    ids: NDArray[np.int64]
    answer_code: NDArray[np.int8]  # index into option_keys of each item's right option
    type_code: NDArray[np.int8]  # index into item_types (0 where the benchmark has none)
    option_length: NDArray[np.float64]  # (n, options) characters of each option; nan where not offered
    row_of_id: dict[int, int]


def release(spec: MultipleChoiceSpec, *, data_dir: Path | None = None, unverified: bool = False) -> Release:
    """Where the files come from (releases.loading.find_release), the benchmark's bundled copy last."""
    return find_release(spec.metadata, data_dir=data_dir, unverified=unverified, bundled=spec.bundled)


def read_release_file(
    spec: MultipleChoiceSpec, source: Release, split: str, config: str
) -> tuple[ResolvedFile, list[tuple[int, dict[str, Any]]]]:
    files = spec.metadata.files_for(split, config)
    if not files:
        known = ", ".join(f.split for f in spec.metadata.files if f.config == config)
        raise InputError.single(
            spec.name, f"unknown {config} split {split!r} (expected one of: {known})", field="split"
        )
    resolved = source.file(files[0])
    content = parse_jsonl(read_bytes(resolved.path), str(resolved.path))
    if content.problems:
        raise InputError(content.problems[:20])
    return resolved, content.objects


def load(
    spec: MultipleChoiceSpec, split: str, *, data_dir: Path | None = None, unverified: bool = False
) -> MultipleChoiceSplit:
    """Load one multiple-choice split, checked against its pin and validated."""
    source = release(spec, data_dir=data_dir, unverified=unverified)
    resolved, objects = read_release_file(spec, source, split, spec.config)
    file = str(resolved.path)
    problems: list[Problem] = []
    records: list[Any] = []
    first_line: dict[int, int] = {}
    for line, obj in objects:
        try:
            record = spec.record_model.model_validate(obj)
        except ValidationError as exc:
            problems.append(record_problem(file, line, exc))
            continue
        problems.extend(Problem(file, line, where, message) for where, message in spec.record_problems(record))
        item = spec.item_id(record)
        if item in first_line:
            problems.append(
                Problem(
                    file, line, spec.id_field, f"duplicate {spec.id_field} {item} (first on line {first_line[item]})"
                )
            )
        first_line.setdefault(item, line)
        records.append(record)
    if problems:
        raise InputError(problems[:20])
    keys = spec.option_keys
    lengths = np.array(
        [
            # characters, as lm-eval's len(option) counts them (not UTF-8 bytes: a Japanese or Korean option
            # would otherwise count three times its length)
            [float(len(spec.option_text(r, key))) if key in spec.offered(r) else np.nan for key in keys]
            for r in records
        ],
        dtype=np.float64,
    ).reshape(len(records), len(keys))
    type_of = spec.item_type
    return MultipleChoiceSplit(
        split=split,
        release=source,
        file=resolved,
        records=tuple(records),
        ids=np.array([spec.item_id(r) for r in records], dtype=np.int64),
        answer_code=np.array([keys.index(spec.answer(r)) for r in records], dtype=np.int8),
        type_code=np.array([spec.item_types.index(type_of(r)) if type_of else 0 for r in records], dtype=np.int8),
        option_length=lengths,
        row_of_id={spec.item_id(r): row for row, r in enumerate(records)},
    )
