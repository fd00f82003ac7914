"""Maintainers' reviewed clearances (clearances.yaml beside submissions/, under CODEOWNERS).

A held row (verdicts.py) is ranked again only when a reproduction or a maintainer clears it. A clearance names the
submission, the kinds of hold it lifts, the boards it reviewed (`boards`: their slugs, as the site's board ids read),
the maintainer's GitHub account (`by`), when and why. It lifts a hold only on a board it names: a review of one
board's answers or figure says nothing of the submission's rows on other boards. Only a hold of the model's name
(decision.SUBMISSION_WIDE_HOLDS: one name for the whole submission) may be cleared without naming boards; an entry
that lifts any other hold and names no board is refused, so that it cannot sit in the file lifting nothing.
It counts only as it landed on main (evidence.py): the pull-request check refuses a pull request that changes this
file unless its author is a maintainer (an account .github/MAINTAINERS lists on the base branch; GitHub's
author_association decides nothing) and every entry it adds or changes names that author as `by`; the site prints
who cleared from that record, never from a name typed freely.
A clearance counts for the submission as the maintainer reviewed it: it lifts nothing once the submission landed
again after it (history.py: its prediction files or what its row shows changed; a description's typo does not).
A custom prompt is accepted for a task by its name and the sha256 its runs record. The file is read with a safe
loader and a closed model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from ..evaluator.core.errors import InputError, Problem
from ..evaluator.submissions.format import DATE_PATTERN, GITHUB_LOGIN_PATTERN, SHA256_PATTERN, SUBMISSION_ID_PATTERN
from .board_file import HoldKind
from .boards import prompt_style
from .decision import SUBMISSION_WIDE_HOLDS
from .evidence import clearance_words
from .history import History, Landing
from .verdicts import Clearance

_CLOSED = ConfigDict(extra="forbid", frozen=True, strict=True)
Text = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
Login = Annotated[str, StringConstraints(pattern=GITHUB_LOGIN_PATTERN)]
BoardSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=500)]


class ClearanceEntry(BaseModel):
    model_config = _CLOSED
    submission: Annotated[str, StringConstraints(pattern=SUBMISSION_ID_PATTERN)]
    holds: list[HoldKind] = Field(min_length=1)
    boards: list[BoardSlug] = Field(
        default_factory=list,
        description="the slugs of the boards the maintainer reviewed (Board.slug); needed by every hold but the name's",
    )
    by: Login = Field(description="the GitHub account of the maintainer who reviewed it: the pull request's author")
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
    why: Text

    @model_validator(mode="after")
    def _boards_named(self) -> ClearanceEntry:
        scoped = [kind for kind in self.holds if kind not in SUBMISSION_WIDE_HOLDS]
        if scoped and not self.boards:
            raise ValueError(
                f"boards: name the boards reviewed (their slugs) to lift {', '.join(scoped)}: a review of one board "
                "lifts nothing on another"
            )
        return self


class AcceptedPrompt(BaseModel):
    model_config = _CLOSED
    task: Text
    prompt: Text = Field(description="the prompt's name as the runs give it")
    sha256: Annotated[str, StringConstraints(pattern=SHA256_PATTERN)] = Field(
        description="the sha256 of the prompt's text as the runs record it (provenance TASK.PROMPT.MODE.prompt_sha256)"
    )
    by: Login
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
    why: Text


class ClearancesFile(BaseModel):
    model_config = _CLOSED
    clearances: list[ClearanceEntry] = Field(default_factory=list)
    accepted_prompts: list[AcceptedPrompt] = Field(default_factory=list)


HOLD_KINDS: tuple[str, ...] = get_args(HoldKind)


def parse_clearances(text: str, where: str) -> ClearancesFile:
    """The file's content, validated (one InputError listing every problem)."""
    try:
        raw = yaml.safe_load(text) or {}
        return ClearancesFile.model_validate(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = None if mark is None else mark.line + 1
        raise InputError.single(where, f"invalid YAML: {getattr(exc, 'problem', exc)}", line=line) from None
    except ValidationError as exc:
        raise InputError(
            [Problem(where, None, ".".join(str(p) for p in e["loc"]) or None, e["msg"]) for e in exc.errors()]
        ) from None


def load_clearances(path: Path, history: History) -> tuple[list[Clearance], set[tuple[str, str]]]:
    """The clearances and the accepted prompts (task, board prompt) of `path` that landed on main, each entry with
    who landed it; none where the file does not exist or the build has no record of how they landed."""
    if not path.is_file():
        return [], set()
    parsed = parse_clearances(path.read_text(encoding="utf-8"), str(path))
    landed = _entry_landings(history, path)
    clearances = []
    for entry in parsed.clearances:
        landing = landed.get(_key(entry))
        who = clearance_words(history, landing, entry.by)
        changed = history.submissions.get(entry.submission)
        if who is not None and landing is not None and (changed is None or landing.position > changed.position):
            clearances.append(
                Clearance(entry.submission, tuple(entry.holds), who, entry.date, entry.why, tuple(entry.boards))
            )
    prompts = {
        (p.task, prompt_style(p.task, p.prompt, p.sha256))
        for p in parsed.accepted_prompts
        if clearance_words(history, landed.get(_key(p)), p.by) is not None
    }
    return clearances, prompts


def _key(entry: BaseModel) -> str:
    return entry.model_dump_json()


def _entry_landings(history: History, path: Path) -> dict[str, Landing]:
    """Each entry of the file as it stands -> the landing that added it (the entry unchanged since)."""
    if not history.recorded or history.root is None:
        return {}
    try:
        relative = path.resolve().relative_to(history.root).as_posix()
    except ValueError:
        return {}
    present: dict[str, Landing] = {}
    for landing in history.landings:
        if relative not in landing.paths:
            continue
        content = history.file_at(landing, path)
        try:
            parsed = parse_clearances(content.decode("utf-8"), str(path)) if content else ClearancesFile()
        except (InputError, UnicodeDecodeError):
            parsed = ClearancesFile()
        keys = {_key(e) for e in (*parsed.clearances, *parsed.accepted_prompts)}
        present = {key: present.get(key, landing) for key in keys}
    return present
