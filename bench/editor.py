"""The translation editor's figures on a seeded project: its first page, a deep page, filters
and searches, a save with its precondition, and what the first view transfers.

    measure_editor(database_url, project_id, session_token) -> {figure: value}

It starts its own ``loko serve`` (one process, the documented defaults) and times real HTTP
requests from one keep-alive connection on 127.0.0.1, as a signed-in user with the page's
CSRF token, accepting gzip as a browser does (what the first view transfers is counted as
sent). Times are medians in milliseconds; a filter's figure is its first page.
"""

import base64
import gzip
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote

import orjson

RUNS = 15
SLOW_RUNS = 5  # queries that read the whole project (a term no value contains)
SAVES = 60

TARGETS = {
    "first_page_ms": ("editor first page (ms)", 50),
    "missing_ms": ("editor filter: missing in a language (ms)", 150),
    "search_ms": ("editor search, a common word (ms)", 150),
    "save_ms": ("editor save, PATCH with expected (ms)", 10),
    "transfer_kb": ("editor first view, HTML+CSS+JS (KB)", 150),
}
ROWS = (
    ("first_page_ms", "editor first page (ms)"),
    ("first_page_after_write_ms", "  after a write, counts recomputed (ms)"),
    ("last_page_ms", "editor page at the last file, by cursor (ms)"),
    ("all_languages_ms", "editor page, 10 languages shown (ms)"),
    ("missing_ms", "editor missing in de, none missing (ms)"),
    ("changed_since_ms", "editor changed since today (ms)"),
    ("search_ms", "editor search, common word (ms)"),
    ("search_key_ms", "editor search, key fragment (ms)"),
    ("search_absent_ms", "editor search, no match: full scan (ms)"),
    ("save_ms", "editor save p50 (ms)"),
    ("save_p99_ms", "editor save p99 (ms)"),
    ("transfer_kb", "editor first view transfer (KB)"),
)


class _Server:
    def __init__(self, database_url: str):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {**os.environ, "LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"}
        command = [str(Path(sys.executable).parent / "loko"), "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("loko serve did not start") from None
                time.sleep(0.1)

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


class _Browser:
    """One signed-in browser: the session cookie, the page's CSRF token, one connection."""

    def __init__(self, port: int, session: str):
        self.connection = HTTPConnection("127.0.0.1", port, timeout=300)
        self.headers = {"Cookie": f"sb-access-token={session}", "Accept-Encoding": "gzip"}
        self.csrf = ""

    def send(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes, float]:
        """``(status, body as sent, ms)``."""
        headers = dict(self.headers)
        payload = None
        if body is not None:
            payload = orjson.dumps(body)
            headers |= {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        started = time.perf_counter()
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, data, (time.perf_counter() - started) * 1000

    def get_ok(self, path: str) -> tuple[bytes, float]:
        """``(body, ms)``, the body decompressed when it came gzip-compressed."""
        data, elapsed = self.get_sent(path)
        return (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data), elapsed

    def get_sent(self, path: str) -> tuple[bytes, float]:
        status, data, elapsed = self.send("GET", path)
        assert status == 200, (status, path, data[:300])
        return data, elapsed


def _median(browser: _Browser, path: str, runs: int = RUNS) -> float:
    browser.get_ok(path)
    return statistics.median(browser.get_ok(path)[1] for _ in range(runs))


def _cursor(file_name: str, key: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps([file_name, key])).decode().rstrip("=")


def measure_editor(database_url: str, project_id: str, session: str) -> dict:
    """The editor's figures for a project (see the module's docstring)."""
    server = _Server(database_url)
    try:
        return _measure(_Browser(server.port, session), project_id)
    finally:
        server.stop()


def _measure(browser: _Browser, project_id: str) -> dict:
    editor = f"/projects/{project_id}/editor"
    sent, _ = browser.get_sent(editor)
    html, _ = browser.get_ok(editor)
    text = html.decode()
    browser.csrf = re.search(r'name="csrf-token" content="([^"]+)"', text).group(1)
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', text)
    transfer = len(sent) + sum(len(browser.get_sent(asset)[0]) for asset in assets)
    languages = re.findall(r'<input type="checkbox" name="lang" value="([^"]+)"', text)
    last_file = re.findall(r'<option value="([^"]+)"', text.split('id="f-file"')[1].split("</select>")[0])[-1]
    figures = {
        "first_page_ms": _median(browser, editor),
        "last_page_ms": _median(browser, f"{editor}?after={_cursor(last_file, '')}"),
        "all_languages_ms": _median(browser, editor + "?" + "&".join(f"lang={quote(c)}" for c in languages)),
        "missing_ms": _median(browser, f"{editor}?missing=de", SLOW_RUNS),
        "changed_since_ms": _median(browser, f"{editor}?since={datetime.now(UTC).date().isoformat()}"),
        "search_ms": _median(browser, f"{editor}?q={quote('café')}"),
        "search_key_ms": _median(browser, f"{editor}?q=key_0099", SLOW_RUNS),
        "search_absent_ms": _median(browser, f"{editor}?q=zzqx", SLOW_RUNS),
        "transfer_kb": transfer / 1024,
    }
    figures["first_page_after_write_ms"] = statistics.median(
        _after_write(browser, project_id, editor) for _ in range(SLOW_RUNS)
    )
    figures |= _saves(browser, project_id)
    return figures


def _patch(browser: _Browser, project_id: str, key: str, value: str, expected: str | None):
    body = {"key": key, "fileName": "bench/editor", "updates": {"de": {"value": value, "expected": expected}}}
    status, data, elapsed = browser.send("PATCH", f"/api/projects/{project_id}/translations", body)
    assert status == 200, (status, data[:300])
    return elapsed


def _after_write(browser: _Browser, project_id: str, editor: str) -> float:
    """The first page right after a save: the per-version language counts are computed again."""
    _patch(browser, project_id, f"bench.editor.touch.{uuid.uuid4().hex}", "x", None)
    return browser.get_ok(editor)[1]


def _saves(browser: _Browser, project_id: str) -> dict:
    """Saves as the editor sends them: each carries the value it replaces."""
    key, value = f"bench.editor.save.{uuid.uuid4().hex}", None
    samples = []
    for n in range(SAVES):
        new = f"Wert {n}"
        samples.append(_patch(browser, project_id, key, new, value))
        value = new
    ordered = sorted(samples[5:])
    return {
        "save_ms": statistics.median(ordered),
        "save_p99_ms": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
    }


def table_rows():
    """``(label, getter)`` rows for run.py's table."""
    return [(label, lambda r, name=name: r.get("editor", {}).get(name, float("nan"))) for name, label in ROWS]


def target_lines(figures: dict) -> list[str]:
    lines = []
    for name, (label, target) in TARGETS.items():
        value = figures.get(name, float("nan"))
        verdict = "met" if value <= target else "MISSED"
        ratio = value / target
        lines.append(f"  {label:46} {value:>10.3f}  target {target:>8}  ratio {ratio:>6.2f}  {verdict}")
    return lines


if __name__ == "__main__":
    url, project, token = sys.argv[1:4]
    for name, value in measure_editor(url, project, token).items():
        print(f"{name:28} {value:10.2f}")
