"""A real HTTP server on 127.0.0.1 serving ../shared/datasets/jnli-neg under the upstream path layout
(`/asahi-y/JNLI-Neg/<commit>/data/jnli-neg-v1.1/<file>`, `/asahi-y/JNLI-Neg/<commit>/LICENSE`), as
raw.githubusercontent.com serves the pinned commit. NegHub reaches it through NEGHUB_UPSTREAM_ENDPOINT.

Used by the tests and runnable on its own (`python tests/upstream_server.py SHARED_DATASETS PORT`) for
the flows that run nox in a fresh clone.
"""

from __future__ import annotations

import functools
import shutil
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# where SOURCE.md says the release lives: repository, commit and folder (the test's own copy of the pin)
UPSTREAM_REPOSITORY = "asahi-y/JNLI-Neg"
UPSTREAM_COMMIT = "cbd89b97da4981c2c64eef65747a87130787b343"
UPSTREAM_FOLDER = "data/jnli-neg-v1.1"
FILES = ("jnli-neg-train-v1.1.jsonl", "jnli-neg-valid-v1.1.jsonl")
# the sha256s of ../shared/datasets/jnli-neg/SHA256SUMS, copied here by hand: the tests' own record of the
# pins (a runner without ../shared serves the copy `nox -s data` fetched, whose hashes must still be these)
PINNED_SHA256 = {
    "jnli-neg-train-v1.1.jsonl": "adc27dfba32e0c56c5f4bc84c03e346dcb4a73266ca9b7db38bfa8d379247302",
    "jnli-neg-valid-v1.1.jsonl": "da5c18369face5a6e338b67732c9beeef4aefd0937f314e9249119e2d988ea03",
}


def build_site(shared_datasets: Path, www: Path) -> Path:
    """Lay the release out under `www` as the upstream host serves it; returns the commit's folder."""
    commit_dir = www / UPSTREAM_REPOSITORY / UPSTREAM_COMMIT
    folder = commit_dir / UPSTREAM_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(shared_datasets / "jnli-neg" / name, folder / name)
    shutil.copyfile(shared_datasets / "jnli-neg" / "LICENSE", commit_dir / "LICENSE")
    return commit_dir


class _QuietHandler(SimpleHTTPRequestHandler):
    requests: list[str]

    def log_message(self, format: str, *args: object) -> None:
        type(self).requests.append(self.path)


class UpstreamServer:
    """A started server; `url` is what NEGHUB_UPSTREAM_ENDPOINT takes, `requests` the paths asked for."""

    def __init__(self, www: Path) -> None:
        handler = type("Handler", (_QuietHandler,), {"requests": []})
        self._handler = handler
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(www)))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    @property
    def requests(self) -> list[str]:
        return list(self._handler.requests)

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


if __name__ == "__main__":
    import time

    site = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("upstream-www")
    build_site(Path(sys.argv[1]), site)
    server = UpstreamServer(site)
    print(server.url, flush=True)
    while True:
        time.sleep(3600)
