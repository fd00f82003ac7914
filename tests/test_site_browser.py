"""The built site in a real browser: headless Chromium (Selenium with Debian's chromedriver), at a laptop's
width (1366 px) and a phone's (390 px).

The site is built once per test session (one build shared by pytest-xdist's workers, under a lock) with `mkdocs
build` from the repository root into a temp folder, from a temp copy of
submissions/ plus synthetic ones: one whose model name is Markdown markup (it validates, and must show as literal
text), one whose name is HTML (the validator refuses it; the build report must show it as text), one whose
answers are HTML (the answers view must show them as text), and enough others on one board that its page carries
only its first rows and loads the rest when asked.

On every benchmark page (the registry's list) at both widths: the ranked table comes first, with its headline
column in view without scrolling sideways and its model column sticky; the page opens with NegHub's primary board
and the paper's headline table, every other board and every chart but the first folded under one line each, an
index links to (and opens) each board; the tables of chart numbers are collapsed;
no legend lies over a plot or its axis labels, no label under plotly's toolbar, no tick label twice on an axis,
past the figure's edge or shortened (a category label is a whole name, wrapped); pages load plotly.js only when
they draw a chart. On every page of the site (OTHER_PAGES and the benchmark pages) at both widths: axe-core finds
no violation at any impact, the theme's chrome included (AXE_KNOWN: none allowed). The 404 page is styled and
links into the site whether the site is served from a server's root or under /neghub/ as GitHub Pages serves it.
Full-page screenshots of every kind of page at both widths go to artifacts/screenshots/.

What a researcher reads (issue 33): at 1366 × 768 the home page's first screen, at 390 × 844 its first two, show
each of the four benchmarks with a model name, a figure and its source; on every page at both widths no more than
MAX_OPEN_TABLES tables are open and no cell is wider than the page; the home, benchmark and profile pages are at
most MAX_SCREENS screens tall at 1366 before a reader opens anything; no reader-facing text outside a row's or a
model's provenance details holds a phrase of the repository's mechanics (page_words.MECHANICS; the rules page,
the Submit page's instructions, the dataset cards' pinned digests and the papers' quotes exempt).

Where a reader opens it (issue 39): the home page from the file system and over HTTP, at both widths: every cell
credited to "paper, Table N" holds a figure stored for that table, each board has its leader line, and Models, the
profile, the datasets and Submit are linked on the first screen; a page opened from a file says, where its rows or
answers would load, how to serve the site.

axe-core comes from the npm registry through `npm pack` (pinned version and tarball digest).
"""

from __future__ import annotations

import base64
import csv
import datetime as dt
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from tests.histories import REPOSITORY
from tests.processes import run_process
from tests.test_leaderboard import NUBENCH_TEST, write_submission

ROOT = Path(__file__).parents[1]
# Debian's chromium and chromium-driver (what .ci/run installs); on GitHub's Ubuntu runners, the Google Chrome
# and chromedriver they come with (CHROMEWEBDRIVER names the driver's folder there)
CHROMIUM = next(
    (p for p in (Path("/usr/bin/chromium"), Path("/usr/bin/google-chrome")) if p.exists()), Path("/usr/bin/chromium")
)
CHROMEDRIVER = next(
    (
        p
        for p in (
            Path("/usr/bin/chromedriver"),
            Path(os.environ.get("CHROMEWEBDRIVER", "/nonexistent")) / "chromedriver",
        )
        if p.exists()
    ),
    Path("/usr/bin/chromedriver"),
)
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
MARKDOWN_NAME = "**NegBold** _under_ [x] model"
HTML_NAME = '<img id="neghub-injected" src=x onerror="document.title=1">'
HTML_ANSWER = '<img id="neghub-injected-answer" src=x onerror="document.title=2"><b>bold</b>'
BENCHMARKS = benchmark_names()
# the viewports (CSS pixels): a common laptop, and a phone (iPhone 12 to 15)
WIDTHS = {1366: 768, 390: 844}
SYNTHETIC = ("markdown-name", "markup-answers")  # the synthetic submissions that have a page (html-name is refused)
MODEL_PAGES = (*sorted(p.name for p in (ROOT / "submissions").iterdir() if p.is_dir()), *SYNTHETIC, "crowd-000")
# every page of the site but the benchmark pages (path, screenshot name or None): the site's own, every dataset
# card, the model page of every committed and synthetic submission, and of the first of the crowd (its other pages
# differ in their numbers alone); one screenshot per kind of page. The 404 page has its own test.
# test_every_page_of_the_site_is_checked holds this list to the built site.
OTHER_PAGES = (
    ("index.html", "home"),
    ("profile.html", "profile"),
    ("models/index.html", "models"),
    ("submit.html", "submit"),
    ("rules.html", "rules"),
    ("glossary.html", "glossary"),
    ("maintainers.html", "maintainers"),
    *((f"datasets/{task}.html", "dataset" if task == BENCHMARKS[0] else None) for task in BENCHMARKS),
    *((f"models/{sid}.html", "model" if sid == "smollm2-135m-instruct" else None) for sid in MODEL_PAGES),
)
# No page without a chart may cost more than this to load: its HTML and every script, stylesheet and font it
# loads, compressed as GitHub Pages serves them (gzip). Uncompressed, mkdocs-material's own CSS, JS and search
# worker alone are 0.32 MB (perf/bench_site.py reports both).
FIRST_LOAD_LIMIT = 300_000
# The home, benchmark and profile pages as they open, at 1366 × 768: at most this many screens tall
MAX_SCREENS = 4
MAX_OPEN_TABLES = 8  # tables shown on any page before a reader opens anything
# pages whose text may name the repository's mechanics: the rules (which state what each rule trusts), the Submit
# page (a submitter's instructions: the metadata's sha256 field), the dataset cards (each release file's pinned
# digest is the data's provenance) and the maintainers' build report
MECHANICS_EXEMPT = ("rules.html", "submit.html", "maintainers.html", "datasets/")
SHORT_PAGES = ("index.html", "profile.html", "benchmarks/")
AXE_VERSION = "4.14.1"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
# axe-core checks the whole page, the theme's chrome included (site/overrides/ names its search dialog, neghub.css
# darkens its footer line), at every impact, minor too. The one finding allowed, by page: JNLI-Neg's card opens
# its table of pair counts with an empty header cell (the cards are generated, evaluator/releases/; a header
# there, e.g. "count", and this entry goes).
AXE_KNOWN: dict[str, set[str]] = {}

pytest.importorskip("mkdocs", reason="the site extra is not installed (pip install -e '.[site]')")
selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    if os.environ.get("CI"):
        pytest.fail("Chromium is missing in CI: .ci/run installs chromium and chromium-driver", pytrace=False)
    pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from neghub.leaderboard.charts import MAX_SERIES  # noqa: E402
from neghub.leaderboard.exports import LONG_COLUMNS  # noqa: E402
from neghub.leaderboard.page_words import MECHANICS  # noqa: E402
from neghub.leaderboard.site import ROWS_IN_PAGE  # noqa: E402

pytestmark = pytest.mark.browser

CROWD = ROWS_IN_PAGE + 3  # submissions on one board beyond what its page carries


def _sample_items() -> list[dict[str, Any]]:
    return [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_crowd(root: Path, count: int) -> None:
    """`count` NUBench completion runs on the sample, each right on its own share of the items (no two alike)."""
    items = _sample_items()
    for number in range(count):
        folder = root / f"crowd-{number:03d}"
        lines = []
        for position, item in enumerate(items):
            best = "choice1" if (position * (number + 3)) % 7 < 3 + number % 4 else "choice3"
            scores = {"choice1": -3.0, "choice2": -3.0, "choice3": -3.0, "choice4": -3.0, best: -1.0}
            if item["choice2_type"] == "non-applicable":
                scores["choice2"] = None
            lines.append(json.dumps({"id": item["index"], "loglikelihoods": scores}))
        (folder / "predictions" / "nubench").mkdir(parents=True)
        (folder / "predictions" / "nubench" / "test.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (folder / "metadata.yaml").write_text(
            "model:\n  kind: local\n"
            f'  name: "Crowd model {number}"\n'
            f'  file: crowd-{number:03d}\n  sha256: "{number:064x}"\n'
            "  parameters: 1\n  open_weights: true\n  license: Apache-2.0\n"
            "submitter:\n  name: Tester\n  contact: https://example.org/tester\n  github: tester\n"
            'date: "2025-01-01"\ndescription: Synthetic predictions for the browser test.\n'
            "runs:\n  - task: nubench\n    split: test\n    file: predictions/nubench/test.jsonl\n    shots: 0\n"
            "    seed: 0\n    mode: completion\n",
            encoding="utf-8",
        )


def write_markup_answers(root: Path) -> None:
    """A NUBench option-mode run whose every answer is HTML: no letter, so every item is answered wrong."""
    folder = root / "markup-answers"
    (folder / "predictions" / "nubench").mkdir(parents=True)
    lines = [json.dumps({"id": item["index"], "output": HTML_ANSWER}) for item in _sample_items()]
    (folder / "predictions" / "nubench" / "option.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "metadata.yaml").write_text(
        "model:\n  kind: local\n"
        '  name: "Markup answers"\n'
        f"  file: markup-answers\n  sha256: {'f' * 64}\n"
        "  parameters: 1\n  open_weights: true\n  license: Apache-2.0\n"
        "submitter:\n  name: Tester\n  contact: https://example.org/tester\n  github: tester\n"
        'date: "2025-01-01"\ndescription: Answers that are HTML.\n'
        "runs:\n  - task: nubench\n    split: test\n    file: predictions/nubench/option.jsonl\n    shots: 0\n"
        "    seed: 0\n    mode: option\n",
        encoding="utf-8",
    )


def _build_site(work: Path) -> Path:
    submissions = work / "submissions"
    shutil.rmtree(submissions, ignore_errors=True)
    shutil.copytree(ROOT / "submissions", submissions, ignore=shutil.ignore_patterns(".*"))
    write_submission(
        submissions, "markdown-name", MARKDOWN_NAME, ["choice1", "choice4"], date=dt.date.today().isoformat()
    )
    write_submission(submissions, "html-name", HTML_NAME, ["choice1"])
    write_markup_answers(submissions)
    write_crowd(submissions, CROWD)
    out = work / "public"
    # deployed as the tests' repository (its site_url: https://neghub.github.io/neghub/, where the pages are served)
    env = {
        **os.environ,
        "NEGHUB_SUBMISSIONS_DIR": str(submissions),
        "NO_MKDOCS_2_WARNING": "1",
        "GITHUB_REPOSITORY": REPOSITORY,
    }
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", ROOT / "mkdocs.yml", "-d", out]
    done = run_process(build, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for the whole test session: pytest-xdist's workers share one folder (their base
    temporary folders' parent), the first to get its lock builds, and the others wait and read it (each worker
    built its own before, two builds of 30-70 s on the two cores CI has)."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    work = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "neghub-browser-site"
    work.mkdir(exist_ok=True)
    with (work / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (work / "built").is_file():
            _build_site(work)
            (work / "built").write_text("built\n", encoding="utf-8")
    return work / "public"


def serve(folder: Path, prefix: str) -> Iterator[str]:
    """The built site served as GitHub Pages serves it: under `prefix` (a path from the server's root, "" or
    "neghub/"), 404.html for any missing path."""
    handler = functools.partial(PagesHandler, prefix, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{prefix}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(built_site: Path) -> Iterator[str]:
    """The site served from the server's root."""
    yield from serve(built_site, "")


@pytest.fixture(scope="session")
def project_url(built_site: Path) -> Iterator[str]:
    """The site served where GitHub Pages serves a project's site, under /neghub/ (site_url's path)."""
    yield from serve(built_site, "neghub/")


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, prefix: str, *args: Any, **kwargs: Any) -> None:
        self.prefix = "/" + prefix
        super().__init__(*args, **kwargs)

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + path.removeprefix(self.prefix))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != 404:
            super().send_error(code, message, explain)
            return
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    # --hide-scrollbars: as on a phone, a scroll bar takes no width from the page
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"):
        options.add_argument(flag)
    options.add_argument("--hide-scrollbars")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(120)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def axe_source(tmp_path_factory: pytest.TempPathFactory) -> str:
    """axe.min.js of the pinned axe-core, packed by `npm pack` from the npm registry into a folder of this test
    session (npm keeps its own cache, so a second session downloads nothing), the tarball checked against the
    pinned digest before anything is read from it."""
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI"):
            pytest.fail("npm is missing in CI: the browser test gets axe-core with npm", pytrace=False)
        pytest.skip("npm is not installed: the accessibility check needs axe-core from the npm registry")
    folder = tmp_path_factory.mktemp("axe-core")
    subprocess.run(
        [npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", str(folder), "--silent"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=300,
    )
    tarball = folder / f"axe-core-{AXE_VERSION}.tgz"
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    assert digest == AXE_INTEGRITY, f"axe-core {AXE_VERSION} from npm is not the pinned tarball: {digest}"
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode("utf-8")


# --- helpers -----------------------------------------------------------------------------------------------


def set_viewport(browser: webdriver.Chrome, width: int, height: int) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def open_page(browser: webdriver.Chrome, url: str, width: int) -> list[dict[str, object]]:
    """Load a page in a viewport of this width, wait for its charts; the console's errors."""
    set_viewport(browser, width, WIDTHS[width])
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    wait_for_charts(browser)
    return [entry for entry in browser.get_log("browser") if entry.get("level") == "SEVERE"]


def wait_for_charts(browser: webdriver.Chrome) -> None:
    """Until every chart in view is drawn (one in a folded board or chart box is drawn when opened)."""
    WebDriverWait(browser, 30).until(
        lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('.neghub-chart'))"
            ".every(e => e.closest('details:not([open])') || e.querySelector('.main-svg'))"
        )
    )


def unfold(browser: webdriver.Chrome) -> None:
    """Open every folded board and chart of a benchmark page (as a reader clicking each), wait for the charts."""
    browser.execute_script(
        "document.querySelectorAll('details.neghub-board, details.neghub-chart-box, details.neghub-others')"
        ".forEach(d => d.open = true)"
    )
    wait_for_charts(browser)


def screenshot(browser: webdriver.Chrome, name: str, width: int) -> None:
    """A full-height screenshot (up to 8,000 px), then the viewport as it was."""
    height = int(browser.execute_script("return document.documentElement.scrollHeight"))
    set_viewport(browser, width, min(max(height, WIDTHS[width]), 8000))
    browser.save_screenshot(str(SCREENSHOTS / f"{name}-{width}.png"))
    set_viewport(browser, width, WIDTHS[width])


def axe_violations(browser: webdriver.Chrome, axe_source: str, known: Collection[str] = ()) -> list[str]:
    """axe-core's violations on the whole page at every impact but the `known` rules, one line each (rule,
    impact, element)."""
    if not browser.execute_script("return typeof axe !== 'undefined'"):
        browser.execute_script(axe_source)
    found = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ["violations"]})
          .then(r => done(r.violations.flatMap(v => v.nodes.map(n => [v.id, n.impact || v.impact, n.target.join(" "),
                                                                      v.help]))))
          .catch(e => done([["axe-error", "critical", String(e), ""]]));
        """
    )
    return [f"{rule} ({impact}): {target}: {help}" for rule, impact, target, help in found if rule not in known]


# The boxes plotly draws, from the page: `.legend` against the plot area (`.nsewdrag`) and the axes' labels; the
# toolbar (`.modebar`) against every title, axis label and legend entry. Every figure has some number to draw.
CHART_PROBLEMS_JS = """
function box(e) { const r = e.getBoundingClientRect(); return r; }
function meet(a, b) {
  return a.width > 0 && b.width > 0 && a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
}
const problems = [];
document.querySelectorAll(".neghub-chart").forEach(chart => {
  const name = chart.id;
  const figure = JSON.parse(document.getElementById(chart.dataset.figure).textContent);
  const numbers = figure.data.flatMap(t => ["x", "y", "z"].flatMap(k => (t[k] || []).flat()))
    .filter(v => typeof v === "number");
  if (!numbers.length) problems.push(name + ": nothing to draw");
  if (!chart.querySelector(".main-svg")) problems.push(name + ": not drawn");
  const legend = chart.querySelector(".legend");
  const plot = chart.querySelector(".nsewdrag");
  const labels = Array.from(chart.querySelectorAll(".g-xtitle text, .g-ytitle text, .xtick text, .ytick text"));
  if (legend) {
    if (plot && meet(box(legend), box(plot))) problems.push(name + ": the legend is over the plot");
    labels.filter(l => meet(box(l), box(legend)))
      .forEach(l => problems.push(name + ": the legend is over the axis label " + l.textContent));
    const entries = chart.querySelectorAll(".legend .traces").length;
    // MAX_SERIES models and a reference line ("no change")
    if (entries > arguments[0] + 1) problems.push(name + ": " + entries + " legend entries");
  }
  const toolbar = chart.querySelector(".modebar");
  if (toolbar) {
    const texts = labels.concat(Array.from(chart.querySelectorAll(".gtitle, .cbtitle text, .legendtext")));
    texts.filter(t => meet(box(t), box(toolbar)))
      .forEach(t => problems.push(name + ": '" + t.textContent + "' is under the toolbar"));
  }
  if (plot && box(plot).width < 100) problems.push(name + ": the plot is " + box(plot).width + " px wide");
  // tick labels: none twice on an axis, none past the figure's edge, and on a category axis each a whole name
  // of the figure's data (wrapped onto lines, never shortened)
  const whole = box(chart);
  const flat = s => s.replace(/\\s+/g, "");
  const decoded = s => { const t = document.createElement("textarea"); t.innerHTML = s; return t.value; };
  ["x", "y"].forEach(a => {
    const ticks = Array.from(chart.querySelectorAll("." + a + "tick text"));
    const texts = ticks.map(t => t.textContent);
    texts.filter((t, i) => texts.indexOf(t) !== i)
      .forEach(t => problems.push(name + ": the tick label '" + t + "' twice"));
    ticks.filter(t => { const r = box(t); return r.left < whole.left - 0.5 || r.right > whole.right + 0.5; })
      .forEach(t => problems.push(name + ": the tick label '" + t.textContent + "' past the figure's edge"));
    const axis = (chart._fullLayout || {})[a + "axis"];
    if (axis && axis.type === "category") {
      const names = new Set(figure.data.flatMap(t => (t[a] || []).filter(v => typeof v === "string"))
        .map(v => flat(decoded(v))));
      texts.filter(t => !names.has(flat(t)))
        .forEach(t => problems.push(name + ": the tick label '" + t + "' is not a whole name"));
    }
  });
});
return problems;
"""


def chart_problems(browser: webdriver.Chrome) -> list[str]:
    problems: list[str] = browser.execute_script(CHART_PROBLEMS_JS, MAX_SERIES)
    return problems


def loaded_files(browser: webdriver.Chrome) -> list[str]:
    """The URLs this page loaded: the document and every resource (Chromium's performance entries)."""
    urls: list[str] = browser.execute_script(
        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".map(e => e.name)"
    )
    return urls


def first_load(built_site: Path, base_url: str, urls: list[str]) -> tuple[int, int]:
    """(bytes, gzip bytes) of the page's HTML and every script, stylesheet and font among what it loaded."""
    raw = compressed = 0
    for url in urls:
        path = urlsplit(url).path
        if url.startswith(base_url) and (url == urls[0] or path.endswith((".js", ".css", ".woff2", ".woff", ".ttf"))):
            data = (built_site / path.lstrip("/")).read_bytes()
            raw += len(data)
            compressed += len(gzip.compress(data, 6))
    return raw, compressed


def check_common(
    browser: webdriver.Chrome, base_url: str, built_site: Path, axe_source: str, known: Collection[str] = ()
) -> None:
    """What every page must do: no horizontal scrolling of the page, links in text underlined, plotly.js only
    with charts, scripts from the site itself, a light first load without charts, no axe finding."""
    state = browser.execute_script(
        """
        const links = Array.from(document.querySelectorAll("article p a, article li a, article td a"));
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          charts: document.querySelectorAll(".neghub-chart").length,
          plotly: typeof Plotly !== "undefined",
          scripts: Array.from(document.scripts).map(s => s.src).filter(Boolean),
          plain: links.filter(a => !getComputedStyle(a).textDecorationLine.includes("underline"))
                      .map(a => a.textContent),
        };
        """
    )
    assert state["overflow"] <= 0, f"the page scrolls sideways by {state['overflow']} px"
    assert state["plain"] == [], "links in text must be underlined"
    assert all(s.startswith(base_url) for s in state["scripts"]), state["scripts"]
    urls = loaded_files(browser)
    loads_plotly = any("plotly" in u for u in urls)
    assert loads_plotly == bool(state["charts"]) == state["plotly"], state
    if not state["charts"]:
        raw, compressed = first_load(built_site, base_url, urls)
        assert compressed <= FIRST_LOAD_LIMIT, f"first load {compressed} bytes compressed ({raw} uncompressed)"
    assert axe_violations(browser, axe_source, known) == []


READER_JS = """
const article = document.querySelector("article");
const text = article.cloneNode(true);
// a row's details and a model's provenance details may name the repository's facts; quotes are the papers' words
text.querySelectorAll("details.neghub-why, details.neghub-provenance, blockquote, script, .headerlink")
  .forEach(e => e.remove());
return {
  height: document.documentElement.scrollHeight,
  open_tables: Array.from(article.querySelectorAll("table")).filter(t => t.checkVisibility()).map(t => t.id),
  wide_cells: Array.from(article.querySelectorAll("td, th"))
    .filter(c => c.checkVisibility() && c.getBoundingClientRect().width > document.documentElement.clientWidth)
    .map(c => c.textContent.slice(0, 60)),
  text: text.textContent.replace(/\\s+/g, " "),
};
"""


def reader_problems(browser: webdriver.Chrome, path: str, width: int) -> list[str]:
    """What a researcher must not meet on a page as it opens: more than MAX_OPEN_TABLES tables open, a cell wider
    than the page, a short page taller than MAX_SCREENS screens at 1366, the repository's mechanics in its text."""
    state = browser.execute_script(READER_JS)
    problems = []
    if len(state["open_tables"]) > MAX_OPEN_TABLES:
        problems.append(f"{len(state['open_tables'])} tables open: {state['open_tables']}")
    problems += [f"a cell wider than the page: {cell!r}" for cell in state["wide_cells"]]
    if width == 1366 and path.startswith(SHORT_PAGES) and state["height"] > MAX_SCREENS * WIDTHS[width]:
        problems.append(f"{state['height']} px tall: more than {MAX_SCREENS} screens")
    if not path.startswith(MECHANICS_EXEMPT):
        text = state["text"]
        problems += [
            f"the repository's words: {text[max(0, m.start() - 40) : m.end() + 20]!r}" for m in MECHANICS.finditer(text)
        ]
    return problems


FIRST_SCREEN_JS = """
const limit = window.innerHeight * arguments[0];
return Array.from(document.querySelectorAll("section.neghub-mini")).map(section => {
  const name = section.querySelector("h2").textContent.trim();
  const row = section.querySelector("table.neghub-mini-table tbody tr");
  if (!row) return [name, null];
  const cells = Array.from(row.cells);
  const bottom = Math.max(...cells.map(c => c.getBoundingClientRect().bottom)) + window.scrollY;
  return [name, {model: cells[0].firstChild.textContent.trim(),
                 source: cells[0].querySelector(".neghub-source").textContent.trim(),
                 figure: cells[1].querySelector("strong").textContent.trim(),
                 in_view: bottom <= limit}];
});
"""


@pytest.mark.parametrize(("width", "screens"), [(1366, 1), (390, 2)])
def test_the_home_pages_first_screens_answer(
    browser: webdriver.Chrome, base_url: str, width: int, screens: int
) -> None:
    """Each benchmark's mini board shows a model, its figure and where the figure comes from, within the first
    screen of a laptop or the first two of a phone (issue 33, item 1)."""
    assert open_page(browser, base_url + "index.html", width) == []
    found = dict(browser.execute_script(FIRST_SCREEN_JS, screens))
    assert sorted(found) == sorted(get_benchmark(task).display.name for task in BENCHMARKS)
    for name, row in found.items():
        assert row is not None, f"{name}: no row on its mini board"
        assert row["model"] and row["in_view"], (name, row)
        assert re.fullmatch(r"−?-?\d+\.\d\d", row["figure"]), (name, row)
        assert row["source"].startswith(("paper, Table", "NegHub's run", "reproduced")), (name, row)


HOME_JS = """
const limit = window.innerHeight;
const inView = a => { const r = a.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= limit; };
const links = Array.from(document.querySelectorAll("a[href]")).filter(inView).map(a => a.getAttribute("href"));
return {
  links: links,
  cells: Array.from(document.querySelectorAll("section.neghub-mini tbody tr")).map(tr => ({
    source: tr.querySelector(".neghub-source") ? tr.querySelector(".neghub-source").textContent.trim() : "",
    model: tr.cells[0].firstChild.textContent.trim(),
    numbers: Array.from(tr.querySelectorAll("td.neghub-num"))
      .map(td => (td.querySelector("strong") || td).textContent.trim()),
  })),
  boards: Array.from(document.querySelectorAll("section.neghub-mini")).map(section => [
    section.querySelector("h2").textContent.trim(),
    section.querySelector("table") !== null,
    section.querySelector(".neghub-mini-leader") ? section.querySelector(".neghub-mini-leader").textContent : null,
  ]),
};
"""


def _stored_table_values() -> dict[tuple[str, str], set[float]]:
    """Every figure of every transcribed paper table, by (table, model), as the pages print it (percent: × 100)."""
    from neghub.leaderboard.paper_results import load_reported

    stored: dict[tuple[str, str], set[float]] = {}
    for _, table in load_reported():
        for row in table.rows:
            values = stored.setdefault((table.table, row.model), set())
            values.update(round(100 * v, 2) for v in row.metrics.values())
            values.update(round(v, 2) for v in row.metrics.values())
    return stored


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("origin", ["file", "http"])
def test_the_home_page_where_it_is_opened(
    browser: webdriver.Chrome, base_url: str, built_site: Path, origin: str, width: int
) -> None:
    """Issue 39's reader, from the file system (README's old advice) and over HTTP (nox -s serve): every cell
    credited to "paper, Table N" holds a figure stored for that table; each board has its leader line; Models, the
    profile, the datasets and Submit are linked on the first screen."""
    url = (built_site / "index.html").as_uri() if origin == "file" else base_url + "index.html"
    set_viewport(browser, width, WIDTHS[width])
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    state = browser.execute_script(HOME_JS)
    stored = _stored_table_values()
    credited = [c for c in state["cells"] if c["source"].startswith("paper, Table")]
    assert len(credited) >= 4 * 3, state["cells"]
    for cell in credited:
        table = cell["source"].removeprefix("paper, ")
        numbers = [float(n.replace("−", "-")) for n in cell["numbers"]]
        assert numbers and all(n in stored[(table, cell["model"])] for n in numbers), cell
    for name, has_rows, leader in state["boards"]:
        if has_rows:
            assert leader and leader.strip().startswith("NegHub's leader:"), (name, leader)
    wanted = {
        "Models": r"(^|/)models/index\.html$",
        "the profile": r"(^|/)profile\.html$",
        "a dataset card": r"(^|/)datasets/[\w-]+\.html$",
        "Submit": r"(^|/)submit\.html$",
    }
    missing = [what for what, pattern in wanted.items() if not any(re.search(pattern, h) for h in state["links"])]
    assert missing == [], (origin, width, missing, state["links"])
    screenshot(browser, f"home-{origin}", width)


def test_a_page_opened_from_a_file_says_how_to_serve_the_site_where_rows_would_load(
    browser: webdriver.Chrome, built_site: Path
) -> None:
    set_viewport(browser, 1366, WIDTHS[1366])
    browser.get((built_site / "benchmarks" / "nubench.html").as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".neghub-file-note"))
    notes = [n.get_attribute("textContent") for n in browser.find_elements(By.CSS_SELECTOR, ".neghub-file-note")]
    assert notes and all("python -m http.server -d public" in n for n in notes), notes
    assert any("sorting and filtering act on the rows shown" in n for n in notes), notes
    browser.get((built_site / "models" / "markup-answers.html").as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".neghub-file-note"))


def test_a_page_served_says_nothing_of_files(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, base_url + "benchmarks/nubench.html", 1366)
    assert browser.find_elements(By.CSS_SELECTOR, ".neghub-file-note") == []


# --- every benchmark page, at both widths ------------------------------------------------------------------

RANKING_JS = """
const [tables, first] = [Array.from(document.querySelectorAll("article table.neghub-ranking")),
                         document.querySelector("article table")];
const chart = document.querySelector(".neghub-chart");
const row = tables.length ? tables[0].tBodies[0].rows[0] : null;
return {
  first_is_ranking: first !== null && first.classList.contains("neghub-ranking"),
  chart_before: chart !== null && tables.length > 0
    && !!(chart.compareDocumentPosition(tables[0]) & Node.DOCUMENT_POSITION_FOLLOWING),
  first_row_bottom: row ? row.getBoundingClientRect().bottom : null,
  viewport: [window.innerWidth, window.innerHeight],
  headline_out: tables.filter(t => {
    // the headline's column: its header names the benchmark's headline (the registry's display block)
    const header = Array.from(t.tHead.rows[0].cells).find(c => c.textContent.trim().startsWith(arguments[0]));
    if (!header) return true;
    const th = header.getBoundingClientRect();
    const wrap = t.closest(".neghub-table-wrap").getBoundingClientRect();
    return th.right > Math.min(wrap.right, window.innerWidth) + 0.5 || th.left < wrap.left - 0.5;
  }).map(t => t.id),
  numbers_open: Array.from(document.querySelectorAll("details.neghub-numbers"))
    .filter(d => d.open || d.querySelector("table").checkVisibility()).length,
};
"""

STICKY_JS = """
// every model cell a reader sees, as the board opens (listed rows hidden) and with "show submitted" ticked
const out = {scrolled: 0, drifted: []};
const boxes = Array.from(document.querySelectorAll("input.neghub-show-submitted"));
for (const ticked of [false, true]) {
  boxes.forEach(b => { b.checked = ticked; });
  document.querySelectorAll("article table.neghub-ranking").forEach(t => {
    const wrap = t.closest(".neghub-table-wrap");
    if (wrap.scrollWidth <= wrap.clientWidth) return;
    if (!ticked) out.scrolled += 1;
    wrap.scrollLeft = wrap.scrollWidth;
    const left = wrap.getBoundingClientRect().left;
    const cells = [t.querySelector("th.neghub-model-col"),
                   ...Array.from(t.querySelectorAll("td.neghub-model-col")).filter(c => c.checkVisibility())];
    if (cells.some(c => Math.abs(c.getBoundingClientRect().left - left) > 1))
      out.drifted.push(t.id + (ticked ? " (show submitted)" : ""));
    wrap.scrollLeft = 0;
  });
}
boxes.forEach(b => { b.checked = false; });
return out;
"""


FOLDED_JS = """
const boards = Array.from(document.querySelectorAll("article details.neghub-board"));
const charts = Array.from(document.querySelectorAll("article .neghub-chart"));
return {
  height: document.documentElement.scrollHeight,
  tables: document.querySelectorAll("article table.neghub-ranking").length,
  boards: boards.map(d => [d.id, d.open, d.querySelector("summary h3") ? d.querySelector("summary h3").textContent : "",
                           d.querySelectorAll("table.neghub-ranking").length]),
  roles: boards.map(d => d.querySelector("summary .neghub-board-role") !== null),
  index: Array.from(document.querySelectorAll("nav.neghub-index a")).map(a => a.getAttribute("href")),
  charts: charts.map(c => [c.closest("details.neghub-chart-box") !== null,
                           !c.closest("details:not([open])"), !!c.querySelector(".main-svg")]),
};
"""


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("task", BENCHMARKS)
def test_benchmark_page(
    browser: webdriver.Chrome, base_url: str, built_site: Path, axe_source: str, task: str, width: int
) -> None:
    errors = open_page(browser, f"{base_url}benchmarks/{task}.html", width)
    assert errors == []
    screenshot(browser, f"benchmark-{task}", width)
    # folded: each board a <details> titled by its heading with its table inside, the first open; every chart
    # folded but the first, and drawn only when open; an index links to every board
    folded = browser.execute_script(FOLDED_JS)
    assert folded["boards"] and len(folded["boards"]) == folded["tables"]
    assert all(title and tables == 1 for _, _, title, tables in folded["boards"])
    # open: the primary board and the paper's headline table (one board where they are one), first; the rest folded
    opened = [is_open for _, is_open, _, _ in folded["boards"]]
    assert opened[0] and opened == sorted(opened, reverse=True) and sum(opened) <= 2, opened
    assert all(role for (_, is_open, _, _), role in zip(folded["boards"], folded["roles"], strict=True) if is_open)
    if len(folded["boards"]) > 1:
        assert folded["index"] == [f"#{board_id}" for board_id, _, _, _ in folded["boards"]]
    assert all(boxed for boxed, _, _ in folded["charts"])
    assert reader_problems(browser, f"benchmarks/{task}.html", width) == []
    assert [shown for _, shown, _ in folded["charts"]] == [True] + [False] * (len(folded["charts"]) - 1)
    assert [drawn for _, _, drawn in folded["charts"]] == [shown for _, shown, _ in folded["charts"]]
    ranking = browser.execute_script(RANKING_JS, get_benchmark(task).display.headline.label)
    # the ranked table first: before any other table and any chart, its first row on the first screen
    assert ranking["first_is_ranking"], "the first table of a benchmark page is a ranked board"
    assert not ranking["chart_before"]
    assert ranking["first_row_bottom"] <= ranking["viewport"][1], ranking
    # the index opens the board it links to (the last one: folded until then)
    if len(folded["boards"]) > 1:
        last = folded["boards"][-1][0]
        link = browser.find_element(By.CSS_SELECTOR, f"nav.neghub-index a[href='#{last}']")
        browser.execute_script("arguments[0].closest('details').open = true", link)
        link.click()
        board = browser.find_element(By.ID, last)
        WebDriverWait(browser, 5).until(lambda d: d.execute_script("return arguments[0].open", board))
    # then everything a reader can open, open: the checks below see every board and chart
    unfold(browser)
    ranking = browser.execute_script(RANKING_JS, get_benchmark(task).display.headline.label)
    # the headline column in view without scrolling sideways, on every board
    assert ranking["headline_out"] == []
    assert ranking["numbers_open"] == 0, "the tables of chart numbers are collapsed"
    sticky = browser.execute_script(STICKY_JS)
    assert sticky["drifted"] == [], "the model column stays in view when a table scrolls sideways"
    if width < 500:
        assert sticky["scrolled"], "on a phone, some board is wider than the screen (the sticky column is tested)"
    assert browser.find_elements(By.CSS_SELECTOR, ".neghub-chart"), "every benchmark has rows, so charts"
    assert chart_problems(browser) == []
    # the downloads of each board are files of the site
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".neghub-downloads a")]
    assert any(h.endswith(".csv") for h in links) and not any(h.endswith(".json") for h in links)
    assert all((built_site / h.removeprefix(base_url)).is_file() for h in links)
    check_common(browser, base_url, built_site, axe_source)


# --- every other kind of page, at both widths --------------------------------------------------------------


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize(("path", "shot"), OTHER_PAGES, ids=[path.removesuffix(".html") for path, _ in OTHER_PAGES])
def test_other_page(
    browser: webdriver.Chrome, base_url: str, built_site: Path, axe_source: str, path: str, shot: str | None, width: int
) -> None:
    assert open_page(browser, base_url + path, width) == []
    if shot:
        screenshot(browser, shot, width)
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text
    assert chart_problems(browser) == []
    assert reader_problems(browser, path, width) == []
    check_common(browser, base_url, built_site, axe_source, AXE_KNOWN.get(path, ()))


def test_every_page_of_the_site_is_checked(built_site: Path) -> None:
    """The pages the browser test opens are every page of the built site but the crowd's model pages after the
    first (a new page or kind of page is checked or this fails)."""
    pages = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")}
    pages = {p for p in pages if not p.startswith("data/") and not (p.startswith("models/crowd-") and "000" not in p)}
    checked = {path for path, _ in OTHER_PAGES} | {f"benchmarks/{task}.html" for task in BENCHMARKS} | {"404.html"}
    assert pages == checked


# --- the 404 page, wherever the site is served ----------------------------------------------------------------

NOT_FOUND_JS = """
const base = arguments[0];
return {
  theme_script: document.documentElement.classList.contains("js"),
  sheets: Array.from(document.querySelectorAll("link[rel=stylesheet]"))
    .map(l => [l.href, l.sheet !== null && l.sheet.cssRules.length > 0]),
  failed: performance.getEntriesByType("resource")
    .filter(e => e.initiatorType !== "xmlhttprequest" && e.responseStatus >= 400).map(e => e.name),
  links: Array.from(document.querySelectorAll("a[href]")).map(a => a.href)
    .filter(h => h.startsWith(location.origin) && !h.startsWith(base)),
  home: (document.querySelector("article a") || {}).href || null,
  // the base the theme's script reads (as it reads it), where it fetches the search index from
  search: new URL(JSON.parse(document.getElementById("__config").textContent).base, location.href).href,
};
"""


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("where", ["root", "project"])
def test_the_404_page_is_styled_wherever_the_site_is_served(
    browser: webdriver.Chrome, base_url: str, project_url: str, axe_source: str, where: str, width: int
) -> None:
    """GitHub Pages serves 404.html for a missing path of the project's site (/neghub/...); a server of the
    built folder, or a custom domain, serves it from the root. Either way, at any depth, the page loads the
    site's stylesheets and script and links into the site."""
    base = base_url if where == "root" else project_url
    errors = open_page(browser, f"{base}benchmarks/no/such/page.html", width)
    # the page itself answers 404, and so do the folders the page tries for the site's stylesheet
    assert [e for e in errors if "404 (Not Found)" not in str(e.get("message"))] == []
    screenshot(browser, f"404-{where}", width)
    state = browser.execute_script(NOT_FOUND_JS, base)
    assert state["sheets"] and all(loaded for _, loaded in state["sheets"]), state["sheets"]
    # served from elsewhere, Chromium's preload scanner has fetched the assets once at the <base> as written
    # (site_url's path) before the page's first script moved it: those answer 404, and nothing else does
    guessed = f"{base_url}neghub/"
    assert [u for u in state["failed"] if not (where == "root" and u.startswith(guessed))] == []
    assert state["theme_script"], "the theme's script ran"
    assert state["links"] == [], "every link of the page leads into the site"
    assert state["home"] == f"{base}index.html"
    assert state["search"] == base, "the theme's search reads its index from the site"
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text == "Page not found"
    assert axe_violations(browser, axe_source) == []


def test_pages_without_charts_reference_no_plotly(built_site: Path) -> None:
    """Every page of the built site: plotly.js is loaded by exactly the pages that draw a chart."""
    pages = [p for p in built_site.rglob("*.html") if "data" not in p.relative_to(built_site).parts]
    assert len(pages) > 20
    with_charts = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        charts = 'class="neghub-chart"' in text
        assert ("plotly.min.js" in text) == charts, page
        if charts:
            with_charts.add(page.relative_to(built_site).as_posix())
    assert {f"benchmarks/{task}.html" for task in BENCHMARKS} <= with_charts
    assert not any(p.startswith(("models/", "datasets/")) for p in with_charts)


# --- what the pages do -------------------------------------------------------------------------------------


def _column(browser: webdriver.Chrome, table_id: str, index: int) -> list[str]:
    values: list[str] = browser.execute_script(
        "return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
        ".map(r => r.cells[arguments[1]].getAttribute('data-value'))",
        table_id,
        index,
    )
    return values


def _board_of(built_site: Path, model: str) -> tuple[str, list[dict[str, Any]]]:
    """The slug and the CSV download of the NUBench board that has this model."""
    for path in sorted((built_site / "data").glob("nubench--*.csv")):
        records: list[dict[str, Any]] = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
        if any(r["model"] == model for r in records):
            return path.stem, records
    raise AssertionError(f"no board has {model}")


def test_show_every_column_builds_the_boards_table_from_its_csv(
    browser: webdriver.Chrome, base_url: str, built_site: Path
) -> None:
    """The board's CSV, its one download: the button's table has each column of its header and a line per row of
    the download, the row's values under their column (a quoted cell whole: a sentence with commas)."""
    slug, records = _board_of(built_site, "Crowd model 0")
    open_page(browser, f"{base_url}benchmarks/nubench.html", 1366)
    unfold(browser)
    button = browser.find_element(By.CSS_SELECTOR, f'button.neghub-all-columns[data-target="all-{slug}"]')
    browser.execute_script("arguments[0].click()", button)
    selector = f"#all-{slug} table"
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{selector} tbody tr"))
    table = browser.execute_script(
        "const t = document.querySelector(arguments[0]);"
        "return {head: Array.from(t.tHead.rows[0].cells).map(c => c.textContent),"
        " rows: Array.from(t.tBodies[0].rows).map(r => Array.from(r.cells).map(c => c.textContent))}",
        selector,
    )
    columns = list(records[0])
    assert table["head"][: len(columns)] == [c.removeprefix("metric.") for c in columns]
    assert len(table["rows"]) == len(records)
    models = [line[columns.index("model")] for line in table["rows"]]
    assert sorted(models) == sorted(r["model"] for r in records)
    # every cell as the CSV holds it (a missing one as "—"), the licence's sentence with its commas whole
    assert any("," in cell for r in records for cell in r.values())
    written = sorted(tuple(r[c] or "—" for c in columns) for r in records)
    assert sorted(tuple(line[: len(columns)]) for line in table["rows"]) == written


def test_a_long_board_shows_its_first_rows_and_loads_the_rest(
    browser: webdriver.Chrome, base_url: str, built_site: Path
) -> None:
    slug, records = _board_of(built_site, "Crowd model 0")
    assert len(records) > ROWS_IN_PAGE
    open_page(browser, f"{base_url}benchmarks/nubench.html", 1366)
    unfold(browser)
    table = f"table-{slug}"
    assert len(_column(browser, table, 0)) == ROWS_IN_PAGE
    # sorting loads every row first, then sorts them all (empty values last)
    label = get_benchmark("nubench").display.headline.label
    headers = browser.find_elements(By.CSS_SELECTOR, f"#{table} thead th")
    header = next(h for h in headers if h.text.startswith(label))
    column = headers.index(header)
    header.click()
    WebDriverWait(browser, 20).until(lambda d: len(_column(d, table, column)) == len(records))
    values = [float(v) for v in _column(browser, table, column) if v]
    # a cell's sort key is the unrounded fraction; the download gives the page's unit (percent), to 6 significant
    # digits (half a unit in the sixth digit: at most 5e-6 of the figure)
    in_percent = sorted(float(r["headline"]) for r in records if r["headline"])
    assert [100 * v for v in values] == pytest.approx(in_percent, rel=5e-6)
    header.click()
    assert [float(v) for v in _column(browser, table, column) if v] == sorted(values, reverse=True)
    # the rows loaded are rows of the page's own kind: every model once, the markup one as text
    names = browser.execute_script(
        "return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
        ".map(r => r.cells[1].querySelector('a') ? r.cells[1].querySelector('a').textContent : '')",
        table,
    )
    # every submission's row, each linking its model page (a rule row NegHub computed links none)
    assert sorted(n for n in names if n) == sorted(r["model"] for r in records if r["submission_id"])
    # the markdown-named model (its own board: two seeds) is text, never markup
    assert MARKDOWN_NAME in browser.find_element(By.TAG_NAME, "article").get_attribute("textContent")
    assert not browser.find_elements(By.XPATH, "//strong[text()='NegBold']")
    # and the button says no more
    assert not browser.find_element(By.CSS_SELECTOR, f"button[data-table='{table}']").is_displayed()
    # on a fresh page, the button alone loads them
    open_page(browser, f"{base_url}benchmarks/nubench.html", 390)
    unfold(browser)
    browser.find_element(By.CSS_SELECTOR, f"button[data-table='{table}']").click()
    WebDriverWait(browser, 20).until(lambda d: len(_column(d, table, column)) == len(records))
    screenshot(browser, "benchmark-nubench-every-row", 390)


def test_a_menu_filters_a_tables_rows(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, base_url + "models/index.html", 390)
    table = browser.find_element(By.ID, "models")
    menu = next(
        s
        for s in browser.find_elements(By.CSS_SELECTOR, ".neghub-filters select")
        if s.find_element(By.XPATH, "..").text.startswith("kind")
    )
    # more models than the page carries: opening the menu loads the rest, and it offers every kind
    menu.click()
    WebDriverWait(browser, 20).until(lambda d: menu.find_elements(By.CSS_SELECTOR, "option[value='pypi-gguf']"))
    options = [o.get_attribute("value") for o in menu.find_elements(By.TAG_NAME, "option")]
    assert options[0] == "" and {"local", "pypi-gguf"} <= set(options)
    menu.find_element(By.CSS_SELECTOR, "option[value='pypi-gguf']").click()
    visible = [r.text for r in table.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()]
    assert len(visible) == 1 and visible[0].startswith("SmolLM2-135M-Instruct")
    menu.find_element(By.CSS_SELECTOR, "option[value='']").click()
    assert all(r.is_displayed() for r in table.find_elements(By.CSS_SELECTOR, "tbody tr"))


def test_the_profile_sorts_by_any_benchmark(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, base_url + "profile.html", 390)
    # more models than the page carries: the first ROWS_IN_PAGE, then every row when asked
    assert len(browser.find_elements(By.CSS_SELECTOR, "#profile tbody tr")) == ROWS_IN_PAGE
    button = browser.find_element(By.CSS_SELECTOR, "button.neghub-more-rows[data-table='profile']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script("return !document.getElementById('profile').dataset.more")
    )
    assert len(browser.find_elements(By.CSS_SELECTOR, "#profile tbody tr")) > ROWS_IN_PAGE
    headers = browser.find_elements(By.CSS_SELECTOR, "#profile thead th")
    # one column per benchmark and data release (the sample never shares one with the paper's test set), in
    # benchmark order, every benchmark there
    names = [h.text.split(":")[0] for h in headers[2:]]
    order = [get_benchmark(t).display.name for t in BENCHMARKS]
    assert names == sorted(names, key=order.index) and set(names) == set(order)
    for index in range(2, len(headers)):
        before = [float(v) for v in _column(browser, "profile", index) if v]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", headers[index])
        headers[index].click()
        column = _column(browser, "profile", index)
        numbers = [float(v) for v in column if v]
        assert numbers == sorted(before)
        assert column[: len(numbers)] == [v for v in column if v], "models without a score come last"
        headers[index].click()
        assert [float(v) for v in _column(browser, "profile", index) if v] == sorted(before, reverse=True)
    # the model column is sortable too, and a reported row names its paper
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('#profile tbody td:first-child')).map(td => td.textContent)"
    )
    assert any(MARKDOWN_NAME in c for c in cells) and any("paper:" in c for c in cells)


def test_the_answers_view_loads_a_runs_answers_as_text(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, base_url + "models/markup-answers.html", 390)
    runs = browser.find_elements(By.CSS_SELECTOR, ".neghub-answers-run option")
    assert [r.text for r in runs] == ["NUBench · predictions/nubench/option.jsonl"]
    assert not browser.find_elements(By.CSS_SELECTOR, ".neghub-answer"), "nothing is loaded before it is asked for"
    runs[0].click()
    browser.find_element(By.CSS_SELECTOR, ".neghub-answers-load").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".neghub-answer"))
    answers = browser.find_elements(By.CSS_SELECTOR, ".neghub-answer")
    # no answer names a letter, so every item of the sample is wrong, for its format
    assert len(answers) == len(_sample_items())
    assert all(a.find_element(By.TAG_NAME, "strong").text.startswith("did not parse") for a in answers)
    assert f"answered: {HTML_ANSWER}" in answers[0].text
    assert not browser.find_elements(By.ID, "neghub-injected-answer")
    assert not browser.find_elements(By.CSS_SELECTOR, ".neghub-answers-out b")
    assert browser.title != "2"
    screenshot(browser, "model-answers", 390)
    # a real model's page offers each of its runs
    open_page(browser, base_url + "models/smollm2-135m-instruct.html", 1366)
    options = browser.find_elements(By.CSS_SELECTOR, ".neghub-answers-run option")
    assert len(options) >= 2
    options[-1].click()
    browser.find_element(By.CSS_SELECTOR, ".neghub-answers-load").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".neghub-answer, .neghub-answers-out p")
    )
    assert "could not be loaded" not in browser.find_element(By.CSS_SELECTOR, ".neghub-answers-out").text


def test_markup_in_a_model_name_is_plain_text(browser: webdriver.Chrome, base_url: str) -> None:
    # (on the benchmark page, among a long board's rows loaded later: test_a_long_board_...)
    for path in ("profile.html", "models/index.html", "index.html"):
        open_page(browser, base_url + path, 1366)
        for button in browser.find_elements(By.CSS_SELECTOR, "button.neghub-more-rows"):  # the profile's later rows
            browser.execute_script("arguments[0].click()", button)
            WebDriverWait(browser, 20).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "table[data-more]"))
        text = browser.find_element(By.TAG_NAME, "article").text
        assert MARKDOWN_NAME in text, path
        assert not browser.find_elements(By.XPATH, "//strong[text()='NegBold'] | //em[text()='under']"), path
    open_page(browser, base_url + "models/markdown-name.html", 1366)
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text == MARKDOWN_NAME
    # readers never see refusal messages: the home page has none, the maintainers' build report lists them,
    # and the refused HTML name is text there, never an element
    open_page(browser, base_url + "index.html", 390)
    assert not browser.find_elements(By.ID, "neghub-injected")
    assert not browser.find_elements(By.CSS_SELECTOR, ".neghub-notes")
    assert "html-name" not in browser.find_element(By.TAG_NAME, "article").text
    open_page(browser, base_url + "maintainers.html", 390)
    assert not browser.find_elements(By.ID, "neghub-injected")
    # (the page's first notes say what the deployment lacks; the build report's come under its heading)
    notes = browser.find_element(By.CSS_SELECTOR, "h2#build-report ~ .neghub-notes").text
    assert "html-name (refused)" in notes
    assert "metadata.yaml:3: model.name: contains markup" in notes  # the field, not the union tag


# --- the downloads -----------------------------------------------------------------------------------------


def test_the_tidy_long_file_and_every_board_file_load_with_pandas(built_site: Path) -> None:
    pd = pytest.importorskip("pandas")
    long_parquet = pd.read_parquet(built_site / "data" / "results-long.parquet")
    assert list(long_parquet.columns) == list(LONG_COLUMNS)
    assert len(long_parquet) > 0
    assert long_parquet["value"].dtype.kind == "f"
    # integers stay integers (nullable), never floats
    assert all(str(long_parquet[c].dtype) == "Int64" or long_parquet[c].dtype.kind == "i" for c in ("shots", "n_runs"))
    # the markdown-named model: seed 0 picks choice1, NUBench's answer on every item (accuracy 1), seed 1
    # choice4 (accuracy 0): the mean 0.5, the sample SD sqrt(((1 - 0.5)^2 + (0 - 0.5)^2) / 1) = sqrt(0.5); in percent,
    # 50 and 100 * sqrt(0.5)
    for frame in (long_parquet,):
        (row,) = frame[(frame["model"] == MARKDOWN_NAME) & (frame["metric"] == "acc")].itertuples()
        assert (row.task, row.trust, row.n_runs, row.unit) == ("nubench", "re-scored", 2, "percent")
        assert row.value == pytest.approx(50.0)  # in the pages' unit: percent
        assert row.sd == pytest.approx(100 * 0.5**0.5)
    # every board's file, and the leaderboard file: every verdict of the build (leaderboard/board_file.py)
    boards = sorted((built_site / "data").glob("*.csv"))
    assert {p.stem.split("--")[0] for p in boards} == set(BENCHMARKS)
    assert [p.name for p in (built_site / "data").glob("*.json")] == ["leaderboard.json"]
    for path in boards:
        board = pd.read_csv(path)
        assert len(board) > 0 and {"model", "trust", "headline"} <= set(board.columns), path.name
        rows = long_parquet[long_parquet["board"] == path.stem][["model", "source", "submission_id"]].drop_duplicates()
        assert len(board) == len(rows), path.name


# --- the built files ---------------------------------------------------------------------------------------


def test_schema_ids_resolve_on_the_built_site(built_site: Path) -> None:
    """Every published schema is served at the URL its $id names, under the site's site_url (the tests' repository's
    Pages address)."""
    from neghub.leaderboard.deployment import pages_url

    site_url = pages_url(REPOSITORY)
    schemas = sorted((ROOT / "schemas").glob("*.json"))
    assert schemas
    for schema in schemas:
        document = json.loads(schema.read_text(encoding="utf-8"))
        if "$schema" not in document:
            # the data contract's record of its versions' fingerprints is no schema, and names no URL
            assert schema.name == "data-contract.json" and "$id" not in document, schema.name
            continue
        schema_id = document["$id"]
        assert schema_id.startswith(site_url), schema_id
        served = built_site / schema_id.removeprefix(site_url)
        assert served.read_bytes() == schema.read_bytes()


def test_no_model_page_is_in_the_search_index(built_site: Path) -> None:
    """A model page is a whole HTML page the build writes (site.model_page), no MkDocs page: the theme's search
    index, which every page fetches, has no entry for one (the models' names are searchable on the Models page)."""
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [doc["location"] for doc in index["docs"]]
    assert any(location.startswith("benchmarks/") for location in locations)
    assert [loc for loc in locations if loc.startswith("models/") and not loc.startswith("models/index.html")] == []
    assert (built_site / "models" / "smollm2-135m-instruct.html").is_file()


def test_404_page_and_sitemap_use_the_site_url(built_site: Path) -> None:
    page = (built_site / "404.html").read_text(encoding="utf-8")
    assert '<base href="/neghub/">' in page  # the project's Pages path, which the page's script moves elsewhere
    assert 'href="assets/stylesheets/' in page  # relative to the <base>
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>https://neghub.github.io/neghub/benchmarks/{BENCHMARKS[0]}.html</loc>" in sitemap
    # a model page is no MkDocs page; the hook lists it (mkdocs_hooks.with_model_pages)
    assert "<loc>https://neghub.github.io/neghub/models/smollm2-135m-instruct.html</loc>" in sitemap


def test_every_top_level_name_of_the_built_site_is_reserved_for_submission_ids(built_site: Path) -> None:
    """Submission ids become pages (models/<id>.html) and are folder names: none may take a name the site uses,
    at its top level or among the model pages, whatever a new page or folder of the site is called."""
    from neghub.evaluator.submissions.validation import RESERVED_IDS

    own = {p.name.split(".")[0].lower() for p in built_site.iterdir()}
    synthetic = {"markdown-name", "html-name", "markup-answers"}
    own |= (
        {p.name.split(".")[0].lower() for p in (built_site / "models").iterdir()}
        - set(os.listdir(ROOT / "submissions"))
        - synthetic
        - {f"crowd-{n:03d}" for n in range(CROWD)}
    )
    assert own <= RESERVED_IDS, sorted(own - RESERVED_IDS)
