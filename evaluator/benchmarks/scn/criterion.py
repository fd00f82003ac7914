"""SCN's verdict: NegHub's reading of the paper's criterion (sections 3.5 and 4), the base test and the
coreference controls together, as the paper's conclusion judges its four models.

The paper gives no numbers for its criterion; every comparison below is one of its sentences (quoted whole in
evaluator/papers/quotes.json), read with the intervals its tables lack:

- In the base test (`pronoun`) and the forced-coreference variant (`coref`), a negated pattern (CpTn, CnTp) drops
  strongly when its drop is greater than the same variant's CpTv drop and its CnTn drop, each under a PAIRED
  comparison (the same triplets answer every pattern of a variant: Newcombe's paired interval of the difference),
  and above MIN_STRONG_DROP ("scn.criterion", section 3.5; "scn.roberta-large-controls", section 4: "significantly
  larger than for the CnTn and CpTv controls").
- A CpTv drop above CPTV_VETO vetoes the variant's drops ("scn.cptv-control", section 3.3: "it would prevent any
  positive interpretation of a drop for this model"); in the base test the veto fails the model.
- In the forced non-coreference variants a negated drop is small when its 95 % interval's upper end is below
  MIN_STRONG_DROP (a drop the paper would call large is not small: it calls coref's 28.9 large, "scn.roberta-
  large-controls") AND it is below the base test's (pronoun) drop of the same pattern, under an UNPAIRED
  comparison (each variant selects its own triplets: Newcombe's unpaired interval). Section 4 asks for "a much
  smaller drop for examples with forced non-coreference" than in the base examples ("scn.noncoref-expectation",
  line 262) and "small drops for the Non-Coref columns" ("scn.noncoref-small", lines 270 and 287, across Table
  6). Being below the coref drop is not asked: roberta-large's non-coreference drops pass because they are small,
  and roberta-base's (7.5 against a coref 3.9) are small too; its coref drops are what fail it.
- The parts, as the introduction reads bert-large ("scn.intro-bert-large", line 72: "do pass our baseline test,
  but don't pass the control tests at all"): the base test is its negated drops (each strong or not); the
  controls are the CpTv veto (section 3.3's non-negative adverb, one of the control tests of line 70), the coref
  variant and the non-coreference variants, each confirmed or not.
- passes: both base drops strong, both coref drops strong, every non-coreference drop small ("scn.conclusion-
  roberta-large": "for both base and control patterns"); partially passes: no veto and at least one strong base
  drop, the rest not all confirmed ("scn.conclusion-roberta-base"); fails: the veto, or no strong base drop. A
  file without the coref and non-coreference variants confirms nothing: at most partially passes.
- Each comparison holds, fails or is undecided (its 95 % interval straddles it); a verdict an undecided
  comparison could change is "inconclusive" (three-valued logic: each comparison enters the rule once, so a
  verdict is decided exactly when every way of deciding the undecided comparisons gives it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ...core.stats import paired_difference_interval, unpaired_difference_interval, wilson_interval
from .metadata import PATTERNS

# A strong drop is above 20 points. The paper calls 28.9 large (section 4, "scn.roberta-large-controls": roberta-
# large's coref CpTn) and does not call roberta-base's coref drops of 3.9 and 12.6 large ("scn.roberta-base-
# controls": "this is not the case for the roberta-base model", of large Coref drops): any minimum in (12.6, 28.9]
# reads Tables 8 and 9 as the paper does. 20 is a round value 7.4 and 8.9 points from those ends: the intervals of
# those figures (Wilson half-widths 0.2 and 0.4 points at the paper's 118,700 and 60,800 triplets, 1.5 and 2.0 at
# a NegHub run's 2,000) never reach it.
MIN_STRONG_DROP = 0.20
# A CpTv drop above 35 points vetoes. The paper accepts roberta-large's 26.0 ("scn.roberta-large": "a small drop
# for the controls") and roberta-base's 21.3 (section 3.5's text, "scn.roberta-base-significant"), and calls
# bert-large's 42.9 "still too high" ("scn.bert-large"): any veto in (26.0, 42.9] reads Table 6 and the text as the
# paper does, and one is needed, since at hundreds of thousands of triplets bert-large's CpTn 44.7 is above its
# CpTv 42.9 under any paired comparison. 35 is the round value nearest the middle (34.45), 9.0 and 7.9 points from
# the paper's figures.
CPTV_VETO = 0.35
LEVEL = 0.95
NEGATED = ("CpTn", "CnTp")
CONTROLS = ("CpTv", "CnTn")
BASE, COREF = "pronoun", "coref"
NONCOREF = ("noncoref_same", "noncoref_other")
Verdict = Literal["passes", "partially passes", "fails", "inconclusive"]
VERDICT_ORDER: tuple[Verdict, ...] = ("passes", "partially passes", "fails")
UNDECIDED: Verdict = "inconclusive"
Part = Literal["passes", "partially passes", "fails", "inconclusive", "confirmed", "not confirmed", "not run"]
Holds = bool | None
# the parts of a verdict, in the order a reader is told them: the base test, then its three controls
PARTS = ("base", "cptv", "coref", "noncoref")


def points(value: float) -> str:
    return f"{100 * value:.1f}"


@dataclass(frozen=True)
class Comparison:
    """One comparison the verdict reads: `left` is above `right` (a figure or a threshold), by `difference`
    (left - right) with its 95 % interval; `holds` is None where the interval straddles 0."""

    left: str
    left_value: float
    right: str
    right_value: float
    kind: Literal["paired", "unpaired", "threshold"]
    difference: float
    interval: tuple[float, float]

    @property
    def holds(self) -> Holds:
        if self.interval[0] > 0:
            return True
        if self.interval[1] <= 0:
            return False
        return None

    def words(self) -> str:
        relation = {True: "is above", False: "is not above", None: "is undecided against"}[self.holds]
        low, high = self.interval
        if self.kind == "threshold":
            # the left figure's own interval reads better than the difference's against a fixed value
            return (
                f"{self.left} {points(self.left_value)} [{points(low + self.right_value)}, "
                f"{points(high + self.right_value)}] {relation} {self.right} ({points(self.right_value)})"
            )
        return (
            f"{self.left} {points(self.left_value)} {relation} {self.right} {points(self.right_value)} "
            f"(difference {points(self.difference)} [{points(low)}, {points(high)}], {self.kind})"
        )

    def metrics(self) -> dict[str, Any]:
        return {
            "left": self.left,
            "left_value": self.left_value,
            "right": self.right,
            "right_value": self.right_value,
            "kind": self.kind,
            # the difference is left_value - right_value; its interval is the comparison's own
            "difference_ci95": list(self.interval),
            "holds": self.holds,
        }

    @classmethod
    def from_metrics(cls, metrics: Mapping[str, Any]) -> Comparison:
        """A comparison back from a result's metrics (the text report words it as the verdict reason does)."""
        low, high = metrics["difference_ci95"]
        return cls(
            metrics["left"],
            metrics["left_value"],
            metrics["right"],
            metrics["right_value"],
            metrics["kind"],
            metrics["left_value"] - metrics["right_value"],
            (low, high),
        )


def deciding(comparisons: Iterable[Comparison]) -> Comparison:
    """Of comparisons that do not all hold, the one that decides: the first that fails, else the first undecided."""
    seen = list(comparisons)
    return next(c for c in (*(c for c in seen if c.holds is False), *(c for c in seen if c.holds is None)))


def all_of(values: Iterable[Holds]) -> Holds:
    seen = list(values)
    return False if False in seen else (True if all(v is True for v in seen) else None)


def any_of(values: Iterable[Holds]) -> Holds:
    seen = list(values)
    return True if True in seen else (False if all(v is False for v in seen) else None)


def negated(value: Holds) -> Holds:
    return None if value is None else not value


class Variant:
    """One variant's triplets as counts of their 32 outcomes (bit p: pattern p repeated the verb)."""

    def __init__(self, name: str, outcome_counts: NDArray[np.int64]) -> None:
        self.name = name
        self.counts = outcome_counts
        self.n = int(outcome_counts.sum())
        outcome = np.arange(outcome_counts.size)
        self._dropped = {p: (outcome >> i) & 1 == 0 for i, p in enumerate(PATTERNS)}

    def dropped(self, pattern: str) -> int:
        return int(self.counts[self._dropped[pattern]].sum())

    def drop(self, pattern: str) -> float:
        return self.dropped(pattern) / self.n

    def label(self, pattern: str) -> str:
        return f"{self.name} {pattern} drop"

    def above_threshold(self, pattern: str, threshold: float, name: str) -> Comparison:
        interval = wilson_interval(self.dropped(pattern), self.n, LEVEL)
        assert interval is not None  # a variant is judged only with triplets
        drop = self.drop(pattern)
        return Comparison(
            self.label(pattern),
            drop,
            name,
            threshold,
            "threshold",
            drop - threshold,
            (interval[0] - threshold, interval[1] - threshold),
        )

    def above_pattern(self, pattern: str, control: str) -> Comparison:
        a, b = self._dropped[pattern], self._dropped[control]
        both, only_a, only_b, neither = (int(self.counts[mask].sum()) for mask in (a & b, a & ~b, ~a & b, ~a & ~b))
        interval = paired_difference_interval(both, only_a, only_b, neither, LEVEL)
        assert interval is not None
        drop, control_drop = self.drop(pattern), self.drop(control)
        return Comparison(
            self.label(pattern),
            drop,
            self.label(control),
            control_drop,
            "paired",
            drop - control_drop,
            interval,
        )

    def above_variant(self, pattern: str, other: Variant) -> Comparison:
        interval = unpaired_difference_interval(self.dropped(pattern), self.n, other.dropped(pattern), other.n, LEVEL)
        assert interval is not None
        return Comparison(
            self.label(pattern),
            self.drop(pattern),
            other.label(pattern),
            other.drop(pattern),
            "unpaired",
            self.drop(pattern) - other.drop(pattern),
            interval,
        )


@dataclass(frozen=True)
class StrongDrops:
    """The veto and each negated pattern's three comparisons in one variant (the base test or coref)."""

    veto: Comparison
    checks: dict[str, tuple[Comparison, ...]]  # pattern -> (above the minimum, above CpTv, above CnTn)

    @classmethod
    def of(cls, variant: Variant) -> StrongDrops:
        return cls(
            veto=variant.above_threshold("CpTv", CPTV_VETO, "the veto"),
            checks={
                p: (
                    variant.above_threshold(p, MIN_STRONG_DROP, "the strong-drop minimum"),
                    *(variant.above_pattern(p, control) for control in CONTROLS),
                )
                for p in NEGATED
            },
        )

    def strong(self, pattern: str) -> Holds:
        return all_of(c.holds for c in self.checks[pattern])

    def confirmed(self) -> Holds:
        """Both drops strong and no veto: what the coref variant must show."""
        return all_of((negated(self.veto.holds), *(self.strong(p) for p in NEGATED)))

    def why_not(self, pattern: str) -> Comparison:
        """The comparison that keeps a pattern's drop from being strong (the first that fails, else one undecided)."""
        return deciding(self.checks[pattern])

    def closest(self) -> Comparison:
        """Of the comparisons that hold, the one whose interval comes nearest its threshold."""
        return min((c for checks in self.checks.values() for c in checks), key=lambda c: c.interval[0])


@dataclass(frozen=True)
class SmallDrop:
    """One negated pattern's drop in a non-coreference variant and the two comparisons that make it small: its
    interval's upper end below the strong-drop minimum (`minimum` must not hold) and the base test's drop of the
    same pattern above it (`below_base` must hold, unpaired)."""

    minimum: Comparison
    below_base: Comparison

    @classmethod
    def of(cls, variant: Variant, pattern: str, base: Variant) -> SmallDrop:
        return cls(
            minimum=variant.above_threshold(pattern, MIN_STRONG_DROP, "the strong-drop minimum"),
            below_base=base.above_variant(pattern, variant),
        )

    def small(self) -> Holds:
        return all_of((negated(self.minimum.holds), self.below_base.holds))

    def supports(self) -> tuple[tuple[Comparison, float], ...]:
        """Each comparison with its margin towards "small" (the interval's nearest end past its threshold)."""
        return ((self.minimum, -self.minimum.interval[1]), (self.below_base, self.below_base.interval[0]))

    def why_not(self) -> Comparison:
        """The comparison that keeps the drop from being small: the first that fails, else one undecided."""
        held = ((self.minimum, negated(self.minimum.holds)), (self.below_base, self.below_base.holds))
        return next(c for c, h in (*((c, h) for c, h in held if h is False), *((c, h) for c, h in held if h is None)))


def judge(outcome_counts: Mapping[str, NDArray[np.int64]]) -> dict[str, Any]:
    """The verdict, its reason in words, each part's outcome and every comparison, for the result's metrics."""
    variants = {name: Variant(name, counts) for name, counts in outcome_counts.items()}
    present = {name for name, v in variants.items() if v.n > 0}
    comparisons: dict[str, dict[str, dict[str, Any]]] = {}
    out: dict[str, Any] = {
        "verdict_thresholds": {"min_strong_drop": MIN_STRONG_DROP, "cptv_veto": CPTV_VETO, "level": LEVEL},
        "verdict_comparisons": comparisons,
    }
    if BASE not in present:
        out["verdict_parts"] = dict.fromkeys(PARTS, "not run")
        return {**out, "verdict": UNDECIDED, "verdict_reason": "the base test (pronoun variant) has no triplets"}

    base = StrongDrops.of(variants[BASE])
    coref = StrongDrops.of(variants[COREF]) if COREF in present else None
    small = (
        {v: {p: SmallDrop.of(variants[v], p, variants[BASE]) for p in NEGATED} for v in NONCOREF}
        if all(v in present for v in NONCOREF)
        else None
    )
    for name, drops in ((BASE, base), (COREF, coref)):
        if drops is not None:
            comparisons[name] = {"CpTv": {"above_veto": drops.veto.metrics()}}
            for p, (minimum, above_cptv, above_cntn) in drops.checks.items():
                comparisons[name][p] = {
                    "above_minimum": minimum.metrics(),
                    "above_CpTv": above_cptv.metrics(),
                    "above_CnTn": above_cntn.metrics(),
                }
    for v, by_pattern in (small or {}).items():
        comparisons[v] = {
            p: {"above_minimum": c.minimum.metrics(), "below_base": c.below_base.metrics()}
            for p, c in by_pattern.items()
        }

    coref_confirms = coref.confirmed() if coref is not None else False
    noncoref_confirms = _small(small)
    strong = {p: base.strong(p) for p in NEGATED}
    fails = any_of((base.veto.holds, negated(any_of(strong.values()))))
    passes = all_of((*strong.values(), coref_confirms, noncoref_confirms))
    verdict: Verdict
    if fails is None or (fails is False and passes is None):
        verdict = UNDECIDED
    elif fails:
        verdict = "fails"
    else:
        verdict = "passes" if passes else "partially passes"
    out["verdict_parts"] = {
        "base": _base_part(strong),
        "cptv": _control_part(negated(base.veto.holds)),
        "coref": "not run" if coref is None else _control_part(coref_confirms),
        "noncoref": "not run" if small is None else _control_part(noncoref_confirms),
    }
    reason = _reason(verdict, base, coref, small)
    return {**out, "verdict": verdict, "verdict_reason": reason}


def _base_part(strong: dict[str, Holds]) -> Part:
    """The base test's negated drops alone: both strong passes, one partially passes, none fails. The CpTv veto is
    a control of its own (the "cptv" part), so that a model like bert-large reads as line 72 reads it: the base
    test passed (in part: its CpTn 44.7 is strong, its CnTp 16.5 is not), the controls not."""
    some = any_of(strong.values())
    if some is not True:
        return "inconclusive" if some is None else "fails"
    both = all_of(strong.values())
    return "inconclusive" if both is None else ("passes" if both else "partially passes")


def _control_part(confirms: Holds) -> Part:
    return "inconclusive" if confirms is None else ("confirmed" if confirms else "not confirmed")


def _reason(
    verdict: Verdict,
    base: StrongDrops,
    coref: StrongDrops | None,
    small: dict[str, dict[str, SmallDrop]] | None,
) -> str:
    """The verdict's reason in words: the comparisons that decided it (or that could not be decided), each with
    its figures and interval."""
    veto, strong = base.veto.holds, {p: base.strong(p) for p in NEGATED}
    if veto:
        return (
            f"the base test's veto: {base.veto.words()} (a CpTv drop this large prevents any positive "
            "interpretation of a drop, section 3.3)"
        )
    if any_of(strong.values()) is False:
        said = "; ".join(f"{p}: {base.why_not(p).words()}" for p in NEGATED)
        return f"no strong drop in the base test ({said})"
    if veto is None:
        return f"the base test's veto is undecided: {base.veto.words()}"
    if any_of(strong.values()) is None:
        return _base_words(base)
    coref_words = _coref_words(coref)
    noncoref_words = _noncoref_words(small)
    parts = [(all_of(strong.values()), _base_words(base))]
    parts += [(coref.confirmed() if coref else False, coref_words)]
    parts += [(_small(small), noncoref_words)]
    if verdict == "passes":
        return "; ".join(words for _, words in parts)
    if verdict == UNDECIDED:
        return "; ".join(words for holds, words in parts if holds is None)
    # partially passes: what the base test shows, then each control that does not confirm it
    return "; ".join([parts[0][1], *(words for holds, words in parts[1:] if holds is False)])


def _small(small: dict[str, dict[str, SmallDrop]] | None) -> Holds:
    return False if small is None else all_of(c.small() for by in small.values() for c in by.values())


def _base_words(base: StrongDrops) -> str:
    strong = {p: base.strong(p) for p in NEGATED}
    if all_of(strong.values()) is True:
        return f"both base drops are strong (the closest comparison: {base.closest().words()})"
    said = "; ".join(
        f"{p} {'is undecided' if strong[p] is None else 'is no strong drop'}: {base.why_not(p).words()}"
        for p in NEGATED
        if strong[p] is not True
    )
    held = [p for p in NEGATED if strong[p] is True]
    return (f"only {held[0]} drops strongly in the base test; " if held else "in the base test, ") + said


def _coref_words(coref: StrongDrops | None) -> str:
    if coref is None:
        return "the coreference controls were not run (a full verdict needs the coref and noncoref variants)"
    confirms = coref.confirmed()
    if confirms is True:
        return f"the coref variant confirms both drops (the closest comparison: {coref.closest().words()})"
    if coref.veto.holds is not False:
        return f"the coref variant's veto: {coref.veto.words()}"
    pattern = next(p for p in NEGATED if coref.strong(p) is not True)
    said = "does not confirm" if confirms is False else "may not confirm"
    return f"the coref variant {said} the base drops: {coref.why_not(pattern).words()}"


def _noncoref_words(small: dict[str, dict[str, SmallDrop]] | None) -> str:
    if small is None:
        return "the non-coreference controls were not run (a full verdict needs noncoref_same and noncoref_other)"
    every = [c for by in small.values() for c in by.values()]
    confirms = _small(small)
    if confirms is True:
        closest = min((pair for c in every for pair in c.supports()), key=lambda pair: pair[1])
        return f"every non-coreference drop is small (the closest comparison: {closest[0].words()})"
    said = "is not" if confirms is False else "may not be"
    first = (
        next(c for c in every if c.small() is False)
        if confirms is False
        else next(c for c in every if c.small() is None)
    )
    return f"a non-coreference drop {said} small: {first.why_not().words()}"
