"""The text report of a multiple-choice result (`neghub evaluate` without --json)."""

from __future__ import annotations

from ...core.reports import heading, interval, pct, percentages
from ...core.results import Result


def report(full: Result) -> str:
    """A readable summary (percentages, as the papers print them; --json gives fractions)."""
    prov = full.provenance
    result = full.metrics
    source = prov.dataset.source if prov.dataset else "n/a"
    by_type = result.get("n_items_by_type")
    lines = [
        heading(
            full, f"{prov.split}, {result['mode']} mode", f"verified: {str(prov.verified).lower()}", f"source: {source}"
        ),
        f"items: {result['n_items']}"
        + (" (" + ", ".join(f"{k} {v}" for k, v in by_type.items()) + ")" if by_type else ""),
        f"acc {pct(result['acc'], unit='%')}  95% CI {interval(result['acc_ci95'])}"
        + (f"  acc_norm {pct(result['acc_norm'], unit='%')}" if "acc_norm" in result else "")
        + f"  error rate {result['error_rate']:.3f}" * (result["error_rate"] is not None),
    ]
    if result["format_wrong"] is not None:
        lines.append(f"answer format wrong: {result['format_wrong']}")
    for key, words in (
        ("incorrect_choice_distribution", "incorrect-choice distribution"),
        ("confusion_rate", "confusion rate"),
        ("acc_by_type", "accuracy by type"),
    ):
        if key in result:
            lines.append(f"{words}: {percentages(result[key])}")
    if prov.dataset is not None and prov.dataset.is_sample:
        lines.append(
            "NOTE: scored against a sample NegHub wrote, not the official release; not comparable with the paper."
        )
    return "\n".join(lines)
