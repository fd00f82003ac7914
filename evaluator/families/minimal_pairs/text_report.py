"""The text report of a minimal-pair result (`neghub evaluate` without --json): a table of the pair sets, then
instance accuracy, correlations where the benchmark has them, and the breakdowns."""

from __future__ import annotations

from ...core.numbers import fixed
from ...core.reports import heading, interval, pct
from ...core.results import Result
from .pairs import PAIR_SETS

# what the report's names mean (SPEC §1), printed below its table: the counts, the pair sets and their columns, and
# each breakdown's values, so that a reader needs no other page to read the table
KEY_COUNTS = (
    "D_orig: source instances (no cue); D_neg: instances with a cue inserted (D_1: in s1, D_2: in s2, D_12: one in "
    "each); D: both",
    "M: minimal pairs (a control, and a treatment that adds one cue to one sentence); M_i: the gold changes; M_u: "
    "it does not",
    "both_pairs_without_control: both pairs that cannot be formed: a D_12 instance whose D_1 (or D_2) control, the "
    "same negated sentence, is not in the release (counted per missing control)",
)
KEY_COLUMNS = (
    "Acc: accuracy on the pairs' controls; Acc′: on their treatments; AccChg = Acc′ − Acc (negative: worse with "
    "the cue); McNemar p: McNemar's exact test of the controls' against the treatments' right answers",
    "flips: ignored = M_i pairs answered alike on both sides (negation ignored); distracted = M_u pairs answered "
    "differently (an irrelevant cue)",
)
KEY_BREAKDOWNS = {
    "pair_kind": "single_s1, single_s2: the treatment adds a cue to s1 (to s2) of a source instance; both_from_s1, "
    "both_from_s2: the control has the cue in s1 (in s2), the treatment adds one to the other sentence",
    "cue_position": "where the added cue sits in its sentence: end (sentence-final), mid",
    "target_pos": "the part of speech the added cue negates: verb, i_adjective (形容詞), na_adjective (形容動詞)",
}


def format_report(full: Result) -> str:
    """A readable table of a minimal-pair result (percentages, as the papers print them)."""
    result = full.metrics
    lines = [
        heading(full, str(full.provenance.split), f"verified: {str(full.provenance.verified).lower()}"),
        "counts: " + ", ".join(f"{k} {v}" for k, v in result["counts"].items()),
        "",
        f"{'pairs':<6}{'n':>7}{'Acc':>8}{'Acc′':>8}{'AccChg':>8}  {'95% CI of AccChg':<18}{'McNemar p':>10}  flips",
    ]
    for name in PAIR_SETS:
        m = result["pair_metrics"][name]
        flips = ""
        if "ignored_rate" in m:
            flips = f"ignored {pct(m['ignored_rate'], unit='%')}"
        if "distracted_rate" in m:
            flips = f"distracted {pct(m['distracted_rate'], unit='%')}"
        lines.append(
            f"{name:<6}{m['n']:>7}{pct(m['acc'], 8)}{pct(m['acc_prime'], 8)}{pct(m['acc_chg'], 8)}  "
            f"{interval(m['acc_chg_ci95']):<18}{m['mcnemar_p']:>10.3g}  {flips}"
        )
    lines.append("")
    instances = result["instance_metrics"].items()
    lines.append(
        "instances: " + ", ".join(f"{name} acc {pct(m['acc'], unit='%')} (n={m['n']})" for name, m in instances)
    )
    if "correlations" in result:
        lines.append(
            "correlations (all instances): "
            + ", ".join(f"{k} {fixed(v, 4)}" for k, v in result["correlations"].items())
        )
    for dim, table in result["breakdowns"].items():
        lines.append("")
        lines.append(
            f"by {dim}: "
            + "; ".join(
                f"{value} M_i {pct(sets['M_i']['acc_chg'])} (n={sets['M_i']['n']}), "
                f"M_u {pct(sets['M_u']['acc_chg'])} (n={sets['M_u']['n']})"
                for value, sets in table.items()
            )
        )
    lines.append("AccChg and rates in percentage points; --json gives fractions.")
    lines += ["", "key:", *(f"  {line}" for line in (*KEY_COUNTS, *KEY_COLUMNS))]
    for dim in result["breakdowns"]:
        meaning = KEY_BREAKDOWNS.get(dim)
        if meaning is not None:
            lines.append(f"  by {dim} (each: AccChg on M_i and M_u, with n): {meaning}")
    return "\n".join(lines)
