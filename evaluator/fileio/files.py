"""Reading input files and writing outputs: one-line problems for OS errors, never a half-written output.

Outputs get the permissions any other program's new files get, `0o666` less the user's umask:
`tempfile.mkstemp`, which `atomic_write` writes through, creates its file `0o600` whatever the umask,
and a rename keeps that mode.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..core.errors import InputError


def read_bytes(path: Path, *, max_bytes: int | None = None) -> bytes:
    """Read a whole input file, turning OS errors into one-line input problems."""
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise InputError.single(str(path), f"file is {size} bytes, larger than the cap of {max_bytes} bytes")
        return path.read_bytes()
    except OSError as exc:
        raise unreadable(path, exc) from None


def unreadable(path: Path, exc: OSError) -> InputError:
    """The one-line problem of an input file the system would not read."""
    if isinstance(exc, FileNotFoundError):
        return InputError.single(str(path), "file not found")
    if isinstance(exc, IsADirectoryError):
        return InputError.single(str(path), "is a directory (expected a file)")
    return InputError.single(str(path), f"cannot be read: {exc.strerror}")


def check_readable(path: Path) -> None:
    """An input file that can be opened, before any slower work (a download, a model) that would otherwise
    report its own failure first: one-line problems as `read_bytes` gives them."""
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise unreadable(path, exc) from None


STDIN = Path("-")  # an input file given as `-` is the standard input
STDIN_NAME = "<stdin>"  # how messages name it
# what is copied of the standard input at most: one byte more than the largest file any reader takes (1 GiB),
# so that the reader's own cap reports it, and an endless stream cannot fill the disk
STDIN_COPY_BYTES = 1024 * 1024 * 1024 + 1


@contextlib.contextmanager
def input_file(path: Path) -> Iterator[Path]:
    """`path` itself, or for `-` the standard input copied into a temporary file for as long as the command
    runs (readers check a file's size, read it and hash it, which a stream allows once); the problems found in
    the copy are said of `<stdin>`."""
    if path != STDIN:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="neghub-stdin-") as folder:
        copy = Path(folder) / "stdin"
        with copy.open("wb") as handle:
            shutil.copyfileobj(_Capped(sys.stdin.buffer, STDIN_COPY_BYTES), handle)
        try:
            yield copy
        except InputError as exc:
            named = [dataclasses.replace(p, file=STDIN_NAME) if p.file == str(copy) else p for p in exc.problems]
            raise type(exc)(named) from None


class _Capped:
    """A binary stream that ends after `limit` bytes."""

    def __init__(self, stream: Any, limit: int) -> None:
        self._stream, self._left = stream, limit

    def read(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        block = self._stream.read(self._left if size < 0 else min(size, self._left))
        self._left -= len(block)
        return bytes(block)


@functools.cache
def new_file_mode() -> int:
    """`0o666` less the process's umask: the mode `open()` would give a new file.

    The umask can only be read by setting it; it is read once (set to 0, restored at once) so that no
    file created meanwhile by another thread can be made with the wrong one more than this one time.
    """
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_problem(path: Path, exc: OSError) -> InputError:
    """One line saying why `path` (an output) cannot be written, naming a file that stands where a folder must."""
    for ancestor in path.parents:
        if ancestor.exists() or ancestor.is_symlink():
            if not ancestor.is_dir():
                return InputError.single(str(path), f"cannot be written: {ancestor} is a file, not a folder")
            break
    return InputError.single(str(path), f"cannot be written: {exc.strerror or exc}")


def atomic_write(path: Path, write: Callable[[Any], None], *, mode: str = "w") -> None:
    """Write through a temporary file in the same folder, then rename: never a half-written output.

    The file gets `new_file_mode()`; an OS error (a folder that cannot be made or written, a folder
    where the file should be, a full disk) becomes one input problem naming `path`.
    """
    if path.is_dir():
        raise InputError.single(str(path), "cannot be written: is a folder (expected a file path)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise write_problem(path, exc) from None
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding, newline=None if "b" in mode else "\n") as handle:
            os.fchmod(handle.fileno(), new_file_mode())
            write(handle)
        os.replace(tmp_name, path)
    except OSError as exc:
        Path(tmp_name).unlink(missing_ok=True)
        raise write_problem(path, exc) from None
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def prepare_output_folder(folder: Path) -> bool:
    """Make `folder` (an output folder) and check a file can be created in it, before any long work starts;
    returns whether the folder was made here. An OS error becomes one input problem naming `folder`."""
    if folder.exists() and not folder.is_dir():
        raise InputError.single(str(folder), "cannot be written: is a file (expected a folder)")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".neghub-write-check.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise write_problem(folder, exc) from None
    return made
