"""The text report of an SCN result (`neghub evaluate scn` without --json): repetition and drop per pattern and
the negation contrast, per variant; then the verdict with its reason, the outcome of each part (the base test,
the CpTv, coref and noncoref controls) and every comparison it read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...core.reports import heading, interval, pct
from ...core.results import Result
from .criterion import Comparison


def report(full: Result) -> str:
    """A readable table: repetition and drop in percent, as the paper prints them; the verdict below it."""
    result = full.metrics
    lines = [heading(full, "", f"{result['n_predictions']} predictions")]
    for variant, entry in result["variants"].items():
        if entry["n_triplets"] == 0:
            lines += ["", f"{variant}: no triplets"]
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
    parts = result["verdict_parts"]
    lines += [
        "",
        f"verdict: {result['verdict']} (NegHub's reading of the paper's criterion, sections 3.5 and 4)",
        f"  because {result['verdict_reason']}",
        f"  base test (pronoun): {parts['base']}; CpTv control: {parts['cptv']}; coref control: {parts['coref']}; "
        f"noncoref controls: {parts['noncoref']}",
        "  comparisons (points; 95% intervals):",
        *(f"    {c.words()}" for c in _comparisons(result)),
        "",
        "A strong drop: above the 20-point floor, at least 1.4 times its variant's CpTv drop and above its CnTn drop "
        "(1.4 times both in the coref variant; paired over the same triplets); a non-coreference drop is small at "
        "most half the base test's (unpaired). The floor, the factors and the veto are NegHub's (the paper gives "
        "no numbers). Intervals cluster the triplets by name/profession pair and by verb. A full verdict needs all "
        "four variants.",
    ]
    return "\n".join(lines)


def _comparisons(result: Mapping[str, Any]) -> Iterator[Comparison]:
    for by_pattern in result["verdict_comparisons"].values():
        for by_name in by_pattern.values():
            for metrics in by_name.values():
                yield Comparison.from_metrics(metrics)
