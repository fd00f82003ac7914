"""Boards: the rows that may sit side by side.

A board is one benchmark, one dataset release, one split and one protocol (mode, shots, prompt style,
chat template, fine-tuned or not). Tables, charts, ranks and downloads never mix boards: a row scored on
NegHub's sample of a dataset sits on another board than the paper's rows on the official release, and a
custom prompt is one style, `custom`, on a board of its own.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Literal

from ..evaluator.core.registry import get_benchmark

CUSTOM_PROMPT = "custom"


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

    @property
    def slug(self) -> str:
        parts = [self.task, self.split or "all", self.mode or "", f"{self.shots}shot" if self.shots is not None else ""]
        parts += [self.prompt, "finetuned" if self.fine_tuned else "", _slug(self.dataset)]
        if self.chat_template != "not stated":
            parts.append(f"chat-{self.chat_template}")
        return "--".join(_slug(p) for p in parts if p)

    @property
    def title(self) -> str:
        """The board's heading: the protocol, then the data it was scored on."""
        parts = []
        if self.split:
            parts.append(f"{self.split} split")
        if self.mode:
            parts.append(f"{self.mode} mode")
        if self.shots is not None:
            parts.append(f"{self.shots}-shot")
        if self.fine_tuned:
            parts.append("fine-tuned")
        if self.prompt not in ("default", "paper"):
            parts.append(f"prompt {self.prompt}")
        if self.chat_template != "not stated":
            parts.append(f"chat template: {self.chat_template}")
        protocol = " · ".join(parts) or "default setting"
        return f"{protocol} — {self.dataset_label}"

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
        )


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def prompt_style(task: str, prompt: str | None) -> str:
    """A run's prompt, in the benchmark's vocabulary of styles; anything else is `custom`."""
    styles = get_benchmark(task).display.prompt_styles
    if prompt is None or prompt == "default":
        return styles[0] if styles else "default"
    return prompt if prompt in styles else CUSTOM_PROMPT


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
        prompt=prompt_style(task, prompt),
        chat_template="not stated" if chat_template is None else ("yes" if chat_template else "no"),
        fine_tuned=fine_tuned,
    )
