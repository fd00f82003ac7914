"""The benchmarks whose releases the cards and `neghub datasets` describe, looked up in the registry when
used (the registry imports every benchmark, whose metadata imports this package)."""

from __future__ import annotations

import importlib
from typing import Any

from ..protocol.metadata import DatasetMetadata


def benchmark_of(task: str) -> Any:
    from ..core.registry import get_benchmark

    return get_benchmark(task)


def metadata_of(task: str) -> DatasetMetadata:
    return benchmark_of(task).metadata  # type: ignore[no-any-return]


def available_tasks() -> list[str]:
    from ..core.registry import benchmark_names

    return benchmark_names()


def metadata_module(task: str) -> Any:
    """The module that defines a benchmark's DatasetMetadata: its folder's metadata.py, else the folder itself."""

    from ..core.registry import source_of

    package = source_of(task)
    try:
        return importlib.import_module(f"{package}.metadata")
    except ModuleNotFoundError:
        return importlib.import_module(package)


def metadata_source(task: str) -> str:
    """Where a benchmark's pinned revision is recorded, as a path in the repository (shown on its card)."""
    module = metadata_module(task)
    name = str(module.__name__).removeprefix("neghub.")
    path = name.replace(".", "/") + (".py" if not str(module.__file__).endswith("__init__.py") else "/__init__.py")
    return path
