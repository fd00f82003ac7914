"""Release files fetched from their upstream home: a URL pinned by commit, checked against its sha256,
downloaded once into the user's cache and read from there afterwards, online or not.

Download and verification are pooch's (the scientific-Python standard for this): a file is streamed to a
temporary name, its sha256 compared with the pin, and kept only when it matches. A release is fetched whole into
a staging folder and moved into place once every file is verified, so the cache never holds a half-written,
unverified, partial or empty release folder.

Environment:
- `NEGHUB_CACHE`: the cache folder (default `$XDG_CACHE_HOME/neghub`, else `~/.cache/neghub`);
- `NEGHUB_OFFLINE=1` or `HF_HUB_OFFLINE=1`: never touch the network, read the cache only;
- `NEGHUB_UPSTREAM_ENDPOINT=http://host:port`: replaces the scheme and host of every upstream URL,
  keeping its path, as `HF_ENDPOINT` does for the Hub (air-gapped mirrors and the tests use it).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ..core.errors import SourceUnavailable

CACHE_ENV = "NEGHUB_CACHE"
OFFLINE_ENVS = ("NEGHUB_OFFLINE", "HF_HUB_OFFLINE")
ENDPOINT_ENV = "NEGHUB_UPSTREAM_ENDPOINT"
_TRUE = {"1", "true", "yes", "on"}
_SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


class UpstreamUnavailable(SourceUnavailable):
    """An upstream file could not be had here (offline and not cached, the host unreachable, a mirror
    serving other bytes): a fact about this machine or its network, not about the predictions."""


def cache_root() -> Path:
    """Where NegHub keeps downloaded releases."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "neghub"


def offline() -> bool:
    return any(os.environ.get(name, "").strip().lower() in _TRUE for name in OFFLINE_ENVS)


def served_url(url: str) -> str:
    """The URL to download: `url` itself, or its path on the `NEGHUB_UPSTREAM_ENDPOINT` host."""
    endpoint = os.environ.get(ENDPOINT_ENV, "").strip()
    if not endpoint:
        return url
    base = urlsplit(endpoint)
    parts = urlsplit(url)
    prefix = base.path.rstrip("/")
    return urlunsplit((base.scheme, base.netloc, prefix + parts.path, parts.query, ""))


def _verified(path: Path, sha256: str) -> bool:
    from .loading import sha256_file

    return path.is_file() and sha256_file(path) == sha256


@dataclass(frozen=True)
class PinnedFile:
    """One file of an upstream release: its path in the release folder, its URL and its pinned sha256."""

    path: str
    url: str
    sha256: str


def fetch_release(files: Sequence[PinnedFile], folder: Path) -> Path:
    """`folder` holding every one of `files`, verified: as it is when it already does, else downloaded whole
    into a staging folder beside it (files already verified in `folder` are copied, not downloaded again) and
    moved into place only once every file matches its pin. So the cache holds a release complete or not at all:
    a failed download leaves neither a partial folder nor an empty one, nor any folder above it that it made."""
    if all(_verified(folder / f.path, f.sha256) for f in files):
        return folder
    if offline():
        missing = next(f for f in files if not _verified(folder / f.path, f.sha256))
        raise UpstreamUnavailable.single(
            missing.url,
            f"not in the cache ({folder / missing.path}) and offline mode is on ({' or '.join(OFFLINE_ENVS)}): "
            f"run once online, or, to read a local copy, {_local_copy(folder.name)}",
        )
    made = [p for p in (folder.parent, *folder.parent.parents) if not p.exists()]
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-partial-", dir=folder.parent))
    try:
        for pinned in files:
            target = staging / pinned.path
            target.parent.mkdir(parents=True, exist_ok=True)
            if _verified(folder / pinned.path, pinned.sha256):
                shutil.copyfile(folder / pinned.path, target)
            else:
                _download(pinned.url, pinned.sha256, target, folder.name)
        _move_into_place(staging, folder, files)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        for empty in made:  # deepest first: only the folders this call made, and only while they are empty
            try:
                empty.rmdir()
            except OSError:
                break
    return folder


def _move_into_place(staging: Path, folder: Path, files: Sequence[PinnedFile]) -> None:
    """Replace `folder` with the complete `staging` folder by renames in one file system."""
    old = None
    if folder.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{folder.name}-old-", dir=folder.parent)) / folder.name
        folder.rename(old)
    try:
        staging.rename(folder)
    except OSError:
        # another process put the release in place meanwhile: keep its copy when it is complete
        if not all(_verified(folder / f.path, f.sha256) for f in files):
            raise
    finally:
        if old is not None:
            shutil.rmtree(old.parent, ignore_errors=True)


def _download(url: str, sha256: str, target: Path, task: str) -> None:
    """`url` (through the endpoint, if one is set) into `target`, verified by pooch before it is kept; `task` is
    the release's, named in the advice of a failure."""
    source = served_url(url)
    import pooch
    import requests

    pooch.get_logger().setLevel(logging.WARNING)  # its "Downloading ..." lines would interleave with ours
    try:
        pooch.retrieve(source, known_hash=f"sha256:{sha256}", fname=target.name, path=target.parent, progressbar=False)
    except ValueError as exc:  # pooch's hash mismatch; the download was deleted, nothing was cached
        hashes = _SHA256.findall(str(exc))
        got = hashes[-1] if len(hashes) >= 2 else "a different hash"
        raise UpstreamUnavailable.single(
            source,
            f"sha256 mismatch: expected {sha256}, got {got}; the served file differs from the pinned release "
            "and was not kept",
        ) from None
    except (requests.RequestException, OSError) as exc:
        raise UpstreamUnavailable.single(
            source,
            f"cannot download the pinned file: {network_reason(exc)}",
            advice=f"to read a local copy instead, {_local_copy(task)}",
        ) from None


def _local_copy(task: str) -> str:
    """How to read a local copy of `task`'s release with the running command (loading.local_copy_advice)."""
    from .loading import local_copy_advice

    return local_copy_advice(task)


def network_reason(exc: BaseException) -> str:
    """Why a download failed, in a few words: the HTTP status, or the operating system's reason found under the
    library's wrappers (requests and urllib3 nest it two or three deep, and repeat the URL at each level)."""
    response = getattr(exc, "response", None)
    if response is not None and getattr(response, "status_code", None) is not None:
        return f"HTTP {response.status_code} {getattr(response, 'reason', '') or ''}".strip()
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    reason = None
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, OSError) and current.strerror:
            reason = current.strerror  # the deepest one wins: it is the system's own word
        if isinstance(current, TimeoutError) or type(current).__name__.endswith("Timeout"):
            reason = reason or "timed out"
        nested = [current.__cause__, current.__context__, getattr(current, "reason", None), *current.args]
        pending += [n for n in nested if isinstance(n, BaseException)]
    return reason or type(exc).__name__
