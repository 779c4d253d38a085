"""Browser tests: headless Chromium (Debian's package) driven by Playwright against a real
``loko serve``, with axe-core checking every page a test visits.

They skip, saying why, only where Chromium, Playwright or axe-core is not installed;
``make test`` installs all three.
"""

import itertools
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("LOKO_TEST_CHROMIUM", "/usr/bin/chromium")
AXE_PATH = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = Path(__file__).parent / "screenshots"
PASSWORD = "correct horse battery"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
_emails = itertools.count(1)


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"browser tests skipped: no Chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: Playwright for Python is not installed (pip install playwright)"
    if not AXE_PATH.exists():
        return f"browser tests skipped: axe-core is not installed at {AXE_PATH} (make test installs it)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.slow)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def server_url(tmp_path_factory):
    """A real ``loko serve`` on a free port, with a new SQLite database, open sign-up, and
    repository hosts allowed on private addresses (the stand-ins are on 127.0.0.1)."""
    with running_loko(tmp_path_factory.mktemp("browser-server"), _free_port()) as url:
        yield url


@contextmanager
def running_loko(folder: Path, port: int, **settings: str):
    """``loko serve`` on ``port`` with a new SQLite database in ``folder``, open sign-up and
    private addresses allowed, and ``settings`` (LOKO_* variables); yields its URL."""
    loko = shutil.which("loko", path=str(Path(sys.executable).parent)) or "loko"
    env = {
        **os.environ,
        "LOKO_DATABASE_URL": f"sqlite:///{folder / 'loko.db'}",
        "LOKO_SECRET_KEY": "browser-test-secret",
        "LOKO_PORT": str(port),
        "LOKO_ALLOW_SIGNUP": "true",
        "LOKO_RATELIMIT_STORAGE_URI": "memory://",
        "LOKO_REPOHOST_ALLOW_PRIVATE": "true",
        **settings,
    }
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen([loko, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log.close()
                raise RuntimeError(f"loko serve did not start: see {folder / 'server.log'}") from None
            time.sleep(0.2)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)
        log.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Problems:
    """What a page must never do: break its Content-Security-Policy, log a script error."""

    def __init__(self):
        self.items = []

    def watch(self, page):
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.items.append(f"script error: {error}"))

    def _console(self, message):
        text = message.text
        if message.type == "error" and ("Content Security Policy" in text or "Refused to" in text):
            self.items.append(f"CSP: {text}")
        elif message.type == "error" and "Failed to load resource" not in text:
            self.items.append(f"console error: {text}")


@pytest.fixture
def new_page(browser, server_url):
    """``new_page()`` opens a page in a fresh browser context (its own cookies): two calls
    are two people. Each page's CSP violations and script errors fail the test."""
    contexts, problems = [], Problems()

    def make(viewport=None, color_scheme="light"):
        context = browser.new_context(
            base_url=server_url,
            viewport=viewport or {"width": 1280, "height": 800},
            color_scheme=color_scheme,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        problems.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    assert problems.items == []


@pytest.fixture
def page(new_page):
    return new_page()


def check_accessibility(page, name: str | None = None) -> None:
    """Run axe-core on the page as it is now; fail on serious or critical findings.
    With ``name``, also save a screenshot (tests/browser/screenshots/, not committed). The
    page is read once it has loaded with its stylesheet: a page still loading (the one a
    form's redirect leads to) shows its links in the browser's own colours."""
    page.wait_for_load_state("load")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Through the DevTools protocol: the page's CSP rightly refuses injected scripts.
        page.evaluate(AXE_PATH.read_text(encoding="utf-8") + "\n;undefined")
    results = page.evaluate(
        """async () => {
            const results = await axe.run(document, {resultTypes: ["violations"]});
            return results.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
        }"""
    )
    serious = [v for v in results if v["impact"] in ("serious", "critical")]
    assert serious == [], f"axe-core findings on {page.url}: {serious}"
    if name:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}{next(_emails)}-{os.getpid()}-{time.monotonic_ns()}@example.test"


def sign_up(page, name: str = "Ada", email: str | None = None, organization: str | None = None) -> str:
    """Create an account through the sign-up page; returns its email. Lands on the projects page."""
    email = email or unique_email(name.lower())
    page.goto("/signup")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    if organization:
        page.get_by_label("Organization name").fill(organization)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/orgs/"))
    return email


def sign_in(page, email: str) -> None:
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/orgs/|/projects/"))


def create_project(page, name: str) -> str:
    """Create a project from the organization page; returns its id. Lands on its overview."""
    page.get_by_label("Project name").fill(name)
    page.get_by_role("button", name="Create project").click()
    page.wait_for_url(re.compile(r"/projects/[0-9a-f-]+$"))
    return page.url.rsplit("/", 1)[1]
