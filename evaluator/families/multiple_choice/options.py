"""Option mode's letters: the order each item's options are shown in (the paper's appendix M shuffles them), and
the option a raw answer names."""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .spec import LETTERS, MultipleChoiceSpec, OptionOrder


def option_orders(spec: MultipleChoiceSpec, records: Sequence[Any], seed: int | None = None) -> list[tuple[str, ...]]:
    """The option keys in the order shown as A, B, C, ..., for every item.

    By default as `process_docs_option` makes them: one `random.Random(seed)` is created per split and advanced
    item by item in file order, each item's offered options shuffled with `rng.shuffle`. The shuffle's draws
    depend only on the list's length, so shuffling the keys alone gives the same permutation as the paper's
    (text, key) pairs. A spec's `option_order` orders each item by itself instead.
    """
    seed = spec.option_seed if seed is None else seed
    if spec.option_order is not None:
        return [_checked(spec, record, spec.option_order(record, spec.offered(record), seed)) for record in records]
    rng = random.Random(seed)
    orders: list[tuple[str, ...]] = []
    for record in records:
        keys = list(spec.offered(record))
        rng.shuffle(keys)
        orders.append(tuple(keys))
    return orders


def _checked(spec: MultipleChoiceSpec, record: Any, order: Sequence[str]) -> tuple[str, ...]:
    offered = spec.offered(record)
    if sorted(order) != sorted(offered):
        raise ValueError(
            f"{spec.name}: the option order of item {spec.item_id(record)} is {list(order)}, "
            f"not an order of the options it offers ({', '.join(offered)})"
        )
    return tuple(order)


def shuffle_each_item(seed_of: Callable[[Any, int], Hashable]) -> OptionOrder:
    """An option order that seeds each item by itself, as upstream tasks that shuffle per document do: the item's
    offered keys shuffled by `random.Random(seed_of(record, seed))`. An item's letters then depend on nothing
    but the item (not on the items before it in the file)."""

    def order(record: Any, offered: tuple[str, ...], seed: int) -> tuple[str, ...]:
        keys = list(offered)
        random.Random(seed_of(record, seed)).shuffle(keys)  # type: ignore[arg-type]
        return tuple(keys)

    return order


_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)


def parse_answer(output: str, n_options: int) -> int | None:
    """The position (0 = A) a raw option-mode output names, or None for "answer format wrong".

    The paper's lm-evaluation-harness filters keep the first line (regex `^(.*?)(?=\\n|$)`), strip
    leading and trailing whitespace, and exact_match ignores case and ASCII punctuation
    (`string.punctuation`). So "b.", " (B)" and "**B**" name B; "B. Chromosome 2 ..." or "Answer: B"
    do not, and neither does D for a three-option item.
    """
    first_line = output.split("\n", 1)[0].strip()
    answer = first_line.lower().translate(_DROP_PUNCTUATION)
    offered = [letter.lower() for letter in LETTERS[:n_options]]
    return offered.index(answer) if answer in offered else None
