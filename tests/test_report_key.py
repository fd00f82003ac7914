"""`neghub evaluate`'s table of a minimal-pair result explains its names in a key below it: every count, pair set,
column and breakdown value the table prints is named in the key (a reader needs no other page to read it)."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import CliResult


def test_every_name_the_table_prints_is_in_its_key(shared_datasets: Path, tmp_path: Path, neghub) -> None:  # type: ignore[no-untyped-def]
    predictions = tmp_path / "majority.jsonl"
    assert (
        neghub("baseline", "jnli-neg", "--kind", "majority", "-o", predictions, "--data-dir", shared_datasets).code == 0
    )
    done: CliResult = neghub("evaluate", "jnli-neg", predictions, "--data-dir", shared_datasets)
    assert done.code == 0, done.err
    table, key = done.out.split("\nkey:\n", 1)
    counts = re.search(r"^counts: (.*)$", table, re.M)
    assert counts is not None
    names = [item.rsplit(" ", 1)[0] for item in counts[1].split(", ")]
    assert "both_pairs_without_control" in names
    for dim, values in re.findall(r"^by (\w+): (.*)$", table, re.M):
        names.append(f"by {dim}")
        names += [part.split(" M_i ", 1)[0] for part in values.split("; ")]
    names += ["M_i", "M_u", "Acc′", "AccChg", "McNemar p", "ignored", "distracted"]
    assert {"single_s1", "both_from_s2", "by pair_kind", "by cue_position", "by target_pos"} <= set(names)
    missing = [name for name in names if name not in key]
    assert not missing, missing
