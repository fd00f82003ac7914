"""What a multiple-choice benchmark tells the family about its items (`MultipleChoiceSpec`), and the family's
constants: its two modes, the option letters, the code of an answer in no offered letter, the caps on a file."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ...protocol.metadata import DatasetMetadata

MODES = ("completion", "option")
LETTERS = tuple(string.ascii_uppercase)  # appendix M's label_map, as far as options go
FORMAT_WRONG = -1  # the code of an option-mode answer that is none of the offered letters
MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024
MAX_OUTPUT_CHARS = 10_000  # an option-mode output is a letter; the cap only bounds abuse

# An item's option order in option mode: (the record, the keys it offers in the release's order, the seed) -> the
# keys in the order shown as A, B, C, ... (options.shuffle_each_item makes one; None: one RNG over the split).
OptionOrder = Callable[[Any, tuple[str, ...], int], tuple[str, ...]]


@dataclass(frozen=True)
class MultipleChoiceSpec:
    """What a multiple-choice benchmark tells the family about its items."""

    name: str
    metadata: DatasetMetadata
    record_model: type[BaseModel]  # one line of the release's multiple-choice files
    config: str  # the release configuration that holds the multiple-choice splits
    splits: tuple[str, ...]  # the splits predictions are scored on
    option_keys: tuple[str, ...]  # every option field, in the release's order
    item_id: Callable[[Any], int]
    answer: Callable[[Any], str]  # the key of the right option
    offered: Callable[[Any], tuple[str, ...]]  # the keys an item offers, in the release's order
    id_field: str = "index"  # what the release calls the id a prediction line names
    wrong_choice_names: Mapping[str, str] = field(default_factory=dict)  # option key -> what a wrong pick of it is
    item_type: Callable[[Any], str] | None = None
    item_types: tuple[str, ...] = ()
    confusion_key: str | None = None  # the option whose pick rate per item type is the confusion rate
    confusion_types: tuple[str, ...] = ()  # the types whose items offer it
    record_problems: Callable[[Any], list[tuple[str, str]]] = lambda record: []
    # the words of a log-likelihood line's messages: why an item does not offer an option; why a null is
    # wrong for an option it offers (None: no hint); what to write for an option missing from the line
    absent_reason: Callable[[Any, str], str] = lambda record, key: f"does not offer {key}"
    null_hint: Callable[[Any, str], str | None] = lambda record, key: None
    missing_hint: Mapping[str, str] = field(default_factory=dict)
    option_seed: int = 42
    # how option mode orders each item's options (None: one random.Random(option_seed) advanced item by item in
    # file order, as NUBench's appendix M does); a benchmark whose upstream seeds each item passes its own
    option_order: OptionOrder | None = None
    # the options some items do not offer -> which items those are ("three-option items"): their log-likelihood is
    # null there (the line models the family derives say so); every other option is offered by every item
    optional_options: Mapping[str, str] = field(default_factory=dict)
    bundled: Path | None = None

    def option_text(self, record: Any, key: str) -> str:
        return str(getattr(record, key) or "")
