"""Generate the published JSON Schemas (Draft 2020-12) from the pydantic models.

`python -m neghub.evaluator.submissions.schemas [DIR]` writes them (the `schemas` nox session); `--check` compares
instead and exits 1 when a committed schema differs from the generated one.

The schemas are a description for submitters' tools, not the gate: the validator (pydantic plus the
task's own checks) decides. Two things a schema cannot say, so it is looser there: the plain-text
rules on names and descriptions (no control characters, bidirectional overrides or markup), and
the strictness of integers (JSON Schema counts 1.0 as an integer; NegHub refuses it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from neghub.evaluator.submissions.format import Metadata
from neghub.evaluator.submissions.prediction_lines import PREDICTION_MODELS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://neghub.github.io/schemas/"
DEFAULT_DIR = Path("schemas")  # relative to the repository root, where `nox -s schemas` runs


def schema_of(model: type[BaseModel], file_name: str) -> dict[str, Any]:
    body = model.model_json_schema(mode="validation")
    return {"$schema": DRAFT, "$id": BASE_ID + file_name, **body}


def generate() -> dict[str, str]:
    """File name -> text of every published schema."""
    files: dict[str, type[BaseModel]] = {"submission.schema.json": Metadata}
    files.update({f"prediction-{kind}.schema.json": model for kind, model in PREDICTION_MODELS.items()})
    return {
        name: json.dumps(schema_of(model, name), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        for name, model in files.items()
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    folder = Path(args[0]) if args else DEFAULT_DIR
    stale = []
    for name, text in generate().items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"schemas out of date (run `nox -s schemas`): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
