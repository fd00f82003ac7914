"""JSTS-Neg: Japanese semantic textual similarity built from negation minimal pairs
(Yuasa, Kato and Matsubara, 2025).

The upstream release is not available to NegHub yet. Its record schema is defined here as the
JNLI-Neg one with the label fields replaced by `gold_score` (integer 0..5, the median of three
annotators) and `annotator_scores` (three integers), and the JNLI-specific names replaced by
`jsts_sentence_pair_id` and `neg_id_in_jsts_sentence`. Its files have no pinned sha256, so a
local copy is scored only with `--unverified`. STS is scored as six-way classification (SPEC §1),
with Pearson and Spearman over all instances as secondary figures (llm-jp-eval reports them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, RootModel, with_config
from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from ...core.benchmark import MetricDisplay
from ...core.stats import BootstrapConfig, pearson, spearman
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
from .metadata import METADATA

NAME = "jsts-neg"
# 2: Wilson intervals for proportions; no AccChg interval without a discordant pair; per-item outcomes
TASK_VERSION = "2"
SCORES = range(6)
HERE = Path(__file__).parent

Score = Annotated[int, Field(ge=0, le=5)]


class _Neg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    neg_id_in_jsts_sentence: int
    neg_position: Literal["end", "mid"]
    target_pos: Literal["動詞", "形容詞", "形容動詞"]


class _Sentence(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    sentence: str
    neg: _Neg | None


class Record(BaseModel):
    """One line of the JSTS-Neg release (schema defined by NegHub, see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: int
    jsts_sentence_pair_id: int
    pair_id_in_group: int
    type: Literal["original", "p_neg", "h_neg", "p_neg_h_neg"]
    sentence1: _Sentence
    sentence2: _Sentence
    gold_score: Score
    annotator_scores: Annotated[list[Score], Field(min_length=3, max_length=3)]


def _negation(neg: _Neg | None) -> Negation | None:
    if neg is None:
        return None
    return Negation(neg_id=neg.neg_id_in_jsts_sentence, neg_position=neg.neg_position, target_pos=neg.target_pos)


def parse_record(obj: dict[str, Any]) -> Instance:
    record = Record.model_validate(obj)
    return Instance(
        id=record.id,
        group=record.jsts_sentence_pair_id,
        type=record.type,
        s1_neg=_negation(record.sentence1.neg),
        s2_neg=_negation(record.sentence2.neg),
        gold=record.gold_score,
    )


def load(split: str, *, data_dir: Path | None = None, unverified: bool = False) -> MinimalPairDataset:
    """Load one split (its file must match its pin, or `unverified` must be set) with its minimal pairs."""
    return load_split(NAME, split, find_release(METADATA, data_dir=data_dir, unverified=unverified), parse_record)


records = raw_records(load)


def parse_prediction(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in SCORES:
        return value
    shown = "null" if value is None else repr(value)
    raise ValueError(f"expected an integer score from 0 to 5, got {shown}")


def score(
    dataset: MinimalPairDataset, predicted: NDArray[np.int16], bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    result = score_pairs(dataset, predicted, bootstrap)
    # an unparseable answer (UNPARSEABLE, negative) counts as wrong above but has no score to correlate
    parsed = predicted >= 0
    x = predicted[parsed].astype(np.float64)
    y = dataset.gold[parsed].astype(np.float64)
    result["correlations"] = {"pearson": pearson(x, y), "spearman": spearman(x, y)}
    return result


# --- one prediction line (what the validator runs on every line, and schemas/ publishes) ---------------


@with_config(STRICT_LINE)
class ParsedLine(TypedDict):
    """A JSTS-Neg answer parsed into an integer score 0..5 (STS as six-way classification)."""

    id: ItemId
    prediction: Annotated[int, Field(ge=0, le=5)]
    raw_output: NotRequired[RawOutput]


class PredictionLine(RootModel[ParsedLine | UnparseableLine]):
    """One line of a JSTS-Neg prediction file: a score 0..5, or null with the unparseable answer in raw_output."""

    model_config = ConfigDict(strict=True, frozen=True)


BENCHMARK = minimal_pair_benchmark(
    name=NAME,
    version=TASK_VERSION,
    metadata=METADATA,
    display=minimal_pair_display(
        "JSTS-Neg",
        "Japanese semantic textual similarity (0–5) on the same kind of minimal pairs, scored as six-way "
        "classification.",
        extra_columns=(
            MetricDisplay(path="correlations.pearson", label="Pearson", unit="correlation"),
            MetricDisplay(path="correlations.spearman", label="Spearman", unit="correlation"),
        ),
    ),
    load=load,
    parse_prediction=parse_prediction,
    prediction_value=lambda code: code,
    n_values=len(SCORES),
    score=score,
    default_split="test",
    prediction_line=PredictionLine,
    reported_dir=HERE / "reported",
    parse_record=parse_record,
    plans=protocol.plans,
)
