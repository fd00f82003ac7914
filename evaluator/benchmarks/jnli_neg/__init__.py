"""JNLI-Neg: Japanese NLI built from negation minimal pairs (Yoshida, Kato, Ogawa and Matsubara).

The release is the upstream v1.1 JSONL, unchanged (metadata.py pins it and describes its record). Scoring follows
SPEC §1: pairs M, M_i, M_u; Acc, Acc′, AccChg; instance accuracy on D_orig, D_neg and D (the minimal-pair family).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from ...core.benchmark import BaselineRun, HeadlineBoard, PrimaryBoard
from ...families.minimal_pairs import (
    MinimalPairDataset,
    MinimalPairSpec,
    minimal_pair_benchmark,
    minimal_pair_display,
    prediction_line_model,
)
from ...families.minimal_pairs.probe import minimal_pair_probe
from ...papers.quotes import hedge
from . import protocol
from .metadata import LABELS, METADATA, RECORD, UPSTREAM_BASE, UPSTREAM_COMMIT

NAME = "jnli-neg"
# 2: Wilson intervals for proportions; no AccChg interval without a discordant pair; per-item outcomes
# 3: intervals clustered by the source sentence pair (the pairs of one source share sentences; stats.py)
TASK_VERSION = "3"
HERE = Path(__file__).parent


def parse_prediction(value: Any) -> int:
    if isinstance(value, str) and value in LABELS:
        return LABELS.index(value)
    shown = "null" if value is None else repr(value)
    raise ValueError(f"expected one of {', '.join(LABELS)}, got {shown}")


SPEC = MinimalPairSpec(
    name=NAME,
    metadata=METADATA,
    record=RECORD,
    parse_prediction=parse_prediction,
    prediction_value=lambda code: LABELS[code],
    n_values=len(LABELS),
)
# what the tests, the protocol and the cards call directly
load = SPEC.load
records = SPEC.records
score = SPEC.score
parse_record = RECORD.parse


# --- one prediction line (what the validator runs on every line, and schemas/ publishes) ---------------


PredictionLine = prediction_line_model(
    Literal["entailment", "neutral", "contradiction"],
    parsed_doc="A JNLI-Neg answer parsed into a label; the runner may keep the model's text beside it.",
    line_doc="One line of a JNLI-Neg prediction file: a label, or null with the unparseable answer in raw_output.",
)

BENCHMARK = minimal_pair_benchmark(
    SPEC,
    version=TASK_VERSION,
    display=minimal_pair_display(
        "JNLI-Neg",
        "Japanese natural language inference on negation minimal pairs: does adding one negation cue change the "
        "model's answer when (and only when) it changes the gold label?",
        ignored_negation=hedge("jnli-neg.d-jnli-mlms-ignore-negation", "the JNLI-Neg paper", "可能性が示唆される"),
        primary_board=PrimaryBoard(
            split="valid",
            shots=0,
            prompt="llm-jp-eval",
            chat_template="no",
            why="The paper's protocol for language models (section 4.1, 実験設定): zero-shot, following llm-jp-eval "
            "(Han et al.), on the validation split; llm-jp-eval writes the prompt itself (no chat template).",
        ),
        headline_board=HeadlineBoard(table="Table 2", shots=0, finding="jnli-neg.zero-shot-llms-vary"),
    ),
    default_split="valid",
    prediction_line=PredictionLine,
    baseline_runs={
        "majority": (BaselineRun("majority", split="valid"),),
        "random": (BaselineRun("random", split="valid"),),
    },
    reported_dir=HERE / "reported",
    plans=protocol.plans,
    lm_eval=protocol.lm_eval,
    # the valid split's gold is public (it is the ranked split: there is no test split): every re-run of a run on it
    # also answers a sample of the train split drawn to its mix, clustered by the source sentence pair
    contamination_probe=minimal_pair_probe(SPEC, split="train", ranked_split="valid"),
)

__all__ = [
    "BENCHMARK",
    "LABELS",
    "METADATA",
    "UPSTREAM_BASE",
    "UPSTREAM_COMMIT",
    "MinimalPairDataset",
    "load",
    "parse_record",
    "records",
    "score",
]
