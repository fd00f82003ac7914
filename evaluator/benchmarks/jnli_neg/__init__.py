"""JNLI-Neg: Japanese NLI built from negation minimal pairs (Yoshida, Kato, Ogawa and Matsubara).

The release is the upstream v1.1 JSONL, unchanged (metadata.py pins it). Scoring follows SPEC §1: pairs
M, M_i, M_u; Acc, Acc′, AccChg; instance accuracy on D_orig, D_neg and D (the minimal-pair family).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NotRequired

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, RootModel, with_config
from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from ...core.benchmark import BaselineRun
from ...core.stats import BootstrapConfig
from ...families.minimal_pairs import (
    Instance,
    ItemId,
    MinimalPairDataset,
    Negation,
    RawOutput,
    UnparseableLine,
    load_split,
    minimal_pair_benchmark,
    minimal_pair_display,
    raw_records,
    score_pairs,
)
from ...fileio.lines import STRICT_LINE
from ...releases.loading import find_release
from . import protocol
from .metadata import METADATA, UPSTREAM_BASE, UPSTREAM_COMMIT

NAME = "jnli-neg"
# 2: Wilson intervals for proportions; no AccChg interval without a discordant pair; per-item outcomes
TASK_VERSION = "2"
LABELS = protocol.LABELS
HERE = Path(__file__).parent


class _Neg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    neg_id_in_jnli_sentence: int
    neg_position: Literal["end", "mid"]
    target_pos: Literal["動詞", "形容詞", "形容動詞"]


class _Sentence(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    sentence: str
    neg: _Neg | None


class Record(BaseModel):
    """One line of the JNLI-Neg release."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: int
    jnli_sentence_pair_id: int
    pair_id_in_group: int
    type: Literal["original", "p_neg", "h_neg", "p_neg_h_neg"]
    sentence1: _Sentence
    sentence2: _Sentence
    gold_label: Literal["entailment", "neutral", "contradiction"]
    annotator_labels: dict[str, int] | None


def _negation(neg: _Neg | None) -> Negation | None:
    if neg is None:
        return None
    return Negation(neg_id=neg.neg_id_in_jnli_sentence, neg_position=neg.neg_position, target_pos=neg.target_pos)


def parse_record(obj: dict[str, Any]) -> Instance:
    record = Record.model_validate(obj)
    return Instance(
        id=record.id,
        group=record.jnli_sentence_pair_id,
        type=record.type,
        s1_neg=_negation(record.sentence1.neg),
        s2_neg=_negation(record.sentence2.neg),
        gold=LABELS.index(record.gold_label),
    )


def load(split: str, *, data_dir: Path | None = None, unverified: bool = False) -> MinimalPairDataset:
    """Load one split of the pinned release (checked against its sha256) with its minimal pairs."""
    return load_split(NAME, split, find_release(METADATA, data_dir=data_dir, unverified=unverified), parse_record)


records = raw_records(load)


def parse_prediction(value: Any) -> int:
    if isinstance(value, str) and value in LABELS:
        return LABELS.index(value)
    shown = "null" if value is None else repr(value)
    raise ValueError(f"expected one of {', '.join(LABELS)}, got {shown}")


def score(
    dataset: MinimalPairDataset, predicted: NDArray[np.int16], bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    return score_pairs(dataset, predicted, bootstrap)


# --- one prediction line (what the validator runs on every line, and schemas/ publishes) ---------------


@with_config(STRICT_LINE)
class ParsedLine(TypedDict):
    """A JNLI-Neg answer parsed into a label; the runner may keep the model's text beside it."""

    id: ItemId
    prediction: Literal["entailment", "neutral", "contradiction"]
    raw_output: NotRequired[RawOutput]


class PredictionLine(RootModel[ParsedLine | UnparseableLine]):
    """One line of a JNLI-Neg prediction file: a label, or null with the unparseable answer in raw_output."""

    model_config = ConfigDict(strict=True, frozen=True)


BENCHMARK = minimal_pair_benchmark(
    name=NAME,
    version=TASK_VERSION,
    metadata=METADATA,
    display=minimal_pair_display(
        "JNLI-Neg",
        "Japanese natural language inference on negation minimal pairs: does adding one negation cue change the "
        "model's answer when (and only when) it changes the gold label?",
    ),
    load=load,
    parse_prediction=parse_prediction,
    prediction_value=lambda code: LABELS[code],
    n_values=len(LABELS),
    score=score,
    default_split="valid",
    prediction_line=PredictionLine,
    baseline_runs={
        "majority": (BaselineRun("majority", split="valid"),),
        "random": (BaselineRun("random", split="valid"),),
    },
    reported_dir=HERE / "reported",
    parse_record=parse_record,
    plans=protocol.plans,
)

__all__ = ["BENCHMARK", "METADATA", "UPSTREAM_BASE", "UPSTREAM_COMMIT", "load", "parse_record"]
