"""The minimal-pair family's contamination probe (evaluator/core/contamination.py): a unit is an M_i pair (the gold
changes with the added cue), scored by its treatment's answer (the pair's share of M_i Acc′), in the stratum of its
treatment's gold label and its pair kind, clustered by the group its instances come from (the benchmark's group
field, the source sentence pair)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.contamination import ContaminationProbeSpec, ProbeUnits
from .pairs import PAIR_KINDS
from .spec import MinimalPairSpec


def probe_units(spec: MinimalPairSpec, split: str, data_dir: Path | None) -> ProbeUnits:
    """The M_i pairs of one split of the pinned release, as probe units."""
    dataset = spec.load(split, data_dir=data_dir)
    group_field = spec.record.group_field
    groups = np.array([int(record[group_field]) for record in spec.records(split, data_dir, False)], dtype=np.int64)
    important = dataset.pairs.important
    treatment = dataset.pairs.treatment[important]
    kind = dataset.pairs.kind[important].astype(np.int64)
    gold = dataset.gold[treatment].astype(np.int64)
    strata = tuple(f"{spec.prediction_value(g)} / {k}" for g in range(spec.n_values) for k in PAIR_KINDS)
    return ProbeUnits(
        item=dataset.ids[treatment].astype(np.int64),
        gold=gold,
        stratum=gold * len(PAIR_KINDS) + kind,
        cluster=groups[treatment],
        strata=strata,
    )


def minimal_pair_probe(
    spec: MinimalPairSpec, *, split: str, ranked_split: str, max_shots: int | None = None
) -> ContaminationProbeSpec:
    """The probe of `spec`'s `ranked_split` against a sample of its `split` (see the module docstring)."""

    def answer_of_line(line: dict[str, Any]) -> int | None:
        try:
            return spec.parse_prediction(line.get("prediction"))
        except ValueError:
            return None

    return ContaminationProbeSpec(
        metric="M_i Acc′",
        split=split,
        ranked_split=ranked_split,
        strata_words="the treatment's gold label and the pair kind (single on s1, single on s2, both from s1 or s2)",
        cluster_key=spec.record.group_field,
        units=lambda name, data_dir: probe_units(spec, name, data_dir),
        answer_of_line=answer_of_line,
        max_shots=max_shots,
    )
