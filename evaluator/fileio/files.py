"""Reading input files and writing outputs: one-line problems for OS errors, never a half-written output."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from neghub.evaluator.core.errors import InputError


def read_bytes(path: Path, *, max_bytes: int | None = None) -> bytes:
    """Read a whole input file, turning OS errors into one-line input problems."""
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise InputError.single(str(path), f"file is {size} bytes, larger than the cap of {max_bytes} bytes")
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError.single(str(path), "file not found") from None
    except IsADirectoryError:
        raise InputError.single(str(path), "is a directory (expected a file)") from None
    except OSError as exc:
        raise InputError.single(str(path), f"cannot be read: {exc.strerror}") from None


def atomic_write(path: Path, write: Callable[[Any], None], *, mode: str = "w") -> None:
    """Write through a temporary file in the same folder, then rename: never a half-written output."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding, newline=None if "b" in mode else "\n") as handle:
            write(handle)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
