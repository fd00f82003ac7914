"""The common part of the module `neghub export lm-eval` writes beside each task YAML (`<task>.py`, whose
functions the YAML names with `!function`): each document holds NegHub's exact request (`query`, `choices`) and what the
benchmark's scoring adds (its right answer, `gold`).

After this part come the files the exported benchmarks' scorings name (`LmEvalScoring.utils`: a family's or a
benchmark's own lm_eval_utils.py), each reading a model's answers as NegHub does, so that lm-eval prints the
figure `neghub evaluate` gives on the same answers (`nox -s interop` checks that they are equal). Like them, this
file imports nothing from NegHub: lm-eval users need not install it.
"""

import os
from typing import Any


def load_documents(data_files: dict[str, str], **_: Any) -> Any:
    """A task's documents (lm-eval's `custom_dataset`): its JSON Lines file found beside this utils.py, wherever
    the exported folder was moved and whatever folder lm-eval runs in (the task YAML names the file alone)."""
    import datasets  # lm-eval's own dependency

    here = os.path.dirname(os.path.abspath(__file__))
    files = {split: os.path.join(here, name) for split, name in data_files.items()}
    return datasets.load_dataset("json", data_files=files)


def doc_to_text(doc: dict[str, Any]) -> str:
    return str(doc["query"])


def doc_to_choice(doc: dict[str, Any]) -> list[str]:
    return list(doc["choices"])


def doc_to_target(doc: dict[str, Any]) -> Any:
    # a document without a right answer (the cloze test's) has none: its figures come from an aggregation
    return doc.get("gold", "")
