"""A re-run's progress: what it compared so far, written after each run so that a killed re-run resumes there
(`_Progress`, `<output>/<id>.in-progress`), and the items done with an estimate of what is left from the re-run's own
rate (`_Clock`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from ..fileio.files import atomic_write
from ..submissions.reproduction import ReproducedRun
from .rerun_compare import _sha256


def _note(text: str) -> None:
    print(text, file=sys.stderr)


RESUME_SUFFIX = ".in-progress"


class _Progress:
    """What a re-run compared so far (`output/<id>.in-progress`, written after each run), to resume from."""

    def __init__(self, output: Path, submission: str, key: dict[str, Any], date: str, runs: dict[str, Any]) -> None:
        self.path = output / f"{submission}{RESUME_SUFFIX}"
        self.folder = output / submission
        self.key, self.date, self.runs = key, date, runs

    @classmethod
    def read(cls, output: Path, submission: str, key: dict[str, Any]) -> _Progress | None:
        path = output / f"{submission}{RESUME_SUFFIX}"
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(saved, dict) or saved.get("key") != key:
            _note(f"{path} is of another re-run (submission, model, setting, tolerance or tasks): starting over")
            return None
        _note(f"resuming from {path}")
        return cls(output, submission, key, str(saved["date"]), dict(saved["runs"]))

    def finished(self, file: str) -> ReproducedRun | None:
        """The run as compared before, if its kept answers are still the bytes it compared."""
        saved = self.runs.get(file)
        if saved is None:
            return None
        run = ReproducedRun.model_validate(saved)
        kept = self.folder / (run.rerun_file or file)
        if not kept.is_file() or _sha256(kept) != run.rerun_sha256:
            return None
        probe = None if run.probe is None else self.folder / run.probe.probe_file
        if run.probe is not None and (probe is None or not probe.is_file() or _sha256(probe) != run.probe.probe_sha256):
            return None
        return run

    def save(self, run: ReproducedRun) -> None:
        self.runs[run.file] = run.model_dump(mode="json")
        text = json.dumps({"key": self.key, "date": self.date, "runs": self.runs}, ensure_ascii=False, indent=1)
        atomic_write(self.path, lambda handle: handle.write(text + "\n"))

    def finish(self) -> None:
        """The re-run ended: its partial record goes, and the temporary files a killed one left beside it (a kill
        during a write leaves its `.NAME.*.tmp`; the folder of answers is swept by the caller)."""
        self.path.unlink(missing_ok=True)
        submission = self.folder.name
        for name in (f"{submission}{RESUME_SUFFIX}", f"{submission}.json"):
            for stale in self.path.parent.glob(f".{name}.*.tmp"):
                stale.unlink(missing_ok=True)


class _Clock:
    """Progress in items and an estimate of what is left from this re-run's own rate (items done / time taken)."""

    EVERY_S = 30.0

    def __init__(self, total: int) -> None:
        self.total, self.done, self.skipped = total, 0, 0
        self.start = self.last = time.monotonic()

    def skip(self, items: int) -> None:
        self.skipped += items

    def advance(self, items: int, file: str) -> None:
        self.done += items
        if time.monotonic() - self.last >= self.EVERY_S:
            _note(f"  {file}: {self.line()}")

    def line(self) -> str:
        self.last = now = time.monotonic()
        elapsed = now - self.start
        left = self.total - self.done - self.skipped
        rate = self.done / elapsed if elapsed > 0 else 0.0
        estimate = f"about {_duration(left / rate)} left at {rate:.3g} items/s" if rate > 0 else "no rate yet"
        return f"{self.done + self.skipped}/{self.total} items of the re-run done in {_duration(elapsed)}; {estimate}"


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
