"""Generate the published JSON Schemas (Draft 2020-12) from the pydantic models.

`python -m neghub.evaluator.submissions.schemas [DIR]` writes them (the `schemas` nox session); `--check` compares
instead and exits 1 when a committed schema differs from the generated one. They are served with the site at
BASE_ID + file name.

Every `pattern` is an ECMA-262 regex valid in unicode mode, as JSON Schema specifies, and means the same set
of strings to pydantic's Rust engine, ECMA-262 and Python's `re` (format.py says how), with one exception:
Python's `$` also matches before a final newline, so the jsonschema package (which uses `re`) alone accepts a
metadata value with one trailing newline that NegHub, check-jsonschema and Ajv refuse.

The schemas are a description for submitters' tools, not the gate: the validator (pydantic plus the task's
own reader) decides, and tests/test_prediction_lines.py holds them to one verdict per line. Where a schema
cannot say what the gate checks, it is looser, never stricter:
- the plain-text rules on names, descriptions, links and provenance (no control or format characters,
  bidirectional overrides or markup);
- a date is a real calendar date from 2000 to tomorrow (the schema checks the YYYY-MM-DD form only);
- the strictness of integers: JSON Schema counts 1.0 as an integer, NegHub refuses it;
- the JSON text itself: UTF-8 without BOM, LF line ends, at most 64 KiB a line, no duplicate keys, no
  NaN/Infinity or number out of a float's range, integers of at most 20 digits (fileio/jsonl.py);
- a run's task is a registered benchmark (the schema lists those registered when it was generated), and its
  mode and split must be the benchmark's: the validator checks them against the registry;
- what depends on the whole file or the split: an id that exists, once; completeness; a null option exactly
  where the item does not offer it (multiple choice); every pattern of a kept triplet and NegHub's word
  lists (the cloze test).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from ..core.registry import benchmarks
from ..core.results import Result
from .format import Metadata

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://neghub.github.io/neghub/schemas/"  # the project site's schemas/ folder
DEFAULT_DIR = Path("schemas")  # relative to the repository root, where `nox -s schemas` runs


class Draft202012(GenerateJsonSchema):
    """pydantic's generator without its one keyword from OpenAPI: `discriminator`, which JSON Schema does not
    define (Ajv's default strict mode refuses it as an unknown keyword, and Ajv's own `discriminator` option
    refuses its `mapping`). Nothing is lost: each branch of the `oneOf` fixes `kind` with a `const`, so exactly
    one branch can match."""

    def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
        generated = super().tagged_union_schema(schema)
        generated.pop("discriminator", None)
        return generated


def schema_of(model: type[BaseModel], file_name: str) -> dict[str, Any]:
    body = model.model_json_schema(mode="validation", schema_generator=Draft202012)
    return {"$schema": DRAFT, "$id": BASE_ID + file_name, **body}


def prediction_models() -> dict[str, type[BaseModel]]:
    """`prediction-<benchmark>[-<mode>]` -> the line model, for every registered benchmark."""
    return {kind: model for benchmark in benchmarks() for kind, model in benchmark.schema_kinds().items()}


def generate() -> dict[str, str]:
    """File name -> text of every published schema: the submission, a result, and every benchmark's lines."""
    files: dict[str, type[BaseModel]] = {"submission.schema.json": Metadata, "result.schema.json": Result}
    files.update({f"prediction-{kind}.schema.json": model for kind, model in prediction_models().items()})
    return {
        name: json.dumps(schema_of(model, name), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        for name, model in files.items()
    }


def write_or_check(texts: Mapping[str, str], folder: Path, check: bool) -> int:
    """Write each schema's text into `folder` (file name -> text), or with `check` compare: exit code 1, naming
    every stale file in one line, where a committed schema differs from its text or is missing. The submission
    schemas here and the site files' schemas (leaderboard/contract.py) are written and checked by this one loop."""
    stale = []
    for name, text in texts.items():
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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    return write_or_check(generate(), Path(args[0]) if args else DEFAULT_DIR, check)


if __name__ == "__main__":
    sys.exit(main())
