"""The plugin benchmarks NegHub's own sessions install before they build, validate or re-score (`nox -s site`,
`site_check`, `validate`, `rescore`, `submission_summary`).

They are requirement lines pinned by hash, one per line (`name==version --hash=sha256:HEX`, continued with `\\`
as pip-compile writes them; `#` comments and blank lines allowed), read from $NEGHUB_PLUGINS where it is set and
not empty (the workflows pass the repository variable of that name), else from requirements/plugins.txt of the
checkout that runs: the base branch's for a pull request's checks, whose own files are never read. Nothing but
such lines is accepted: no option (an index, an editable or a URL requirement could bring in other code), no
unpinned name. The session installs them with `pip install --no-deps --require-hashes --only-binary :all:`: the
exact wheels, no build step, no dependency resolved behind the pins (a plugin's own dependencies are listed too).

    python scripts/plugin_requirements.py            print the checked lines (nothing where there are none);
                                                     one line per bad line on stderr and exit 2
    python scripts/plugin_requirements.py --installed
                                                     print the installed distributions that declare a benchmark
                                                     (entry-point group neghub.benchmarks), NegHub excepted

Standard library only: nox runs it in a session's environment before anything else is installed there.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGINS_FILE = ROOT / "requirements" / "plugins.txt"
VARIABLE = "NEGHUB_PLUGINS"
ENTRY_POINT_GROUP = "neghub.benchmarks"
EXIT_BAD_INPUT = 2
PINNED = re.compile(
    r"(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:\[[A-Za-z0-9._,-]+\])?"
    r"==(?P<version>[A-Za-z0-9.+!_-]+)(?:\s+--hash=sha256:[0-9a-f]{64})+"
)


def source() -> tuple[str, str]:
    """Where the lines come from (for messages) and their text."""
    text = os.environ.get(VARIABLE, "")
    if text.strip():
        return f"${VARIABLE}", text
    if PLUGINS_FILE.is_file():
        return str(PLUGINS_FILE.relative_to(ROOT)), PLUGINS_FILE.read_text(encoding="utf-8")
    return str(PLUGINS_FILE.relative_to(ROOT)), ""


def requirement_lines(where: str, text: str) -> tuple[list[str], list[str]]:
    """The pinned requirement lines of `text` (continuations joined, comments dropped) and one problem per line
    that is not one."""
    lines: list[str] = []
    problems: list[str] = []
    logical, first = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        first = first or number
        content = raw.split("#", 1)[0].rstrip()
        if content.endswith("\\"):
            logical += content[:-1] + " "
            continue
        logical = " ".join((logical + content).split())
        if logical and PINNED.fullmatch(logical):
            lines.append(logical)
        elif logical:
            problems.append(
                f"{where}:{first}: expected a pinned requirement with its hash (name==version "
                f"--hash=sha256:HEX), got {logical[:200]!r}"
            )
        logical, first = "", 0
    if logical.strip():
        problems.append(f"{where}:{first}: the last line ends in a continuation (\\)")
    return lines, problems


def installed_plugins() -> list[str]:
    """The distributions of this environment that declare a benchmark, NegHub excepted."""
    names = {
        entry.dist.name
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        if entry.dist is not None and entry.dist.name.lower() != "neghub"
    }
    return sorted(names)


def main(argv: list[str]) -> int:
    if argv == ["--installed"]:
        print("\n".join(installed_plugins()))
        return 0
    if argv:
        print("usage: plugin_requirements.py [--installed]", file=sys.stderr)
        return EXIT_BAD_INPUT
    lines, problems = requirement_lines(*source())
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        return EXIT_BAD_INPUT
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
