"""Fine-tuned sequence classifiers on sentence pairs: the papers' "fine-tuned" rows (an encoder fine-tuned on
the original NLI or STS training data), run by `neghub run` on a model with a classification head.

- An NLI head (several outputs) answers the arg-max output's label, named by the model's `id2label`
  (case-insensitive) or by `--label-map HEAD=LABEL,...`. The run is refused, before anything is written,
  when a benchmark label is named by no head label (missing), or when one is named by two, or a head label
  names none (ambiguous): a guess would score another model than the one fine-tuned.
- An STS regression head (one output) answers its value rounded half up to an integer and clipped to the
  benchmark's scale (0..5 for JSTS-Neg), the rule recorded in the run's metadata.

The runs use the prompt style `fine-tuned` (their own board) and no shots.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputError
from ..protocol.plans import Rows, RunPlan, RunSettings
from ..protocol.requests import Answer, Request
from .runs import RequestRuns

PROMPT_STYLE = "fine-tuned"


@dataclass(frozen=True)
class ClassifierTask:
    """What a sentence-pair benchmark tells the classifier protocol."""

    name: str
    default_split: str
    pair: Callable[[dict[str, Any]], tuple[str, str]]  # a release record -> (sentence 1, sentence 2)
    records: Callable[[str, Any, bool], list[dict[str, Any]]]  # split, data dir, unverified -> records
    labels: tuple[str, ...] = ()  # an NLI benchmark's labels (its predictions); empty for a regression task
    scale: tuple[int, int] | None = None  # a regression task's integer scale, inclusive


def round_to_scale(value: float, scale: tuple[int, int]) -> int:
    """A regression head's value as a score: rounded half up (2.5 -> 3), then clipped to the scale."""
    low, high = scale
    return min(high, max(low, math.floor(value + 0.5)))


def resolve_label_map(task: ClassifierTask, head: tuple[str, ...], label_map: tuple[tuple[str, str], ...]) -> list[str]:
    """The benchmark label of each head output, or an InputError naming what is missing or ambiguous."""
    wanted = ", ".join(task.labels)
    if label_map:
        given: dict[str, str] = {}
        for head_label, label in label_map:
            if head_label in given:
                raise InputError.single("--label-map", f"{head_label!r} is mapped twice")
            if label not in task.labels:
                raise InputError.single("--label-map", f"{label!r} is not a {task.name} label (expected {wanted})")
            given[head_label] = label
        unknown = [h for h in given if h not in head]
        if unknown:
            raise InputError.single(
                "--label-map", f"the model has no label {unknown[0]!r} (its id2label: {', '.join(head)})"
            )
        unmapped = [h for h in head if h not in given]
        if unmapped:
            raise InputError.single("--label-map", f"the model's label {unmapped[0]!r} is not mapped")
        mapped = [given[h] for h in head]
        source = "the label map"
    else:
        mapped = [h.strip().lower() for h in head]
        source = f"the model's id2label ({', '.join(head)})"
        strange = [h for h, m in zip(head, mapped, strict=True) if m not in task.labels]
        if strange:
            raise InputError.single(
                "--label-map",
                f"{source} names no {task.name} label for {strange[0]!r}: give --label-map HEAD=LABEL,... "
                f"(labels: {wanted})",
            )
    for label in task.labels:
        count = mapped.count(label)
        if count == 0:
            raise InputError.single("--label-map", f"{source} leaves the label {label!r} missing")
        if count > 1:
            raise InputError.single("--label-map", f"{source} is ambiguous: {count} outputs give {label!r}")
    return mapped


def classifier_plans(task: ClassifierTask, settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    """One run: every item's pair through the head, its output as the benchmark's prediction."""
    if backend_kind != "classifier":
        raise InputError.single("--prompt", f"{PROMPT_STYLE} runs need a sequence-classification model")
    if settings.shots:
        raise InputError.single("--shots", "a fine-tuned classifier takes no shots")
    head = settings.head_labels
    if head is None:
        raise InputError.single("--head-labels", "the classifier's labels are needed (its id2label, in order)")
    split = settings.split or task.default_split
    run_settings: dict[str, Any]
    if task.scale is not None:
        if head:
            raise InputError.single(
                "--tasks", f"{task.name} needs a regression head (one output); this model has {len(head)} labels"
            )
        scale = task.scale
        run_settings = {"head": "regression", "rounding": f"half up, clipped to {scale[0]}..{scale[1]}"}

        def value_of(outputs: list[float]) -> Any:
            return round_to_scale(outputs[0], scale)

    else:
        if not head:
            raise InputError.single(
                "--tasks", f"{task.name} needs a classification head with labels; this model has one regression output"
            )
        mapped = resolve_label_map(task, head, settings.label_map)
        run_settings = {
            "head": "classification",
            "label_map": ",".join(f"{h}={m}" for h, m in zip(head, mapped, strict=True)),
        }

        def value_of(outputs: list[float]) -> Any:
            best = max(range(len(outputs)), key=lambda i: (outputs[i], -i))  # the first of equal maxima
            return mapped[best]

    items = [(r["id"], *task.pair(r)) for r in task.records(split, settings.data_dir, settings.unverified)]

    def requests(item: Any) -> list[Request]:
        item_id, first, second = item
        return [Request(id=item_id, kind="classify", prompt=first, text_pair=second)]

    def lines(item: Any, answers: list[Answer]) -> Rows:
        (outputs,) = answers
        assert isinstance(outputs, list)
        if len(outputs) != max(len(head), 1):
            raise InputError.single(
                "answers", f"item {item[0]}: expected {max(len(head), 1)} outputs, got {len(outputs)}"
            )
        return [{"id": item[0], "prediction": value_of(outputs)}]

    runs = RequestRuns(task.name, split, PROMPT_STYLE, settings, shots=0)
    return [runs.plan(None, items, requests, lines, protocol="classify", settings=run_settings)]
