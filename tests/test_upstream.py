"""Releases fetched from their pinned upstream URLs through a real HTTP server on 127.0.0.1.

Nothing of NegHub's loader is replaced: the server serves the real JNLI-Neg files under the upstream
path layout, and NEGHUB_UPSTREAM_ENDPOINT points the loader at it, as an air-gapped mirror would.
The expected hashes are ../shared/datasets/jnli-neg/SHA256SUMS, copied by hand (upstream_server.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from neghub.evaluator.benchmarks import jnli_neg
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.releases.loading import DATA_DIR_ENV, find_release

from .conftest import flat_result
from .upstream_server import PINNED_SHA256, UPSTREAM_COMMIT, UPSTREAM_FOLDER, UpstreamServer, build_site

VALID = "jnli-neg-valid-v1.1.jsonl"
TRAIN = "jnli-neg-train-v1.1.jsonl"  # the release's first file: the one a failed download names
RELEASE_PATHS = [
    *(f"/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/{UPSTREAM_FOLDER}/{name}" for name in PINNED_SHA256),
    f"/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/LICENSE",
]


@pytest.fixture
def www(shared_datasets: Path, tmp_path: Path) -> Path:
    site = tmp_path / "www"
    build_site(shared_datasets, site)
    return site


@pytest.fixture
def server(www: Path) -> Iterator[UpstreamServer]:
    started = UpstreamServer(www)
    yield started
    started.stop()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No mirror, an empty cache of our own, the Hub out of play (JNLI-Neg pins no Hub revision yet)."""
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    monkeypatch.delenv("NEGHUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "cache"))
    return {k: v for k, v in os.environ.items() if k != DATA_DIR_ENV}


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command line in a fresh process (nothing cached in memory between calls)."""
    return subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


def cached_files(tmp_path: Path) -> list[str]:
    root = tmp_path / "cache"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.is_dir() else []


def test_first_use_downloads_verifies_and_caches_then_works_with_the_server_stopped(
    shared_datasets: Path, server: UpstreamServer, env: dict[str, str], tmp_path: Path
) -> None:
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    majority = tmp_path / "majority.jsonl"
    done = cli(env, "baseline", "jnli-neg", "--kind", "constant:neutral", "--split", "valid", "-o", str(majority))
    assert done.returncode == 0, done.stderr
    # the whole release is fetched at once, each file by its path at the pinned commit, so that the cache holds
    # a release complete or not at all (a mirror-shaped folder: nox's tests session may read it as one)
    assert sorted(server.requests) == sorted(RELEASE_PATHS)
    cached = tmp_path / "cache" / "releases" / "jnli-neg"
    for name, digest in PINNED_SHA256.items():
        assert hashlib.sha256((cached / name).read_bytes()).hexdigest() == digest
    # no temporary file or staging folder left beside them
    assert cached_files(tmp_path) == sorted(f"releases/jnli-neg/{name}" for name in (*PINNED_SHA256, "LICENSE"))

    server.stop()
    scored = cli(env, "evaluate", "jnli-neg", str(majority), "--split", "valid", "--json")
    assert scored.returncode == 0, scored.stderr
    result = flat_result(json.loads(scored.stdout))
    assert result["dataset_source"] == "upstream"
    assert result["verified"] is True
    # 1,363 valid instances: 186 originals + 1,177 negated (SOURCE.md)
    assert result["instance_metrics"]["D"]["n"] == 1363


def test_offline_mode_reads_the_cache_only(server: UpstreamServer, env: dict[str, str], tmp_path: Path) -> None:
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    env["NEGHUB_OFFLINE"] = "1"
    out = tmp_path / "x.jsonl"
    done = cli(env, "baseline", "jnli-neg", "--kind", "majority", "--split", "valid", "-o", str(out))
    assert done.returncode == 3  # a source that cannot be reached, not bad input
    assert server.requests == []  # offline: the network is never touched
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: https://raw.githubusercontent.com/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/")
    assert "offline mode is on" in line
    assert not out.exists()


def test_a_served_file_with_one_byte_changed_is_refused_and_not_cached(
    shared_datasets: Path, www: Path, server: UpstreamServer, env: dict[str, str], tmp_path: Path
) -> None:
    served = www / "asahi-y" / "JNLI-Neg" / UPSTREAM_COMMIT / UPSTREAM_FOLDER / VALID
    data = bytearray(served.read_bytes())
    data[100] ^= 0x01  # one bit of one byte
    served.write_bytes(bytes(data))
    tampered_sha = hashlib.sha256(bytes(data)).hexdigest()
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    done = cli(env, "baseline", "jnli-neg", "--kind", "majority", "--split", "valid", "-o", str(tmp_path / "x.jsonl"))
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {server.url}/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/{UPSTREAM_FOLDER}/{VALID}: ")
    assert f"expected {PINNED_SHA256[VALID]}, got {tampered_sha}" in line
    # neither the file, nor the train file verified before it, nor a half-written temporary, nor a folder
    assert not (tmp_path / "cache").exists()


def test_a_release_that_cannot_be_fetched_whole_leaves_no_folder_behind(
    www: Path, server: UpstreamServer, env: dict[str, str], tmp_path: Path
) -> None:
    """The cache's own folder (`releases/`) existing already, the LICENSE missing upstream (HTTP 404) after both
    data files were downloaded and verified: nothing of the release is kept, no empty `jnli-neg/` either."""
    (www / "asahi-y" / "JNLI-Neg" / UPSTREAM_COMMIT / "LICENSE").unlink()
    (tmp_path / "cache" / "releases").mkdir(parents=True)
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    done = cli(env, "baseline", "jnli-neg", "--kind", "majority", "--split", "valid", "-o", str(tmp_path / "x.jsonl"))
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {server.url}/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/LICENSE: ")
    assert line.endswith(  # http.server's words, then how to do without the download
        ": cannot download the pinned file: HTTP 404 File not found; to read a local copy instead, pass --data-dir "
        "DIR, or set NEGHUB_DATA_DIR to a mirror holding a jnli-neg/ folder"
    )
    assert set(server.requests) == set(RELEASE_PATHS)  # http.server logs a 404 twice (its error, its request)
    assert list((tmp_path / "cache").rglob("*")) == [tmp_path / "cache" / "releases"]  # as it was


def test_a_partial_release_folder_is_completed_and_its_verified_files_are_not_fetched_again(
    shared_datasets: Path, server: UpstreamServer, env: dict[str, str], tmp_path: Path
) -> None:
    """A folder an older NegHub left with one split only: the rest is fetched, the verified file copied."""
    cached = tmp_path / "cache" / "releases" / "jnli-neg"
    cached.mkdir(parents=True)
    shutil.copyfile(shared_datasets / "jnli-neg" / VALID, cached / VALID)
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    done = cli(env, "baseline", "jnli-neg", "--kind", "majority", "--split", "valid", "-o", str(tmp_path / "x.jsonl"))
    assert done.returncode == 0, done.stderr
    assert sorted(server.requests) == sorted(p for p in RELEASE_PATHS if not p.endswith(VALID))
    assert cached_files(tmp_path) == sorted(f"releases/jnli-neg/{name}" for name in (*PINNED_SHA256, "LICENSE"))
    assert sorted(p.name for p in (tmp_path / "cache" / "releases").iterdir()) == ["jnli-neg"]  # no staging left


def test_an_unreachable_host_is_one_line(env: dict[str, str], tmp_path: Path) -> None:
    predictions = tmp_path / "predictions.jsonl"  # it exists: a missing one would be reported first
    predictions.write_text('{"id": 0, "prediction": "neutral"}\n')
    with _closed_port() as url:
        env["NEGHUB_UPSTREAM_ENDPOINT"] = url
        done = cli(env, "evaluate", "jnli-neg", str(predictions), "--split", "valid")
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    # the URL once and the system's reason ("Connection refused"), not the library's wrappers repeating the URL
    where, reason_and_advice = line.split(": cannot download the pinned file: ")
    reason, advice = reason_and_advice.split("; ", 1)
    assert advice == (
        "to read a local copy instead, pass --data-dir DIR, or set NEGHUB_DATA_DIR to a mirror holding a jnli-neg/ "
        "folder"
    )
    assert where == f"error: {url}/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/{UPSTREAM_FOLDER}/{TRAIN}"
    assert "127.0.0.1" not in reason and len(reason) < 60, reason
    assert not (tmp_path / "cache").exists()


def test_loader_reports_the_hub_and_the_upstream_failure_together(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pinned Hub revision that cannot be had falls through to upstream; when that fails too, both say why."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    metadata = jnli_neg.METADATA.model_copy(update={"revision": "f" * 40})
    release = find_release(metadata)
    assert release.source == "upstream"
    with pytest.raises(InputError) as caught:
        release.file(metadata.files_for("valid")[0])
    hub, upstream = caught.value.problems
    assert hub.file == f"hf://datasets/neghub/jnli-neg@{'f' * 40}"
    assert "offline mode is on" in upstream.message


def test_convert_without_a_source_fetches_the_release_and_its_license(
    shared_datasets: Path, server: UpstreamServer, env: dict[str, str], tmp_path: Path
) -> None:
    env["NEGHUB_UPSTREAM_ENDPOINT"] = server.url
    out = tmp_path / "hub-release"
    done = cli(env, "datasets", "convert", "jnli-neg", "-o", str(out))
    assert done.returncode == 0, done.stderr
    for name, digest in PINNED_SHA256.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert (out / "LICENSE").read_bytes() == (shared_datasets / "jnli-neg" / "LICENSE").read_bytes()
    assert (out / "README.md").read_text(encoding="utf-8").startswith("---\n")


class _closed_port:
    """An endpoint URL on 127.0.0.1 where nothing listens: a port bound, then released."""

    def __enter__(self) -> str:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: object) -> None:
        return None
