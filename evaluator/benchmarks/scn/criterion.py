"""SCN's verdict: NegHub's reading of the paper's criterion (sections 3.5 and 4, self-contained-neg-test.txt lines
246-331), the base test and the coreference controls together, as the paper's conclusion judges its four models.

The paper gives no numbers for its criterion: its words "strong", "large", "small" and "much smaller" are relative,
one drop beside another. READINGS (below) holds each word, the reading NegHub implements, the lines it rests on and
the cut-off that is NegHub's own; the SCN page shows it (display.py's verdict rule). In short:

- "strong drops" (line 246) and "large" (lines 287, 315): above a floor of 20 points (NegHub's), at least 1.4
  times the CpTv drop (NegHub's factor, between line 252's 1.19 and line 315's 1.67) and above the CnTn drop ("to
  a lesser extent", line 246) in the base test; at least 1.4 times both controls in the coref variant (line 287:
  "The drops in CnTn and CpTv controls should remain small"; line 315).
- "much smaller" (line 262) and "small" in the non-coreference columns (lines 270, 287): at most half the base
  test's drop (NegHub's factor), of the same pattern for CpTn and CnTp, of the smaller negated drop for the
  controls; no fixed ceiling.
- "pass our baseline test" (line 72, of bert-large) is not followed: line 246 with Table 6 fails bert-large's base
  test (its CpTn 44.7 is 1.04 times its CpTv 42.9); Table 6's figures for roberta-base are read, not line 252's.

Each comparison is an interval, never a point estimate: paired comparisons of two patterns of a variant read the
same triplets (Newcombe's paired interval of drop - k x control, MOVER), comparisons across variants are unpaired
(each variant selects its own triplets), a threshold reads the drop's Wilson interval. The triplets are not
independent (up to 20 verbs per name/profession pair, and each verb in many pairs): every interval is taken at the
effective sample size, the triplets divided by the design effect of the figure, clustered two ways, by
name/profession pair and by verb (stats.two_way_design_effect, Cameron, Gelbach and Miller 2011); where no
triplet keys are given (`judge` without `triplets`), the triplets are counted as independent.

- The parts, as the paper's conclusion reads its models: the base test is its negated drops (both strong passes,
  one partially passes, none fails); the controls are the CpTv veto (section 3.3's non-negative adverb), the coref
  variant and the non-coreference variants, each confirmed or not.
- passes: both base drops strong, the coref variant confirming, every non-coreference drop small ("scn.conclusion-
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

from ...core.stats import (
    cluster_index,
    paired_difference_interval,
    two_way_design_effect,
    unpaired_difference_interval,
    wilson_interval,
)
from .metadata import PATTERNS

# The floor of a strong drop: 20 points, NegHub's. The paper calls 3.6 and 1.2 "almost non-existent" (line 248) and
# 28.9 large (line 315): any floor in (3.6, 28.9] reads its tables as it does; 20 is a round value well inside.
MIN_STRONG_DROP = 0.20
# A CpTv drop above 35 points vetoes. The paper accepts roberta-large's 26.0 ("scn.roberta-large": "a small drop
# for the controls") and roberta-base's 21.3 (section 3.5's text, "scn.roberta-base-significant"), and calls
# bert-large's 42.9 "still too high" ("scn.bert-large"): any veto in (26.0, 42.9] reads Table 6 and the text as the
# paper does. 35 is the round value nearest the middle (34.45), NegHub's.
CPTV_VETO = 0.35
# A negated drop is large beside a control's when it is at least 1.4 times it, NegHub's factor: the paper calls
# roberta-large's coref CpTn 28.9 "significantly larger" than its controls' 17.3 (1.67 x, line 315), and counts
# roberta-base's CpTn 27.7 (Table 6) beside its CpTv 23.3 (1.19 x) as no significant drop (line 252): any factor
# in (1.19, 1.67] reads both as the paper does; 1.4 is the round value nearest the middle (1.43).
LARGE_BESIDE_SMALL = 1.4
# A drop is much smaller than another when it is at most half of it, NegHub's factor: line 262 asks "a much smaller
# drop" without a number; the paper's other uses of "much" are 2.9 x (line 240) and 7 x (line 248), and its
# non-coreference drops are 3.7 x (roberta-base's CpTn, 27.7 against 7.5) to 44 x smaller than the base ones.
MUCH_SMALLER = 0.5
LEVEL = 0.95
NEGATED = ("CpTn", "CnTp")
CONTROLS = ("CpTv", "CnTn")
BASE, COREF = "pronoun", "coref"
NONCOREF = ("noncoref_same", "noncoref_other")
# how many times each control's drop a negated drop must be, by variant: in the base test CnTn counts "to a lesser
# extent" (line 246: roberta-large's CnTn 43.5 is "a small drop", line 254, beside its CpTn 64.7); in the coref
# variant both controls "should remain small" (line 287) and the drops are "significantly larger than for the CnTn
# and CpTv controls" (line 315)
CONTROL_FACTORS: dict[str, dict[str, float]] = {
    BASE: {"CpTv": LARGE_BESIDE_SMALL, "CnTn": 1.0},
    COREF: {"CpTv": LARGE_BESIDE_SMALL, "CnTn": LARGE_BESIDE_SMALL},
}
Verdict = Literal["passes", "partially passes", "fails", "inconclusive"]
VERDICT_ORDER: tuple[Verdict, ...] = ("passes", "partially passes", "fails")
UNDECIDED: Verdict = "inconclusive"
Part = Literal["passes", "partially passes", "fails", "inconclusive", "confirmed", "not confirmed", "not run"]
Holds = bool | None
# the parts of a verdict, in the order a reader is told them: the base test, then its three controls
PARTS = ("base", "cptv", "coref", "noncoref")


@dataclass(frozen=True)
class Reading:
    """One word of the paper's criterion: the reading NegHub implements, the paper's lines it rests on, and the
    cut-off that is NegHub's own choice (None where the paper's words decide)."""

    words: str
    reading: str
    lines: str
    own: str | None


READINGS: tuple[Reading, ...] = (
    Reading(
        "‘strong drops for the CpTn and CnTp patterns’",
        "a drop above 20 points",
        "line 246; line 248 calls 3.6 and 1.2 ‘almost non-existent’, line 315 calls 28.9 large",
        "the floor of 20 points",
    ),
    Reading(
        "‘greater than in the control pattern CpTv’",
        "at least 1.4 times the CpTv drop, paired over the same triplets",
        "line 246; line 252 counts roberta-base's CpTn (27.7 in Table 6) beside its CpTv 23.3 (1.19 times) as no "
        "significant drop; line 315 calls 28.9 beside 17.3 (1.67 times) ‘significantly larger’",
        "the factor 1.4, between 1.19 and 1.67",
    ),
    Reading(
        "‘and to a lesser extent in the CnTn pattern’",
        "above the CnTn drop (factor 1), in the base test",
        "line 246; line 254 calls roberta-large's CnTn 43.5 ‘a small drop’ beside its CpTn 64.7 (1.49 times)",
        None,
    ),
    Reading(
        "‘large drops in the Coref column’ and ‘The drops in CnTn and CpTv controls should remain small’",
        "in the coref variant, each negated drop above 20 points and at least 1.4 times each control's drop",
        "lines 270 and 287; line 315: ‘significantly larger than for the CnTn and CpTv controls’ (28.9 beside "
        "14.3 and 17.3)",
        "the floor of 20 points and the factor 1.4",
    ),
    Reading(
        "‘still too high’ (a CpTv drop)",
        "a CpTv drop above 35 points vetoes its variant; in the base test it fails the model",
        "lines 228 (section 3.3) and 250; lines 254 and 252 accept 26.0 and 21.3, line 250 refuses 42.9",
        "the veto of 35 points, between 26.0 and 42.9",
    ),
    Reading(
        "‘a much smaller drop for examples with forced non-coreference’ and ‘small drops for the Non-Coref columns’",
        "a non-coreference CpTn or CnTp drop at most half the base test's drop of the same pattern (unpaired: each "
        "variant selects its own triplets); no fixed ceiling",
        "lines 262 and 270; the paper's other uses of ‘much’ are 2.9 times (line 240) and 7 times (line 248)",
        "the factor 1/2",
    ),
    Reading(
        "‘The drops in CnTn and CpTv controls should remain small’ (non-coreference columns)",
        "a non-coreference CnTn or CpTv drop at most half the base test's smaller negated drop (unpaired)",
        "line 287, with line 262: ‘this repetition should however remain high’",
        "the factor 1/2",
    ),
    Reading(
        "‘do pass our baseline test’ (bert-large)",
        "not followed: the base test passes when both negated drops are strong, in part when one is; bert-large's "
        "CpTn 44.7 is 1.04 times its CpTv 42.9 and its CnTp 16.5 is under the floor, so its base test fails",
        "NegHub follows line 246 with Table 6 (and line 250), not line 72",
        None,
    ),
    Reading(
        "roberta-base's base drops",
        "Table 6's figures (CpTn 27.7, CnTp 66.9, CnTn 12.1, CpTv 23.3), judged as line 252 judges its own (20.7, "
        "46.7, 21.3): only the CnTp drop is strong, and its base test passes in part",
        "Table 6 against line 252's figures; line 323: roberta-base ‘partially passes the basic test’",
        None,
    ),
)
# a variant's triplets with their keys: each triplet's outcome bits, its name/profession pair and its verb (any keys)
Triplets = tuple[NDArray[np.int64], NDArray[Any], NDArray[Any]]


def points(value: float) -> str:
    return f"{100 * value:.1f}"


@dataclass(frozen=True)
class Comparison:
    """One comparison the verdict reads: `left` is above `scale` times `right` (a figure or a threshold), by
    `difference` (left - scale x right) with its 95 % interval; `holds` is None where the interval straddles 0."""

    left: str
    left_value: float
    right: str
    right_value: float
    kind: Literal["paired", "unpaired", "threshold"]
    difference: float
    interval: tuple[float, float]
    scale: float = 1.0

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
        right = f"{self.right} {points(self.right_value)}"
        if self.scale != 1.0:
            right = f"{_factor(self.scale)} x {right} = {points(self.scale * self.right_value)}"
        return (
            f"{self.left} {points(self.left_value)} {relation} {right} "
            f"(difference {points(self.difference)} [{points(low)}, {points(high)}], {self.kind})"
        )

    def metrics(self) -> dict[str, Any]:
        return {
            "left": self.left,
            "left_value": self.left_value,
            "right": self.right,
            "right_value": self.right_value,
            "kind": self.kind,
            "scale": self.scale,
            # the difference is left_value - scale * right_value; its interval is the comparison's own
            "difference_ci95": list(self.interval),
            "holds": self.holds,
        }

    @classmethod
    def from_metrics(cls, metrics: Mapping[str, Any]) -> Comparison:
        """A comparison back from a result's metrics (the text report words it as the verdict reason does)."""
        low, high = metrics["difference_ci95"]
        scale = float(metrics.get("scale", 1.0))
        return cls(
            metrics["left"],
            metrics["left_value"],
            metrics["right"],
            metrics["right_value"],
            metrics["kind"],
            metrics["left_value"] - scale * metrics["right_value"],
            (low, high),
            scale,
        )


def _factor(scale: float) -> str:
    return "1/2" if scale == 0.5 else f"{scale:g}"


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
    """One variant's triplets as counts of their 32 outcomes (bit p: pattern p repeated the verb), and, where their
    keys are given, each triplet's outcome and clusters (its name/profession pair, its verb) for the design effect."""

    def __init__(self, name: str, outcome_counts: NDArray[np.int64], triplets: Triplets | None = None) -> None:
        self.name = name
        self.counts = outcome_counts
        self.n = int(outcome_counts.sum())
        outcome = np.arange(outcome_counts.size)
        self._dropped = {p: (outcome >> i) & 1 == 0 for i, p in enumerate(PATTERNS)}
        self._triplets: tuple[NDArray[np.int64], NDArray[np.intp], NDArray[np.intp]] | None = None
        if triplets is not None and triplets[0].size:
            bits, pairs, verbs = triplets
            self._triplets = (bits, cluster_index(pairs), cluster_index(verbs))

    def dropped(self, pattern: str) -> int:
        return int(self.counts[self._dropped[pattern]].sum())

    def drop(self, pattern: str) -> float:
        return self.dropped(pattern) / self.n

    def label(self, pattern: str) -> str:
        return f"{self.name} {pattern} drop"

    def drops_of(self, pattern: str) -> NDArray[np.float64] | None:
        """Each triplet's drop of `pattern` (1: the verb not repeated), where the triplets are on record."""
        if self._triplets is None:
            return None
        index = PATTERNS.index(pattern)
        dropped: NDArray[np.float64] = ((self._triplets[0] >> index) & 1 == 0).astype(np.float64)
        return dropped

    def design_effect(self, values: NDArray[np.float64] | None) -> float:
        """The design effect of mean(values) over this variant's triplets, clustered by name/profession pair and by
        verb; 1 where the triplets' keys are not on record (counted as independent)."""
        if values is None or self._triplets is None:
            return 1.0
        return two_way_design_effect(values, self._triplets[1], self._triplets[2])

    def above_threshold(self, pattern: str, threshold: float, name: str) -> Comparison:
        effect = self.design_effect(self.drops_of(pattern))
        interval = wilson_interval(self.dropped(pattern), self.n, LEVEL, effect)
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

    def above_pattern(self, pattern: str, control: str, scale: float = 1.0) -> Comparison:
        """Whether `pattern` drops more than `scale` times `control`, paired over this variant's triplets."""
        a, b = self._dropped[pattern], self._dropped[control]
        both, only_a, only_b, neither = (int(self.counts[mask].sum()) for mask in (a & b, a & ~b, ~a & b, ~a & ~b))
        first, second = self.drops_of(pattern), self.drops_of(control)
        effect = self.design_effect(None if first is None or second is None else first - scale * second)
        interval = paired_difference_interval(both, only_a, only_b, neither, LEVEL, effect, scale)
        assert interval is not None
        drop, control_drop = self.drop(pattern), self.drop(control)
        return Comparison(
            self.label(pattern),
            drop,
            self.label(control),
            control_drop,
            "paired",
            drop - scale * control_drop,
            interval,
            scale,
        )

    def above_variant(self, pattern: str, other: Variant, other_pattern: str, scale: float = 1.0) -> Comparison:
        """Whether this variant's `pattern` drops more than `scale` times `other`'s `other_pattern` (unpaired: each
        variant selects its own triplets)."""
        effects = (self.design_effect(self.drops_of(pattern)), other.design_effect(other.drops_of(other_pattern)))
        interval = unpaired_difference_interval(
            self.dropped(pattern), self.n, other.dropped(other_pattern), other.n, LEVEL, effects, scale
        )
        assert interval is not None
        return Comparison(
            self.label(pattern),
            self.drop(pattern),
            other.label(other_pattern),
            other.drop(other_pattern),
            "unpaired",
            self.drop(pattern) - scale * other.drop(other_pattern),
            interval,
            scale,
        )


@dataclass(frozen=True)
class StrongDrops:
    """The veto and each negated pattern's three comparisons in one variant (the base test or coref)."""

    veto: Comparison
    checks: dict[str, tuple[Comparison, ...]]  # pattern -> (above the floor, above CpTv, above CnTn), as factored

    @classmethod
    def of(cls, variant: Variant) -> StrongDrops:
        factors = CONTROL_FACTORS[variant.name]
        return cls(
            veto=variant.above_threshold("CpTv", CPTV_VETO, "the veto"),
            checks={
                p: (
                    variant.above_threshold(p, MIN_STRONG_DROP, "the strong-drop minimum"),
                    *(variant.above_pattern(p, control, factors[control]) for control in CONTROLS),
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
    """One drop in a non-coreference variant and the comparison that makes it small: the base test's drop it is
    read against (a negated pattern's own; for a control, the base test's smaller negated drop) is above 1 /
    MUCH_SMALLER times it, unpaired ("a much smaller drop", line 262; the controls "should remain small", line
    287)."""

    comparison: Comparison

    @classmethod
    def of(cls, variant: Variant, pattern: str, base: Variant) -> SmallDrop:
        against = pattern if pattern in NEGATED else min(NEGATED, key=base.drop)
        return cls(base.above_variant(against, variant, pattern, 1.0 / MUCH_SMALLER))

    def small(self) -> Holds:
        return self.comparison.holds

    def supports(self) -> tuple[tuple[Comparison, float], ...]:
        """The comparison with its margin towards "small" (its interval's lower end)."""
        return ((self.comparison, self.comparison.interval[0]),)

    def why_not(self) -> Comparison:
        """The comparison that keeps the drop from being small."""
        return self.comparison


def judge(
    outcome_counts: Mapping[str, NDArray[np.int64]], triplets: Mapping[str, Triplets] | None = None
) -> dict[str, Any]:
    """The verdict, its reason in words, each part's outcome and every comparison, for the result's metrics.
    `triplets` (each variant's triplets' outcomes, name/profession pairs and verbs) makes every interval respect
    the triplets' clusters; without it they are counted as independent."""
    variants = {
        name: Variant(name, counts, None if triplets is None else triplets.get(name))
        for name, counts in outcome_counts.items()
    }
    present = {name for name, v in variants.items() if v.n > 0}
    comparisons: dict[str, dict[str, dict[str, Any]]] = {}
    out: dict[str, Any] = {
        "verdict_thresholds": {
            "min_strong_drop": MIN_STRONG_DROP,
            "cptv_veto": CPTV_VETO,
            "large_beside_small": LARGE_BESIDE_SMALL,
            "much_smaller": MUCH_SMALLER,
            "level": LEVEL,
        },
        "verdict_clustered_by": "name/profession pair and verb" if triplets is not None else None,
        "verdict_comparisons": comparisons,
    }
    if BASE not in present:
        out["verdict_parts"] = dict.fromkeys(PARTS, "not run")
        return {**out, "verdict": UNDECIDED, "verdict_reason": "the base test (pronoun variant) has no triplets"}

    base = StrongDrops.of(variants[BASE])
    coref = StrongDrops.of(variants[COREF]) if COREF in present else None
    small = (
        {v: {p: SmallDrop.of(variants[v], p, variants[BASE]) for p in (*NEGATED, *CONTROLS)} for v in NONCOREF}
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
        comparisons[v] = {p: {"much_smaller": c.comparison.metrics()} for p, c in by_pattern.items()}

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
    a control of its own (the "cptv" part). NegHub follows line 246 and Table 6 here, not line 72: bert-large's
    CpTn 44.7 is 1.04 times its CpTv 42.9 and its CnTp 16.5 is under the floor, so its base test fails, although
    the introduction says models like it "do pass our baseline test" (see the module's table)."""
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
        return f"no strong drop in the base test (line 246, as Table 6's figures read; {said})"
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
