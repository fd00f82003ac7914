"""A split of a minimal-pair release, ready to score: its file read and checked against its pin, every record
validated, the minimal pairs built; shared between callers in one process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from ...core.errors import InputError, Problem
from ...fileio.files import read_bytes
from ...fileio.jsonl import parse_jsonl
from ...protocol.metadata import ReleaseFile
from ...releases.loading import Release, ResolvedFile
from ..reading import record_problem
from .pairs import MinimalPairs, build_pairs
from .records import Instance


@dataclass(frozen=True)
class MinimalPairDataset:
    """One split of a minimal-pair benchmark, ready to score."""

    task: str
    split: str
    release: Release
    file: ResolvedFile
    ids: NDArray[np.int64]
    gold: NDArray[np.int16]
    is_original: NDArray[np.bool_]
    pairs: MinimalPairs
    row_of_id: dict[int, int]
    texts: tuple[str, ...] = ()  # each instance's two sentences, "s1 / s2" (what the answers view shows)

    @property
    def verified(self) -> bool:
        return self.file.verified


# Splits already loaded in this process, by file identity: a leaderboard build re-scores many runs
# against the same split, and parsing (and hashing) it each time would dominate. The key holds the
# file's size, modification time and inode, so a file changed on disk is read and verified again.
_LOADED: dict[tuple[Any, ...], MinimalPairDataset] = {}
_LOADED_MAX = 8


def _file_identity(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None  # release.file() names the problem
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def load_split(
    task: str,
    split: str,
    release: Release,
    parse_record: Callable[[dict[str, Any]], Instance],
) -> MinimalPairDataset:
    """Read one split's file (checked against its pin), validate every record, build the pairs.

    The result is shared between callers in one process (see `_LOADED`); its arrays are read-only."""
    files = release.metadata.files_for(split)
    if not files:
        raise InputError.single(
            task, f"unknown split {split!r} (expected one of: {', '.join(release.metadata.splits)})", field="split"
        )
    identity = _file_identity(release.root / files[0].path)
    key = (task, split, str(release.root), release.source, release.unverified_allowed, identity)
    if identity is not None and key in _LOADED:
        return _LOADED[key]
    dataset = _read_split(task, split, release, files[0], parse_record)
    if identity is not None:
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = dataset
    return dataset


def _read_split(
    task: str,
    split: str,
    release: Release,
    release_file: ReleaseFile,
    parse_record: Callable[[dict[str, Any]], Instance],
) -> MinimalPairDataset:
    resolved = release.file(release_file)
    content = parse_jsonl(read_bytes(resolved.path), str(resolved.path), blank_lines="skip")
    problems = list(content.problems)
    instances: list[Instance] = []
    for line, obj in content.objects:
        try:
            instances.append(parse_record(obj))
        except ValidationError as exc:
            problems.append(record_problem(str(resolved.path), line, exc))
        except ValueError as exc:
            problems.append(Problem(str(resolved.path), line, None, f"invalid record: {exc}"))
    row_of_id: dict[int, int] = {}
    for row, inst in enumerate(instances):
        if inst.id in row_of_id:
            problems.append(Problem(str(resolved.path), None, "id", f"duplicate id {inst.id} in the release"))
        row_of_id[inst.id] = row
    if problems:
        raise InputError(problems[:20])
    dataset = MinimalPairDataset(
        task=task,
        split=split,
        release=release,
        file=resolved,
        ids=np.array([inst.id for inst in instances], dtype=np.int64),
        gold=np.array([inst.gold for inst in instances], dtype=np.int16),
        is_original=np.array([inst.type == "original" for inst in instances], dtype=np.bool_),
        pairs=build_pairs(instances),
        row_of_id=row_of_id,
        texts=tuple(_text(obj) for _, obj in content.objects),
    )
    pairs = dataset.pairs
    for array in (dataset.ids, dataset.gold, dataset.is_original, pairs.control, pairs.treatment, pairs.kind):
        array.flags.writeable = False  # shared between callers: a write would be a bug, so make it fail
    for array in (pairs.cue_position, pairs.target_pos, pairs.important, pairs.group):
        array.flags.writeable = False
    return dataset


def _text(record: dict[str, Any]) -> str:
    """A record's two sentences as a reader sees them (every minimal-pair release has sentence1 and sentence2)."""
    parts = [record.get(key, {}).get("sentence", "") for key in ("sentence1", "sentence2")]
    return " / ".join(str(part) for part in parts)
