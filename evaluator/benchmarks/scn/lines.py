"""One line of an SCN prediction file as the validator checks it and schemas/ publishes it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from ...fileio.lines import STRICT_LINE
from .reader import MAX_TOP1_CHARS, MAX_WORD_CHARS

# The characters Python's str.strip() removes (str.isspace), spelled out: the reader refuses a word that
# strip() empties, and \s would mean a different set in each regex engine (see submissions/format.py).
PYTHON_WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# SCN words are single English words or short phrases from NegHub's lists; the cap only bounds abuse.
Word = Annotated[str, StringConstraints(min_length=1, max_length=MAX_WORD_CHARS, pattern=f"[^{PYTHON_WHITESPACE}]")]


class PredictionLine(BaseModel):
    """One line of an SCN prediction file: the top-1 token at the mask for one (triplet, variant, pattern)."""

    model_config = STRICT_LINE
    name: Word
    profession: Word
    verb: Word
    variant: Literal["pronoun", "coref", "noncoref_same", "noncoref_other"] = Field(
        description="the target's subject: pronoun (the base test), coref (the context's name again), "
        "noncoref_same / noncoref_other (another name, of the same / the other gender); a full verdict needs "
        "triplets in all four (the paper's sections 3.5 and 4), a file of pronoun lines alone at most partially "
        "passes"
    )
    pattern: Literal["CpTp", "CpTn", "CnTp", "CnTn", "CpTv"]
    top1: Annotated[str, StringConstraints(max_length=MAX_TOP1_CHARS)]
