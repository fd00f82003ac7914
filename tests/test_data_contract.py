"""One data contract, versioned once (issue 37, item 7): every file the site publishes for readers' code
(`data/leaderboard.json`, `data/<board>.csv`, `data/results-long.parquet`, `data/benchmarks/<benchmark>.csv`)
is described by a schema whose `$id` carries one version, and a schema cannot change under a released version.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from neghub.evaluator.submissions.schemas import BASE_ID, generate
from neghub.leaderboard import contract
from neghub.leaderboard.board_file import LEADERBOARD_FILE_VERSION, SCHEMA_FILE, LeaderboardFile
from neghub.leaderboard.contract import (
    DATA_CONTRACT_VERSION,
    FINGERPRINTS_FILE,
    LONG_COLUMNS,
    RECORD_COMMAND,
    fingerprint,
    record,
    recorded,
    site_schemas,
)

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"


def test_the_schemas_fingerprint_is_the_one_recorded_for_this_version() -> None:
    """The test that fails when a site file's schema changes without the version: re-record while the version is
    unreleased; bump it once released."""
    entry = recorded(SCHEMAS)["versions"].get(str(DATA_CONTRACT_VERSION))
    assert entry is not None, f"data contract {DATA_CONTRACT_VERSION} has no fingerprint: run `{RECORD_COMMAND}`"
    if entry["fingerprint"] != fingerprint(site_schemas()):
        if entry["released"]:
            pytest.fail(
                f"the site files' schemas changed under the released data contract {DATA_CONTRACT_VERSION}: bump "
                "DATA_CONTRACT_VERSION (leaderboard/contract.py), say what a reader must change in CHANGELOG.md's "
                f"'Data contract' section, and run `{RECORD_COMMAND}`"
            )
        pytest.fail(f"the site files' schemas changed: run `{RECORD_COMMAND}` (data contract {DATA_CONTRACT_VERSION})")


def test_no_two_versions_share_a_fingerprint() -> None:
    """A new version is a new shape: a bump with nothing changed (or a change recorded under two numbers) says
    nothing to a reader."""
    prints = [entry["fingerprint"] for entry in recorded(SCHEMAS)["versions"].values()]
    assert len(prints) == len(set(prints))


def test_every_version_before_this_one_is_released() -> None:
    versions = recorded(SCHEMAS)["versions"]
    assert max(int(v) for v in versions) == DATA_CONTRACT_VERSION
    assert all(entry["released"] for v, entry in versions.items() if int(v) < DATA_CONTRACT_VERSION)


def test_a_schema_change_changes_the_fingerprint_and_a_word_does_not() -> None:
    schemas = site_schemas()
    reworded = json.loads(json.dumps(schemas))
    reworded[SCHEMA_FILE]["description"] = "other words"
    reworded[SCHEMA_FILE]["$id"] = "https://example.org/x"
    assert fingerprint(reworded) == fingerprint(schemas)
    reshaped = json.loads(json.dumps(schemas))
    reshaped[contract.LONG_SCHEMA]["properties"]["value"] = {"type": "string"}
    assert fingerprint(reshaped) != fingerprint(schemas)
    # a field named like an annotation keyword is a field: removing it is a change of shape
    renamed = json.loads(json.dumps(schemas))
    renamed[SCHEMA_FILE]["$defs"]["BoardEntry"]["properties"].pop("title")
    assert fingerprint(renamed) != fingerprint(schemas)


def test_recording_refuses_to_rewrite_a_released_version(tmp_path: Path) -> None:
    (tmp_path / FINGERPRINTS_FILE).write_text(
        json.dumps({"versions": {str(DATA_CONTRACT_VERSION): {"fingerprint": "0" * 64, "released": True}}}),
        encoding="utf-8",
    )
    refused = record(tmp_path)
    assert refused is not None and "bump DATA_CONTRACT_VERSION" in refused
    assert json.loads((tmp_path / FINGERPRINTS_FILE).read_text())["versions"][str(DATA_CONTRACT_VERSION)][
        "fingerprint"
    ] == ("0" * 64)
    # the command: one line, exit 2
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / FINGERPRINTS_FILE).write_text((tmp_path / FINGERPRINTS_FILE).read_text(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "neghub.leaderboard.contract", "--record", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_recording_an_unreleased_version_writes_its_fingerprint(tmp_path: Path) -> None:
    assert record(tmp_path) is None
    written = recorded(tmp_path)["versions"][str(DATA_CONTRACT_VERSION)]
    assert written == {"fingerprint": fingerprint(site_schemas()), "released": False}


def test_every_site_schema_carries_the_version_in_its_id_and_is_committed() -> None:
    for name, schema in site_schemas().items():
        assert schema["$id"] == f"{BASE_ID}data-contract-{DATA_CONTRACT_VERSION}/{name}"
        committed = SCHEMAS / name
        assert committed.is_file(), f"{name} is not committed: run `nox -s schemas`"
        assert json.loads(committed.read_text(encoding="utf-8")) == schema, f"{name} is stale: run `nox -s schemas`"


def test_the_submitters_schemas_keep_their_own_ids() -> None:
    """Submission, result and prediction schemas are what a submitter writes: versioned by the submission format,
    not by the site files' contract (contract.py says why)."""
    for name, text in generate().items():
        assert json.loads(text)["$id"] == BASE_ID + name


def test_the_leaderboard_files_version_is_the_contracts() -> None:
    assert LEADERBOARD_FILE_VERSION == DATA_CONTRACT_VERSION
    assert LeaderboardFile.model_fields["version"].default == DATA_CONTRACT_VERSION


def test_the_long_schema_lists_the_long_columns_in_file_order() -> None:
    schema = site_schemas()[contract.LONG_SCHEMA]
    assert tuple(schema["properties"]) == LONG_COLUMNS
    assert schema["additionalProperties"] is False


def test_the_changelog_says_what_a_reader_must_change_for_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    section = re.search(r"^## Data contract\n(.*?)(?=^## )", text, flags=re.MULTILINE | re.DOTALL)
    assert section is not None, "CHANGELOG.md has no '## Data contract' section"
    assert re.search(rf"^- \*\*{DATA_CONTRACT_VERSION}\b", section.group(1), flags=re.MULTILINE), (
        f"CHANGELOG.md's 'Data contract' section has no entry for version {DATA_CONTRACT_VERSION}"
    )
