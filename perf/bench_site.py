"""The site at scale: build time, memory and size against the number of accepted submissions, cold and warm.

Realistic submissions (perf/realistic_submissions.py: NegHub's benchmarks in the shapes `neghub run` writes,
full-size files, one pinned model each, 97 accounts, three in eight leaving one benchmark out) beside the committed
ones and the papers' rows, built by the real `mkdocs build` (what `nox -s site` runs), at 0 (the baseline: the
committed submissions alone, timed --repeats times in the same run, default 3, the best taken) and at each size
(default 250 and 1,000):
- cold: an empty score cache ($NEGHUB_SCORE_CACHE), every submission scored;
- warm: the same build again, its scores read from the cache the cold build wrote (what a push to main costs when
  one submission changed).
Before it times anything, the script checks that its submissions are accepted: it collects one of each of their
shapes in-process and stops (exit 2, with the build's reasons) unless every one was accepted and shows as a row;
after every build, before its figures are printed, every synthetic submission must have its model page and a row
in the built data/leaderboard.json (exit 2 otherwise). (Until issue 37 its submissions lacked `submitter.github`:
all were refused and it timed an empty site.)

The warm build's data/leaderboard.json must be the cold build's, byte for byte. Printed: the machine (cores,
memory), the load average (/proc/loadavg) before and after each build, wall time, its ratio to the empty build, the
CPU time of the build's processes (user and system, its scoring workers included: what a loaded machine's wall time
hides), the peak memory of the build's processes together (their PSS, sampled from /proc every 50 ms: the build
forks scoring workers) and the largest process's peak RSS (getrusage of the children), the size of the built site,
and time (wall, and CPU for the warm build) per submission above the empty build. Goals (issue 37), on a quiet
2-core machine: at 1,000 submissions a warm build within 30 s and 500 MB, time per submission at 1,000 within 1.3x
of that at 250 (warm), the site within 150 MB; at
10,000, simulated, under GitHub Pages' 1 GB: an extrapolation, not a build, stated as its two parts, a fixed part
and a part per submission. The part per submission is the line through the two warm builds (their bytes' difference
over their submissions' difference); the fixed part is where that line meets 0 submissions (the larger site less its
submissions' part), not the empty build's site: files that appear once there are submissions (a board's downloads,
a long board's further rows) belong to the fixed part. A line holds only where the site grows linearly: the bytes
per submission above the empty build at each size are printed too (the larger's above the smaller's: faster). Each
kind of file's bytes per submission (model pages, board CSVs, benchmark CSVs, ...)
is printed beside it. The cold build's time is stated, without a goal.

Page weights of the warm build at each size. A page's first load is its HTML and every script, stylesheet and font
it loads: the <script src> and <link rel="stylesheet"> it names, the fonts their CSS names, and the search worker
the theme starts (named in the page's __config). Reported uncompressed and gzip-compressed (what GitHub Pages
sends); data a page fetches later (the theme's search index, the answers, a long board's further rows) is reported
apart. Bounds (issue 16):
- no page without a chart over 300 KB of first load, compressed as served;
- no page without a chart references plotly.js;
- a benchmark page stays under 1 MB of HTML (uncompressed) at 1,000 submissions.

`--sizes A B` builds at A and B submissions instead: with a few (and `--repeats 1`, one empty build), a check of
the script itself (tests/test_perf_scripts.py), not a measurement against the goals. `--without-github` writes the
submissions without `submitter.github`, as the script did before: a check of its check (it must stop, exit 2,
timing nothing).
JNLI-Neg's release must be readable (NEGHUB_DATA_DIR).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import resource
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
SIZES = (250, 1000)
REPEATS = 3  # of the empty build (--repeats); a build of hundreds of submissions is timed once
GOAL_SECONDS, GOAL_MB, GOAL_SITE_MB, PAGES_LIMIT_MB = 30.0, 500.0, 150.0, 1000.0
GROWTH = 1.3  # warm time per submission at the larger size, at most this times the one at the smaller
SHAPES = 8  # realistic_submissions varies its submissions with number % 8
FIRST_LOAD_LIMIT = 300_000  # bytes, compressed, of a page without a chart
BENCHMARK_HTML_LIMIT = 1_000_000  # bytes of a benchmark page's HTML
FONTS = (".woff2", ".woff", ".ttf", ".otf")


class NotAccepted(Exception):
    """A synthetic submission was refused or shows no row: nothing this script would time measures the site."""


def machine() -> str:
    memory = "unknown memory"
    try:
        kib = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))  # type: ignore[union-attr]
        memory = f"{kib / 1024**2:.1f} GiB memory"
    except (OSError, AttributeError):
        pass
    return (
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, {memory}, "
        f"Python {platform.python_version()}"
    )


def load() -> str:
    try:
        return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _realistic():  # type: ignore[no-untyped-def]
    for path in (str(ROOT), str(ROOT / "perf")):
        if path not in sys.path:
            sys.path.insert(0, path)
    import realistic_submissions

    return realistic_submissions


def write_synthetic(folder: Path, start: int, count: int, without_github: bool = False) -> None:
    _realistic().write_submissions(folder, count, start=start)
    if without_github:
        for number in range(start, start + count):
            meta = folder / f"model-{number:05d}" / "metadata.yaml"
            meta.write_text(re.sub(r"\n  github: [^\n]*", "", meta.read_text(encoding="utf-8")), encoding="utf-8")


def synthetic_ids(start: int, count: int) -> list[str]:
    return [f"model-{number:05d}" for number in range(start, start + count)]


def preflight(base: Path, without_github: bool) -> None:
    """One submission of each shape, collected in-process as the build collects them: every one accepted, with
    rows (raises NotAccepted with the build's reasons otherwise)."""
    _realistic()
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.history import History

    folder = base / "preflight" / "submissions"
    folder.mkdir(parents=True)
    write_synthetic(folder, 0, SHAPES, without_github)
    board = collect(folder, reported=False, history=History(False, "the benchmark's temp folder"))
    with_rows = {row.submission_id for row in board.rows}
    problems = [f"{note.submission}: {note.level}: {'; '.join(note.messages)[:300]}" for note in board.notes] + [
        f"{sid}: accepted but shows no row" for sid in board.submissions if sid not in with_rows
    ]
    if problems or len(board.submissions) != SHAPES:
        raise NotAccepted("\n".join(problems) or f"{len(board.submissions)} of {SHAPES} accepted")
    shutil.rmtree(base / "preflight")


def check_built(out: Path, expected: list[str]) -> None:
    """Every synthetic submission has its model page and a row in the built leaderboard file."""
    rows = json.loads((out / "data" / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    shown = {str(row.get("submission") or row["row"].split("/")[0]) for row in rows}
    missing = [sid for sid in expected if sid not in shown or not (out / "models" / f"{sid}.html").is_file()]
    if missing:
        raise NotAccepted(
            f"{len(missing)} of {len(expected)} synthetic submissions were refused or show no row "
            f"(first: {', '.join(missing[:5])})"
        )


def _tree_pss_mb(pid: int) -> float:
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


@dataclass(frozen=True)
class Build:
    seconds: float
    cpu_seconds: float  # user and system time of the build's processes (its scoring workers included)
    pss_mb: float  # peak of the build's processes together
    rss_mb: float  # the largest child's peak RSS over the whole run so far (getrusage), an upper bound per process
    site_mb: float
    load_before: str
    load_after: str


def build(submissions: Path, out: Path, cache: Path) -> Build:
    """One `mkdocs build` of the site with the score cache `cache`."""
    env = {
        **os.environ,
        "NEGHUB_SUBMISSIONS_DIR": str(submissions),
        "NEGHUB_SCORE_CACHE": str(cache),
        "NEGHUB_HISTORY": "none",  # the temp folder has no git history
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)]
    before = load()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, _tree_pss_mb(process.pid))
        time.sleep(0.05)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise RuntimeError(f"mkdocs build failed: {process.stderr.read().decode()[-2000:] if process.stderr else ''}")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime - used.ru_utime - used.ru_stime
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6
    return Build(seconds, cpu, peak, children.ru_maxrss / 1024, size, before, load())


def timing(base: Path, sizes: tuple[int, int], without_github: bool, repeats: int = REPEATS) -> bool:
    """Cold and warm builds at 0 and at each size, against the goals; the page weights of each warm build."""
    print(machine())
    print(f"before anything is timed: {SHAPES} synthetic submissions, one of each shape, collected...", flush=True)
    preflight(base, without_github)
    print("  every one accepted, each with its rows")
    folder = base / "submissions"
    shutil.copytree(ROOT / "submissions", folder, ignore=shutil.ignore_patterns(".*"))
    empty = [build(folder, base / "out-0", base / f"cache-0-{n}") for n in range(repeats)]
    baseline = min(b.seconds for b in empty)
    baseline_cpu = min(b.cpu_seconds for b in empty)
    print(
        f"    0 submissions (the committed ones): {baseline:6.1f} s (best of {repeats}; CPU {baseline_cpu:.1f} s), "
        "peak "
        f"{max(b.pss_mb for b in empty):5.0f} MB, site {empty[0].site_mb:6.1f} MB ({empty[0].load_before})"
    )
    print(
        f"  {'size':>5} {'build':5} {'seconds':>8} {'x empty':>8} {'CPU s':>7} {'PSS MB':>7} {'RSS MB':>7} "
        f"{'site MB':>8}  load"
    )
    figures: dict[tuple[int, str], Build] = {}
    kinds: dict[int, dict[str, int]] = {}
    broken: list[str] = []
    written = 0
    cold_file = b""
    for count in sizes:
        write_synthetic(folder, written, count - written, without_github)
        written = count
        expected = synthetic_ids(0, count)
        cache = base / f"cache-{count}"
        for kind in ("cold", "warm"):
            out = base / f"out-{count}-{kind}"
            found = build(folder, out, cache)
            check_built(out, expected)  # before its figures are printed
            published = (out / "data" / "leaderboard.json").read_bytes()
            if kind == "cold":
                cold_file = published
            elif published != cold_file:
                broken.append(f"{count}: the warm build's data/leaderboard.json differs from the cold build's")
            figures[count, kind] = found
            print(
                f"  {count:5d} {kind:5} {found.seconds:8.1f} {found.seconds / baseline:8.1f} {found.cpu_seconds:7.1f} "
                f"{found.pss_mb:7.0f} "
                f"{found.rss_mb:7.0f} {found.site_mb:8.1f}  {found.load_before} -> {found.load_after}",
                flush=True,
            )
            if kind == "warm":
                broken += report_weights(count, out)
                kinds[count] = bytes_by_kind(out)
            shutil.rmtree(out)
    small, large = sizes
    per = {
        (count, kind): (figures[count, kind].seconds - baseline) / count for count in sizes for kind in ("cold", "warm")
    }
    for kind in ("cold", "warm"):
        print(
            f"{kind}: time per submission above the empty build: {per[small, kind] * 1000:.1f} ms at {small}, "
            f"{per[large, kind] * 1000:.1f} ms at {large} ({per[large, kind] / per[small, kind]:.2f}x)"
        )
    # CPU time says what wall time says on a quiet machine, and what it cannot on a loaded one
    cpu = {count: (figures[count, "warm"].cpu_seconds - baseline_cpu) / count for count in sizes}
    print(
        f"warm: CPU time per submission above the empty build: {cpu[small] * 1000:.1f} ms at {small}, "
        f"{cpu[large] * 1000:.1f} ms at {large} ({cpu[large] / cpu[small]:.2f}x)"
    )
    linear = per[large, "warm"] <= per[small, "warm"] * GROWTH
    print("growth no faster than linear: " + ("yes" if linear else "NO") + f" (warm, within {GROWTH}x)")
    size_per = (figures[large, "warm"].site_mb - figures[small, "warm"].site_mb) / (large - small)
    fixed = figures[large, "warm"].site_mb - size_per * large
    simulated = fixed + size_per * 10_000
    print(
        f"site at 10,000 submissions, extrapolated (not built): {simulated:.0f} MB = fixed {fixed:.1f} MB "
        f"(the line's value at 0; the empty build's site {empty[0].site_mb:.1f} MB) + {size_per * 1000:.1f} KB a "
        f"submission (from {small} to {large}) x 10,000"
    )
    above = {count: (figures[count, "warm"].site_mb - empty[0].site_mb) / count for count in sizes}
    print(
        f"  site above the empty build: {above[small] * 1000:.1f} KB a submission at {small}, "
        f"{above[large] * 1000:.1f} KB at {large}"
    )
    print(f"  KB a submission by kind of file (from {small} to {large}):")
    for kind, per in sorted(
        ((k, (kinds[large].get(k, 0) - kinds[small].get(k, 0)) / (large - small)) for k in kinds[large]),
        key=lambda item: -item[1],
    ):
        if abs(per) >= 50:  # bytes
            print(f"    {per / 1000:7.2f}  {kind}")
    warm = figures[large, "warm"]
    goals = {
        f"warm build at {large} <= {GOAL_SECONDS:.0f} s": warm.seconds <= GOAL_SECONDS,
        f"peak memory (PSS) of the warm build at {large} <= {GOAL_MB:.0f} MB": warm.pss_mb <= GOAL_MB,
        f"site at {large} <= {GOAL_SITE_MB:.0f} MB": warm.site_mb <= GOAL_SITE_MB,
        f"site at 10,000 (extrapolated) < {PAGES_LIMIT_MB:.0f} MB": simulated < PAGES_LIMIT_MB,
    }
    print(f"cold build at {large}: {figures[large, 'cold'].seconds:.1f} s, {figures[large, 'cold'].pss_mb:.0f} MB")
    for goal, met in goals.items():
        print(f"  {goal}: {'met' if met else 'NOT MET'}")
    print("page weights within the bounds: " + ("yes" if not broken else "NO"))
    for line in broken:
        print("  " + line)
    return linear and all(goals.values()) and not broken


def file_kind(path: str) -> str:
    """A built file's kind: its path with a submission's id, a board's slug and a run's name generalised."""
    parts = path.split("/")
    if path == "data/leaderboard.json" or len(parts) == 1:
        return path
    if parts[0] == "models" and path != "models/index.html":
        return "models/<submission>.html"
    if parts[0] == "data" and len(parts) == 2 and path.endswith(".csv"):
        return "data/<board>.csv"
    if parts[:2] == ["data", "rows"]:
        return "data/rows/<board>.html"
    if parts[0] == "answers":
        return "answers/<submission>/" + parts[-1]
    return "/".join(parts[:-1]) + "/" + ("<file>" if parts[0] in ("assets", "schemas") else parts[-1])


def bytes_by_kind(site: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for file in site.rglob("*"):
        if file.is_file():
            kind = file_kind(file.relative_to(site).as_posix())
            out[kind] = out.get(kind, 0) + file.stat().st_size
    return out


# --- page weights -------------------------------------------------------------------------------------------


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
    # the build's site_url comes from the deployment's repository (mkdocs_hooks), none where it names none
    from neghub.leaderboard.deployment import deployed_repository, pages_url

    named = deployed_repository(ROOT)
    site_path = urlsplit(pages_url(named)).path if named else "/"
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
    print(f"\n  {count} submissions ({len(weights)} pages): KB, the heaviest page of each kind")
    print(f"    {'page':32} {'HTML':>7} {'first load':>10} {'gzip':>7}  charts")
    by_kind: dict[str, Weight] = {}
    for weight in weights:
        kind = kind_of(weight.page)
        if kind not in by_kind or weight.first_load > by_kind[kind].first_load:
            by_kind[kind] = weight
    for kind, weight in sorted(by_kind.items()):
        charts = "yes" if weight.charts else "no"
        print(f"    {kind:32} {kb(weight.html)} {kb(weight.first_load):>10} {kb(weight.first_load_gzip)}  {charts}")
    search = site / "search" / "search_index.json"
    if search.is_file():
        data = search.read_bytes()
        print(
            f"    the theme's search index, fetched by every page after it loads: {kb(len(data)).strip()} KB "
            f"({kb(len(gzip.compress(data, 6))).strip()} KB gzip)"
        )
    rows = sorted((site / "data" / "rows").glob("*.html")) if (site / "data" / "rows").is_dir() else []
    if rows:
        print(f"    a long board's further rows, loaded when asked: up to {kb(max(p.stat().st_size for p in rows))} KB")
    plain = [w for w in weights if not w.charts]
    heaviest = max(plain, key=lambda w: w.first_load_gzip)
    theme = sum(f.stat().st_size for folder in ("javascripts", "stylesheets") for f in theme_files(site, folder))
    print(
        f"    pages without a chart: heaviest first load {kb(heaviest.first_load_gzip).strip()} KB gzip "
        f"({heaviest.page}); mkdocs-material's CSS, JS and search worker: {kb(theme).strip()} KB uncompressed\n"
    )
    broken = [
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


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawTextHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs=2,
        default=SIZES,
        metavar=("SMALL", "LARGE"),
        help=f"accepted submissions to build at, cold and warm (default: {SIZES[0]} {SIZES[1]})",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=REPEATS,
        metavar="N",
        help=f"timed builds of the empty site, the best taken as the baseline (default: {REPEATS})",
    )
    parser.add_argument(
        "--without-github",
        action="store_true",
        help="write the submissions without submitter.github (all refused): the script must stop, exit 2",
    )
    args = parser.parse_args()
    small, large = args.sizes
    if not 0 < small < large:
        parser.error("--sizes: two counts, the first smaller, both above 0")
    if args.repeats < 1:
        parser.error("--repeats: at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            ok = timing(Path(tmp), (small, large), args.without_github, args.repeats)
        except NotAccepted as refused:
            print(f"bench_site: stopped, nothing it would time measures the site:\n{refused}", file=sys.stderr)
            print("stopped: a synthetic submission was refused or shows no row (see stderr)")
            return 2
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
