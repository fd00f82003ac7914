"""`nox -s lowest` runs the suite where a newcomer's clone runs it (noxfile.py's `_newcomers_copy`): a copy of the
checkout as it stands, nothing beside it, no mirror, downloads refused. The newcomer's flow (tests/flows) runs only a
few modules of the suite and leaves the rest to this copy, so the copy must be the checkout a developer is testing,
edits included, and must not find ../shared. nox is not installed beside the tests: the function is read from the
noxfile's source and run on a history built here."""

from __future__ import annotations
import __future__

import ast
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .test_runner_sessions import _function


class Refused(Exception):
    pass


class Session:
    """What `_newcomers_copy` asks of a nox session."""

    def __init__(self) -> None:
        self.logged: list[str] = []

    def log(self, message: str) -> None:
        self.logged.append(message)

    def error(self, message: str) -> None:
        raise Refused(message)


def newcomers_copy(root: Path) -> Any:
    node = _function("_newcomers_copy")
    namespace: dict[str, Any] = {
        "ROOT": root, "Path": Path, "shutil": shutil, "socket": socket, "subprocess": subprocess,
    }  # fmt: skip
    code = compile(ast.Module(body=[node], type_ignores=[]), "noxfile.py", "exec", __future__.annotations.compiler_flag)
    exec(code, namespace)
    return namespace["_newcomers_copy"]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout with ../shared beside it, a commit, and edits not committed: a changed file, a deleted one, a new
    one, an ignored one."""
    repo = tmp_path / "work" / "neghub"
    (repo / "tests").mkdir(parents=True)
    (tmp_path / "work" / "shared" / "datasets" / "jnli-neg").mkdir(parents=True)
    (repo / "tests" / "test_a.py").write_text("committed\n", encoding="utf-8")
    (repo / "gone.txt").write_text("committed\n", encoding="utf-8")
    (repo / ".gitignore").write_text("ignored.txt\n", encoding="utf-8")
    (repo / "link").symlink_to("tests")
    git(repo.parent, "init", "--quiet", "neghub")
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "first")
    (repo / "tests" / "test_a.py").write_text("edited\n", encoding="utf-8")
    (repo / "gone.txt").unlink()
    (repo / "new.txt").write_text("new\n", encoding="utf-8")
    (repo / "ignored.txt").write_text("ignored\n", encoding="utf-8")
    return repo


def test_the_copy_is_the_checkout_as_it_stands_with_its_history_and_nothing_beside_it(
    checkout: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "floors"
    folder.mkdir()
    copy, env = newcomers_copy(checkout)(Session(), folder)
    assert copy == folder / "neghub"
    assert (copy / "tests" / "test_a.py").read_text(encoding="utf-8") == "edited\n"
    assert (copy / "new.txt").is_file()
    assert not (copy / "gone.txt").exists()
    assert not (copy / "ignored.txt").exists()
    assert (copy / "link").is_symlink() and os.readlink(copy / "link") == "tests"
    assert git(copy, "log", "--format=%s") == "first\n"
    # and git there sees the checkout's edits, no more
    assert git(copy, "status", "--porcelain") == git(checkout, "status", "--porcelain") != ""
    assert sorted(p.name for p in folder.iterdir()) == ["neghub"]  # no ../shared
    # no mirror (None: nox removes the variable), caches of its own, and every download refused
    assert "NEGHUB_DATA_DIR" in env and env["NEGHUB_DATA_DIR"] is None
    assert Path(env["NEGHUB_CACHE"]).is_relative_to(folder) and Path(env["HF_HOME"]).is_relative_to(folder)
    for key in ("NEGHUB_UPSTREAM_ENDPOINT", "HF_ENDPOINT"):
        host, port = env[key].removeprefix("http://").split(":")
        assert host == "127.0.0.1"
        with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
            sock.connect((host, int(port)))


def test_a_shared_folder_beside_the_copy_is_refused(checkout: Path, tmp_path: Path) -> None:
    folder = tmp_path / "floors"
    (folder / "shared").mkdir(parents=True)
    with pytest.raises(Refused, match="shared"):
        newcomers_copy(checkout)(Session(), folder)
