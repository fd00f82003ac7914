"""Loading a pinned release from the Hugging Face Hub cache, offline, through the real `find_release`.

The Hub cannot be reached here, so the test builds the cache layout huggingface_hub itself reads
(`datasets--ORG--NAME/snapshots/<commit>/<files>`, `refs/main`) and turns offline mode on; nothing
of our loader is replaced.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.benchmarks import jnli_neg
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.families.minimal_pairs import load_split
from neghub.evaluator.releases import commands as hub
from neghub.evaluator.releases.loading import DATA_DIR_ENV, find_release

from .hub_server import HubServer

REVISION = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def hub_cache(shared_datasets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A huggingface_hub cache holding neghub/jnli-neg at REVISION, with offline mode on."""
    from huggingface_hub import constants

    cache = tmp_path / "hub"
    repo = cache / "datasets--neghub--jnli-neg"
    snapshot = repo / "snapshots" / REVISION
    snapshot.mkdir(parents=True)
    for name in ("jnli-neg-train-v1.1.jsonl", "jnli-neg-valid-v1.1.jsonl"):
        shutil.copyfile(shared_datasets / "jnli-neg" / name, snapshot / name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(REVISION)
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # huggingface_hub reads both variables once, when it is imported; set what it reads at call time too
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    return snapshot


@pytest.fixture
def answering_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    """A stand-in Hub on 127.0.0.1 that holds no repository (every request gets the Hub's 404) and records each
    request, with huggingface_hub online and pointed at it."""
    from huggingface_hub import constants

    server = HubServer({})
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", server.url)
    yield server
    server.stop()


def _hub_only(revision: str) -> Any:
    """JNLI-Neg's metadata pinned at `revision` and served by the Hub alone (no upstream URLs to fall back on: see
    test_upstream.py for that)."""
    files = tuple(f.model_copy(update={"upstream_url": None}) for f in jnli_neg.METADATA.files)
    return jnli_neg.METADATA.model_copy(update={"revision": revision, "files": files})


def test_pinned_revision_loads_from_the_hub_cache(hub_cache: Path) -> None:
    metadata = jnli_neg.METADATA.model_copy(update={"revision": REVISION})
    release = find_release(metadata)
    assert release.source == "hub"
    assert release.root == hub_cache
    assert release.revision == REVISION
    dataset = load_split("jnli-neg", "valid", release, jnli_neg.parse_record)
    assert dataset.verified
    # valid: 186 originals + 1,177 negated instances = 1,363 (SOURCE.md)
    assert dataset.ids.size == 1363
    assert int(dataset.is_original.sum()) == 186


def test_a_revision_the_hub_does_not_serve_is_one_clear_line(hub_cache: Path, answering_hub: HubServer) -> None:
    # online, from a Hub that has no such repository (offline: test_neghub_offline_alone_keeps_the_hub_loader_off_...)
    with pytest.raises(InputError) as caught:
        find_release(_hub_only("f" * 40))
    (problem,) = caught.value.problems
    assert problem.file == f"hf://datasets/neghub/jnli-neg@{'f' * 40}"
    assert problem.message.startswith("cannot get the pinned release from the Hub")
    # the loader called on its own, not by a command: only the variable is named (no option to pass)
    assert problem.message.endswith(
        "to read a local copy instead, set NEGHUB_DATA_DIR to a mirror holding a jnli-neg/ folder"
    )


def test_neghub_offline_alone_keeps_the_hub_loader_off_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answering_hub: HubServer
) -> None:
    # NEGHUB_OFFLINE=1 promises no request at all (releases/upstream.py); huggingface_hub itself reads only
    # HF_HUB_OFFLINE, once, at import. A Hub that answers stands ready: any request it gets breaks the promise.
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    monkeypatch.setenv("NEGHUB_OFFLINE", "1")
    with pytest.raises(InputError) as caught:
        find_release(_hub_only(REVISION))
    assert answering_hub.requests == []
    (problem,) = caught.value.problems
    assert problem.file == f"hf://datasets/neghub/jnli-neg@{REVISION}"
    assert problem.message == (
        "not in the Hugging Face cache and offline mode is on (NEGHUB_OFFLINE or HF_HUB_OFFLINE): run once "
        "online, or, to read a local copy, set NEGHUB_DATA_DIR to a mirror holding a jnli-neg/ folder"
    )


def test_neghub_offline_alone_reads_the_hub_cache(
    hub_cache: Path, monkeypatch: pytest.MonkeyPatch, answering_hub: HubServer
) -> None:
    # the stand-in Hub answers every request with a 404: a request would be seen, and fail the read
    monkeypatch.setenv("NEGHUB_OFFLINE", "1")
    release = find_release(jnli_neg.METADATA.model_copy(update={"revision": REVISION}))
    assert (release.source, release.root) == ("hub", hub_cache)
    assert answering_hub.requests == []


def test_a_changed_file_in_the_cache_is_refused(hub_cache: Path) -> None:
    target = hub_cache / "jnli-neg-valid-v1.1.jsonl"
    target.write_bytes(target.read_bytes().replace(b"entailment", b"neutral", 1))
    release = find_release(jnli_neg.METADATA.model_copy(update={"revision": REVISION}))
    with pytest.raises(InputError, match="sha256 mismatch"):
        load_split("jnli-neg", "valid", release, jnli_neg.parse_record)


def test_verify_checks_the_cached_snapshot(
    hub_cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned = jnli_neg.METADATA.model_copy(update={"revision": REVISION})

    def metadata_of(task: str) -> Any:
        assert task == "jnli-neg"
        return pinned

    monkeypatch.setattr(hub, "metadata_of", metadata_of)  # the registry's metadata has no revision yet
    assert hub.verify(None, ["jnli-neg"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in out] == [
        ["OK", str(hub_cache / "jnli-neg-train-v1.1.jsonl")],
        ["OK", str(hub_cache / "jnli-neg-valid-v1.1.jsonl")],
    ]
