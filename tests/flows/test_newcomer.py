"""A newcomer's first try (`nox -s github_flows`): the README's two commands, exactly as the README writes them and
in its order (build the leaderboard, then run the tests), in a throwaway clone with no `shared/` beside it and a
throwaway cache, with the network out of reach.

"Offline" is modelled as a newcomer meets it: nothing set to say so, every download failing. NegHub's upstream
host and the Hugging Face Hub are pointed at a closed port on 127.0.0.1 (NEGHUB_UPSTREAM_ENDPOINT, HF_ENDPOINT), so
each download is tried and refused, which is the path that once left an empty `releases/jnli-neg/` in the cache.
NEGHUB_OFFLINE=1 would model a user who knows to say so, and would never reach that path. pip still reaches its
index: a newcomer offline could not have installed nox either.

The build must exit 0 and tell its readers that rows are missing; the cache must hold no release it could not
fetch; the tests must pass or skip, never fail, also where an older NegHub left an empty release folder in the
cache (the tests session must not take it for a mirror).

The README's test command runs as written, but pytest (through its own PYTEST_ADDOPTS, which a newcomer does not
set) runs only NEWCOMERS_TESTS there: the tests of the real release, which must skip and say why, the README's
commands and the skip summary's lines. The whole suite under the same conditions (a copy of the checkout with
nothing beside it, no mirror, empty caches, downloads refused) is `nox -s lowest`'s, at the floors; a second whole
run here cost CI about eight minutes of its seventeen.

The clone builds its own environments, as a newcomer's does: pip's and uv's caches are kept (no NegHub state), so
they are built from them. The outer run's environments are not shared: a link to them would make the installer write
the clone's path into the scripts it reinstalls there (`neghub`'s first line), which dies with the clone.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..test_readme_commands import bash_blocks

pytestmark = pytest.mark.flows
ROOT = Path(__file__).resolve().parents[2]
# what pytest runs of the suite in the newcomer's `nox -s tests`
NEWCOMERS_TESTS = ("tests/test_jnli_neg_release.py", "tests/test_readme_commands.py", "tests/test_skip_reasons.py")


def readme_block(session: str) -> str:
    """The README's bash block that ends with `nox -s SESSION`, as written."""
    (block,) = [b for b in bash_blocks() if b.strip().endswith(f"nox -s {session}")]
    return block


def closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def newcomers_environment(cache: Path) -> dict[str, str]:
    """The outer environment less everything NegHub, nox, the Hub and this test run set, and less the outer nox
    environment on PATH (`python3` must be the system's, as on a newcomer's machine)."""
    outer_bin = str(Path(sys.prefix) / "bin")
    dropped = ("NEGHUB_", "NOX_", "UV_", "HF_", "HUGGING_FACE_", "PYTEST_", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p and p != outer_bin)
    # pip's and uv's caches are no NegHub state: kept where they were, so that the installs download nothing again
    user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    pip_cache = os.environ.get("PIP_CACHE_DIR") or str(user_cache / "pip")
    uv_cache = os.environ.get("UV_CACHE_DIR") or str(user_cache / "uv")
    unreachable = closed_port()
    env.update(
        {
            "XDG_CACHE_HOME": str(cache),  # NegHub's cache (and the Hub's) start empty
            "PIP_CACHE_DIR": pip_cache,
            "UV_CACHE_DIR": uv_cache,
            "NEGHUB_UPSTREAM_ENDPOINT": unreachable,
            "HF_ENDPOINT": unreachable,
        }
    )
    return env


def bash(block: str, clone: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        ["bash", "-c", block], cwd=clone, env=env, capture_output=True, text=True, timeout=3600, check=False
    )
    return done, time.monotonic() - started


def test_the_readme_commands_pass_in_order_offline_without_shared(tmp_path: Path) -> None:
    work = tmp_path / "laptop"
    clone = work / "neghub"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, capture_output=True)
    assert not (work / "shared").exists()
    cache = tmp_path / "cache"
    env = newcomers_environment(cache)

    built, build_seconds = bash(readme_block("site"), clone, env)
    log = built.stdout + built.stderr
    assert built.returncode == 0, log[-4000:]
    assert "Traceback" not in log
    # one short line per run left out, the download's failure said once in it
    left_out = [line for line in log.splitlines() if ": left out: this build could not read the " in line]
    assert left_out and all(len(line) < 400 and line.count("http") == 1 for line in left_out), left_out
    home = (clone / "public" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"Rows are missing: this build could not read the JNLI-Neg release, so \d+ runs", home)
    # nothing of a release it could not fetch is left in the cache: no partial or empty folder
    assert not (cache / "neghub").exists() or not any((cache / "neghub").rglob("*")), list(cache.rglob("*"))

    # what an older NegHub left after the same failed build: an empty release folder
    (cache / "neghub" / "releases" / "jnli-neg").mkdir(parents=True)
    tested, test_seconds = bash(readme_block("tests"), clone, {**env, "PYTEST_ADDOPTS": " ".join(NEWCOMERS_TESTS)})
    log = tested.stdout + tested.stderr
    assert tested.returncode == 0, log[-6000:]
    assert "not a mirror for the tests" in log  # the session saw the folder and did not use it
    # one run of pytest, its summary
    (summary,) = [line for line in log.splitlines() if re.search(r"\d+ passed.* in [\d.]+s", line)]
    assert " failed" not in summary and " error" not in summary, summary
    assert re.search(r"\d+ skipped", summary), summary  # what needs the release, and only that, skips
    # and the run says why, with the fix, in one line
    assert re.search(
        r"^\s+\d+ skipped: \.\./shared is not beside this checkout .*: put the shared folder", log, re.M
    ), log[-3000:]
    print(f"newcomer: nox -s site {build_seconds:.0f} s, nox -s tests {test_seconds:.0f} s; {summary.strip('= ')}")
