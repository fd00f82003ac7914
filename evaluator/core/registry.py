"""The task registry: one entry per benchmark module; a duplicate name raises, an unknown name
suggests the closest one (the inspect_ai / mteb habit)."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.core.stats import BootstrapConfig
from neghub.evaluator.releases.metadata import DatasetMetadata

BUILTIN_MODULES = (
    "neghub.evaluator.benchmarks.jnli_neg",
    "neghub.evaluator.benchmarks.jsts_neg",
    "neghub.evaluator.benchmarks.nubench",
    "neghub.evaluator.benchmarks.scn",
)


@dataclass(frozen=True)
class EvalOptions:
    """What a command line or the leaderboard passes to a task's evaluation."""

    split: str | None = None
    mode: str | None = None
    data_dir: Path | None = None
    unverified: bool = False
    bootstrap: BootstrapConfig = field(default_factory=BootstrapConfig)
    display_name: str | None = None  # how the predictions file is named in messages


@dataclass(frozen=True)
class Task:
    """A benchmark as the command line and the leaderboard see it."""

    name: str
    version: str
    metadata: DatasetMetadata
    evaluate: Callable[[Path, EvalOptions], dict[str, Any]]
    report: Callable[[dict[str, Any]], str]
    baseline: Callable[[str, EvalOptions, int], list[dict[str, Any]]]
    default_split: str | None
    modes: tuple[str, ...] = ()
    baseline_kinds: tuple[str, ...] = ("majority", "random", "constant:VALUE")
    bundled_release: Path | None = None  # a release folder shipped inside the package
    splits: tuple[str, ...] = ()  # the splits predictions may be scored on (default: every split of the release)

    @property
    def scored_splits(self) -> tuple[str, ...]:
        return self.splits or self.metadata.splits


_TASKS: dict[str, Task] = {}


def register(task: Task) -> Task:
    if task.name in _TASKS:
        raise ValueError(f"task {task.name!r} is already registered")
    _TASKS[task.name] = task
    return task


def _load_builtins() -> None:
    for module in BUILTIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # a real import error inside the module must surface
                raise


def task_names() -> list[str]:
    _load_builtins()
    return sorted(_TASKS)


def get_task(name: str) -> Task:
    _load_builtins()
    if name in _TASKS:
        return _TASKS[name]
    close = difflib.get_close_matches(name, list(_TASKS), n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else f" (known tasks: {', '.join(sorted(_TASKS))})"
    raise InputError.single("task", f"unknown task {name!r}{hint}")
