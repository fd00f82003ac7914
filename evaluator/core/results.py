"""The provenance every result carries: task and evaluator versions, dataset pins, file hashes."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from neghub.evaluator import __version__
from neghub.evaluator.core.stats import BootstrapConfig
from neghub.evaluator.releases.loading import Release, ResolvedFile


def provenance(
    *,
    task: str,
    task_version: str,
    split: str | None,
    predictions: Path,
    release: Release | None,
    dataset_file: ResolvedFile | None,
) -> dict[str, Any]:
    """The head of every result: what was scored, against which data, by which code."""
    return {
        "task": task,
        "task_version": task_version,
        "split": split,
        "evaluator_version": __version__,
        "dataset_revision": None if release is None else release.revision,
        "dataset_source": None if release is None else release.source,
        "dataset_sha256": None if dataset_file is None else dataset_file.sha256,
        "predictions_sha256": hashlib.sha256(predictions.read_bytes()).hexdigest(),
        "verified": True if dataset_file is None else dataset_file.verified,
    }


def assemble_result(
    *,
    task: str,
    task_version: str,
    split: str | None,
    predictions: Path,
    release: Release | None,
    dataset_file: ResolvedFile | None,
    scores: dict[str, Any],
    bootstrap: BootstrapConfig,
) -> dict[str, Any]:
    """A whole result: the provenance head, the task's scores, and how the intervals were resampled."""
    head = provenance(
        task=task,
        task_version=task_version,
        split=split,
        predictions=predictions,
        release=release,
        dataset_file=dataset_file,
    )
    return {**head, **scores, "bootstrap": {"resamples": bootstrap.resamples, "seed": bootstrap.seed}}
