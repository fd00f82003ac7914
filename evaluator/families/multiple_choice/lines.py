"""The prediction-line models of a multiple-choice benchmark, derived from its option keys: what the validator
runs on every line and what schemas/ publishes, one model per mode.

- completion: `{"id": ..., "loglikelihoods": {KEY: number <= 0, ...}}` with every option key, null allowed
  exactly for the options some items do not offer (`MultipleChoiceSpec.optional_options`);
- option: `{"id": ..., "output": "..."}`, the model's raw output (at most MAX_OUTPUT_CHARS characters).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints, create_model

from ...fileio.lines import STRICT_LINE
from .spec import MAX_OUTPUT_CHARS, MultipleChoiceSpec

LogLikelihood = Annotated[float, Field(le=0.0)]


def prediction_line_models(spec: MultipleChoiceSpec, display_name: str) -> dict[str | None, type[BaseModel]]:
    """Mode -> the line model of that mode, named after the benchmark (`nubench`: NubenchCompletionPrediction)
    and described with its display name."""
    stem = "".join(part.capitalize() for part in spec.name.replace("_", "-").split("-"))
    item_id: Any = Annotated[int, Field(ge=0, le=2**53 - 1, description=f"the item's `{spec.id_field}`")]
    notes = "".join(f"; {key} is null exactly on {items}" for key, items in spec.optional_options.items())
    options: dict[str, Any] = {
        key: (LogLikelihood | None if key in spec.optional_options else LogLikelihood, ...) for key in spec.option_keys
    }
    loglikelihoods: Any = create_model(
        "Loglikelihoods",
        __config__=STRICT_LINE,
        __doc__=f"The log-likelihood of each option as the continuation{notes}.",
        **options,
    )
    completion = create_model(
        f"{stem}CompletionPrediction",
        __config__=STRICT_LINE,
        __doc__=f"One line of a {display_name} prediction file in completion mode (`--mode completion`).",
        id=(item_id, ...),
        loglikelihoods=(loglikelihoods, ...),
    )
    option = create_model(
        f"{stem}OptionPrediction",
        __config__=STRICT_LINE,
        __doc__=f"One line of a {display_name} prediction file in option-selection mode (`--mode option`): "
        "the raw output.",
        id=(item_id, ...),
        output=(Annotated[str, StringConstraints(max_length=MAX_OUTPUT_CHARS)], ...),
    )
    return {"completion": completion, "option": option}
