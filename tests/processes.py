"""A command in its own process, as a user runs it: its exit code and its output as text, never raising on a
non-zero exit (the test reads the code), with a timeout so that a hung command fails the test."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


def run_process(
    argv: Sequence[str | Path],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in argv], input=stdin, cwd=cwd, env=dict(env), capture_output=True, timeout=timeout, check=False
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())
