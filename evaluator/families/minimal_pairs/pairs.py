"""The minimal pairs of a split (SPEC §1): every (control, treatment) pair of instances that differ by one inserted
cue, built once per split into integer arrays that scoring counts over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .records import Instance, Negation

PAIR_KINDS = ("single_s1", "single_s2", "both_from_s1", "both_from_s2")
CUE_POSITIONS = ("end", "mid")
# The release names the part of speech in Japanese; results use stable English keys.
TARGET_POS = {"動詞": "verb", "形容詞": "i_adjective", "形容動詞": "na_adjective"}
PAIR_SETS = ("M", "M_i", "M_u")


@dataclass(frozen=True)
class MinimalPairs:
    """Pairs as parallel arrays of row indices into the instance arrays, with their attributes."""

    control: NDArray[np.int64]
    treatment: NDArray[np.int64]
    kind: NDArray[np.int8]  # index into PAIR_KINDS
    cue_position: NDArray[np.int8]  # index into CUE_POSITIONS, of the cue the treatment adds
    target_pos: NDArray[np.int8]  # index into TARGET_POS, of that cue
    important: NDArray[np.bool_]  # gold differs between control and treatment (M_i)
    unmatched_both: int  # D_12 instances whose D_1/D_2 control is absent from the release
    # the source sentence pair both instances of the pair derive from (the release's group field, e.g.
    # `jnli_sentence_pair_id`): the pairs of one source share sentences, and intervals cluster by it
    group: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def size(self) -> int:
        return int(self.control.size)


def build_pairs(instances: Sequence[Instance]) -> MinimalPairs:
    """Build M as SPEC §1 defines it: single pairs from the original, both pairs through the shared
    negated sentence (matched by group and the cue's insertion point)."""
    original_row: dict[int, int] = {}
    s1_negated_row: dict[tuple[int, int], int] = {}
    s2_negated_row: dict[tuple[int, int], int] = {}
    for row, inst in enumerate(instances):
        if inst.type == "original":
            original_row[inst.group] = row
        elif inst.type == "p_neg" and inst.s1_neg is not None:
            s1_negated_row[(inst.group, inst.s1_neg.neg_id)] = row
        elif inst.type == "h_neg" and inst.s2_neg is not None:
            s2_negated_row[(inst.group, inst.s2_neg.neg_id)] = row

    control: list[int] = []
    treatment: list[int] = []
    kind: list[int] = []
    added: list[Negation] = []
    unmatched = 0

    def add(control_row: int | None, treatment_row: int, pair_kind: int, cue: Negation | None) -> bool:
        if control_row is None or cue is None:
            return False
        control.append(control_row)
        treatment.append(treatment_row)
        kind.append(pair_kind)
        added.append(cue)
        return True

    for row, inst in enumerate(instances):
        if inst.type == "p_neg":
            add(original_row.get(inst.group), row, 0, inst.s1_neg)
        elif inst.type == "h_neg":
            add(original_row.get(inst.group), row, 1, inst.s2_neg)
        elif inst.type == "p_neg_h_neg" and inst.s1_neg is not None and inst.s2_neg is not None:
            # both-from-s1: the control shares the negated s1, the treatment adds the s2 cue
            if not add(s1_negated_row.get((inst.group, inst.s1_neg.neg_id)), row, 2, inst.s2_neg):
                unmatched += 1
            if not add(s2_negated_row.get((inst.group, inst.s2_neg.neg_id)), row, 3, inst.s1_neg):
                unmatched += 1

    gold = np.array([inst.gold for inst in instances], dtype=np.int16)
    control_arr = np.array(control, dtype=np.int64)
    treatment_arr = np.array(treatment, dtype=np.int64)
    pos_codes = list(TARGET_POS)
    return MinimalPairs(
        control=control_arr,
        treatment=treatment_arr,
        kind=np.array(kind, dtype=np.int8),
        cue_position=np.array([CUE_POSITIONS.index(c.neg_position) for c in added], dtype=np.int8),
        target_pos=np.array([pos_codes.index(c.target_pos) for c in added], dtype=np.int8),
        important=gold[control_arr] != gold[treatment_arr] if control else np.zeros(0, dtype=np.bool_),
        unmatched_both=unmatched,
        group=np.array([instances[row].group for row in treatment], dtype=np.int64),
    )
