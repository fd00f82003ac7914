"""One record of a minimal-pair release, and what the pair construction keeps of it (`Instance`).

JNLI-Neg's releases and JSTS-Neg's share one layout: an instance id, the source pair its group derives from, the
instance's type (which sentences carry an inserted cue), two sentences each with its cue (or null), the gold,
and the annotators' answers. They differ in the source corpus's names (`jnli_sentence_pair_id`,
`neg_id_in_jnli_sentence`) and in their task's gold fields. `RecordSchema` is that layout for one corpus and one
task: the pydantic model of a line, its reduction to an `Instance`, and the record fields the card documents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, create_model

from ...protocol.metadata import RecordField

InstanceType = Literal["original", "p_neg", "h_neg", "p_neg_h_neg"]
NegPosition = Literal["end", "mid"]
TargetPos = Literal["動詞", "形容詞", "形容動詞"]
_RECORD = ConfigDict(extra="forbid", strict=True)


class Negation(BaseModel):
    """The cue inserted into one sentence; `neg_id` numbers the insertion points of its source sentence."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    neg_id: int
    neg_position: NegPosition
    target_pos: TargetPos


@dataclass(frozen=True)
class Instance:
    """A record reduced to what the pair construction needs."""

    id: int
    group: int
    type: InstanceType
    s1_neg: Negation | None
    s2_neg: Negation | None
    gold: int  # the gold label's index in the task's label vocabulary, or the STS score itself


@dataclass(frozen=True)
class TaskField:
    """A field of the record that belongs to the task (its gold, its annotations): its type, and the card's words."""

    name: str
    annotation: Any  # the pydantic type of the field
    type_text: str  # the type as the card writes it
    description: str


@dataclass(frozen=True)
class RecordSchema:
    """The record layout of a minimal-pair release built from `corpus` (JNLI, JSTS) for one task.

    `gold` and `annotations` are the task's fields; `gold_code` turns the validated record's gold into the
    integer the scorer compares (a label's index, a score itself). `sentence_roles` names what sentence1 and
    sentence2 are, where the task gives them names (the premise and the hypothesis)."""

    corpus: str
    gold: TaskField
    annotations: TaskField
    gold_code: Callable[[Any], int]
    sentence_roles: tuple[str, str] | None = None
    description: str = ""

    @property
    def group_field(self) -> str:
        return f"{self.corpus.lower()}_sentence_pair_id"

    @property
    def cue_id_field(self) -> str:
        return f"neg_id_in_{self.corpus.lower()}_sentence"

    @cached_property
    def model(self) -> type[BaseModel]:
        """The pydantic model of one line of the release (extra fields forbidden, no coercion)."""
        cue_fields: dict[str, Any] = {
            self.cue_id_field: (int, ...),
            "neg_position": (NegPosition, ...),
            "target_pos": (TargetPos, ...),
        }
        cue = create_model("Cue", __config__=_RECORD, **cue_fields)
        sentence = create_model("Sentence", __config__=_RECORD, sentence=(str, ...), neg=(cue | None, ...))
        record_fields: dict[str, Any] = {
            "id": (int, ...),
            self.group_field: (int, ...),
            "pair_id_in_group": (int, ...),
            "type": (InstanceType, ...),
            "sentence1": (sentence, ...),
            "sentence2": (sentence, ...),
            **{field.name: (field.annotation, ...) for field in (self.gold, self.annotations)},
        }
        doc = self.description or f"One line of a {self.corpus}-Neg release."
        return create_model("Record", __config__=_RECORD, __doc__=doc, **record_fields)

    def parse(self, obj: dict[str, Any]) -> Instance:
        """Validate one line (pydantic's ValidationError where it is not a record) and reduce it to an Instance."""
        record: Any = self.model.model_validate(obj)
        return Instance(
            id=record.id,
            group=getattr(record, self.group_field),
            type=record.type,
            s1_neg=self._negation(record.sentence1.neg),
            s2_neg=self._negation(record.sentence2.neg),
            gold=self.gold_code(record),
        )

    def _negation(self, cue: Any) -> Negation | None:
        if cue is None:
            return None
        return Negation(
            neg_id=getattr(cue, self.cue_id_field), neg_position=cue.neg_position, target_pos=cue.target_pos
        )

    def record_fields(self) -> tuple[RecordField, ...]:
        """The fields of a record as the release's card documents them."""
        cue = f"neg is null or {{{self.cue_id_field}, neg_position: end|mid, target_pos: 動詞|形容詞|形容動詞}}"
        first, second = self.sentence_roles or ("", "")
        return (
            RecordField(name="id", type="int", description="instance id, unique within the split"),
            RecordField(
                name=self.group_field, type="int", description=f"the {self.corpus} pair the group derives from"
            ),
            RecordField(name="pair_id_in_group", type="int", description="0 for the original, then the variants"),
            RecordField(
                name="type", type="original | p_neg | h_neg | p_neg_h_neg", description="where cues were inserted"
            ),
            RecordField(name="sentence1", type="{sentence, neg}", description=f"{first}; {cue}" if first else cue),
            RecordField(
                name="sentence2",
                type="{sentence, neg}",
                description=f"{second}, as sentence1" if second else "as sentence1",
            ),
            *(
                RecordField(name=field.name, type=field.type_text, description=field.description)
                for field in (self.gold, self.annotations)
            ),
        )
