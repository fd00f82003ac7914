"""The sha256 of a model's files, read once: a run hashes each file at most once, and a later run on the same
unchanged file reads it not at all.

Where a digest comes from, cheapest first:
1. the Hugging Face cache: a file of a downloaded snapshot is a link to `blobs/<name>`, and for a file stored
   with Git LFS (every weights file) that name *is* the file's sha256, which huggingface_hub checked when it
   downloaded it; taken as it is (a `snapshot/` file that is not such a link is hashed);
2. NegHub's own cache, `$NEGHUB_CACHE/sha256/`: one small file per hashed file, keyed by its resolved path,
   size, modification time (ns) and inode, holding its digest; a file that changed in any of these is hashed
   again (a write that keeps all four, a deliberate forgery, is out of scope: `neghub reproduce` re-reads);
3. reading the file, 1 MiB at a time (then written to the cache).

`neghub reproduce` checks a pinned sha256 with `verify=True`: the file is read in full whatever the caches say.
`HASH_STATS` counts what was read, for the overhead benchmark and its test.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..fileio.files import atomic_write

_HEX64 = re.compile(r"[0-9a-f]{64}")
CACHE_FOLDER = "sha256"  # under NegHub's cache folder (`$NEGHUB_CACHE`)


@dataclass
class HashStats:
    """What this process hashed: files and bytes read, and digests taken from a cache instead."""

    files_read: int = 0
    bytes_read: int = 0
    from_hub_cache: int = 0
    from_neghub_cache: int = 0


HASH_STATS = HashStats()


def read_sha256(path: Path) -> str:
    """The sha256 of the file's bytes, read now (no cache)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            HASH_STATS.bytes_read += len(block)
    HASH_STATS.files_read += 1
    return digest.hexdigest()


def hub_blob_sha256(path: Path) -> str | None:
    """The sha256 the Hugging Face cache names an LFS file's blob by, or None when `path` is not such a file
    (`models--ORG--NAME/snapshots/REV/FILE` -> `models--ORG--NAME/blobs/<sha256>`; a plain git file's blob is
    named by its 40-hex git id)."""
    if not path.is_symlink():
        return None
    target = path.resolve()
    if target.parent.name != "blobs" or not _HEX64.fullmatch(target.name):
        return None
    if not any(part == "snapshots" for part in path.parts):
        return None
    return target.name


def _cache_root() -> Path:
    from ..releases.upstream import cache_root

    return cache_root() / CACHE_FOLDER


def _cache_entry(path: Path) -> tuple[Path, str]:
    """Where the cache keeps this file's digest, and the key it must hold (path, size, mtime_ns, inode)."""
    resolved = path.resolve()
    stat = resolved.stat()
    key = json.dumps([str(resolved), stat.st_size, stat.st_mtime_ns, stat.st_ino])
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()
    return _cache_root() / name[:2] / name, key


def file_sha256(path: Path, *, verify: bool = False) -> str:
    """The file's sha256, from the Hugging Face cache or NegHub's where they know it (see the module
    docstring); with `verify`, always read from the file itself."""
    if verify:
        return read_sha256(path)
    from_hub = hub_blob_sha256(path)
    if from_hub is not None:
        HASH_STATS.from_hub_cache += 1
        return from_hub
    entry, key = _cache_entry(path)
    try:
        stored = json.loads(entry.read_text(encoding="utf-8"))
        if stored.get("key") == key and _HEX64.fullmatch(str(stored.get("sha256"))):
            HASH_STATS.from_neghub_cache += 1
            return str(stored["sha256"])
    except (OSError, ValueError, AttributeError):
        pass  # absent, unreadable or not ours: hash the file
    digest = read_sha256(path)
    text = json.dumps({"key": key, "sha256": digest})
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(entry, lambda handle: handle.write(text))
    except (OSError, InputError):
        pass  # a read-only cache costs a re-read next time, nothing more
    return digest


def folder_files(folder: Path) -> list[str]:
    """A model folder's files, as its pin lists them: every file but hidden ones, by relative path (with /),
    sorted."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )


def folder_sha256(folder: Path, *, verify: bool = False) -> str:
    """A model folder's pin: the sha256 of its `<sha256>  <path>` lines, as `sha256sum` prints them, for every
    file but hidden ones, sorted by path (relative, with /). By hand, in the folder:
    `find . -type f ! -path '*/.*' -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum`."""
    listing = "".join(f"{file_sha256(folder / name, verify=verify)}  {name}\n" for name in folder_files(folder))
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def local_sha256(path: Path, *, verify: bool = False) -> str:
    """What pins local weights: a file's sha256, or a folder's (`folder_sha256`)."""
    return folder_sha256(path, verify=verify) if path.is_dir() else file_sha256(path, verify=verify)
