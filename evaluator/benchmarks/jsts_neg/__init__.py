"""JSTS-Neg: Japanese semantic textual similarity built from negation minimal pairs
(Yuasa, Kato and Matsubara, 2025).

The upstream release is not available to NegHub yet. Its record schema is defined here as the
JNLI-Neg one with the label fields replaced by `gold_score` (integer 0..5, the median of three
annotators) and `annotator_scores` (three integers), and the JNLI-specific names replaced by
`jsts_sentence_pair_id` and `neg_id_in_jsts_sentence` (metadata.py's RECORD). Its files have no pinned
sha256, so a local copy is scored only with `--unverified`. STS is scored as six-way classification (SPEC §1),
with Pearson and Spearman over all instances as secondary figures (llm-jp-eval reports them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from pydantic import Field

from ...core.benchmark import HeadlineBoard, MetricDisplay, PrimaryBoard
from ...core.stats import pearson, spearman
from ...families.minimal_pairs import (
    MinimalPairDataset,
    MinimalPairSpec,
    minimal_pair_benchmark,
    minimal_pair_display,
    prediction_line_model,
)
from ...papers.quotes import hedge
from . import protocol
from .metadata import METADATA, RECORD

NAME = "jsts-neg"
# 2: Wilson intervals for proportions; no AccChg interval without a discordant pair; per-item outcomes
# 3: intervals clustered by the source sentence pair (the pairs of one source share sentences; stats.py)
TASK_VERSION = "3"
SCORES = range(6)
HERE = Path(__file__).parent


def parse_prediction(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in SCORES:
        return value
    shown = "null" if value is None else repr(value)
    raise ValueError(f"expected an integer score from 0 to 5, got {shown}")


def correlations(dataset: MinimalPairDataset, predicted: NDArray[np.int16]) -> dict[str, Any]:
    """Pearson and Spearman over every instance whose answer parsed (an unparseable answer, UNPARSEABLE, counts
    as wrong in the pair metrics but has no score to correlate)."""
    parsed = predicted >= 0
    x = predicted[parsed].astype(np.float64)
    y = dataset.gold[parsed].astype(np.float64)
    return {"correlations": {"pearson": pearson(x, y), "spearman": spearman(x, y)}}


SPEC = MinimalPairSpec(
    name=NAME,
    metadata=METADATA,
    record=RECORD,
    parse_prediction=parse_prediction,
    prediction_value=lambda code: code,
    n_values=len(SCORES),
    extra_scores=correlations,
)
# what the tests, the protocol and the cards call directly
load = SPEC.load
records = SPEC.records
score = SPEC.score
parse_record = RECORD.parse


# --- one prediction line (what the validator runs on every line, and schemas/ publishes) ---------------


PredictionLine = prediction_line_model(
    Annotated[int, Field(ge=0, le=5)],
    parsed_doc="A JSTS-Neg answer parsed into an integer score 0..5 (STS as six-way classification).",
    line_doc="One line of a JSTS-Neg prediction file: a score 0..5, or null with the unparseable answer in raw_output.",
)

BENCHMARK = minimal_pair_benchmark(
    SPEC,
    version=TASK_VERSION,
    display=minimal_pair_display(
        "JSTS-Neg",
        "Japanese semantic textual similarity (0–5) on the same kind of minimal pairs, scored as six-way "
        "classification.",
        extra_columns=(
            MetricDisplay(path="correlations.pearson", label="Pearson", unit="correlation"),
            MetricDisplay(path="correlations.spearman", label="Spearman", unit="correlation"),
        ),
        ignored_negation=hedge("jsts-neg.many-shot-models-ignore-negation", "the JSTS-Neg paper", "可能性が示唆される"),
        primary_board=PrimaryBoard(
            split="test",
            shots=0,
            prompt="llm-jp-eval",
            chat_template="no",
            why="The paper's zero-shot setting (section 4, Experiment): a task guideline following llm-jp-eval, on "
            "the test set; llm-jp-eval writes the prompt itself (no chat template).",
        ),
        headline_board=HeadlineBoard(table="Table 3", shots=0, finding="jsts-neg.llms-ignore-negation"),
    ),
    default_split="test",
    prediction_line=PredictionLine,
    reported_dir=HERE / "reported",
    plans=protocol.plans,
    lm_eval=protocol.lm_eval,
)
