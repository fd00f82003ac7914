"""What a dataset card states about the data: records per release file and, for minimal-pair tasks, the pair
counts the paper reports, computed from the pinned files only (each checked against its pin), so a number on
a card describes exactly the pinned release.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..fileio.files import read_bytes
from ..fileio.jsonl import parse_jsonl
from ..protocol.metadata import DatasetMetadata
from .loading import Release, local_copy_advice
from .tasks import benchmark_of


@dataclass(frozen=True)
class PairStatistics:
    """The counts a minimal-pair paper reports (instances and pairs per split, by cue position), from the
    evaluator's own pair construction."""

    split: str
    d_orig: int
    d_neg: int
    m_i: int
    m_u: int
    m_i_end: int
    m_i_mid: int
    m_u_end: int
    m_u_mid: int


@dataclass(frozen=True)
class Statistics:
    """What the card states about the data: records per release file, and pair counts for minimal-pair tasks."""

    records: dict[str, int]  # release path -> non-blank lines
    pairs: tuple[PairStatistics, ...] = ()


def release_root(metadata: DatasetMetadata, data_dir: Path | None) -> Path | None:
    """The folder statistics are read from: `<data_dir>/<task>/` if present, else the bundled release, else none."""
    if data_dir is not None and (data_dir / metadata.name).is_dir():
        return data_dir / metadata.name
    # a release shipped in the package (a benchmark's own sample or word lists)
    bundled = benchmark_of(metadata.name).bundled_release
    return bundled if bundled is not None and bundled.is_dir() else None


def has_statistics(metadata: DatasetMetadata) -> bool:
    """Numbers are given only for a fully pinned release, so they describe exactly that release."""
    return bool(metadata.files) and all(f.sha256 is not None for f in metadata.files)


def compute_statistics(metadata: DatasetMetadata, root: Path) -> Statistics:
    """Count the records of every pinned file (each checked against its pin) and, for minimal-pair
    tasks, the pairs per split through the task's own `load`."""
    release = Release(metadata, root, "mirror", unverified_allowed=False)
    records: dict[str, int] = {}
    for release_file in metadata.files:
        resolved = release.file(release_file)  # raises on a missing file or a sha256 mismatch
        records[release_file.path] = count_records(resolved.path)
    benchmark = benchmark_of(metadata.name)
    if benchmark.read_split is None:  # only a minimal-pair family counts pairs (SPEC §1) besides the records
        return Statistics(records=records)
    pairs: list[PairStatistics] = []
    for split in metadata.splits:
        dataset = benchmark.read_split(release, split)
        important = dataset.pairs.important
        end = dataset.pairs.cue_position == 0  # CUE_POSITIONS = ("end", "mid")
        pairs.append(
            PairStatistics(
                split=split,
                d_orig=int(dataset.is_original.sum()),
                d_neg=int((~dataset.is_original).sum()),
                m_i=int(important.sum()),
                m_u=int((~important).sum()),
                m_i_end=int((important & end).sum()),
                m_i_mid=int((important & ~end).sum()),
                m_u_end=int((~important & end).sum()),
                m_u_mid=int((~important & ~end).sum()),
            )
        )
    return Statistics(records=records, pairs=tuple(pairs))


def count_records(path: Path) -> int:
    """The rows `datasets` loads from the file, with the builder its extension picks (LOCAL_BUILDERS).

    JSON Lines: the objects (every line must parse; blank lines, such as the empty last line of the
    upstream NLI files, are no rows). Plain text: every line, a blank one or a `#` one included (the text
    builder keeps both; a final newline ends the last line, it opens no new one). TSV: the non-blank
    lines less the header (the csv builder skips blank lines). Nothing is skipped as a comment: the
    data files of a release hold data only.
    """
    if path.suffix == ".jsonl":
        content = parse_jsonl(read_bytes(path), str(path), blank_lines="skip")
        if content.problems:
            raise InputError(content.problems[:20])
        return len(content.objects)
    text = read_bytes(path).decode("utf-8")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if path.suffix == ".tsv":
        return max(len([line for line in lines if line.strip()]) - 1, 0)
    return len(lines)


def size_category(statistics: Statistics | None) -> str:
    """The Hub's size category of the release: how many records it holds in all."""
    if statistics is None:
        return "unknown"
    total = sum(statistics.records.values())
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if total < limit:
            return name
    return "unknown"


def statistics_for(metadata: DatasetMetadata, data_dir: Path | None) -> Statistics | None:
    """None for an unpinned release; otherwise computed, or InputError when the data is not at hand."""
    if not has_statistics(metadata):
        return None
    root = release_root(metadata, data_dir)
    if root is None:
        raise InputError.single(
            metadata.name,
            f"the statistics of the card need the pinned {metadata.name} release: {local_copy_advice(metadata.name)} "
            "(for example ../shared/datasets)",
        )
    return compute_statistics(metadata, root)
