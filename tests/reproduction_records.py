"""A reproduction record for the tests that read or summarise one: every field a record needs, with test values,
and whatever the test gives instead."""

from __future__ import annotations

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
