"""Loading a pinned release: from a local mirror, the Hugging Face Hub, its upstream home, or the package.

A release is a set of files, each pinned by its sha256. It is read from the first of these that can
serve it:
1. a mirror folder given by `--data-dir`, or else the environment variable `NEGHUB_DATA_DIR` (when
   it has a folder for the task: the variable is a default for all tasks), one sub-folder per dataset
   named as the task;
2. the Hugging Face Hub at the pinned revision (`snapshot_download`, `repo_type="dataset"`), which
   honours `HF_HUB_OFFLINE` and its local cache;
3. the pinned upstream URLs of its files (a public repository at a commit), downloaded once into
   NegHub's cache, the whole release at a time, and verified (`upstream.py`; `NEGHUB_UPSTREAM_ENDPOINT` serves
   them from a mirror);
4. a release shipped inside the package (a sample NegHub wrote, word lists).
Every file is checked against its sha256 before use, whatever the source.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..core.errors import InputError, Problem, SourceUnavailable
from ..protocol.metadata import DatasetMetadata, ReleaseFile

DATA_DIR_ENV = "NEGHUB_DATA_DIR"


class DatasetUnavailable(SourceUnavailable):
    """No release of the task can be read here (none pinned on the Hub yet, the Hub unreachable, no
    mirror folder): a fact about this machine, not about the predictions being checked."""


@dataclass(frozen=True)
class ResolvedFile:
    """A release file found on disk and checked against its pin."""

    path: Path
    sha256: str
    verified: bool


@dataclass(frozen=True)
class Release:
    """Where a release was found; its files are resolved (and hashed) one at a time, when used."""

    metadata: DatasetMetadata
    root: Path
    source: Literal["mirror", "hub", "upstream", "bundled"]
    unverified_allowed: bool
    # why the sources before this one could not serve it: reported with this one's own failure
    passed_over: tuple[Problem, ...] = ()

    @property
    def revision(self) -> str | None:
        return self.metadata.revision if self.source == "hub" else None

    def file(self, release_file: ReleaseFile) -> ResolvedFile:
        path = self.root / release_file.path
        if self.source == "upstream":
            assert release_file.sha256 is not None  # an upstream_url needs its pin (ReleaseFile)
            self._fetch()
            return ResolvedFile(path, release_file.sha256, verified=True)
        if not path.is_file():  # the mirror lacks it: a fact about this machine, as a missing mirror folder
            raise DatasetUnavailable.single(
                str(path), f"not found: the {self.metadata.pretty_name} release file for split {release_file.split!r}"
            )
        digest = sha256_file(path)
        if digest == release_file.sha256:
            return ResolvedFile(path, digest, verified=True)
        if not self.unverified_allowed:
            why = (
                f"{self.metadata.name} has no pinned sha256 for this file (the release is not yet available to "
                "NegHub); pass --unverified to score against a local copy"
                if release_file.sha256 is None
                else f"sha256 mismatch: expected {release_file.sha256}, got {digest}; the file differs from the "
                "pinned release (pass --unverified to score against it anyway)"
            )
            raise InputError.single(str(path), why)
        return ResolvedFile(path, digest, verified=False)

    def license_path(self) -> Path | None:
        """The release's license text, fetched and verified where the source is upstream."""
        pinned = self.metadata.license_file
        path = self.root / (pinned.path if pinned is not None else "LICENSE")
        if self.source == "upstream":
            if pinned is None or pinned.upstream_url is None:
                return None
            self._fetch()
        return path if path.is_file() else None

    def materialise(self) -> Path:
        """The release folder with every file (and the license) present: downloads what an upstream release
        has not cached yet. Other sources are folders already."""
        for release_file in self.metadata.files:
            self.file(release_file)
        self.license_path()
        return self.root

    def _fetch(self) -> None:
        """The whole upstream release (every file and the license) in the cache folder, downloaded once: the
        cache holds a release complete and verified, or not at all."""
        from .upstream import PinnedFile, UpstreamUnavailable, fetch_release

        pinned = [
            PinnedFile(f.path, f.upstream_url, f.sha256)
            for f in (*self.metadata.files, self.metadata.license_file)
            if f is not None and f.upstream_url is not None and f.sha256 is not None
        ]
        try:
            fetch_release(pinned, self.root)
        except UpstreamUnavailable as exc:
            raise DatasetUnavailable([*self.passed_over, *exc.problems]) from None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_release(
    metadata: DatasetMetadata,
    *,
    data_dir: Path | str | None = None,
    unverified: bool = False,
    bundled: Path | None = None,
) -> Release:
    """Locate the release of `metadata` (see the module docstring for the order); `bundled` is the release
    folder the benchmark ships inside the package, if any. Upstream files are fetched when first used."""
    chosen = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV) or None
    if chosen is not None and not (Path(chosen) / metadata.name).is_dir():
        # A mirror may hold only some tasks (../shared/datasets holds one). The environment
        # variable is a default for every task, so it falls through to the other sources; an explicit
        # --data-dir falls back only to a release shipped (and pinned) in the package, never silently
        # to the network.
        if data_dir is None:
            chosen = None
        elif bundled is not None and bundled.is_dir():
            return Release(metadata, bundled, "bundled", unverified)
    if chosen is not None:
        root = Path(chosen) / metadata.name
        if not root.is_dir():
            raise DatasetUnavailable.single(
                str(root),
                f"no {metadata.name} folder in the data directory {chosen} (expected <data-dir>/{metadata.name}/)",
            )
        return Release(metadata, root, "mirror", unverified)
    passed_over: list[Problem] = []
    if metadata.revision is not None:
        try:
            return Release(metadata, _hub_snapshot(metadata, metadata.revision), "hub", unverified)
        except DatasetUnavailable as exc:
            if not metadata.upstream:
                raise
            passed_over += exc.problems
    if metadata.upstream:
        from .upstream import cache_root

        root = cache_root() / "releases" / metadata.name
        return Release(metadata, root, "upstream", unverified, passed_over=tuple(passed_over))
    if bundled is not None and bundled.is_dir():
        return Release(metadata, bundled, "bundled", unverified)
    raise DatasetUnavailable.single(
        metadata.name,
        f"no source of the {metadata.name} release is pinned yet (no Hub revision, no upstream URL), so only "
        f"a local copy can be read: {local_copy_advice(metadata.name)}",
    )


# how the running command can be told where a local copy is (`command_reads`): "data-dir" (it takes --data-dir),
# "fetch" (`neghub datasets fetch`, whose one source is the upstream host) or "" (only the environment variable);
# the advice of an error that a release cannot be read names only options that exist on the command that prints it
_COMMAND_READS: ContextVar[str] = ContextVar("command_reads", default="")
FETCH = "fetch"
DATA_DIR_OPTION = "data-dir"


@contextmanager
def command_reads(how: str) -> Iterator[None]:
    """For the block, how the running command is told where a local copy is (DATA_DIR_OPTION, FETCH or "")."""
    token = _COMMAND_READS.set(how)
    try:
        yield
    finally:
        _COMMAND_READS.reset(token)


def local_copy_advice(task: str, *, data_dir_option: bool | None = None) -> str:
    """How to let NegHub read a local copy of `task`'s release, true to this environment: `NEGHUB_DATA_DIR`
    unset, or set to a mirror without a folder for the task (it falls through to the other sources then).
    `--data-dir DIR` is named where the command takes it (`data_dir_option`, by default as the running command
    declared with `command_reads`; the site's build takes none), else only the variable; `neghub datasets fetch`
    is told of a mirror of the upstream host instead, the one source it reads."""
    how = _COMMAND_READS.get()
    if how == FETCH and data_dir_option is None:
        from .upstream import ENDPOINT_ENV

        return (
            f"set {ENDPOINT_ENV}=http://HOST:PORT, a host that serves the upstream paths (a local copy needs no "
            f"fetch: the other commands read it where {DATA_DIR_ENV} points)"
        )
    named = os.environ.get(DATA_DIR_ENV)
    offered = how == DATA_DIR_OPTION if data_dir_option is None else data_dir_option
    option = "pass --data-dir DIR" if offered else ""
    if named:
        advice = f"{DATA_DIR_ENV} is set to {named}, which holds no {task}/ folder: add the release there"
        return f"{advice}, or {option}" if option else advice
    advice = f"set {DATA_DIR_ENV} to a mirror holding a {task}/ folder"
    return f"{option}, or {advice}" if option else advice


def _hub_snapshot(metadata: DatasetMetadata, revision: str) -> Path:
    # Imported here: huggingface_hub pulls in an HTTP stack that a mirror-only run never needs.
    from huggingface_hub import snapshot_download

    from .upstream import OFFLINE_ENVS, offline

    source = f"hf://datasets/{metadata.hub_repo_id}@{revision}"
    # NEGHUB_OFFLINE as the upstream files read it: the Hub's cache only, no request (the library reads
    # HF_HUB_OFFLINE alone, and only once, when it is imported)
    cache_only = offline()
    try:
        folder = snapshot_download(
            repo_id=metadata.hub_repo_id,
            repo_type="dataset",
            revision=revision,
            allow_patterns=[f.path for f in metadata.files],
            local_files_only=cache_only,
        )
    except Exception as exc:  # the library raises many kinds; each becomes one line for the user
        if cache_only:  # the library's own line would tell a NegHub user to pass an argument of its function
            raise DatasetUnavailable.single(
                source,
                f"not in the Hugging Face cache and offline mode is on ({' or '.join(OFFLINE_ENVS)}): run once "
                f"online, or, to read a local copy, {local_copy_advice(metadata.name)}",
            ) from None
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatasetUnavailable.single(
            source,
            f"cannot get the pinned release from the Hub ({type(exc).__name__}: {first_line}); to read a local "
            f"copy instead, {local_copy_advice(metadata.name)}",
        ) from None
    return Path(folder)
