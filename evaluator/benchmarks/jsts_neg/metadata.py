"""JSTS-Neg's release as NegHub describes it: no file is pinned yet (see the package's docstring)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...families.minimal_pairs.records import RecordSchema, TaskField
from ...protocol.metadata import CardText, DatasetMetadata, ReleaseFile

Score = Annotated[int, Field(ge=0, le=5)]

# a line of the release (its schema is NegHub's, see the package's docstring): JSTS's names, the median score of
# three annotators and their scores
RECORD = RecordSchema(
    corpus="JSTS",
    gold=TaskField("gold_score", Score, "int 0..5", "the median of the three annotators' scores"),
    annotations=TaskField(
        "annotator_scores",
        Annotated[list[Score], Field(min_length=3, max_length=3)],
        "[int, int, int]",
        "the three annotators' scores",
    ),
    gold_code=lambda record: record.gold_score,
    description="One line of the JSTS-Neg release (schema defined by NegHub, see the package's docstring).",
)

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
    record_fields=RECORD.record_fields(),
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
