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
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from neghub.evaluator.core.registry import register
from neghub.evaluator.core.stats import BootstrapConfig, pearson, spearman
from neghub.evaluator.families.minimal_pairs import (
    Instance,
    MinimalPairDataset,
    Negation,
    format_report,
    load_split,
    minimal_pair_task,
    score_pairs,
)
from neghub.evaluator.releases.loading import find_release
from neghub.evaluator.releases.metadata import CardText, DatasetMetadata, RecordField, ReleaseFile

NAME = "jsts-neg"
TASK_VERSION = "1"
SCORES = range(6)

METADATA = DatasetMetadata(
    name="jsts-neg",
    pretty_name="JSTS-Neg",
    version="1.0",
    languages=("ja",),
    license="cc-by-sa-4.0",
    homepage="https://github.com/reiko-y/JSTS-Neg",
    citation=(
        "@misc{yuasa2025jstsneg,\n"
        "  title  = {{JSTS-Neg}: Japanese Semantic Textual Similarity Dataset for Evaluating Negation "
        "Understanding Ability},\n"
        "  author = {Yuasa, Reiko and Kato, Yoshihide and Matsubara, Shigeki},\n"
        "  year   = {2025}\n"
        "}"
    ),
    description=(
        "Japanese semantic textual similarity for negation understanding, built from JSTS the way "
        "JNLI-Neg is built from JNLI: one negation cue (ない or ず) inserted into one or both sentences, "
        "each variant re-scored 0-5 by three annotators (the gold is their median). The upstream release "
        "has not been pinned by NegHub yet: its files carry no sha256 and score only with --unverified."
    ),
    hub_repo_id="neghub/jsts-neg",
    revision=None,
    files=(
        ReleaseFile(path="jsts-neg-train.jsonl", split="train", sha256=None),
        ReleaseFile(path="jsts-neg-valid.jsonl", split="valid", sha256=None),
        ReleaseFile(path="jsts-neg-test.jsonl", split="test", sha256=None),
    ),
    record_fields=(
        RecordField(name="id", type="int", description="instance id, unique within the split"),
        RecordField(name="jsts_sentence_pair_id", type="int", description="the JSTS pair the group derives from"),
        RecordField(name="pair_id_in_group", type="int", description="0 for the original, then the variants"),
        RecordField(name="type", type="original | p_neg | h_neg | p_neg_h_neg", description="where cues were inserted"),
        RecordField(
            name="sentence1",
            type="{sentence, neg}",
            description="neg is null or {neg_id_in_jsts_sentence, neg_position: end|mid, "
            "target_pos: 動詞|形容詞|形容動詞}",
        ),
        RecordField(name="sentence2", type="{sentence, neg}", description="as sentence1"),
        RecordField(name="gold_score", type="int 0..5", description="the median of the three annotators' scores"),
        RecordField(name="annotator_scores", type="[int, int, int]", description="the three annotators' scores"),
    ),
    card=CardText(
        task_categories=("sentence-similarity", "text-classification"),
        task_ids=("semantic-similarity-scoring",),
        tags=("negation", "minimal-pairs", "jglue", "jsts"),
        phenomena=(
            "Clausal negation by exactly one cue (ない or ず) attached to a verb, an i-adjective or a "
            "na-adjective, at the end of a sentence or in its middle, as in JNLI-Neg; the question is how much "
            "one cue changes the similarity of two sentences."
        ),
        construction=(
            "Built from JSTS (JGLUE) as JNLI-Neg is built from JNLI: cue variants of each sentence, one per "
            "insertion point; `p_neg`, `h_neg` and `p_neg_h_neg` instances; each variant re-scored 0-5 by "
            "three annotators, the gold being their median. Minimal pairs and the M_i / M_u split follow the "
            "JNLI-Neg definitions, with equality of the integer gold score deciding M_i (score changed) "
            "against M_u."
        ),
        licensing=(
            "CC BY-SA 4.0 is assumed from JSTS (JGLUE, CC BY-SA 4.0), from which the release is derived; "
            "NegHub will confirm it against the upstream release when it is available."
        ),
        limitations=(
            "The upstream release is not available to NegHub: no file is pinned, no statistics are given, and "
            "the record schema is NegHub's reading of the paper (see evaluator/benchmarks/jsts_neg/).",
            "STS is scored as six-way classification of the integer score (SPEC §1).",
        ),
    ),
)

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


def report(result: dict[str, Any]) -> str:
    return format_report(result)


TASK = register(
    minimal_pair_task(
        name=NAME,
        version=TASK_VERSION,
        metadata=METADATA,
        load=load,
        parse_prediction=parse_prediction,
        prediction_value=lambda code: code,
        n_values=len(SCORES),
        score=score,
        report=report,
        default_split="test",
    )
)
