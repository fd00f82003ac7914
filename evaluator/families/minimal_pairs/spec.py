"""What a minimal-pair benchmark tells the family (`MinimalPairSpec`): its release, its record layout, and how its
predictions read and score. The spec loads a split, lists its records for prompts and scores a prediction file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.stats import BootstrapConfig
from ...fileio.files import read_bytes
from ...fileio.jsonl import parse_jsonl
from ...protocol.metadata import DatasetMetadata
from ...releases.loading import find_release
from .dataset import MinimalPairDataset, load_split
from .records import RecordSchema
from .scoring import score_pairs


@dataclass(frozen=True)
class MinimalPairSpec:
    """A minimal-pair benchmark as the family sees it."""

    name: str
    metadata: DatasetMetadata
    record: RecordSchema
    parse_prediction: Callable[[Any], int]  # a line's prediction -> the task's code (ValueError: what was expected)
    prediction_value: Callable[[int], Any]  # a code -> the prediction as a line writes it
    n_values: int  # how many codes there are (the baselines draw among them)
    # figures beside the pair metrics, over all instances (JSTS-Neg's correlations)
    extra_scores: Callable[[MinimalPairDataset, NDArray[np.int16]], dict[str, Any]] | None = None

    def load(self, split: str, *, data_dir: Path | None = None, unverified: bool = False) -> MinimalPairDataset:
        """Load one split of the pinned release (checked against its sha256, or `unverified`) with its pairs."""
        release = find_release(self.metadata, data_dir=data_dir, unverified=unverified)
        return load_split(self.name, split, release, self.record.parse)

    def records(self, split: str, data_dir: Path | None, unverified: bool) -> list[dict[str, Any]]:
        """The records of a split as dicts (for prompts), after `load`'s own checks of the file (pins, schema)."""
        dataset = self.load(split, data_dir=data_dir, unverified=unverified)
        path = dataset.file.path
        objects = [obj for _, obj in parse_jsonl(read_bytes(path), str(path), blank_lines="skip").objects]
        assert len(objects) == dataset.ids.size  # the same file load() checked
        return objects

    def score(
        self, dataset: MinimalPairDataset, predicted: NDArray[np.int16], bootstrap: BootstrapConfig | None
    ) -> dict[str, Any]:
        """The metrics of one prediction file (`bootstrap=None` leaves the intervals out)."""
        result = score_pairs(dataset, predicted, bootstrap)
        if self.extra_scores is not None:
            result.update(self.extra_scores(dataset, predicted))
        return result
