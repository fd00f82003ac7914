"""Writing a run's prediction file, resuming an interrupted one, and two runs of one prompt written together.

Resuming: each run writes `<file>.partial` (lines appended and flushed one batch at a time) and `<file>.progress`
(items done and the byte length they fill, replaced atomically after each batch). A restarted run truncates the
partial file to that length, skips the items done, and at the end renames the partial file into place.

Two runs together (`fused_pairs`): a generation run and a log-likelihood run that ask the same prompts of the same
items (JNLI-Neg's llm-jp-eval prompt, both ways) run batch by batch in one pass of the model (fusion.py), each
still writing its own file, progress and resume as above. Only in float32: there the batches are not part of the
numeric setting (setting.py), so the log-likelihood run's record says what it is whichever batches computed it,
and `neghub reproduce` re-runs it as the run alone batches it; in 16 bits a log-likelihood depends on the rows
beside it, and a run's batches are part of its setting, so the runs there run one after the other, as recorded.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..fileio.files import atomic_write
from ..protocol.plans import Rows, RunPlan
from ..protocol.requests import BROKEN_CHARACTER, Request, cut_at
from ..submissions.reproduction import NumericSetting
from .backend import Backend
from .setting import ALSO_IN_16_BITS, DEFINING, FLOAT32


def _json_line(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n"


def write_text(path: Path, text: str) -> None:
    """`text` written to `path` atomically."""

    def write(handle: Any) -> None:
        handle.write(text)

    atomic_write(path, write)


class PredictionFile:
    """One run's prediction file as it is written: its partial file and progress, resumed where they stop."""

    def __init__(self, backend: Backend, plan: RunPlan, out_dir: Path, setting: NumericSetting) -> None:
        self.final = out_dir / plan.file
        self.complete = self.final.exists()
        self.partial = self.final.with_name(self.final.name + ".partial")
        self.marker = self.final.with_name(self.final.name + ".progress")
        # the item order may follow the tokenizer (see RunPlan.token_lengths) and the batches the setting: only
        # the model that wrote a partial file, in the same setting, may resume it
        writer: dict[str, Any] = {k: backend.info.get(k) for k in ("model_source", "model_location", "model_revision")}
        writer.update(setting.model_dump(include=set(DEFINING + ALSO_IN_16_BITS)))
        self.writer = writer
        self.done, self.size = 0, 0
        self.handle: Any = None
        if self.complete:
            return
        if self.marker.exists() and self.partial.exists():
            state = json.loads(self.marker.read_text())
            if state.get("writer") != writer:
                raise InputError.single(
                    str(self.partial),
                    f"was written by another model or setting ({state.get('writer')}, now {writer}): delete it and "
                    f"{self.marker.name}, or write to another -o folder",
                )
            self.done, self.size = int(state["items"]), int(state["bytes"])

    def open(self) -> None:
        self.final.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(self.partial, "a+b")  # noqa: SIM115 (closed by `finish`, after every batch)
        self.handle.truncate(self.size)  # drop a line half-written when the run was interrupted
        self.handle.seek(self.size)

    def write(self, rows: list[Rows], reached: int) -> None:
        """A batch's lines, made durable, then the progress: `reached` items of the run's order written."""
        self.handle.write("".join(_json_line(r) for item_rows in rows for r in item_rows).encode())
        self.handle.flush()
        os.fsync(self.handle.fileno())
        write_text(self.marker, json.dumps({"items": reached, "bytes": self.handle.tell(), "writer": self.writer}))

    def finish(self) -> bool:
        """The partial file moved into place; False (and no file left) where it holds no line."""
        written = self.handle.tell()
        self.handle.close()
        self.marker.unlink(missing_ok=True)
        if not written:
            self.partial.unlink()
            return False
        os.replace(self.partial, self.final)
        return True


def execute_plan(
    backend: Backend, plan: RunPlan, out_dir: Path, setting: NumericSetting, *, progress: bool = True
) -> dict[str, float]:
    """Write one run's prediction file, resuming from its partial file; returns items, seconds, and whether
    the file holds lines (`written`: 0 when no item gave one, and then no file is left, since an empty
    prediction file is not a valid one)."""
    from tqdm import tqdm

    file = PredictionFile(backend, plan, out_dir, setting)
    if file.complete:
        return {"items": 0, "seconds": 0.0, "written": 1}
    batched = plan.batched_items(backend)
    total = sum(len(batch) for batch in batched)
    file.open()
    started = time.perf_counter()
    bar = tqdm(total=total, initial=file.done, desc=plan.file, unit="item", disable=not progress, file=sys.stderr)
    reached = 0
    for batch in batched:
        reached += len(batch)
        if reached <= file.done:
            continue  # written before the interruption
        file.write(plan.process(backend, batch), reached)
        bar.update(len(batch))
    bar.close()
    seconds = time.perf_counter() - started
    written = file.finish()
    return {"items": total - file.done, "seconds": seconds, "written": int(written)}


def fused_pairs(plans: Sequence[RunPlan], setting: NumericSetting) -> list[tuple[RunPlan, RunPlan]]:
    """The (generation, log-likelihood) runs that may run together: in float32 (the module docstring says why),
    of the same task, split, shots and seed, over the same items, each item one request of its kind with the
    same prompt, both asked the same way (chat or not). Each run is in one pair at most."""
    if setting.dtype != FLOAT32:
        return []
    pairs = []
    taken: set[int] = set()
    for gen in plans:
        if gen.protocol != "generation" or gen.requests is None or gen.lines is None:
            continue
        for ll in plans:
            if id(ll) in taken or ll.protocol != "loglikelihood" or ll.requests is None or ll.lines is None:
                continue
            same_run = (gen.task, gen.split, gen.shots, gen.seed) == (ll.task, ll.split, ll.shots, ll.seed)
            if same_run and list(gen.items) == list(ll.items) and all(_askable(gen, ll, item) for item in gen.items):
                pairs.append((gen, ll))
                taken.add(id(ll))
                break
    return pairs


def _askable(gen: RunPlan, ll: RunPlan, item: Any) -> bool:
    """Whether an item's two requests can be answered together: one greedy request, one log-likelihood request,
    the same prompt asked the same way."""
    assert gen.requests is not None and ll.requests is not None
    greedy, scored = gen.requests(item), ll.requests(item)
    if len(greedy) != 1 or len(scored) != 1:
        return False
    g, s = greedy[0], scored[0]
    return (
        (g.kind, s.kind) == ("generate", "loglikelihood")
        and (g.prompt, g.chat) == (s.prompt, s.chat)
        and (g.mask is None and s.mask is None)
    )


def _text_of(backend: Backend, request: Request) -> str:
    return backend.chat_text(request.prompt) if request.chat else request.prompt


def _answer_together(
    backend: Backend, gen: RunPlan, ll: RunPlan, batch: Sequence[Any]
) -> tuple[list[Rows], list[Rows]]:
    """A batch's lines of both runs, from one fused pass where the batch allows it (fusion.py), else each run's
    own `process` (generation answered as `protocol.requests.execute` answers it)."""
    assert gen.requests is not None and gen.lines is not None and ll.requests is not None and ll.lines is not None
    greedy = [gen.requests(item)[0] for item in batch]
    scored = [ll.requests(item)[0] for item in batch]
    settings = {(r.max_new_tokens, r.add_special_tokens and not r.chat) for r in greedy}
    if len(settings) != 1:
        return gen.process(backend, batch), ll.process(backend, batch)
    ((max_new_tokens, special),) = settings
    texts, scores = backend.generate_and_score(
        [_text_of(backend, r) for r in greedy],
        max_new_tokens,
        special_tokens=special,
        requests=[(_text_of(backend, r), list(r.continuations)) for r in scored],
    )
    # cut at the stop strings, then no broken character at the end: as `execute` answers a generate request
    answers = [cut_at(text, r.until).rstrip(BROKEN_CHARACTER) for r, text in zip(greedy, texts, strict=True)]
    gen_rows = [gen.lines(item, [answer]) for item, answer in zip(batch, answers, strict=True)]
    if scores is None:
        return gen_rows, ll.process(backend, batch)
    ll_rows = [ll.lines(item, [[s for s, _ in item_scores]]) for item, item_scores in zip(batch, scores, strict=True)]
    return gen_rows, ll_rows


def execute_pair(
    backend: Backend, gen: RunPlan, ll: RunPlan, out_dir: Path, setting: NumericSetting, *, progress: bool = True
) -> tuple[dict[str, float], dict[str, float]] | None:
    """Write a fused pair's two prediction files together, batch by batch in the generation run's batches, each
    resuming from its own partial file; returns each run's `execute_plan` figures (the pair's seconds are the
    first written run's, the other's 0: it took no time of its own). None, with nothing written,
    where the two runs order their items differently (then each runs alone): each file's progress counts items
    in its run's order."""
    from tqdm import tqdm

    batched = gen.batched_items(backend)
    order = [item for batch in batched for item in batch]
    if list(ll.ordered_items(backend)) != order:
        return None
    files = [PredictionFile(backend, plan, out_dir, setting) for plan in (gen, ll)]
    total = len(order)
    figures = [{"items": 0, "seconds": 0.0, "written": 1}, {"items": 0, "seconds": 0.0, "written": 1}]
    open_files = [file for file in files if not file.complete]
    for file in open_files:
        file.open()
    started = time.perf_counter()
    done = min(file.done if not file.complete else total for file in files)
    bar = tqdm(total=total, initial=done, desc=f"{gen.file} + log-likelihood", disable=not progress, file=sys.stderr)
    reached = 0
    for batch in batched:
        begin, reached = reached, reached + len(batch)
        # the items of this batch each run still needs (a run resumed in another's batches needs part of one)
        needed = [[] if file.complete else list(batch[max(begin, file.done) - begin :]) for file in files]
        if not any(needed):
            continue
        rows: Sequence[list[Rows]]
        if all(len(n) == len(batch) for n in needed):
            rows = _answer_together(backend, gen, ll, batch)
        else:
            rows = [plan.process(backend, n) if n else [] for plan, n in zip((gen, ll), needed, strict=True)]
        for file, n, lines in zip(files, needed, rows, strict=True):
            if n:
                file.write(lines, reached)
        bar.update(reached - max(begin, done))
    bar.close()
    seconds = time.perf_counter() - started
    timed = next(index for index, file in enumerate(files) if not file.complete) if open_files else 0
    for index, file in enumerate(files):
        if not file.complete:
            ran = {"items": total - file.done, "seconds": seconds if index == timed else 0.0}
            figures[index] = {**ran, "written": int(file.finish())}
    return figures[0], figures[1]
