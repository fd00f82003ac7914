"""A submission whose pinned Hub model NegHub's runner cannot hold is refused with the limit, before it is queued:
its size is the Hub's answer for the pinned revision (recorded payloads, shaped as the Hub's
`GET /api/models/{repo_id}/revision/{revision}?blobs=true` answers, served on 127.0.0.1)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.submissions.pin_size import GIB, main, read_pinned_size
from tests.histories import hub_model, jnli_run, metadata_yaml

SMALL = "a" * 40
LARGE = "b" * 40
GATED = "c" * 40


def _sibling(name: str, size: int, lfs: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {"rfilename": name, "blobId": "0" * 40, "size": size}
    if lfs:
        entry["lfs"] = {"sha256": "1" * 64, "size": size, "pointerSize": 134}
    return entry


# the Hub's answers (model_info with blobs): a 135M model in one safetensors file (and a .bin copy it does not load),
# and a 70B model in 30 shards of about 4.7 GB (bfloat16: 141 GB)
ANSWERS: dict[str, dict[str, Any]] = {
    f"/api/models/org/small/revision/{SMALL}?blobs=true": {
        "id": "org/small",
        "sha": SMALL,
        "siblings": [
            _sibling("config.json", 861, lfs=False),
            _sibling("model.safetensors", 269_060_552),
            _sibling("pytorch_model.bin", 269_078_370),
        ],
        "safetensors": {"parameters": {"BF16": 134_515_008}, "total": 134_515_008},
    },
    f"/api/models/org/large/revision/{LARGE}?blobs=true": {
        "id": "org/large",
        "sha": LARGE,
        "siblings": [_sibling("config.json", 700, lfs=False)]
        + [_sibling(f"model-{i:05d}-of-00030.safetensors", 4_703_000_000) for i in range(1, 31)],
        "safetensors": {"parameters": {"BF16": 70_553_706_496}, "total": 70_553_706_496},
    },
}


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    asked: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            asked.append(self.path)
            if GATED in self.path:
                status, body, code = 401, b'{"error": "Access to model org/gated is restricted."}', "GatedRepo"
            elif self.path in ANSWERS:
                status, body, code = 200, json.dumps(ANSWERS[self.path]).encode(), ""
            else:
                status, body, code = 404, b'{"error": "Revision Not Found"}', "RevisionNotFound"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            if code:
                self.send_header("X-Error-Code", code)
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    yield asked
    server.shutdown()


def _submission(tmp_path: Path, repo: str, revision: str) -> Path:
    folder = tmp_path / "submissions" / "some-model"
    folder.mkdir(parents=True)
    model = hub_model("Some Model", repo, revision)
    (folder / "metadata.yaml").write_text(metadata_yaml(model, "carol", [jnli_run({0: "neutral"})[0]]))
    return folder


def test_the_size_is_the_sum_of_the_files_a_rerun_loads(hub: list[str]) -> None:
    small = read_pinned_size("org/small", SMALL)
    assert (small.files, small.total_bytes) == (("model.safetensors",), 269_060_552)  # not the .bin copy
    large = read_pinned_size("org/large", LARGE)
    assert len(large.files) == 30 and large.total_bytes == 30 * 4_703_000_000
    assert hub == [
        f"/api/models/org/small/revision/{SMALL}?blobs=true",
        f"/api/models/org/large/revision/{LARGE}?blobs=true",
    ]


def test_a_model_the_runner_cannot_hold_is_refused_with_the_limit(
    hub: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(_submission(tmp_path / "s", "org/small", SMALL))]) == 0
    assert main([str(_submission(tmp_path / "l", "org/large", LARGE))]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    # 141.1e9 bytes = 131.4 GiB, over the 60 GiB the runner holds
    assert line.startswith(f"error: model org/large@{LARGE}: its weights are 131.4 GiB (30 files), more than NegHub's")
    assert "(60 GiB)" in line
    # a runner with more memory holds it
    assert main([str(_submission(tmp_path / "m", "org/large", LARGE)), "--limit-gib", "140"]) == 0
    assert 140 * GIB > 30 * 4_703_000_000


def test_a_model_the_hub_cannot_describe_is_refused_in_one_line(
    hub: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(_submission(tmp_path / "g", "org/gated", GATED))]) == 2
    assert main([str(_submission(tmp_path / "x", "org/small", "d" * 40))]) == 2
    gated, missing = capsys.readouterr().err.splitlines()
    assert "the Hub cannot describe it (GatedRepo)" in gated and "without a token" in gated
    assert "(RevisionNotFound): pin a repository and a commit that exist" in missing
