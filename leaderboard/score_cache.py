"""The build's score cache: each submission's collected rows, kept between builds so that a warm build re-scores
nothing it scored before.

Re-scoring every submission is most of a cold build (at 150 submissions, 18 of 35 s). What a submission's scoring
yields (collect.Collected: its rows, notes, answers-view files and board samples) depends on its files, on the
releases it is scored against and on the code that scores it, nothing else. So an entry is keyed by:
- every file of the submission folder: each prediction file's sha256 and metadata.yaml's (a changed file, an added
  or removed run, misses);
- the digest of every benchmark's pinned release (`release_digest`), and its task version;
- the scorer's version: NegHub's version and the sha256 of every source file of the evaluator and the leaderboard
  (a change to any scorer, rule row or collecting code misses, released or not), the Python and NumPy versions
  (the entry is a pickle) and this module's format.
An entry is never trusted across any of them. A submission one of whose releases this build could not read is not
kept (its runs were left out for that reason only: a build that reads the release must score them). The answers
NegHub's re-run kept of a submission (kept_answers.py), scored like a submission's folder, are kept the same way,
keyed as "kept answers" by the folder they are scored from (the kept files and the metadata of the runs re-run).

Where: `$NEGHUB_SCORE_CACHE` (a folder; `off` for none), else `.cache/neghub-scores/` of the repository. Bounded:
after a build, the entries it used are kept and, of the rest, the most recently used up to as many again (at least
`SPARE`); the others are removed. Safe to corrupt: an entry opens with a header and the sha256 of its payload;
an entry that is truncated, altered or does not unpickle is ignored, removed and recomputed.

The entries are pickles, which can run code when loaded: the folder is trusted like the build's own code. In CI,
only the Pages workflow's build on a push to main saves it (`actions/cache/save`, from main's own code and
submissions); every other build, the pull-request check included, only restores it (.github/workflows/pages.yml),
so nothing a pull request runs can write an entry another build reads.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import platform
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..evaluator import __version__
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.results import release_digest

CACHE_ENV = "NEGHUB_SCORE_CACHE"  # not $NEGHUB_CACHE: that one holds the downloaded releases and digests
CACHE_FOLDER = Path(".cache") / "neghub-scores"
FORMAT = b"neghub-scores 2\n"  # this module's entry format: bumped when it changes
PARTIAL_AGE = 3600  # seconds: a half-written entry older than this was left by a killed build
SPARE = 200  # entries kept beyond those a build used (another branch's submissions, a removed one)
_SOURCES = (Path(__file__).resolve().parents[1] / "evaluator", Path(__file__).resolve().parent)


def cache_folder(repository: Path) -> Path | None:
    """$NEGHUB_SCORE_CACHE (None where it says `off`), else .cache/neghub-scores/ of the repository."""
    named = os.environ.get(CACHE_ENV)
    if named == "off":
        return None
    return Path(named) if named else repository / CACHE_FOLDER


def scorer_version() -> str:
    """What the scoring code is: NegHub's version and a digest of every source file of the evaluator and the
    leaderboard, with the Python and NumPy versions that read an entry."""
    digest = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder.parent).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    runtime = f"{platform.python_implementation()} {sys.version_info[:2]} numpy {np.__version__}"
    return f"neghub {__version__}; {runtime}; sources {digest.hexdigest()}"


def release_digests() -> dict[str, str]:
    """Each benchmark's pinned release (its digest) and task version: what its prediction files are scored on."""
    out = {}
    for task in benchmark_names():
        benchmark = get_benchmark(task)
        out[task] = f"{release_digest(benchmark.metadata)} task version {benchmark.version}"
    return out


def folder_digest(folder: Path) -> str:
    """The sha256 of a submission folder's files: of each file's path and sha256, sorted by path."""
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        lines.append(f"{path.relative_to(folder).as_posix()}\t{hashlib.sha256(path.read_bytes()).hexdigest()}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def entry_key(
    folder: Path, releases: dict[str, str], scorer: str, data_dir: Path | None, kind: str = "submission"
) -> str:
    """One folder's key: what it is (a submission, or the answers NegHub's re-run kept of one), its files, the
    releases, the scorer, and the data folder asked for."""
    parts = [
        FORMAT.decode().strip(),
        kind,
        folder.name,
        folder_digest(folder),
        *(f"{task} {digest}" for task, digest in sorted(releases.items())),
        scorer,
        "" if data_dir is None else os.path.abspath(data_dir),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class ScoreCache:
    """The entries of one folder, for one build (keys computed once, by `keys`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()
        self.hits = 0
        self.misses = 0
        self._versions: tuple[dict[str, str], str] | None = None

    def keys(self, folders: Iterable[Path], data_dir: Path | None, kind: str = "submission") -> list[str]:
        if self._versions is None:  # the scorer's digest reads every source file: once a build
            self._versions = (release_digests(), scorer_version())
        releases, scorer = self._versions
        return [entry_key(folder, releases, scorer, data_dir, kind) for folder in folders]

    @staticmethod
    def part_key(key: str, part: str) -> str:
        """The key of an entry that holds one part of entry `key`'s value, read apart from it."""
        return hashlib.sha256(f"{key} {part}".encode()).hexdigest()

    def keep(self, key: str) -> None:
        """Keep an entry this build did not read (a part it may need another time) when the folder is pruned."""
        self.used.add(key)

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.pickle"

    def get(self, key: str) -> Any | None:
        """The entry's value, or None where there is none or it is unreadable (then it is removed)."""
        self.used.add(key)
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        header = len(FORMAT) + 65  # the format line, then the payload's sha256 and a newline
        payload = data[header:]
        digest = hashlib.sha256(payload).hexdigest().encode() + b"\n"
        if data[: len(FORMAT)] != FORMAT or data[len(FORMAT) : header] != digest:
            self._bad(path)
            return None
        try:
            value = pickle.loads(payload)
        except Exception:  # a payload that matches its digest yet does not load (another format): recomputed
            self._bad(path)
            return None
        os.utime(path)  # most recently used: pruned last
        self.hits += 1
        return value

    def _bad(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        self.misses += 1

    def put(self, key: str, value: Any) -> None:
        """Keep an entry (written whole, then renamed: a build stopped halfway leaves no half entry)."""
        self.used.add(key)
        self.folder.mkdir(parents=True, exist_ok=True)
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        path = self._path(key)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_bytes(FORMAT + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
        os.replace(partial, path)

    def prune(self) -> None:
        """Keep the entries this build used and, of the others, the most recently used up to as many again (at
        least SPARE)."""
        if not self.folder.is_dir():
            return
        others = [p for p in self.folder.glob("*.pickle") if p.stem not in self.used]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for path in others[max(SPARE, len(self.used)) :]:
            path.unlink(missing_ok=True)
        stale = time.time() - PARTIAL_AGE
        for partial in self.folder.glob(".*.pickle.*"):  # left by a build that was killed while writing
            with contextlib.suppress(OSError):  # not another build's, still writing it (renamed or removed since)
                if partial.stat().st_mtime < stale:
                    partial.unlink()
