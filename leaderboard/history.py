"""When each submission landed on main: the commit that first added its metadata.yaml (git history).

"Latest submissions" is ordered by this, never by the date a submitter typed. Where the build has no git
history (an sdist, a copy of the folder), no landing date is known and the site says so.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path


def landing_dates(submissions: Path) -> dict[str, str]:
    """Submission id -> the ISO date-time (UTC) of the commit that first added submissions/<id>/metadata.yaml."""
    try:
        done = subprocess.run(
            [
                "git",
                "-C",
                str(submissions),
                "log",
                "--reverse",
                "--diff-filter=A",
                "--format=%x00%ct",  # seconds since the epoch: ISO dates in other offsets would not sort
                "--name-only",
                "--relative",
                "--",
                ".",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    dates: dict[str, str] = {}
    current = ""
    for line in done.stdout.splitlines():
        if line.startswith("\x00"):
            current = datetime.fromtimestamp(int(line[1:]), tz=UTC).isoformat()
        elif line.endswith("/metadata.yaml") and line.count("/") == 1:
            dates.setdefault(line.split("/", 1)[0], current)  # the first commit that added it
    return dates
