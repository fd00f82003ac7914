"""What one rule is: a `Rule` (the facts it reads, what it gives, what lifts it, its phrase and sentence, and the
function `decide` applies), declared by keyword beside that function in the module that decides it (row_rules.py,
answer_rules.py, leaders.py, marks.py). `verdicts.RULES` lists them in the order `decide` applies them.

This module imports nothing of the leaderboard, so that a rule can sit beside its function in any module, marks.py
and leaders.py included, without an import circle: a rule is generic in the state its function reads (`decide`'s
`decision.Decision`), so the state's class need not be imported here.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

Lift = Literal["a reproduction", "a maintainer's review"]
Gives = Literal["not ranked", "hold", "mark", "shown once", "rank", "leader"]

REVIEW: tuple[Lift, ...] = ("a maintainer's review",)

# how a sentence's named fields read where no row fills them (the Ranking rules page, README, the docstring)
FIELD_WORDS: Mapping[str, str] = {
    "name": "the model's name",
    "other": "the other row",
    "pin": "the pinned model",
    "found": "what the comparison found",
    "moved": "how many of the answers that differ are right here and wrong there, and the other way round",
    "submitted": "the submitter's figure",
    "queue": "submitted, not run by NegHub yet: queue position N; or closed weights: NegHub cannot check this",
    "result": "headline figure",
    "best": "that result",
    "level": "where its interval puts it (at, above or below the published level)",
    "prompt": "the prompt",
    "split": "The row's",
    "evaluation": "",
    "verdict": "the verdict",
    "parsed": "the row's share",
    "items": "the row's item count",
    "min_items": "the benchmark's minimum",
    "width": "how wide it is",
    "baseline": "the baseline and the difference",
}

# the state a rule's function reads; contravariant: a rule whose function reads any object (one applied outside
# the loop of `decide`) is a rule of `decide`'s state too
State = TypeVar("State", contravariant=True)


class _Fields(string.Formatter):
    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return kwargs.get(str(key), FIELD_WORDS.get(str(key), str(key)))


@dataclass(frozen=True)
class Rule(Generic[State]):
    """One rule: what it reads, what it gives, what lifts it, how a table and a row's details say it, and how
    `decide` applies it (`apply`, at its place in `verdicts.RULES`)."""

    kind: str  # the hold kind (board_file.HoldKind), mark or condition it decides
    reads: tuple[str, ...]  # the facts it reads
    gives: Gives
    lifted_by: tuple[Lift, ...]  # () : nothing lifts it
    phrase: str  # at most 12 words, for a table's cell
    sentence: str  # the full sentence for the row's details; {named} fields are the row's evidence
    apply: Callable[[State], None] = field(repr=False, compare=False)

    def say(self, **fields: object) -> str:
        """The sentence with a row's evidence in its fields (a field not given reads as FIELD_WORDS says)."""
        return " ".join(_Fields().format(self.sentence, **fields).split())

    @property
    def general(self) -> str:
        """The sentence as the rules page states it, for any row."""
        return self.say()
