"""What `neghub run` executes: runs of items, each item turning into prediction lines with the model.

A benchmark's folder builds its runs (`Benchmark.plans`) from `RunSettings`; runners/run.py executes them,
resuming after the items a run already wrote. The item order never depends on the data order alone in a
way that changes between runs: either it is fixed by the plan, or it follows the model's token lengths
(then only the model that wrote a partial file may resume it, which runners/run.py checks).

Each item is also expressible as engine-neutral requests (`RunPlan.requests`, see requests.py) and its
answers become lines through `RunPlan.lines`: `neghub prompts` writes the requests, `neghub import` applies
the post-processing to another engine's answers, and `process` is, for most runs, the loaded model (model.py) answering
the requests then that same post-processing. `protocol` says how answers are obtained ("generation",
"loglikelihood", "top1", "classify"); it is recorded with the run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import LoadedModel
    from .requests import Answer, Request

# the few-shot seeds of the papers (five seeds, as the multiple-choice and STS papers use)
DEFAULT_SEEDS = (42, 1234, 3000, 5000, 7000)

Rows = list[dict[str, Any]]
Process = Callable[["LoadedModel", Sequence[Any]], list[Rows]]


@dataclass(frozen=True)
class RunSettings:
    """What the command line asks of every benchmark's runs (each takes what applies to it)."""

    split: str | None = None
    shots: int = 0
    seeds: tuple[int, ...] = DEFAULT_SEEDS
    modes: tuple[str, ...] = ()  # empty: the benchmark's own default modes
    prompt: str | None = None
    data_dir: Path | None = None
    batch_size: int = 8
    batch_tokens: int | None = None  # padded tokens per batch at most, for runs whose items have token lengths
    unverified: bool = False
    max_pairs: int | None = None  # the cloze test's protocol: this many name/profession pairs, seeded (complete)
    # a partial run, for trying a model: a seeded sample of this many items of every run (`partial_sample`);
    # recorded in each run's provenance, and refused by `neghub validate`
    max_items: int | None = None
    sample_seed: int = 0  # the seed of both samples (and of the cloze test's verb sample)
    chat_template: str = "auto"  # auto | on | off; `neghub run` resolves auto to on or off for the model
    # a fine-tuned classifier's head: its labels in output order (empty: a regression head), and the
    # --label-map pairs (head label, benchmark label) that name them
    head_labels: tuple[str, ...] | None = None
    label_map: tuple[tuple[str, str], ...] = ()

    @property
    def chat(self) -> bool:
        """Whether prompts go through the model's chat template (auto counts as on where no model is loaded:
        the engine that answers applies its model's template, if it has one)."""
        return self.chat_template != "off"


@dataclass
class RunPlan:
    """One prediction file: its submission run fields, its items and how a batch of items becomes lines."""

    task: str
    split: str | None
    shots: int
    seed: int | None
    prompt: str
    mode: str | None
    items: Sequence[Any]
    process: Process
    batch_size: int = 1
    batch_tokens: int | None = None  # see `batched_items`
    settings: dict[str, Any] = field(default_factory=dict)
    # each item's length in the model's tokens; when given, items run shortest first by it (ties keep
    # the plan's order), so that a batch pads little. The order then depends on the tokenizer: a
    # partial file can only be resumed by the model that wrote it, which run.py checks.
    token_lengths: Callable[[LoadedModel, Sequence[Any]], list[int]] | None = None
    protocol: str = "default"  # how answers are obtained (generation, loglikelihood, ...), recorded in the run
    # the item's engine-neutral requests and how their answers become its lines (None: not expressible)
    requests: Callable[[Any], list[Request]] | None = None
    lines: Callable[[Any, list[Answer]], Rows] | None = None
    # how `neghub prompts` / `neghub import` differ from `neghub run` for this run, in a sentence (the cloze
    # test's adaptive selection), or "" when they ask exactly the same
    requests_note: str = ""
    # why a run can end with no line at all (then `neghub run` writes no file: an empty one is not valid)
    empty_reason: str = "no item gave a prediction line"
    # for `neghub reproduce`: an item's key (default: the id of its one request), and the key of the item a
    # written line belongs to (default: its "id"), so that a sample of items can be re-run and compared with
    # the submitted lines of those items
    item_key: Callable[[Any], Hashable] | None = None
    line_item: Callable[[dict[str, Any]], Hashable] | None = None
    # the items scored together, by key (a negation minimal pair's members share their source pair): a partial
    # sample takes such a group whole or not at all (None: every item is scored on its own)
    item_group: Callable[[Any], Hashable] | None = None

    def key_of(self, item: Any) -> Hashable:
        """The item's key: `item_key`, or the id of its one request."""
        if self.item_key is not None:
            return self.item_key(item)
        assert self.requests is not None, f"{self.task}: a run without requests names its items by item_key"
        return self.requests(item)[0].id

    def run_entry(self) -> dict[str, Any]:
        """The run as metadata.yaml lists it; `chat_template` where the run's prompts could go through one
        (the leaderboard puts runs with and without a chat template on different boards)."""
        entry: dict[str, Any] = {
            "task": self.task,
            "split": self.split,
            "file": self.file,
            "shots": self.shots,
            "seed": self.seed,
            "prompt": self.prompt,
            "mode": self.mode,
        }
        chat = self.settings.get("chat_template")
        if isinstance(chat, bool):
            entry["chat_template"] = chat
        return entry

    def ordered_items(self, backend: LoadedModel) -> Sequence[Any]:
        return [item for batch in self.batched_items(backend) for item in batch]

    def batched_items(self, backend: LoadedModel) -> list[Sequence[Any]]:
        """The run's items in the order they run, in the batches they run in: `batch_size` items at most,
        and, where items have token lengths, shortest first and `batch_tokens` padded tokens at most (the
        batch's rows times its longest item). The batches are part of a 16-bit run's numeric setting
        (runners/setting.py): `neghub reproduce` re-runs whole batches of them."""
        if self.token_lengths is None:
            return list(batches(self.items, self.batch_size))
        lengths = self.token_lengths(backend, self.items)
        order = sorted(range(len(self.items)), key=lengths.__getitem__)
        return token_batches(
            [self.items[i] for i in order], [lengths[i] for i in order], self.batch_size, self.batch_tokens
        )

    @property
    def file(self) -> str:
        parts = [self.task, self.split or "all", self.mode or "", self.prompt, f"{self.shots}shot"]
        if self.seed is not None:
            parts.append(f"seed{self.seed}")
        return f"predictions/{self.task}/" + "-".join(p for p in parts if p) + ".jsonl"


def batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def token_batches(
    items: Sequence[Any], lengths: Sequence[int], max_items: int, max_tokens: int | None
) -> list[Sequence[Any]]:
    """Consecutive items in batches of at most `max_items`, and of at most `max_tokens` padded tokens (rows
    times the longest item's length; an item longer than the budget runs alone)."""
    out: list[Sequence[Any]] = []
    current: list[Any] = []
    longest = 0
    for item, length in zip(items, lengths, strict=True):
        wider = max(longest, length)
        full = len(current) >= max_items or (max_tokens is not None and wider * (len(current) + 1) > max_tokens)
        if current and full:
            out.append(current)
            current, wider = [], length
        current.append(item)
        longest = wider
    if current:
        out.append(current)
    return out


def prompt_lengths(*, special_tokens: bool) -> Callable[[LoadedModel, Sequence[Any]], list[int]]:
    """Token lengths of (key, prompt) items."""

    def lengths(backend: LoadedModel, items: Sequence[Any]) -> list[int]:
        return backend.token_lengths([prompt for _, prompt in items], special_tokens=special_tokens)

    return lengths


# the keys a partial run records in each run's provenance (TASK.PROMPT.MODE.KEY, beside the run's protocol):
# kept per run, not once per submission, because the validator refuses a run, and each run's file holds its own
# sample; `partial_items` is the mark `neghub validate` looks for
PARTIAL_ITEMS = "partial_items"
SPLIT_ITEMS = "split_items"
SAMPLE_SEED = "sample_seed"
TRIAL_OPTION = "--max-items"


def without_trial_option(words: Sequence[str]) -> list[str]:
    """A command's words without `--max-items N` (or `--max-items=N`): the command of the whole run a trial
    tried."""
    kept: list[str] = []
    for word in words:
        if kept and kept[-1] == TRIAL_OPTION:
            kept.pop()  # the option and its value
        elif not word.startswith(TRIAL_OPTION + "="):
            kept.append(word)
    return kept


def partial_sample(plan: RunPlan, max_items: int, seed: int) -> RunPlan:
    """The plan on a seeded sample of at most `max_items` of its items (at least one group), recorded as partial
    in its settings. Whole groups (`item_group`) are taken in a seeded order of their keys until the next would
    exceed `max_items`: the sample depends on the items' keys and the seed only, so every run of a task (each
    prompt style, mode and few-shot seed) gets the same items. A plan with no more items than that is left whole
    and is not partial."""
    if len(plan.items) <= max_items:
        return plan
    group_of = plan.item_group or plan.key_of
    groups: dict[Hashable, list[int]] = {}
    for index, item in enumerate(plan.items):
        groups.setdefault(group_of(item), []).append(index)
    order = sorted(groups, key=repr)  # keys of one type, ordered alike on every machine
    random.Random(seed).shuffle(order)
    chosen: set[int] = set()
    for group in order:
        if chosen and len(chosen) + len(groups[group]) > max_items:
            break
        chosen.update(groups[group])
    items = [item for index, item in enumerate(plan.items) if index in chosen]  # the plan's order, kept
    partial = {PARTIAL_ITEMS: len(items), SPLIT_ITEMS: len(plan.items), SAMPLE_SEED: seed}
    return dataclasses.replace(plan, items=items, settings={**plan.settings, **partial})
