"""The site at scale: build time, memory and size against the number of submissions, and what each page costs.

Scale (`--only time`): realistic submissions (perf/realistic_submissions.py: every task, full-size files, one
pinned model each, as `neghub run` writes them) beside the committed ones and the papers' rows, built by the real
`mkdocs build` (what `nox -s site` runs) at 0 (the baseline, timed in the same run), 500 and 1,000 submissions:
wall time, the peak memory of the build's processes together (their PSS, sampled from /proc every 50 ms:
the build forks workers), and the size of the built site. Goals (issue 22), on a 2-core machine: at 1,000
submissions at most 30 s, 500 MB and a 150 MB site; at 10,000, simulated (the site's size grows linearly in the
submissions: its cost per submission, from 500 to 1,000, times 10,000 plus the empty site), under GitHub Pages'
1 GB. Growth must be
no faster than linear: the cost per submission above the empty build must not rise from 500 to 1,000. The
machine's load average is printed beside every figure. JNLI-Neg's release must be readable (NEGHUB_DATA_DIR).

Page weights at 10, 100 and 1,000 submissions. A page's first load is its HTML and every script, stylesheet and
font it loads: the <script src> and <link rel="stylesheet"> it names, the fonts their CSS names, and the search
worker the theme starts (named in the page's __config). Reported uncompressed and gzip-compressed (what GitHub
Pages sends); data a page fetches later (its charts' plotly.js is a script and counts; the theme's search index,
the answers, a long board's further rows do not) is reported apart. Bounds (issue 16):
- no page without a chart over 300 KB of first load, compressed as served (uncompressed, mkdocs-material's own
  CSS, JS and search worker alone are 316 KB: every page would be over the bound before it says a word);
- no page without a chart references plotly.js;
- a benchmark page stays under 1 MB of HTML (uncompressed) at 1,000 submissions.

The submissions are synthetic NUBench completion-mode runs on the sample shipped in the package (two seeds each),
written to a temp folder beside a copy of submissions/ (the committed ones and the papers' rows); the build is
the real `mkdocs build` from the repository root with NEGHUB_SUBMISSIONS_DIR pointing at them.
`--only time` or `--only weight` runs one half. `--sizes A B` builds at A and B submissions instead (both halves):
with a few, a check of the script itself (tests/test_perf_scripts.py), not a measurement against the goals.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
NUBENCH_TEST = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
SIZES = (500, 1000)
REPEATS = 3  # of the empty build; a build of hundreds of submissions is timed once
GOAL_SECONDS, GOAL_MB, GOAL_SITE_MB, PAGES_LIMIT_MB = 30.0, 500.0, 150.0, 1000.0
# the cost per submission at 800 may exceed the one at 200 by this factor (timing noise) and still be linear
TOLERANCE = 1.25
WEIGHT_SIZES = (10, 100, 1000)
FIRST_LOAD_LIMIT = 300_000  # bytes, compressed, of a page without a chart
BENCHMARK_HTML_LIMIT = 1_000_000  # bytes of a benchmark page's HTML
FONTS = (".woff2", ".woff", ".ttf", ".otf")


def write_submissions(folder: Path, count: int) -> None:
    items = [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line.strip()]
    for number in range(count):
        sub = folder / f"synthetic-{number:04d}"
        runs = []
        for seed in range(2):
            rel = f"predictions/nubench/seed-{seed}.jsonl"
            lines = []
            for position, item in enumerate(items):
                # a different, deterministic pattern of right and wrong answers per submission and seed
                best = ("choice1", "choice3", "choice4")[(position * (number + 1) + seed) % 3]
                scores = {"choice1": -3.0, "choice2": -3.0, "choice3": -3.0, "choice4": -3.0, best: -1.0}
                if item["choice2_type"] == "non-applicable":
                    scores["choice2"] = None
                lines.append(json.dumps({"id": item["index"], "loglikelihoods": scores}))
            (sub / rel).parent.mkdir(parents=True, exist_ok=True)
            (sub / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
            runs.append(
                f"  - task: nubench\n    split: test\n    file: {rel}\n    shots: 0\n    seed: {seed}\n"
                "    mode: completion\n"
            )
        (sub / "metadata.yaml").write_text(
            "model:\n  kind: baseline\n"
            f'  name: "Synthetic model {number}"\n'
            "  baseline: synthetic\n  parameters: 0\n  open_weights: true\n  license: Apache-2.0\n"
            "submitter:\n  name: Benchmark\n  contact: https://example.org/bench\n"
            'date: "2025-01-01"\ndescription: Synthetic submission for the site build benchmark.\n'
            "runs:\n" + "".join(runs),
            encoding="utf-8",
        )


def build_seconds(submissions: Path, out: Path, repeats: int = REPEATS) -> float:
    return min(build(submissions, out)[0] for _ in range(repeats))


def _tree_rss_mb(pid: int) -> float:
    """Memory of a process and its descendants, in MB (Linux /proc): their proportional set sizes (PSS), so that
    the pages a forked worker shares with the build are counted once, not once per process as RSS would."""
    total, stack, seen = 0, [pid], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            total += int(rollup.split("\nPss:")[1].split()[0]) if "\nPss:" in rollup else 0
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, IndexError, ValueError):
            continue
        stack.extend(int(c) for c in children)
    return total / 1024


def build(submissions: Path, out: Path) -> tuple[float, float]:
    """One `mkdocs build` of the site: (seconds, peak MB of its processes together)."""
    env = {**os.environ, "NEGHUB_SUBMISSIONS_DIR": str(submissions), "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, _tree_rss_mb(process.pid))
        time.sleep(0.05)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise RuntimeError(f"mkdocs build failed: {process.stderr.read().decode()[-2000:] if process.stderr else ''}")
    return seconds, peak


def site_mb(out: Path) -> float:
    return sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


class References(HTMLParser):
    """The scripts and stylesheets a page names, whether it draws a chart, and the theme's search worker."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[str] = []
        self.charts = False
        self._config = False
        self.config = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and named.get("src"):
            self.files.append(str(named["src"]))
        elif (
            tag == "link"
            and named.get("href")
            and ("stylesheet" in (named.get("rel") or "").split() or named.get("as") == "font")
        ):
            self.files.append(str(named["href"]))
        elif tag == "div" and "neghub-chart" in (named.get("class") or "").split():
            self.charts = True
        self._config = tag == "script" and named.get("id") == "__config"

    def handle_data(self, data: str) -> None:
        if self._config:
            self.config += data


@dataclass(frozen=True)
class Weight:
    page: str
    html: int
    first_load: int
    first_load_gzip: int
    charts: bool
    plotly: bool


def _local(site: Path, page: Path, reference: str, site_path: str) -> Path | None:
    """The file of the built site a page's reference names (None: another site's)."""
    parts = urlsplit(reference)
    if parts.scheme or parts.netloc:
        return None
    if parts.path.startswith("/"):  # absolute under the site's path (the 404 page)
        return site / parts.path.removeprefix(site_path).lstrip("/")
    return (page.parent / parts.path).resolve()


def page_weight(site: Path, page: Path, site_path: str, cache: dict[Path, tuple[int, int]]) -> Weight:
    html = page.read_bytes()
    references = References()
    references.feed(html.decode("utf-8"))
    files = [_local(site, page, r, site_path) for r in references.files]
    if references.config:  # mkdocs-material starts its search worker on every page
        config = json.loads(references.config)
        if config.get("search"):
            files.append(_local(site, page, config["search"], site_path))  # relative to the page, as its scripts
    styles = [f for f in files if f is not None and f.suffix == ".css"]
    for sheet in styles:  # the fonts a stylesheet loads
        for url in re.findall(r"url\(['\"]?([^'\")]+)['\"]?\)", sheet.read_text(encoding="utf-8")):
            if urlsplit(url).path.endswith(FONTS):
                files.append((sheet.parent / urlsplit(url).path).resolve())
    raw, compressed = len(html), len(gzip.compress(html, 6))
    for file in dict.fromkeys(f for f in files if f is not None):
        if file not in cache:
            data = file.read_bytes()
            cache[file] = (len(data), len(gzip.compress(data, 6)))
        raw += cache[file][0]
        compressed += cache[file][1]
    plotly = any("plotly" in r for r in references.files)
    return Weight(page.relative_to(site).as_posix(), len(html), raw, compressed, references.charts, plotly)


def site_weights(site: Path) -> list[Weight]:
    site_url = re.search(r"^site_url: (\S+)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    site_path = urlsplit(site_url.group(1)).path if site_url else "/"
    cache: dict[Path, tuple[int, int]] = {}
    # every page of the site; data/rows/ holds rows a page loads later, not pages
    pages = [p for p in sorted(site.rglob("*.html")) if "data" not in p.relative_to(site).parts]
    return [page_weight(site, page, site_path, cache) for page in pages]


def theme_files(site: Path, folder: str) -> list[Path]:
    """The theme's own scripts or stylesheets that every page loads (not their source maps, not search's
    language packs, which load only for a site in another language)."""
    root = site / "assets" / folder
    return [
        f
        for f in root.rglob("*")
        if f.is_file() and f.suffix in (".js", ".css") and "lunr" not in f.relative_to(root).parts
    ]


def kind_of(page: str) -> str:
    if page.startswith("benchmarks/"):
        return page
    if page.startswith("models/"):
        return "models/index.html" if page == "models/index.html" else "models/<submission>.html"
    if page.startswith("datasets/"):
        return "datasets/<benchmark>.html"
    return page


def kb(size: float) -> str:
    return f"{size / 1000:7.1f}"


def report_weights(count: int, site: Path) -> list[str]:
    """Print the weights of one built site by kind of page (the heaviest page of each kind); the bounds broken."""
    weights = site_weights(site)
    print(f"\n{count} submissions ({len(weights)} pages): KB, the heaviest page of each kind")
    print(f"  {'page':32} {'HTML':>7} {'first load':>10} {'gzip':>7}  charts")
    by_kind: dict[str, Weight] = {}
    for weight in weights:
        kind = kind_of(weight.page)
        if kind not in by_kind or weight.first_load > by_kind[kind].first_load:
            by_kind[kind] = weight
    for kind, weight in sorted(by_kind.items()):
        charts = "yes" if weight.charts else "no"
        print(f"  {kind:32} {kb(weight.html)} {kb(weight.first_load):>10} {kb(weight.first_load_gzip)}  {charts}")
    search = site / "search" / "search_index.json"
    if search.is_file():
        data = search.read_bytes()
        print(
            f"  the theme's search index, fetched by every page after it loads: {kb(len(data)).strip()} KB "
            f"({kb(len(gzip.compress(data, 6))).strip()} KB gzip)"
        )
    rows = sorted((site / "data" / "rows").glob("*.html")) if (site / "data" / "rows").is_dir() else []
    if rows:
        print(f"  a long board's further rows, loaded when asked: up to {kb(max(p.stat().st_size for p in rows))} KB")
    broken = []
    plain = [w for w in weights if not w.charts]
    heaviest = max(plain, key=lambda w: w.first_load_gzip)
    theme = sum(f.stat().st_size for folder in ("javascripts", "stylesheets") for f in theme_files(site, folder))
    print(
        f"  pages without a chart: heaviest first load {kb(heaviest.first_load_gzip).strip()} KB gzip "
        f"({heaviest.page}); uncompressed, {sum(w.first_load > FIRST_LOAD_LIMIT for w in plain)} of {len(plain)} "
        f"are over {FIRST_LOAD_LIMIT // 1000} KB (mkdocs-material's CSS, JS and search worker: {kb(theme).strip()} KB)"
    )
    broken += [
        f"{count}: {w.page}: first load {w.first_load_gzip} bytes gzip > {FIRST_LOAD_LIMIT}"
        for w in plain
        if w.first_load_gzip > FIRST_LOAD_LIMIT
    ]
    broken += [f"{count}: {w.page}: loads plotly.js without a chart" for w in plain if w.plotly]
    broken += [
        f"{count}: {w.page}: {w.html} bytes of HTML > {BENCHMARK_HTML_LIMIT}"
        for w in weights
        if w.page.startswith("benchmarks/") and w.html > BENCHMARK_HTML_LIMIT
    ]
    return broken


def weights(base: Path, sizes: tuple[int, ...] = WEIGHT_SIZES) -> bool:
    broken: list[str] = []
    for count in sizes:
        folder = base / f"weight-{count}"
        shutil.copytree(ROOT / "submissions", folder, ignore=shutil.ignore_patterns(".*"))
        write_submissions(folder, count)
        out = base / f"weight-out-{count}"
        build_seconds(folder, out, repeats=1)
        broken += report_weights(count, out)
        shutil.rmtree(out)
    print("\npage weights within the bounds: " + ("yes" if not broken else "NO"))
    for line in broken:
        print("  " + line)
    return not broken


def timing(base: Path, sizes: tuple[int, int] = SIZES) -> bool:
    """Build time, memory and size at 0, 500 and 1,000 realistic submissions (`sizes`), against the goals."""
    sys.path.insert(0, str(ROOT / "perf"))
    from realistic_submissions import write_submissions as write_realistic

    figures: dict[int, tuple[float, float, float]] = {}
    folder = base / "subs"
    shutil.copytree(ROOT / "submissions", folder, ignore=shutil.ignore_patterns(".*"))
    written = 0
    for count in (0, *sizes):
        write_realistic(folder, count - written, start=written)
        written = count
        out = base / f"out-{count}"
        runs = [build(folder, out) for _ in range(REPEATS if count == 0 else 1)]
        seconds, peak = min(r[0] for r in runs), max(r[1] for r in runs)
        figures[count] = (seconds, peak, site_mb(out))
        print(
            f"{count:5d} submissions: {seconds:6.1f} s, peak {peak:6.0f} MB, "
            f"site {figures[count][2]:6.1f} MB ({load()})"
        )
        shutil.rmtree(out)
    small, large = sizes
    per_small = (figures[small][0] - figures[0][0]) / small
    per_large = (figures[large][0] - figures[0][0]) / large
    print(
        f"per submission above the empty build: {per_small * 1000:.1f} ms at {small}, "
        f"{per_large * 1000:.1f} ms at {large}"
    )
    linear = per_large <= per_small * TOLERANCE
    print("growth no faster than linear: " + ("yes" if linear else "NO"))
    size_per = (figures[large][2] - figures[small][2]) / (large - small)
    simulated = figures[0][2] + size_per * 10_000
    print(f"site at 10,000 submissions, simulated: {simulated:.0f} MB ({size_per * 1000:.1f} KB a submission)")
    seconds, peak, size = figures[large]
    goals = {
        f"build at {large} <= {GOAL_SECONDS:.0f} s": seconds <= GOAL_SECONDS,
        f"peak memory at {large} <= {GOAL_MB:.0f} MB": peak <= GOAL_MB,
        f"site at {large} <= {GOAL_SITE_MB:.0f} MB": size <= GOAL_SITE_MB,
        f"site at 10,000 (simulated) < {PAGES_LIMIT_MB:.0f} MB": simulated < PAGES_LIMIT_MB,
    }
    for goal, met in goals.items():
        print(f"  {goal}: {'met' if met else 'NOT MET'}")
    return linear and all(goals.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("time", "weight"), help="run one half of the benchmark")
    parser.add_argument(
        "--sizes",
        type=int,
        nargs=2,
        default=None,
        metavar=("SMALL", "LARGE"),
        help=f"submission counts to build at (default: {SIZES} timed, {WEIGHT_SIZES} weighed)",
    )
    args = parser.parse_args()
    timed = SIZES if args.sizes is None else (args.sizes[0], args.sizes[1])
    weighed = WEIGHT_SIZES if args.sizes is None else tuple(args.sizes)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "weight":
            ok = timing(Path(tmp), timed) and ok
        if args.only != "time":
            ok = weights(Path(tmp), weighed) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
