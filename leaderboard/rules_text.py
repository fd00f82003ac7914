"""The rules in words, generated from `verdicts.RULES`: the list in verdicts.py's docstring, README's rules table and
each benchmark's figures on the Ranking rules page. Nothing here decides a verdict.

`python -m neghub.leaderboard.rules_text --write` rewrites the docstring's list and README's table between their
marker comments; `--check` exits 1, naming the text, where one drifted from RULES (tests/test_rules_declared.py
runs the check).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from ..evaluator.core.registry import get_benchmark
from .decision import Decision
from .rule import Rule
from .verdicts import PARSED_SHARE_MIN, RULES

BEGIN, END = "<!-- rules:begin -->", "<!-- rules:end -->"
WIDTH = 116  # the docstring's lines, within the project's 120 columns


def lifted_words(rule: Rule[Decision]) -> str:
    return ", ".join(rule.lifted_by) if rule.lifted_by else "nothing"


def docstring_list() -> str:
    """The numbered list of verdicts.py's docstring, one rule a paragraph, in the order `decide` applies them."""
    lines = []
    for number, rule in enumerate(RULES, start=1):
        head = f"{number}. {rule.kind} (gives: {rule.gives}; lifted by: {lifted_words(rule)}): "
        indent = " " * len(f"{number}. ")
        lines += textwrap.wrap(head + rule.general, WIDTH, subsequent_indent=indent, break_on_hyphens=False)
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def readme_table() -> str:
    """README's rules table: every rule in the order the verdicts apply them."""
    rows = [
        "| # | rule | reads | gives | lifted by | in a table | in the row's details |",
        "|---|---|---|---|---|---|---|",
    ]
    for number, rule in enumerate(RULES, start=1):
        cells = [str(number), f"`{rule.kind}`", "; ".join(rule.reads), rule.gives, lifted_words(rule), rule.phrase]
        rows.append("| " + " | ".join(_cell(c) for c in [*cells, rule.general]) + " |")
    return "\n".join(rows)


def rules_in_words(task: str, shared: bool = True) -> list[str]:
    """The conditions a row of this benchmark is ranked under, with its numbers; `shared=False`: only those that
    differ from benchmark to benchmark (the Ranking rules page says the shared ones once)."""
    display = get_benchmark(task).display
    unit = display.headline.unit
    scale, words = (100.0, "points") if unit in ("percent", "points") else (1.0, unit)
    rules = []
    if shared:
        rules.append(
            f"it is not held, at least {100 * PARSED_SHARE_MIN:.0f} % of its answers parse, and it beats the "
            "board's best baseline under the paired test"
        )
    else:
        better = "higher" if display.headline.higher_is_better else "lower"
        rules.append(f"rows are ranked by {display.headline.label} ({better} is better)")
    rules += [
        f"its headline's 95 % interval is ±{scale * display.max_ci_half_width:g} {words} wide or less, and not of "
        "zero width",
    ]
    if display.items_path is not None and display.min_items:
        rules.append(f"it rests on {display.min_items} {display.items_noun} or more, which each model selects")
    if display.verdict_order:
        unranked = " or ".join(display.verdict_unranked)
        rules.append(
            f"its verdict is one of {', '.join(display.verdict_order)} ({unranked} is not ranked); rows are ordered "
            f"by their verdict first, best first, then, within one verdict, by {display.headline.label}"
        )
    return rules


def _between(text: str, block: str, where: str) -> str:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{where}: no {BEGIN} … {END} block")
    return text[: start + len(BEGIN)] + "\n" + block + "\n" + text[end:]


def targets(root: Path) -> list[tuple[Path, str]]:
    """Each generated text's file and its block."""
    return [
        (root / "leaderboard" / "verdicts.py", docstring_list()),
        (root / "README.md", readme_table()),
    ]


def main(argv: list[str]) -> int:
    """`--write` or `--check`, from the repository's root."""
    if argv not in (["--write"], ["--check"]):
        print("usage: python -m neghub.leaderboard.rules_text --write | --check", file=sys.stderr)
        return 2
    drifted = []
    for path, block in targets(Path.cwd()):
        text = path.read_text(encoding="utf-8")
        new = _between(text, block, str(path))
        if new == text:
            continue
        if argv == ["--write"]:
            path.write_text(new, encoding="utf-8")
        else:
            drifted.append(path.name)
    for name in drifted:
        print(
            f"{name}: the rules text differs from verdicts.RULES; run python -m neghub.leaderboard.rules_text --write",
            file=sys.stderr,
        )
    return 1 if drifted else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
