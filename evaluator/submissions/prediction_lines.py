"""One pydantic model per kind of prediction line: the published contract of a prediction file.

The line formats are fixed by the evaluator issues (minimal pairs: `{"id", "prediction"}`, or
`"prediction": null` with the unparseable answer in `"raw_output"`; NUBench: `{"id", "loglikelihoods"}`
or `{"id", "output"}` by mode; SCN: one line per triplet, variant and pattern). The task readers are
the gate (minimal_pairs.read_predictions, nubench.read_predictions, scn.parse_predictions): they check
the same things line by line, and more that one line cannot say (completeness, duplicates, ids that
exist in the split, choice2 null exactly on the split's non-applicable items). These models exist so
that `schemas/` publishes what a single line must look like, generated rather than written by hand;
tests/test_prediction_lines.py feeds the same lines to the readers, to these models and to the
schemas and requires one verdict. What a schema cannot say is listed in schemas.py.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, with_config
from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from neghub.evaluator.benchmarks.nubench import MAX_OUTPUT_CHARS
from neghub.evaluator.benchmarks.scn import MAX_TOP1_CHARS, MAX_WORD_CHARS

_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)

ItemId = Annotated[int, Field(ge=0, le=2**53 - 1, description="the dataset's id of the instance")]
RawOutput = Annotated[str, Field(description="the model's answer as generated")]

# The characters Python's str.strip() removes (str.isspace), spelled out: the SCN reader refuses a word
# that strip() empties, and \s would mean a different set in each regex engine (see format.py).
PYTHON_WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# SCN words are single English words or short phrases from NegHub's lists; the cap only bounds abuse.
Word = Annotated[str, StringConstraints(min_length=1, max_length=MAX_WORD_CHARS, pattern=f"[^{PYTHON_WHITESPACE}]")]


@with_config(_STRICT)
class JnliNegParsedLine(TypedDict):
    """A JNLI-Neg answer parsed into a label; the runner may keep the model's text beside it."""

    id: ItemId
    prediction: Literal["entailment", "neutral", "contradiction"]
    raw_output: NotRequired[RawOutput]


@with_config(_STRICT)
class JstsNegParsedLine(TypedDict):
    """A JSTS-Neg answer parsed into an integer score 0..5 (STS as six-way classification)."""

    id: ItemId
    prediction: Annotated[int, Field(ge=0, le=5)]
    raw_output: NotRequired[RawOutput]


@with_config(_STRICT)
class UnparseableLine(TypedDict):
    """A model answer that could not be parsed: no prediction, the text kept; it is scored wrong, never dropped."""

    id: ItemId
    prediction: None
    raw_output: RawOutput


class JnliNegPrediction(RootModel[JnliNegParsedLine | UnparseableLine]):
    """One line of a JNLI-Neg prediction file: a label, or null with the unparseable answer in raw_output."""

    model_config = ConfigDict(strict=True, frozen=True)


class JstsNegPrediction(RootModel[JstsNegParsedLine | UnparseableLine]):
    """One line of a JSTS-Neg prediction file: a score 0..5, or null with the unparseable answer in raw_output."""

    model_config = ConfigDict(strict=True, frozen=True)


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
    output: Annotated[str, StringConstraints(max_length=MAX_OUTPUT_CHARS)]


class ScnPrediction(BaseModel):
    """One line of an SCN prediction file: the top-1 token at the mask for one (triplet, variant, pattern)."""

    model_config = _STRICT
    name: Word
    profession: Word
    verb: Word
    variant: Literal["pronoun", "coref", "noncoref_same", "noncoref_other"]
    pattern: Literal["CpTp", "CpTn", "CnTp", "CnTn", "CpTv"]
    top1: Annotated[str, StringConstraints(max_length=MAX_TOP1_CHARS)]


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
