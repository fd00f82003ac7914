"""The published schemas as JavaScript tools read them: Ajv (draft 2020-12, its default strict mode) compiles
every one without a complaint and gives each example the verdict NegHub's validator gives it; and a value of the
wrong JSON type for a literal (`open_weights: 1`, `parameters: false`) is refused by `neghub validate` and by
check-jsonschema alike.

Ajv comes from the npm registry through `npm ci` on tests/ajv/package-lock.json, which pins every package of its
tree by version and integrity (sha512): npm refuses a tarball that differs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.rule_submissions import rule_submission

from .test_schemas import AGREEMENT, SCHEMA_LOOSER, SCHEMAS

AJV_DIR = Path(__file__).resolve().parent / "ajv"
AJV_VERSION = "8.20.0"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ajv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding validate.js and the pinned Ajv in node_modules (`npm ci`: the lock's versions and
    integrity hashes, no install scripts)."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        if os.environ.get("CI"):
            pytest.fail("node and npm are missing in CI: the schema test gets Ajv with npm", pytrace=False)
        pytest.skip("node and npm are not installed: the Ajv check needs Ajv from the npm registry")
    lock = json.loads((AJV_DIR / "package-lock.json").read_text(encoding="utf-8"))
    packages = {path: entry for path, entry in lock["packages"].items() if path}
    assert packages["node_modules/ajv"]["version"] == AJV_VERSION
    assert all(entry.get("integrity", "").startswith("sha512-") for entry in packages.values()), "every package pinned"
    folder = tmp_path_factory.mktemp("ajv")
    for name in ("package.json", "package-lock.json", "validate.js"):
        shutil.copyfile(AJV_DIR / name, folder / name)
    subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return folder


def run_ajv(ajv: Path, schemas: dict[str, Path], cases: list[tuple[str, Any]]) -> dict[str, Any]:
    request = ajv / "request.json"
    request.write_text(
        json.dumps({"schemas": {k: str(v) for k, v in schemas.items()}, "cases": cases}), encoding="utf-8"
    )
    done = subprocess.run(
        ["node", str(ajv / "validate.js"), str(request)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def published() -> dict[str, Path]:
    return {path.name.removesuffix(".schema.json"): path for path in sorted(SCHEMAS.glob("*.schema.json"))}


def test_ajv_strict_mode_compiles_every_published_schema_without_a_word(ajv: Path) -> None:
    answer = run_ajv(ajv, published(), [])
    assert set(answer["compile_errors"]) == set(published())
    assert answer["compile_errors"] == dict.fromkeys(published())
    assert answer["logged"] == []


def test_ajv_strict_mode_refuses_the_openapi_discriminator(ajv: Path, tmp_path: Path) -> None:
    """What pydantic wrote into the submission schema before schemas.py dropped it: Ajv refuses it."""
    schema = tmp_path / "discriminated.schema.json"
    schema.write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "discriminator": {"propertyName": "kind", "mapping": {"a": "#/$defs/A"}},
                "oneOf": [{"$ref": "#/$defs/A"}],
                "$defs": {"A": {"type": "object", "properties": {"kind": {"const": "a"}}}},
            }
        ),
        encoding="utf-8",
    )
    answer = run_ajv(ajv, {"old": schema}, [])
    assert answer["compile_errors"] == {"old": 'strict mode: unknown keyword: "discriminator"'}


def test_ajv_gives_every_example_the_validators_verdict(ajv: Path) -> None:
    examples = [*AGREEMENT, *((name, instance, True) for name, instance in SCHEMA_LOOSER)]  # looser: schema accepts
    answer = run_ajv(ajv, published(), [(name, instance) for name, instance, _ in examples])
    wrong = [example for example, got in zip(examples, answer["valid"], strict=True) if example[2] != got]
    assert wrong == []


# a rule's submission (tests/rule_submissions.py) with one field given in another JSON type (check-jsonschema and
# `neghub validate` both accept it unchanged: tests/test_schemas_ecma.py, tests/test_validate.py)
WRONG_TYPES: dict[str, tuple[str, Any]] = {
    "open-weights-1": ("open_weights", 1),
    "parameters-false": ("parameters", False),
}


@pytest.mark.parametrize("case", sorted(WRONG_TYPES))
def test_a_literal_of_the_wrong_type_is_refused_by_neghub_validate_and_check_jsonschema(
    case: str, tmp_path: Path
) -> None:
    field, value = WRONG_TYPES[case]
    folder = tmp_path / "baseline-typed"
    shutil.copytree(rule_submission("never"), folder)  # SCN: scored without any dataset
    metadata = yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8"))
    assert metadata["model"]["kind"] == "local"
    metadata["model"][field] = value
    (folder / "metadata.yaml").write_text(yaml.safe_dump(metadata, sort_keys=False), encoding="utf-8")

    validated = subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", "validate", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert validated.returncode == 2, validated.stdout + validated.stderr
    assert f"model.{field}: Input should be a valid " in validated.stderr

    instance = tmp_path / "metadata.json"
    instance.write_text(json.dumps(metadata), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--schemafile", str(SCHEMAS / "submission.schema.json"), instance],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "model" in checked.stdout
