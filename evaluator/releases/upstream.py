"""Release files fetched from their upstream home: a URL pinned by commit, checked against its sha256,
downloaded once into the user's cache and read from there afterwards, online or not.

Download, verification and caching are pooch's (the scientific-Python standard for this): a file is
streamed to a temporary name beside its target, its sha256 compared with the pin, and only then moved
into place, so the cache never holds a half-written or unverified file.

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
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ..core.errors import InputError

CACHE_ENV = "NEGHUB_CACHE"
OFFLINE_ENVS = ("NEGHUB_OFFLINE", "HF_HUB_OFFLINE")
ENDPOINT_ENV = "NEGHUB_UPSTREAM_ENDPOINT"
_TRUE = {"1", "true", "yes", "on"}
_SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


class UpstreamUnavailable(InputError):
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


def fetch(url: str, sha256: str, target: Path) -> Path:
    """`target`, holding the bytes pinned by `sha256`: from the cache when it is there and verifies,
    else downloaded from `url` (through the endpoint, if one is set) and verified before it is kept."""
    if _verified(target, sha256):
        return target
    source = served_url(url)
    if offline():
        raise UpstreamUnavailable.single(
            url,
            f"not in the cache ({target}) and offline mode is on ({' or '.join(OFFLINE_ENVS)}): run once "
            "online, or pass --data-dir DIR with a local copy",
        )
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
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UpstreamUnavailable.single(
            source, f"cannot download the pinned file ({type(exc).__name__}: {first_line[:300]})"
        ) from None
    return target
