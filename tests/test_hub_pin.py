"""`neghub datasets pin`: a commit of Thunder-NUBench checked against the paper and pinned, through a real HTTP
server on 127.0.0.1 standing in for the Hub (tests/hub_server.py, reached through HF_ENDPOINT).

The release served is synthetic, in the layout the Hub gives a dataset (Parquet files per config and split,
the card's `configs:` saying which): its records are numbered sentences, its choice2_type counts those of the
paper. The paper's numbers are typed here from papers/nubench.txt, not read from NegHub's metadata.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import huggingface_hub.constants
import huggingface_hub.file_download
import huggingface_hub.utils
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.evaluator.protocol.metadata import HubPin, HubRelease, pin_text, read_pin
from neghub.evaluator.releases.cards import render_card, validate_card
from neghub.evaluator.releases.pin import pin_path

from .conftest import ROOT
from .hub_server import HubRepo, HubServer

REPO = "thunder-research-group/SNU_Thunder-NUBench"
REVISION = "0123456789abcdef0123456789abcdef01234567"
# papers/nubench.txt, Table 5: 3,772 sentence-negation pairs (train), 50 demonstrations, 1,261 test items
TABLE_5 = {"train": 3772, "demonstration": 50, "test": 1261}
# Table 11, choice2_type per set: 312 + 308 + 310 + 294 + 37 = 1,261 and 12 + 12 + 12 + 12 + 2 = 50
TABLE_11 = {
    "test": {"relative_part": 312, "pp_part": 308, "adverb_part": 310, "compound_part": 294, "non-applicable": 37},
    "demonstration": {"relative_part": 12, "pp_part": 12, "adverb_part": 12, "compound_part": 12, "non-applicable": 2},
}


def parquet(rows: list[dict[str, Any]]) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), sink)
    return sink.getvalue()


def items(types: dict[str, int]) -> list[dict[str, Any]]:
    kinds = [kind for kind, n in types.items() for _ in range(n)]
    return [
        {"index": i, "sentence": f"Sentence {i}.", "choice1": f"Not {i}.", "choice2_type": kind}
        for i, kind in enumerate(kinds)
    ]


def card(configs: dict[str, dict[str, str]]) -> bytes:
    """A Hub card whose front matter maps each config's splits to file patterns, as the Hub's converter writes."""
    matter = {
        "configs": [
            {"config_name": name, "data_files": [{"split": split, "path": path} for split, path in splits.items()]}
            for name, splits in configs.items()
        ],
        "license": "cc-by-nc-sa-4.0",
    }
    return f"---\n{yaml.safe_dump(matter, sort_keys=False)}---\n# Thunder-NUBench\n".encode()


def release(test: dict[str, int], demo: dict[str, int], *, demo_split: str = "demonstration") -> dict[str, bytes]:
    """The release's files: card, data (the multiple-choice items with these choice2_type counts) and attributes."""
    pairs = [{"index": i, "premise": f"P {i}.", "hypothesis": f"Not P {i}."} for i in range(TABLE_5["train"])]
    return {
        ".gitattributes": b"*.parquet filter=lfs diff=lfs merge=lfs -text\n",
        "README.md": card(
            {
                "multiple-choice": {demo_split: f"multiple-choice/{demo_split}-*", "test": "multiple-choice/test-*"},
                "sentence-negation-pair": {"train": "sentence-negation-pair/train-*"},
            }
        ),
        f"multiple-choice/{demo_split}-00000-of-00001.parquet": parquet(items(demo)),
        "multiple-choice/test-00000-of-00001.parquet": parquet(items(test)),
        "sentence-negation-pair/train-00000-of-00001.parquet": parquet(pairs),
    }


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    """The stand-in Hub with the paper's release at REVISION, huggingface_hub pointed at it, its cache the test's."""
    server = HubServer({REPO: HubRepo({REVISION: release(TABLE_11["test"], TABLE_11["demonstration"])})})
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", server.url)
    template = server.url + "/{repo_id}/resolve/{revision}/{filename}"
    monkeypatch.setattr(huggingface_hub.constants, "HUGGINGFACE_CO_URL_TEMPLATE", template)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))
    # huggingface_hub before 1.0 (at its floor, 0.25: nox -s lowest) copied the template into file_download when
    # first imported, so a later test's files were asked of the first test's server; and it keeps one HTTP
    # session per thread, made offline for good when an earlier test ran with HF_HUB_OFFLINE=1. Each test
    # passed alone and failed in the suite. 1.0 and later read the constants at every call.
    if hasattr(huggingface_hub.file_download, "HUGGINGFACE_CO_URL_TEMPLATE"):
        monkeypatch.setattr(huggingface_hub.file_download, "HUGGINGFACE_CO_URL_TEMPLATE", template)
    _new_hub_sessions()
    yield server
    server.stop()
    _new_hub_sessions()


def _new_hub_sessions() -> None:
    """huggingface_hub before 1.0: its cached HTTP sessions dropped, so that the next one is made as configured
    now (reset_sessions; later versions have none)."""
    reset = getattr(huggingface_hub.utils, "reset_sessions", None)
    if reset is not None:
        reset()


def test_the_metadata_names_thunder_nubench_with_the_paper_s_sizes() -> None:
    official = get_benchmark("nubench").metadata.official_release
    assert official is not None
    assert official.repo_id == REPO
    assert official.license == "cc-by-nc-sa-4.0"  # the paper's Ethics statement and the Hub card
    assert official.gated
    assert {e.split: e.n_records for e in official.expected} == TABLE_5
    assert {e.split: e.counts for e in official.expected if e.counts} == TABLE_11
    assert sum(TABLE_11["test"].values()) == TABLE_5["test"]
    assert "non-commercial purposes only" in (get_benchmark("nubench").metadata.license_terms or "")


def test_pin_writes_the_revision_and_the_sha256_of_every_file(hub: HubServer, tmp_path: Path, neghub: Any) -> None:
    out = tmp_path / "hub_pin.yaml"
    result = neghub("datasets", "pin", "nubench", "--revision", REVISION, "--pin-file", out)
    assert result.code == 0, result.err
    served = hub.repos[REPO].commits[REVISION]
    pinned = read_pin(out)
    assert pinned is not None
    assert pinned.revision == REVISION and pinned.repo_id == REPO
    assert {f.path: f.sha256 for f in pinned.files} == {p: hashlib.sha256(b).hexdigest() for p, b in served.items()}
    assert {f.path: f.size for f in pinned.files} == {p: len(b) for p, b in served.items()}
    assert pinned.split_sizes() == {
        ("sentence-negation-pair", "train"): 3772,
        ("multiple-choice", "demonstration"): 50,
        ("multiple-choice", "test"): 1261,
    }
    assert out.read_text(encoding="utf-8") == pin_text(pinned)  # the canonical form
    assert result.out.splitlines()[-1].startswith(f"pinned nubench to {REPO}@{REVISION} in {out}")
    # the files came from the stand-in, at the pinned commit
    assert sum("/resolve/" in request for request in hub.requests) >= len(served)
    assert all(REVISION in request for request in hub.requests if "/resolve/" in request or "/tree/" in request)


def test_a_pinned_card_loads_every_config_of_the_official_release_at_the_pin(
    hub: HubServer, tmp_path: Path, neghub: Any
) -> None:
    out = tmp_path / "hub_pin.yaml"
    assert neghub("datasets", "pin", "nubench", "--revision", REVISION, "--pin-file", out).code == 0
    metadata = get_benchmark("nubench").metadata
    official = metadata.official_release
    assert official is not None
    pinned = metadata.model_copy(update={"official_release": official.model_copy(update={"pin": read_pin(out)})})
    text = render_card(pinned, None)
    validate_card(text, None)
    for config in ("sentence-negation-pair", "multiple-choice"):
        assert f'load_dataset("{REPO}", "{config}", revision="{REVISION}")' in text
    assert f"Pinned revision: `{REVISION}`." in text
    assert "| `multiple-choice/test-00000-of-00001.parquet` | multiple-choice | test | 1,261 |" in text
    assert "is licensed under CC BY-NC-SA 4.0" in text
    assert "sample written by NegHub" in text  # NegHub still scores on its sample: the card keeps saying so


def test_pin_refuses_the_release_the_hub_card_describes_and_writes_nothing(
    hub: HubServer, tmp_path: Path, neghub: Any
) -> None:
    # the Hub card of Thunder-NUBench lists multiple-choice validation 100 and test 1,002 (not the paper's
    # demonstration 50 and test 1,261) beside 3,772 sentence-negation pairs
    other = "f" * 40
    test = {"relative_part": 250, "pp_part": 250, "adverb_part": 250, "compound_part": 250, "non-applicable": 2}
    validation = {"relative_part": 25, "pp_part": 25, "adverb_part": 25, "compound_part": 25}
    hub.repos[REPO].commits[other] = release(test, validation, demo_split="validation")
    out = tmp_path / "hub_pin.yaml"
    result = neghub("datasets", "pin", "nubench", "--revision", other, "--pin-file", out)
    assert result.code == 2
    assert result.err.splitlines() == [
        f"error: hf://datasets/{REPO}: no multiple-choice/demonstration: the paper has 50 records (Tables 5 and 11)",
        f"error: hf://datasets/{REPO}: multiple-choice/test has 1,002 records, the paper 1,261 (Tables 5 and 11)",
        f"error: hf://datasets/{REPO}: multiple-choice/validation (100 records) is not in the paper",
    ]
    assert not out.exists()


def test_pin_refuses_a_release_whose_choice2_types_are_not_the_paper_s(
    hub: HubServer, tmp_path: Path, neghub: Any
) -> None:
    other = "e" * 40
    swapped = {**TABLE_11["test"], "relative_part": 311, "pp_part": 309}  # the same 1,261 items, one moved
    hub.repos[REPO].commits[other] = release(swapped, TABLE_11["demonstration"])
    result = neghub("datasets", "pin", "nubench", "--revision", other, "--pin-file", tmp_path / "pin.yaml")
    assert result.code == 2
    assert "multiple-choice/test has 309 records with choice2_type 'pp_part', the paper 308" in result.err
    assert "multiple-choice/test has 311 records with choice2_type 'relative_part', the paper 312" in result.err
    assert result.err.count("error:") == 2


def test_pin_asks_for_a_token_where_the_release_is_gated(
    hub: HubServer, tmp_path: Path, neghub: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub.repos[REPO].gated = True
    out = tmp_path / "hub_pin.yaml"
    result = neghub("datasets", "pin", "nubench", "--revision", REVISION, "--pin-file", out)
    assert result.code != 0
    assert "the repository is gated: accept its conditions at" in result.err
    assert len(result.err.splitlines()) == 1
    monkeypatch.setenv("HF_TOKEN", "hf_test_token")  # a logged-in user who accepted the conditions
    result = neghub("datasets", "pin", "nubench", "--revision", REVISION, "--pin-file", out)
    assert result.code == 0, result.err


@pytest.mark.parametrize(
    ("revision", "message"),
    [
        ("main", "--revision: expected a commit hash (40 lowercase hex digits), got 'main'"),
        ("d" * 40, f"no commit {'d' * 40} in {REPO}"),
    ],
)
def test_pin_needs_a_commit_that_exists(
    hub: HubServer, tmp_path: Path, neghub: Any, revision: str, message: str
) -> None:
    result = neghub("datasets", "pin", "nubench", "--revision", revision, "--pin-file", tmp_path / "pin.yaml")
    assert result.code == 2
    assert message in result.err


def test_pin_dry_run_reaches_the_hub_that_hf_endpoint_names_and_writes_nothing(hub: HubServer, tmp_path: Path) -> None:
    # the command line in a process of its own, configured as a user would: HF_ENDPOINT, HF_HOME
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_ENDPOINT=hub.url, HF_HOME=str(tmp_path / "hf-home"), PYTHONPATH=str(ROOT))
    out = tmp_path / "hub_pin.yaml"
    dry_run = ["--pin-file", str(out), "--dry-run"]
    done = subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", "datasets", "pin", "nubench", "--revision", REVISION, *dry_run],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("OK        ") == 5  # every file of the release, data or not
    assert done.stdout.splitlines()[-1] == f"would pin nubench to {REPO}@{REVISION} in {out}"
    assert not out.exists()


def test_a_pin_that_differs_from_the_paper_does_not_load() -> None:
    official = get_benchmark("nubench").metadata.official_release
    assert official is not None
    pin = {
        "repo_id": REPO,
        "revision": REVISION,
        "files": [
            {"path": "a.parquet", "size": 1, "sha256": "0" * 64, "config": "multiple-choice", "split": "test"}
            | {"n_records": 1260}  # the paper: 1,261
        ],
    }
    with pytest.raises(ValueError, match="differ from the paper's"):
        HubRelease.model_validate({**official.model_dump(), "pin": pin})


@pytest.mark.parametrize("task", benchmark_names())
def test_a_committed_pin_is_in_its_canonical_form(task: str) -> None:
    # a hand edit shows; the metadata has already checked the pinned sizes against the paper's on import
    path = pin_path(task)
    if not path.is_file():
        assert get_benchmark(task).metadata.official_release is None or (
            get_benchmark(task).metadata.official_release.pin is None  # type: ignore[union-attr]
        )
        return
    pinned = read_pin(path)
    assert isinstance(pinned, HubPin)
    assert path.read_text(encoding="utf-8") == pin_text(pinned)
    assert json.loads(json.dumps(pinned.model_dump(mode="json")))  # plain data, nothing else
