"""The built site in a real browser: headless Chromium (Selenium with Debian's chromedriver).

The site is built with `mkdocs build` from the repository root into a temp folder, from a temp
copy of submissions/ plus two synthetic submissions: one whose model name is Markdown markup (it
validates, and must show as literal text) and one whose name is HTML (the validator refuses it;
the refusal note must show it as text, never as an element). Screenshots of every page go to
artifacts/screenshots/.
"""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_leaderboard import write_submission

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
BENCHMARKS = ("jnli-neg", "jsts-neg", "nubench", "scn")

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


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("site")
    submissions = work / "submissions"
    shutil.copytree(ROOT / "submissions", submissions, ignore=shutil.ignore_patterns(".*"))
    write_submission(
        submissions, "markdown-name", MARKDOWN_NAME, ["choice1", "choice4"], date=dt.date.today().isoformat()
    )
    write_submission(submissions, "html-name", HTML_NAME, ["choice1"])
    out = work / "public"
    env = {**os.environ, "NEGHUB_SUBMISSIONS_DIR": str(submissions), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def base_url(built_site: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--window-size=1400,1000",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def open_page(browser: webdriver.Chrome, url: str, shot: str) -> list[dict[str, object]]:
    """Load a page, wait for its charts, save a full-height screenshot; the console's errors."""
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(url)
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('.neghub-chart')).every(e => e.querySelector('.main-svg'))"
        )
    )
    height = browser.execute_script("return document.body.scrollHeight")
    browser.set_window_size(1400, min(max(int(height), 1000), 6000))
    browser.save_screenshot(str(SCREENSHOTS / f"{shot}.png"))
    browser.set_window_size(1400, 1000)
    return [entry for entry in browser.get_log("browser") if entry.get("level") == "SEVERE"]


@pytest.mark.parametrize("task", BENCHMARKS)
def test_benchmark_page_renders_tables_and_charts(browser: webdriver.Chrome, base_url: str, task: str) -> None:
    errors = open_page(browser, f"{base_url}benchmarks/{task}.html", f"benchmark-{task}")
    assert errors == []
    tables = browser.find_elements(By.CSS_SELECTOR, "table.neghub-table")
    assert tables and all(t.find_elements(By.CSS_SELECTOR, "tbody tr") for t in tables)
    charts = browser.find_elements(By.CSS_SELECTOR, ".neghub-chart")
    assert charts, "every benchmark has reported rows, so every benchmark page has charts"
    # plotly drew every chart: an SVG with at least one trace
    assert all(c.find_elements(By.CSS_SELECTOR, ".main-svg") for c in charts)
    assert browser.execute_script("return typeof Plotly") == "object"
    # plotly.js came from the site itself
    scripts = browser.execute_script("return Array.from(document.scripts).map(s => s.src).filter(Boolean)")
    assert any(s.startswith(base_url) and s.endswith("plotly.min.js") for s in scripts)
    assert all(s.startswith(base_url) for s in scripts)


def _column_values(table: object, index: int) -> list[str]:
    cells = table.find_elements(By.CSS_SELECTOR, f"tbody tr td:nth-child({index + 1})")  # type: ignore[attr-defined]
    return [c.get_attribute("data-value") for c in cells]


def test_clicking_a_header_sorts_the_rows(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, f"{base_url}benchmarks/jsts-neg.html", "benchmark-jsts-neg")
    table = browser.find_element(By.CSS_SELECTOR, "table.neghub-table[id^='table-']")
    headers = table.find_elements(By.CSS_SELECTOR, "thead th")
    index = next(i for i, h in enumerate(headers) if h.text.strip() == "M_i Acc′")
    before = _column_values(table, index)
    numbers = [float(v) for v in before if v]
    assert len(numbers) > 2 and numbers != sorted(numbers), "the paper's order is not already sorted"
    headers[index].click()
    after = [float(v) for v in _column_values(table, index) if v]
    assert after == sorted(numbers)
    headers[index].click()
    assert [float(v) for v in _column_values(table, index) if v] == sorted(numbers, reverse=True)


def test_filter_menu_hides_reported_rows(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, f"{base_url}benchmarks/nubench.html", "benchmark-nubench")
    table = browser.find_element(By.ID, "table-nubench--test--0shot--completion")
    wrap = table.find_element(By.XPATH, "..")
    select = next(
        s
        for s in wrap.find_elements(By.CSS_SELECTOR, ".neghub-filters select")
        if s.find_element(By.XPATH, "..").text.startswith("kind")
    )
    select.find_element(By.CSS_SELECTOR, "option[value='verified']").click()
    visible = [r for r in table.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()]
    assert visible and all("verified" in r.text for r in visible)


def test_markup_in_a_model_name_is_plain_text(browser: webdriver.Chrome, base_url: str) -> None:
    open_page(browser, f"{base_url}benchmarks/nubench.html", "benchmark-nubench")
    # one script call, not one WebDriver round trip per cell (the page has thousands)
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('table.neghub-table td')).map(td => td.textContent.trim())"
    )
    assert MARKDOWN_NAME in cells
    assert not browser.find_elements(By.XPATH, "//strong[text()='NegBold']")
    errors = open_page(browser, f"{base_url}models/markdown-name.html", "model-markdown-name")
    assert errors == []
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text == MARKDOWN_NAME
    # readers never see refusal messages: the home page has none, the maintainers' build report lists them,
    # and the refused HTML name is text there, never an element
    open_page(browser, base_url + "index.html", "home")
    assert not browser.find_elements(By.ID, "neghub-injected")
    assert not browser.find_elements(By.CSS_SELECTOR, ".neghub-notes")
    assert "html-name" not in browser.find_element(By.TAG_NAME, "article").text
    assert MARKDOWN_NAME in browser.find_element(By.TAG_NAME, "article").text  # among the latest submissions
    open_page(browser, base_url + "maintainers.html", "maintainers")
    assert not browser.find_elements(By.ID, "neghub-injected")
    notes = browser.find_element(By.CSS_SELECTOR, ".neghub-notes").text
    assert "html-name (refused)" in notes
    assert "metadata.yaml:3: model.name: contains markup" in notes  # the field, not the union tag


def test_other_pages_render(browser: webdriver.Chrome, base_url: str) -> None:
    for path, shot in (
        ("submit.html", "submit"),
        ("datasets/jnli-neg.html", "dataset-jnli-neg"),
        ("datasets/nubench.html", "dataset-nubench"),
        ("models/baseline-random.html", "model-baseline-random"),
    ):
        assert open_page(browser, base_url + path, shot) == []
        assert browser.find_element(By.CSS_SELECTOR, "article h1").text


def test_tables_download_as_csv_and_json(browser: webdriver.Chrome, base_url: str, built_site: Path) -> None:
    open_page(browser, f"{base_url}benchmarks/scn.html", "benchmark-scn")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".neghub-downloads a")]
    assert any(h.endswith(".csv") for h in links) and any(h.endswith(".json") for h in links)
    for href in links:
        assert (built_site / href.removeprefix(base_url)).is_file()


def test_schema_ids_resolve_on_the_built_site(built_site: Path) -> None:
    """Every published schema is served at the URL its $id names, under the site_url of mkdocs.yml."""
    import json
    import re

    site_url = re.search(r"^site_url: (\S+)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert site_url is not None
    schemas = sorted((ROOT / "schemas").glob("*.json"))
    assert schemas
    for schema in schemas:
        schema_id = json.loads(schema.read_text(encoding="utf-8"))["$id"]
        assert schema_id.startswith(site_url.group(1)), schema_id
        served = built_site / schema_id.removeprefix(site_url.group(1))
        assert served.read_bytes() == schema.read_bytes()


def test_404_page_and_sitemap_use_the_site_url(built_site: Path) -> None:
    page = (built_site / "404.html").read_text(encoding="utf-8")
    assert 'href="/neghub/assets/stylesheets/' in page  # absolute under the project's Pages path
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://neghub.github.io/neghub/benchmarks/jnli-neg.html</loc>" in sitemap


def test_every_top_level_name_of_the_built_site_is_reserved_for_submission_ids(built_site: Path) -> None:
    """Submission ids become pages (models/<id>.html) and are folder names: none may take a name the site uses,
    at its top level or among the model pages, whatever a new page or folder of the site is called."""
    from neghub.evaluator.submissions.validation import RESERVED_IDS

    own = {p.name.split(".")[0].lower() for p in built_site.iterdir()}
    own |= (
        {p.name.split(".")[0].lower() for p in (built_site / "models").iterdir()}
        - set(os.listdir(ROOT / "submissions"))
        - {"markdown-name", "html-name"}
    )
    assert own <= RESERVED_IDS, sorted(own - RESERVED_IDS)
