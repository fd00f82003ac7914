"""A stand-in for the Hugging Face Hub on 127.0.0.1: the few routes `huggingface_hub.snapshot_download` of a
dataset at a commit reads, serving releases built in the test. `HF_ENDPOINT` points huggingface_hub at it.

Routes (those of the Hub's API that the library calls, with the headers it reads):
- GET `/api/datasets/ORG/NAME/revision/REV`: the repository at a revision (`sha`, `siblings`);
- GET `/api/datasets/ORG/NAME/tree/REV[/PATH]`: its files, each with its size and git blob id;
- HEAD and GET `/datasets/ORG/NAME/resolve/REV/PATH`: a file, with `X-Repo-Commit` and `ETag`.
An unknown repository, revision or file answers 404 with the `X-Error-Code` the Hub sends, and a gated
repository answers 401 `GatedRepo` to a request without a token, as the Hub does.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit


def blob_id(content: bytes) -> str:
    """The git blob id of `content`, which the Hub gives as a file's `oid`."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


@dataclass
class HubRepo:
    """A dataset repository: its commits (40-hex) and the files of each."""

    commits: dict[str, dict[str, bytes]]
    gated: bool = False


@dataclass
class HubServer:
    """A started server; `url` is what HF_ENDPOINT takes, `requests` the paths asked for."""

    repos: dict[str, HubRepo]
    requests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                hub.requests.append(f"{self.command} {self.path}")

            def do_HEAD(self) -> None:
                self._answer(with_body=False)

            def do_GET(self) -> None:
                self._answer(with_body=True)

            def _send(self, status: int, body: bytes, headers: dict[str, str], with_body: bool) -> None:
                self.send_response(status)
                for name, value in {"Content-Length": str(len(body)), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                if with_body:
                    self.wfile.write(body)

            def _error(self, code: str, message: str, with_body: bool, status: int = 404) -> None:
                body = json.dumps({"error": message}).encode()
                self._send(status, body, {"X-Error-Code": code, "Content-Type": "application/json"}, with_body)

            def _answer(self, *, with_body: bool) -> None:
                parts = [unquote(p) for p in urlsplit(self.path).path.split("/")[1:]]
                api = parts[:2] == ["api", "datasets"]
                if api and len(parts) >= 6 and parts[4] in ("revision", "tree"):
                    repo_id, route, revision, rest = f"{parts[2]}/{parts[3]}", parts[4], parts[5], parts[6:]
                elif not api and parts[:1] == ["datasets"] and len(parts) >= 6 and parts[3] == "resolve":
                    repo_id, route, revision, rest = f"{parts[1]}/{parts[2]}", "resolve", parts[4], parts[5:]
                else:
                    self._error("EntryNotFound", f"no route {self.path}", with_body)
                    return
                repo = hub.repos.get(repo_id)
                if repo is None:
                    self._error("RepoNotFound", f"Repository {repo_id} not found", with_body)
                    return
                if repo.gated and not self.headers.get("Authorization"):
                    self._error("GatedRepo", f"Access to dataset {repo_id} is restricted", with_body, status=401)
                    return
                files = repo.commits.get(revision)
                if files is None:
                    self._error("RevisionNotFound", f"Invalid rev id: {revision}", with_body)
                    return
                json_headers = {"Content-Type": "application/json"}
                if route == "revision":
                    info = {"id": repo_id, "sha": revision, "private": False, "gated": repo.gated and "auto"}
                    info["siblings"] = [{"rfilename": path} for path in sorted(files)]
                    self._send(200, json.dumps(info).encode(), json_headers, with_body)
                elif route == "tree":
                    prefix = "/".join(rest)
                    listed = [
                        {"type": "file", "oid": blob_id(content), "size": len(content), "path": path}
                        for path, content in sorted(files.items())
                        if not prefix or path.startswith(prefix + "/")
                    ]
                    self._send(200, json.dumps(listed).encode(), json_headers, with_body)
                else:
                    path = "/".join(rest)
                    if path not in files:
                        self._error("EntryNotFound", f"{path} does not exist at {revision}", with_body)
                        return
                    content = files[path]
                    headers = {"X-Repo-Commit": revision, "ETag": f'"{blob_id(content)}"'}
                    self._send(200, content, headers, with_body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
