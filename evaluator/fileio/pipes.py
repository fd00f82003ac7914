"""Output into a pipe whose reader may leave early (`neghub evaluate FILE --json | head -c 600`).

Python ignores SIGPIPE, so a write after the reader has gone raises BrokenPipeError wherever the command is,
and the interpreter's last flush of the stream raises it once more, as a message no command can catch.
`reader_may_leave` wraps the standard streams for the length of a command: from the first write its reader
does not take, that stream's writes are dropped and its descriptor points at the null device, so the
command runs to its end and exits with its own status (2 for a refused file, as without the pipe), printing
no traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class _QuietWhenClosed:
    """A text stream that passes everything to `stream` until its reader goes away, then drops what follows."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._drop_the_rest()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._drop_the_rest()

    def _drop_the_rest(self) -> None:
        self.reader_gone = True
        try:
            descriptor = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return  # not a file descriptor (a test's capture): nothing flushes it at exit
        # what the stream still buffers is flushed at the interpreter's exit: into the null device, quietly
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, descriptor)
        finally:
            os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """sys.stdout and sys.stderr, for the block, dropping what a closed pipe does not take (module docstring)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = _QuietWhenClosed(saved[0])  # writes and flushes like a TextIO (sys.stdout is typed TextIO | Any)
    sys.stderr = _QuietWhenClosed(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
