"""Boards: the rows that may sit side by side.

A board is one benchmark, one dataset release, one split and one protocol (the test, mode, shots, prompt
style, chat template, what a classifier was fine-tuned on, how many seeds a row averages). Tables, charts,
ranks and downloads never mix boards: a row scored on NegHub's sample of a dataset sits on another board than
the paper's rows on the official release; a paper's 5-seed means sit apart from its single runs; a classifier
fine-tuned on D_JNLI ∪ D_neg apart from one fine-tuned on D_JNLI; and a custom prompt is a board of its own,
named by the prompt and the sha256 its run records (never one shared `custom` board).

A board's slug names its page anchor, its `data/<slug>.csv` and every row id on it, so two boards must never
share one. The slug of a custom prompt's board ends with a short hash of the board's whole key (`key_hash`): its
prompt's name is free text a submitter writes, and the slug folds case and punctuation (`neg-cot` and `neg_cot`
were one slug). The hash is of the board alone, never of the other boards a build holds: a slug that changed when
another board landed would break its links and the clearances that name it. Every other board's slug is built from
a benchmark's declared settings and the papers' tables, which NegHub writes, and stays as it was; two boards or two
rows with one id there are a mistake in NegHub's data, and `check_unique_ids` fails the build naming both.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..evaluator.core.registry import get_benchmark

if TYPE_CHECKING:
    from .facts import RowFacts

CUSTOM_PROMPT = "custom"  # the prefix of a custom prompt's board: "custom: NAME (sha256 …)"
BASE_TEST = "base"  # the benchmark's own test (SCN: the Self-Contained Negation Test), where a paper ran others too
KEY_HASH_DIGITS = 8  # 32 bits: a clash among one build's few hundred custom prompts is a one-in-ten-thousand event


class SlugCollision(ValueError):
    """Two boards with one slug, or two rows with one id, in one build (the message names both)."""


@dataclass(frozen=True, order=True)
class Board:
    """What makes rows comparable."""

    task: str
    dataset: str  # "<name> <version>" and, for NegHub-scored rows, the release's digest
    dataset_label: str  # how the page names the data
    is_sample: bool  # a sample NegHub wrote, standing in for an unavailable release
    split: str | None
    mode: str | None
    shots: int | None
    prompt: str
    chat_template: str  # "yes", "no" or "not stated"
    fine_tuned: bool
    fine_tuned_on: str | None = None  # the training data of a fine-tuned classifier, where it is stated
    test: str = BASE_TEST  # which test of the benchmark (SCN: base, the GH22 replication, co-reference controls)
    # how many seeds a row's figures average (a paper's 5-seed means are not single runs); None: the paper does not
    # say, which is neither one run nor five
    seeds: int | None = 1

    @functools.cached_property
    def slug(self) -> str:
        parts = [self.task, self.split or "all", self.mode or "", f"{self.shots}shot" if self.shots is not None else ""]
        parts += [self.prompt, "finetuned" if self.fine_tuned else "", _slug(self.dataset)]
        if self.chat_template != "not stated":
            parts.append(f"chat-{self.chat_template}")
        if self.fine_tuned_on:
            parts.append(f"on-{self.fine_tuned_on}")
        if self.test != BASE_TEST:
            parts.append(self.test)
        if self.seeds is None:
            parts.append("runs-not-stated")
        elif self.seeds != 1:
            parts.append(f"{self.seeds}seeds")
        if self.is_custom_prompt:
            parts.append(self.key_hash)
        return "--".join(_slug(p) for p in parts if p)

    @functools.cached_property
    def key_hash(self) -> str:
        """The first 8 hex digits of the sha256 of the board's whole key (every field, as JSON)."""
        key = json.dumps(dataclasses.astuple(self), ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()[:KEY_HASH_DIGITS]

    @property
    def title(self) -> str:
        """The board's heading: the protocol, then the data it was scored on."""
        return f"{self.protocol} — {self.dataset_label}"

    @property
    def protocol(self) -> str:
        """The board's protocol alone (its title without the data): where a page names the data already."""
        parts = []
        if self.test != BASE_TEST:
            parts.append(self.test)
        if self.split:
            parts.append(f"{self.split} split")
        if self.mode:
            parts.append(f"{self.mode} mode")
        if self.shots is not None:
            parts.append(f"{self.shots}-shot")
        if self.fine_tuned:
            parts.append(f"fine-tuned on {self.fine_tuned_on}" if self.fine_tuned_on else "fine-tuned")
        if self.prompt not in ("default", "paper"):
            parts.append(f"prompt {self.prompt}")
        if self.chat_template != "not stated":
            parts.append(f"chat template: {self.chat_template}")
        if self.seeds is None:
            parts.append("runs not stated")
        elif self.seeds != 1:
            parts.append(f"mean of {self.seeds} seeds")
        return " · ".join(parts) or "default setting"

    def without(self, setting: Literal["shots", "mode", "split"]) -> Board:
        """The board but one protocol setting: what the boards a by-setting chart draws together share."""
        if setting == "shots":
            return dataclasses.replace(self, shots=None)
        if setting == "mode":
            return dataclasses.replace(self, mode=None)
        return dataclasses.replace(self, split=None)

    @property
    def label(self) -> str:
        return self.title

    def sort_key(self) -> tuple[object, ...]:
        return (
            self.is_sample,
            self.dataset_label,
            self.split or "",
            self.fine_tuned,
            -1 if self.shots is None else self.shots,
            self.mode or "",
            self.prompt,
            self.chat_template,
            self.fine_tuned_on or "",
            self.test != BASE_TEST,
            self.test,
            -1 if self.seeds is None else self.seeds,
        )

    @property
    def is_custom_prompt(self) -> bool:
        return self.prompt.startswith(CUSTOM_PROMPT + ":")

    def release_key(self) -> tuple[str, str, str | None]:
        """What a rule baseline's row shares with the boards it is a reference on: the data and the split."""
        return (self.task, self.dataset, self.split)


def check_unique_ids(rows: Iterable[RowFacts]) -> None:
    """Raise SlugCollision, naming both, where two boards share a slug or two rows share an id (a file or a row of
    the site would silently replace another's)."""
    boards: dict[str, Board] = {}
    ids: dict[str, RowFacts] = {}
    for row in rows:
        other = boards.setdefault(row.key.slug, row.key)
        if other != row.key:
            raise SlugCollision(
                f"two boards share the slug {row.key.slug}: {other.title} ({other.task}) and {row.key.title} "
                f"({row.key.task}); give one of them a setting that tells them apart"
            )
        first = ids.setdefault(row.id, row)
        if first is not row:
            raise SlugCollision(
                f"two rows share the id {row.id}: {_row_words(first)} and {_row_words(row)}; each row of a build "
                "needs its own id"
            )


def _row_words(row: RowFacts) -> str:
    return f"{row.model} ({row.submission_id or row.source or row.kind}, on {row.key.title})"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def prompt_style(task: str, prompt: str | None, prompt_sha256: str | None = None) -> str:
    """A run's prompt, in the benchmark's vocabulary of styles; any other is a custom prompt, named by its name
    and the sha256 of its text as the run records it (two prompts that share a name share no board)."""
    styles = get_benchmark(task).display.prompt_styles
    if prompt is None or prompt == "default":
        return styles[0] if styles else "default"
    if prompt in styles:
        return prompt
    digest = f"sha256 {prompt_sha256[:12]}" if prompt_sha256 else "no sha256 recorded"
    return f"{CUSTOM_PROMPT}: {prompt} ({digest})"


def neghub_dataset(task: str, name: str, version: str, digest: str, is_sample: bool) -> tuple[str, str]:
    """(identity, label) of a release NegHub scored against."""
    label = f"{name} {version}" + (" — a sample written by NegHub, not comparable with the paper" if is_sample else "")
    return f"{name} {version} {digest[:12]}", label


def verified_board(
    task: str,
    *,
    dataset: tuple[str, str],
    is_sample: bool,
    split: str | None,
    mode: str | None,
    shots: int | None,
    prompt: str | None,
    chat_template: bool | None,
    fine_tuned: bool,
    prompt_sha256: str | None = None,
    seeds: int = 1,
) -> Board:
    benchmark = get_benchmark(task)
    return Board(
        task=task,
        dataset=dataset[0],
        dataset_label=dataset[1],
        is_sample=is_sample,
        split=split,
        mode=mode,
        # a benchmark without splits (a cloze test) has no prompt either: its shots mean nothing
        shots=None if benchmark.default_split is None else shots,
        prompt=prompt_style(task, prompt, prompt_sha256),
        chat_template="not stated" if chat_template is None else ("yes" if chat_template else "no"),
        fine_tuned=fine_tuned,
        seeds=seeds,
    )


def primary_board(task: str) -> Board | None:
    """The board the benchmark's display block declares primary, on the benchmark's own release (None: none)."""
    from ..evaluator.core.results import release_digest

    benchmark = get_benchmark(task)
    declared = benchmark.display.primary_board
    if declared is None:
        return None
    metadata = benchmark.metadata
    chat = {"yes": True, "no": False, "not stated": None}[declared.chat_template]
    board = verified_board(
        task,
        dataset=neghub_dataset(task, metadata.name, metadata.version, release_digest(metadata), metadata.is_sample),
        is_sample=metadata.is_sample,
        split=declared.split,
        mode=declared.mode,
        shots=declared.shots,
        prompt=declared.prompt,
        chat_template=chat,
        fine_tuned=declared.fine_tuned_on is not None,
        seeds=declared.seeds,
    )
    return dataclasses.replace(board, fine_tuned_on=declared.fine_tuned_on, test=declared.test)
