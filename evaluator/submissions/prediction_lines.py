"""One pydantic model per kind of prediction line: the published contract of a prediction file.

The line formats are fixed by the evaluator issues (minimal pairs: `{"id", "prediction"}`; NUBench:
`{"id", "loglikelihoods"}` or `{"id", "output"}` by mode; SCN: one line per triplet, variant and
pattern). The task modules check the same things line by line (and more: completeness, duplicates,
ids that exist); these models exist so that `schemas/` can publish what a single line must look
like, generated rather than written by hand, and so that jsonschema and pydantic can be tested
against each other.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)

ItemId = Annotated[int, Field(ge=0, le=2**53 - 1, description="the dataset's id of the instance")]
# SCN words are single English words or short phrases from NegHub's lists; the cap only bounds abuse.
Word = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"\S")]


class JnliNegPrediction(BaseModel):
    """One line of a JNLI-Neg prediction file."""

    model_config = _STRICT
    id: ItemId
    prediction: Literal["entailment", "neutral", "contradiction"]


class JstsNegPrediction(BaseModel):
    """One line of a JSTS-Neg prediction file: the similarity as an integer 0..5 (STS as six-way classification)."""

    model_config = _STRICT
    id: ItemId
    prediction: int = Field(ge=0, le=5)


LogLikelihood = Annotated[float, Field(le=0.0)]


class Loglikelihoods(BaseModel):
    """The log-likelihood of each option as the continuation; choice2 is null exactly on three-option items."""

    model_config = _STRICT
    choice1: LogLikelihood
    choice2: LogLikelihood | None
    choice3: LogLikelihood
    choice4: LogLikelihood


class NubenchCompletionPrediction(BaseModel):
    """One line of a NUBench prediction file in completion mode (`--mode completion`)."""

    model_config = _STRICT
    id: ItemId = Field(description="the item's `index`")
    loglikelihoods: Loglikelihoods


class NubenchOptionPrediction(BaseModel):
    """One line of a NUBench prediction file in option-selection mode (`--mode option`): the raw output."""

    model_config = _STRICT
    id: ItemId = Field(description="the item's `index`")
    output: Annotated[str, StringConstraints(max_length=10_000)]


class ScnPrediction(BaseModel):
    """One line of an SCN prediction file: the top-1 token at the mask for one (triplet, variant, pattern)."""

    model_config = _STRICT
    name: Word
    profession: Word
    verb: Word
    variant: Literal["pronoun", "coref", "noncoref_same", "noncoref_other"]
    pattern: Literal["CpTp", "CpTn", "CnTp", "CnTn", "CpTv"]
    top1: Annotated[str, StringConstraints(max_length=100)]


PREDICTION_MODELS: dict[str, type[BaseModel]] = {
    "jnli-neg": JnliNegPrediction,
    "jsts-neg": JstsNegPrediction,
    "nubench-completion": NubenchCompletionPrediction,
    "nubench-option": NubenchOptionPrediction,
    "scn": ScnPrediction,
}


def prediction_kind(task: str, mode: str | None) -> str:
    """The key of PREDICTION_MODELS for a run of `task` in `mode`."""
    return f"{task}-{mode}" if task == "nubench" else task
