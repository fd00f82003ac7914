"""The text report of a minimal-pair result (`neghub evaluate` without --json): a table of the pair sets, then
instance accuracy, correlations where the benchmark has them, and the breakdowns."""

from __future__ import annotations

from ...core.numbers import fixed
from ...core.reports import heading, interval, pct
from ...core.results import Result
from .pairs import PAIR_SETS


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
    return "\n".join(lines)
