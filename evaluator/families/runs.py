"""What the runs of one `neghub run` of a benchmark share, for the families whose items are engine-neutral
requests (multiple choice, llm-jp-eval, fine-tuned classifiers): `RequestRuns.plan` makes a `RunPlan` whose
`process` is the backend answering the item's requests, then the run's post-processing (protocol/requests.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..protocol.plans import Rows, RunPlan, RunSettings
from ..protocol.requests import requests_process

if TYPE_CHECKING:
    from ..protocol.model import LoadedModel
    from ..protocol.requests import Answer, Request

TokenLengths = Callable[["LoadedModel", Sequence[Any]], list[int]]


@dataclass(frozen=True)
class RequestRuns:
    """The task, split, prompt style and command-line settings of the runs a benchmark plans."""

    task: str
    split: str
    prompt: str
    settings: RunSettings
    shots: int | None = None  # None: the settings' shots

    def plan(
        self,
        seed: int | None,
        items: Sequence[Any],
        requests: Callable[[Any], list[Request]],
        lines: Callable[[Any, list[Answer]], Rows],
        *,
        protocol: str,
        settings: dict[str, Any],
        mode: str | None = None,
        token_lengths: TokenLengths | None = None,
    ) -> RunPlan:
        """One run (one prediction file): `items` asked through `requests`, answered into lines by `lines`."""
        return RunPlan(
            task=self.task,
            split=self.split,
            shots=self.settings.shots if self.shots is None else self.shots,
            seed=seed,
            prompt=self.prompt,
            mode=mode,
            items=items,
            process=requests_process(requests, lines),
            batch_size=self.settings.batch_size,
            settings=settings,
            token_lengths=token_lengths,
            protocol=protocol,
            requests=requests,
            lines=lines,
        )
