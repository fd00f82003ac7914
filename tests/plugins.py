"""Plugins on the path, as a third party's install puts them there: distributions installed (pip) or written
(a package and its dist-info, entry points included) into a temporary site folder, and NegHub's installed command
line and modules run in a subprocess with that folder on PYTHONPATH, where importlib.metadata finds them. The
test environment itself never sees them; nothing of NegHub's registry is patched."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ENTRY_POINT_GROUP = "neghub.benchmarks"


def _setuptools_builds_wheels() -> bool:
    """Whether this environment's setuptools builds a wheel alone (70.1 and later carry bdist_wheel)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    major, minor = (int(part) for part in importlib.metadata.version("setuptools").split(".")[:2])
    return (major, minor) >= (70, 1)


def pip_install(source: Path, target: Path) -> None:
    """`pip install --no-deps --target`: offline with the environment's own setuptools where it can build the
    wheel, else pip's isolated build fetches the backend from the index."""
    offline = ["--no-build-isolation", "--no-index"] if _setuptools_builds_wheels() else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *offline, "--target", str(target), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def write_distribution(site: Path, distribution: str, version: str, entry_points: dict[str, str], code: str) -> None:
    """A distribution as an installer leaves it in `site`: its module (named after it, `code` its source) and its
    dist-info, whose entry_points.txt names `entry_points` (benchmark name -> object) in NegHub's group."""
    module = distribution.replace("-", "_")
    (site / module).mkdir(parents=True)
    (site / module / "__init__.py").write_text(code, encoding="utf-8")
    info = site / f"{module}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8")
    (info / "top_level.txt").write_text(f"{module}\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")


@dataclass(frozen=True)
class Installed:
    """Site folders holding plugins, and how to run NegHub's installed code with them on the path (before
    whatever PYTHONPATH the tests run with, so that the runs differ from the test environment's only by them)."""

    sites: tuple[Path, ...]

    def env(self, **extra: str) -> dict[str, str]:
        paths = [*map(str, self.sites), *filter(None, [os.environ.get("PYTHONPATH")])]
        return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **extra}

    def neghub(self, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        script = Path(sys.executable).parent / "neghub"  # the console script of the test environment
        command = [str(script)] if script.is_file() else [sys.executable, "-m", "neghub.evaluator.cli"]
        return self.run([*command, *map(str, args)], cwd)

    def module(self, name: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return self.run([sys.executable, "-m", name, *map(str, args)])

    def run(self, command: list[str], cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, env=self.env(**env), cwd=cwd, capture_output=True, text=True, timeout=600, check=False
        )


def complaints(stderr: str) -> list[str]:
    """The lines of stderr that are not a plugin's warning (other plugins may be installed beside the test's)."""
    return [line for line in stderr.splitlines() if not line.startswith("warning: the plugin benchmark ")]
