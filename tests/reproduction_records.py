"""Reproduction records for the tests that read or summarise one: every field a record needs, with test values,
and whatever the test gives instead (`minimal_record`); and a record of a submission on disk as `neghub reproduce`
writes it, naming its files' and metadata's sha256 (`landed_record`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from neghub.evaluator.submissions.reproduction import Reproduction


def minimal_record(**fields: Any) -> Reproduction:
    values: dict[str, Any] = {
        "schema_version": 2,
        "kind": "same-setting",
        "submission": "some-model",
        "date": "2026-01-01",
        "neghub_version": "0",
        "sample_seed": 0,
        "items_per_run": 1,
        "device": "cpu",
        "machine": "test",
        "library_versions": {},
        "runs": [],
    }
    return Reproduction.model_validate({**values, **fields})


def landed_record(
    root: Path, sid: str, *, differ: int = 0, checked: int | None = None, schema_version: int = 4, **extra: Any
) -> str:
    """The text of reproductions/<sid>.json for submissions/<sid>/ under `root`: a same-setting record (schema 4)
    that re-ran every item of each run (one item a line, as in a JNLI-Neg run), `differ` of them disagreeing; with
    `checked`, one that compared that many items of each run instead. With `schema_version=5` it keeps NegHub's
    answers (Contract R): `kept_answers` gives the files that go beside it, here the submitted bytes."""
    import yaml

    from neghub.evaluator.submissions.format import Metadata
    from neghub.evaluator.submissions.reproduction import metadata_sha256

    folder = root / "submissions" / sid
    metadata = Metadata.model_validate(yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8")))
    runs = []
    for run in metadata.runs:
        data = (folder / run.file).read_bytes()
        items = sum(1 for line in data.splitlines() if line.strip())
        compared = items if checked is None else checked
        runs.append(
            {
                "file": run.file,
                "predictions_sha256": hashlib.sha256(data).hexdigest(),
                "items_in_run": items,
                "items_checked": compared,
                "items_agreeing": compared - differ,
                "comparison": "labels exactly",
            }
        )
        if schema_version >= 5:
            runs[-1] |= {
                "rerun_file": run.file,
                "rerun_sha256": hashlib.sha256(data).hexdigest(),
                "items_not_in_file": 0,
            }
    document = {
        "schema_version": schema_version,
        "kind": "same-setting",
        "submission": sid,
        "date": "2026-11-26",
        "neghub_version": "0.1.0",
        "device": "cuda bfloat16",
        "machine": "x86_64",
        "library_versions": {},
        "runs": runs,
        "metadata_sha256": metadata_sha256(metadata),
        **extra,
    }
    return json.dumps(document, indent=1) + "\n"


def landed_rerun(root: Path, sid: str, *, differ: int = 0, **extra: Any) -> dict[str, str]:
    """The files a schema-5 record of submissions/<sid>/ lands (Contract R): reproductions/<sid>.json, and NegHub's
    kept answers to each run at reproductions/<sid>/<run.file>: the submitted lines, the first `differ` of each run
    with another label (a JNLI-Neg run's), so that NegHub's re-run differs from the submission on `differ` items."""
    import yaml

    from neghub.evaluator.submissions.format import Metadata

    folder = root / "submissions" / sid
    metadata = Metadata.model_validate(yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8")))
    labels = ("entailment", "neutral", "contradiction")
    files: dict[str, str] = {}
    kept_sha: dict[str, str] = {}
    for run in metadata.runs:
        lines = (folder / run.file).read_text(encoding="utf-8").splitlines()
        out = []
        for n, line in enumerate(lines):
            item = json.loads(line)
            if n < differ and item.get("prediction") in labels:
                item["prediction"] = labels[(labels.index(item["prediction"]) + 1) % 3]
            out.append(json.dumps(item, ensure_ascii=False))
        text = "\n".join(out) + "\n"
        files[f"reproductions/{sid}/{run.file}"] = text
        kept_sha[run.file] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    document = json.loads(landed_record(root, sid, differ=differ, schema_version=5, **extra))
    for entry in document["runs"]:
        entry["rerun_sha256"] = kept_sha[entry["file"]]
    files[f"reproductions/{sid}.json"] = json.dumps(document, indent=1) + "\n"
    return files


def kept_answers(root: Path, sid: str) -> dict[str, str]:
    """reproductions/<sid>/<file> -> text for each run of submissions/<sid>/ under `root`: NegHub's kept answers
    of a schema-5 record (`landed_record(..., schema_version=5)`), the same bytes as the submitted file."""
    import yaml

    folder = root / "submissions" / sid
    metadata = yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8"))
    return {
        f"reproductions/{sid}/{run['file']}": (folder / run["file"]).read_text(encoding="utf-8")
        for run in metadata["runs"]
    }
