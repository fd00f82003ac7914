"""Maintainers' reviewed clearances (clearances.yaml beside submissions/, under CODEOWNERS).

A held row (verdicts.py) is ranked again only when a reproduction or a maintainer clears it. A clearance names
the submission, the kinds of hold it lifts, who reviewed it, when and why: the site prints all of it beside the
row. A custom prompt is accepted for a task by its name and the sha256 its runs record. The file is read with
a safe loader and a closed model; a pull request that changes it needs a code owner's review.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from ..evaluator.core.errors import InputError, Problem
from ..evaluator.submissions.format import DATE_PATTERN, SHA256_PATTERN, SUBMISSION_ID_PATTERN
from .boards import prompt_style
from .verdicts import Clearance, HoldKind

_CLOSED = ConfigDict(extra="forbid", frozen=True, strict=True)
Text = Annotated[str, StringConstraints(min_length=1, max_length=1000)]


class ClearanceEntry(BaseModel):
    model_config = _CLOSED
    submission: Annotated[str, StringConstraints(pattern=SUBMISSION_ID_PATTERN)]
    holds: list[HoldKind] = Field(min_length=1)
    by: Text = Field(description="the maintainer who reviewed it")
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
    why: Text


class AcceptedPrompt(BaseModel):
    model_config = _CLOSED
    task: Text
    prompt: Text = Field(description="the prompt's name as the runs give it")
    sha256: Annotated[str, StringConstraints(pattern=SHA256_PATTERN)] = Field(
        description="the sha256 of the prompt's text as the runs record it (provenance TASK.PROMPT.MODE.prompt_sha256)"
    )
    by: Text
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
    why: Text


class ClearancesFile(BaseModel):
    model_config = _CLOSED
    clearances: list[ClearanceEntry] = Field(default_factory=list)
    accepted_prompts: list[AcceptedPrompt] = Field(default_factory=list)


HOLD_KINDS: tuple[str, ...] = get_args(HoldKind)


def load_clearances(path: Path) -> tuple[list[Clearance], set[tuple[str, str]]]:
    """The clearances and the accepted prompts (task, board prompt) of `path`; none where it does not exist."""
    if not path.is_file():
        return [], set()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        parsed = ClearancesFile.model_validate(raw)
    except yaml.YAMLError as exc:
        raise InputError.single(str(path), f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    except ValidationError as exc:
        raise InputError(
            [Problem(str(path), None, ".".join(str(p) for p in e["loc"]) or None, e["msg"]) for e in exc.errors()]
        ) from None
    clearances = [Clearance(e.submission, tuple(e.holds), e.by, e.date, e.why) for e in parsed.clearances]
    prompts = {(p.task, prompt_style(p.task, p.prompt, p.sha256)) for p in parsed.accepted_prompts}
    return clearances, prompts
