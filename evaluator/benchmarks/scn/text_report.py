"""The text report of an SCN result (`neghub evaluate scn` without --json): repetition and drop per pattern, the
negation contrast and the verdict, per variant."""

from __future__ import annotations

from ...core.reports import heading, interval, pct
from ...core.results import Result


def report(full: Result) -> str:
    """A readable table: repetition and drop in percent, as the paper prints them."""
    result = full.metrics
    lines = [heading(full, "", f"{result['n_predictions']} predictions")]
    for variant, entry in result["variants"].items():
        if entry["n_triplets"] == 0:
            continue
        lines.append("")
        lines.append(f"{variant}: {entry['n_triplets']} triplets")
        lines.append(f"  {'pattern':<8}{'repetition':>11}{'drop':>8}  95% CI of drop")
        for pattern, m in entry["patterns"].items():
            lines.append(f"  {pattern:<8}{pct(m['repetition'], 11)}{pct(m['drop'], 8)}  {interval(m['drop_ci95'])}")
        contrast_ci = entry.get("negation_contrast_ci95")
        shown = "" if contrast_ci is None else f" {interval(contrast_ci)}"
        lines.append(
            f"  negation contrast min(CpTn, CnTp) - max(CnTn, CpTv): {pct(entry['negation_contrast'])} points{shown}"
        )
        if entry["verdict"] is not None:
            lines.append(f"  verdict: {entry['verdict']}: {entry['verdict_reason']}")
    lines.append("")
    lines.append(
        "Percent. Under the coreference controls a model that resolves coreference is expected to pass "
        "with coref and NOT with noncoref_* (small drops there)."
    )
    return "\n".join(lines)
