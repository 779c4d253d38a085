"""Loko's benchmark suite: measures the service against what the machine allows, in the same
run, and prints one table (also written to bench/results.json).

    make bench                       # SQLite, 10k / 100k / 1M values
    make bench-pg                    # the same on LOKO_TEST_DATABASE_URL's server
    python -m bench.run --sizes 10000,100000 --runs 3
    python -m bench.run --profile patch        # where a measure's server time goes

Every project is seeded through the service layer (10 languages x 10 files), then a real
``loko serve`` (waitress, the documented defaults) answers real HTTP requests on 127.0.0.1.
Each figure of the targets stands beside its ceiling or floor, measured in the same run:
bare WSGI apps under the same waitress settings (bench/bare.py) for the 304 and the
PATCH, and raw driver code for the exports. Loko and its ceiling take turns, so that both
see the machine alike.
"""

import argparse
import contextlib
import io
import json
import os
import platform
import pstats
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from collections import defaultdict
from http.client import HTTPConnection
from pathlib import Path

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from bench import editor, formats
from bench.bare import BARE_ETAG

ROOT = Path(__file__).resolve().parent.parent
NAN = float("nan")
SMALLEST = 10_000
HEADLINE_VALUES = 100_000  # the size the targets are measured at
CACHEABLE_VALUES = 100_000  # larger exports are bigger than the per-process cache keeps
LANGUAGES = ["en", "de", "fr", "es", "it", "pt-BR", "ja", "zh-Hans", "ru", "pl"]
FILES = [f"section{i}/messages" for i in range(10)]
READ_FILE = "app/messages"  # the readers' project: one file, 4,000 keys in 10 languages
READ_FILE_KEYS = 4_000
WORDS = [
    "Save",
    "Cancel",
    "Größe",
    "Ünïcödé",
    "café",
    "naïve",
    "日本語",
    "Привет",
    "{{name}}",
    "{{count}} items",
]

# name: (label, target, how the figure compares with the target)
TARGETS = {
    "revalidation_share": ("304 revalidation, 8 clients: share of the bare app", 0.60, "min"),
    "patch_p50_ratio": ("PATCH p50, one client: times the bare app", 1.5, "max"),
    "patch_p99_ratio": ("PATCH p99, one client: times the bare app", 4.0, "max"),
    "patch_p99_own": ("PATCH p99, one client: times its own p50", 4.0, "max"),
    "patch_writes_share": ("16 x 100 PATCH: writes/s, share of the bare app", 0.90, "min"),
    "patch_two_processes": ("16 x 100 PATCH: 2 processes / 1 process", 1.0, "min"),
    "export_cold_ratio": ("cold JSON export, 100k: times the floor", 1.3, "max"),
    "zip_cold_ratio": ("one file x 10 languages ZIP: times the floor", 1.3, "max"),
    "readers_share": ("8 readers, 20 writes/s: share of no writes", 0.50, "min"),
    "seeded_export_pg_ratio": ("PostgreSQL just-seeded export: times SQLite", 1.5, "max"),
    "bench_minutes": ("make bench, whole run (minutes)", 10, "max"),
}
ABSOLUTE_TARGETS = {
    "export_json_ratio": ("JSON export / floor (100k and up)", 1.5),
    "export_po_zip_ratio": ("PO ZIP export / floor (100k and up)", 4.0),
    "server_peak_rss_mb": ("server peak RSS, 1M export (MB)", 250),
    "bulk_upsert_10k_s": ("bulk-upsert 10,000 items (s)", 0.5),
    "patch_p50_ms": ("single PATCH p50 (ms)", 5),
    "patch_p99_ms": ("single PATCH p99 (ms)", 25),
    "patch_concurrent_errors": ("16 concurrent writers: errors", 0),
    "stats_ms": ("GET /languages?stats=true, 1M (ms)", 100),
    "history_ms": ("GET /translations/history, 1M (ms)", 100),
}
# On PostgreSQL the writes are held to a looser share of their bare app (a round trip per
# statement, where SQLite's cost a function call).
POSTGRES_TARGETS = {"patch_p50_ratio": 2.0, "patch_writes_share": 0.50, "patch_two_processes": 1.5}
PROFILED_MEASURES = ("revalidation", "patch", "patch-concurrent", "export", "zip", "readers")


def value_text(rng: random.Random, index: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10)))
    return f"{words} #{index}"[: rng.randint(20, 80)]


# -- setup ---------------------------------------------------------------------------------


class Database:
    """A throwaway database: a SQLite file, or a database created on a PostgreSQL server."""

    def __init__(self, server_url: str | None, workdir: Path, label: str):
        self.server_url = server_url
        if server_url is None:
            self.path = workdir / f"{label}.db"
            self.url = f"sqlite:///{self.path}"
        else:
            self.name = f"loko_bench_{label}_{uuid.uuid4().hex[:8]}"
            admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.exec_driver_sql(f'CREATE DATABASE "{self.name}"')
            admin.dispose()
            self.url = make_url(server_url).set(database=self.name).render_as_string(hide_password=False)

    def drop(self):
        if self.server_url is None:
            return
        admin = sa.create_engine(self.server_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        admin.dispose()


def seed(database_url: str, values: int, read_file: bool = False, index: bool = False) -> dict:
    """Create a user, a project and keys, and fill the project through the service layer;
    with ``read_file``, also a second project holding one file of READ_FILE_KEYS keys in
    every language (the ZIP and the readers' measures). With ``index``, then bring the
    translation memory's index up to date, as a server's background job does after such
    writes, so that no measure runs beside the job indexing the seed (``index_s``: how long
    that took; in one go, as nothing else writes meanwhile)."""
    from loko import create_app
    from loko.apikeys.service import issue_api_key
    from loko.auth.models import User
    from loko.auth.service import create_user, open_session, user_actor
    from loko.database import unit_of_work, writing_alone
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.jobs.worker import Worker
    from loko.memory import index as memory_index
    from loko.projects.service import insert_project
    from loko.translations.service import bulk_upsert

    # The seed's notification of its new keys goes out with its other jobs, below, not
    # during a measure.
    app = create_app(
        {"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench", "LOKO_NEW_KEYS_WAIT_SECONDS": 0}
    )
    keys_per_file = values // (len(LANGUAGES) * len(FILES))
    rng = random.Random(values)
    seeded = {}
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("bench@example.test", "bench-password", "Bench")
            project = insert_project(org.id, "Bench")
            key, _ = issue_api_key(project.id, "bench", "write", created_by=user.id)
            session = open_session(user.id, 1)
            project_id = project.id
            if read_file:
                readers = insert_project(org.id, "Readers")
                seeded["read_project_id"] = readers.id
                seeded["read_key"], _ = issue_api_key(readers.id, "bench", "write", created_by=user.id)
        actor = user_actor(db.session.get(User, user.id))
        started = time.perf_counter()
        for file_name in FILES:
            for language in LANGUAGES:
                items = [
                    {"key": f"section.sub.key_{i:06d}", "value": value_text(rng, i)}
                    for i in range(keys_per_file)
                ]
                bulk_upsert(actor, project_id, file_name, language, items)
        seconds = time.perf_counter() - started
        if read_file:
            for language in LANGUAGES:
                items = [
                    {"key": f"screen.key_{i:05d}", "value": value_text(rng, i)} for i in range(READ_FILE_KEYS)
                ]
                bulk_upsert(actor, seeded["read_project_id"], READ_FILE, language, items)
        # The issues of the seed's large writes, stored by the jobs they queued, as a
        # server's workers do right after such writes: no measure runs beside them.
        checking = time.perf_counter()
        with writing_alone():
            worker = Worker(app)
            while worker.run_one():
                pass
        seeded["checks_s"] = time.perf_counter() - checking
        if index:
            indexing = time.perf_counter()
            with writing_alone():
                memory_index.refresh()
            seeded["index_s"] = time.perf_counter() - indexing
        db.engine.dispose()
    return {**seeded, "project_id": project_id, "key": key, "session": session, "seed_s": seconds}


# -- the floors ----------------------------------------------------------------------------

FLOOR_QUERY = (
    "SELECT v.language_code, t.file_name, t.key, v.value FROM translation_values v "
    "JOIN translations t ON t.id = v.translation_id "
    "WHERE v.project_id = {mark} AND t.deleted_at IS NULL"
)
FILE_FLOOR_QUERY = (
    "SELECT v.language_code, t.key, v.value FROM translations t "
    "JOIN translation_values v ON v.translation_id = t.id "
    "WHERE t.project_id = {mark} AND t.file_name = {mark} AND t.deleted_at IS NULL"
)


def driver_rows(database_url: str, query: str, parameters: tuple) -> list[tuple]:
    """Every row of ``query`` (written with ``{mark}`` placeholders), read with the raw driver."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        import sqlite3

        connection = sqlite3.connect(url.database)
        try:
            return connection.execute(query.format(mark="?"), parameters).fetchall()
        finally:
            connection.close()
    import psycopg

    with psycopg.connect(
        url.set(drivername="postgresql").render_as_string(hide_password=False)
    ) as connection:
        return connection.execute(query.format(mark="%s"), parameters).fetchall()


def floor_once(database_url: str, project_id: str) -> float:
    """Raw driver query of every value + nested dict + orjson: what no export can beat."""
    started = time.perf_counter()
    document = {}
    for language, file_name, key, value in driver_rows(database_url, FLOOR_QUERY, (project_id,)):
        document.setdefault(language, {}).setdefault(file_name, {})[key] = value
    orjson.dumps(document)
    return time.perf_counter() - started


def zip_floor_once(database_url: str, project_id: str, file_name: str) -> float:
    """One file's values in every language, read with the raw driver and written as a ZIP of
    one sorted JSON object per language with zipfile at the export's compression level."""
    started = time.perf_counter()
    by_language = defaultdict(dict)
    for language, key, value in driver_rows(database_url, FILE_FLOOR_QUERY, (project_id, file_name)):
        by_language[language][key] = value
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for language in sorted(by_language):
            document = orjson.dumps(by_language[language], option=orjson.OPT_SORT_KEYS)
            archive.writestr(f"{language}/{file_name}.json", document)
    return time.perf_counter() - started


# -- servers and the HTTP client -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError("server did not start")


class Server:
    """``loko serve`` (or, with ``profile``, the same app and settings under bench.profiled)."""

    def __init__(self, database_url: str, processes: int = 1, profile: str | None = None):
        self.port = free_port()
        env = {**os.environ, "LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"}
        if profile is None:
            command = [str(Path(sys.executable).parent / "loko"), "serve", "--port", str(self.port)]
        else:
            command = [sys.executable, "-m", "bench.profiled", str(self.port), profile]
            env["PYTHONPATH"] = str(ROOT)
        if processes > 1:
            command += ["--processes", str(processes)]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        wait_for_port(self.port, self.process)

    def peak_rss_mb(self) -> float:
        """Peak resident memory (VmHWM) of the server and its worker processes."""
        pids = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            pids += [int(p) for p in children.read_text().split()]
        peak = 0
        for pid in pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        return peak / 1024

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=60)


class BareServer(Server):
    """A ceiling of bench/bare.py under Loko's waitress settings."""

    def __init__(self, kind: str, database: Path | str | None = None):
        self.port = free_port()
        command = [sys.executable, "-m", "bench.bare", kind, str(self.port)]
        if database is not None:
            command.append(str(database))
        self.process = subprocess.Popen(
            command,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.port, self.process)


def request(port, method, path, body=None, headers=None, connection=None):
    own = connection is None
    connection = connection or HTTPConnection("127.0.0.1", port, timeout=300)
    payload = orjson.dumps(body) if body is not None else None
    all_headers = {"Content-Type": "application/json", **(headers or {})} if payload else dict(headers or {})
    connection.request(method, path, body=payload, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    result = (response.status, {k.lower(): v for k, v in response.getheaders()}, data)
    if own:
        connection.close()
    return result


def summary_of(samples: list[float]) -> dict:
    return {
        "median": statistics.median(samples),
        "min": min(samples),
        "max": max(samples),
        "runs": len(samples),
    }


def timed(function, runs: int) -> dict:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return summary_of(samples)


def concurrent(port, clients: int, per_client: int, make_request) -> dict:
    """``clients`` threads, each with its own keep-alive connection, ``per_client`` requests."""
    errors, latencies, lock = [0], [], threading.Lock()

    def worker(index):
        connection = HTTPConnection("127.0.0.1", port, timeout=120)
        mine = []
        for n in range(per_client):
            method, path, body, headers, ok = make_request(index, n)
            started = time.perf_counter()
            try:
                status, _, _ = request(port, method, path, body, headers, connection)
            except OSError:
                status = 0
                connection = HTTPConnection("127.0.0.1", port, timeout=120)
            mine.append(time.perf_counter() - started)
            if status not in ok:
                with lock:
                    errors[0] += 1
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {
        "requests_per_s": clients * per_client / elapsed,
        "errors": errors[0],
        "latencies": latencies,
        **percentiles(latencies),
    }


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return {"p50_ms": pick(0.50), "p99_ms": pick(0.99)}


# -- the measurements of every size --------------------------------------------------------


def measure_size(database_url: str, values: int, runs: int, full: bool) -> dict:
    headline = values == HEADLINE_VALUES
    # PostgreSQL indexes 1,000,000 values in about 20 minutes: there the server's job does
    # it while the measures run, as before.
    index = make_url(database_url).get_backend_name() == "sqlite" or values <= HEADLINE_VALUES
    seeded = seed(database_url, values, read_file=headline, index=index)
    project, key = seeded["project_id"], seeded["key"]
    auth = {"Authorization": f"Bearer {key}"}
    base = f"/api/projects/{project}"
    result = {"values": values, "seed_s": seeded["seed_s"], "index_s": seeded.get("index_s", NAN)}

    server = Server(database_url)
    try:
        rss_before = server.peak_rss_mb()

        def touch():
            request(
                server.port,
                "PATCH",
                base + "/translations",
                {"key": "bench.touch", "fileName": FILES[0], "updates": {"en": {"value": uuid.uuid4().hex}}},
                auth,
            )

        def export_only(query):
            def run():
                status, _, _ = request(server.port, "GET", base + "/translations" + query, headers=auth)
                assert status == 200, status

            return run

        # Each floor run goes right before an export run, so both see the machine alike; a
        # write right before each export makes it cold (no kept body can answer it).
        floor_samples = []
        for name, query in (
            ("export_json", ""),
            ("export_json_zip", "?zip=true"),
            ("export_po_zip", "?format=po&zip=true"),
        ):
            samples = []
            for _ in range(runs):
                if name == "export_json":
                    floor_samples.append(floor_once(database_url, project))
                touch()
                started = time.perf_counter()
                export_only(query)()
                samples.append(time.perf_counter() - started)
            result[name] = summary_of(samples)
            if name == "export_json":
                # Each run against the floor run right before it: a burst of load elsewhere on
                # the machine then skews one pair, not the median.
                result["export_json_floor_ratio"] = statistics.median(
                    export / floor for export, floor in zip(samples, floor_samples, strict=True)
                )
        result["floor"] = summary_of(floor_samples)
        if values <= CACHEABLE_VALUES:
            result["export_json_cached"] = timed(export_only(""), runs)
        result["server_rss_before_mb"] = rss_before
        result["server_peak_rss_mb"] = server.peak_rss_mb()
        result["languages_stats"] = timed(
            lambda: request(server.port, "GET", base + "/languages?stats=true", headers=auth), runs
        )
        result["history_first_page"] = timed(
            lambda: request(server.port, "GET", base + "/translations/history", headers=auth), runs
        )
        if headline:
            # Before the bulk upserts: their 30,000 writes are indexed by the memory's
            # refresh job (every 30 s, in paced transactions of about 50 ms each), which a
            # single PATCH measured meanwhile would wait behind.
            result["headline"] = measure_headline(database_url, server, seeded, runs, full)
        result["bulk_upsert_10k"] = bulk_upserts(server.port, base, auth, runs)
        if values == SMALLEST:
            result["import_100k_s"] = import_100k(server.port, base, auth)
            result["imports"] = formats.measure_imports(server.port, base, auth, runs)
            result["imports"]["pull_unchanged_s"] = formats.measure_pull(
                f"http://127.0.0.1:{server.port}", project, key
            )
        if values >= 1_000_000:
            result["format_exports"] = formats.measure_exports(server.port, base, auth, touch)
    finally:
        server.stop()
    result["editor"] = editor.measure_editor(database_url, project, seeded["session"])
    if headline:
        for processes in (1, 2):
            result[f"export_live_{processes}proc"] = live_export_throughput(
                database_url, base, auth, processes
            )
    return result


def bulk_upserts(port: int, base: str, auth: dict, runs: int) -> dict:
    """A 10,000-item bulk-upsert, half of its keys new."""
    samples = []
    for run in range(runs):
        items = [
            {"key": f"section.sub.key_{i:06d}" if i < 5_000 else f"bulk{run}.{i:06d}", "value": f"new {i}"}
            for i in range(10_000)
        ]
        body = {"operation": "bulk-upsert", "fileName": FILES[2], "languageCode": "en", "translations": items}
        started = time.perf_counter()
        status, _, _ = request(port, "PUT", base + "/translations", body, auth)
        samples.append(time.perf_counter() - started)
        assert status == 200, status
    return summary_of(samples)


def import_100k(port: int, base: str, auth: dict) -> float:
    """A 100,000-item import as ten bulk-upsert requests, one after the other."""
    started = time.perf_counter()
    for part in range(10):
        items = [{"key": f"import.part{part}.{i:06d}", "value": f"imported {i}"} for i in range(10_000)]
        body = {
            "operation": "bulk-upsert",
            "fileName": "import/all",
            "languageCode": "de",
            "translations": items,
        }
        status, _, _ = request(port, "PUT", base + "/translations", body, auth)
        assert status == 200, status
    return time.perf_counter() - started


LANGUAGE_PAIRS = [f"{a},{b}" for i, a in enumerate(LANGUAGES) for b in LANGUAGES[i + 1 :]]


def live_export_throughput(database_url: str, base: str, auth: dict, processes: int) -> dict:
    """Exports that no cache can answer (each asks for a different pair of languages),
    4 clients at once: what more processes buy once the GIL holds one process to one core."""
    server = Server(database_url, processes=processes)
    try:
        return without_samples(
            concurrent(
                server.port,
                4,
                5,
                lambda i, n: (
                    "GET",
                    base + f"/translations?language={LANGUAGE_PAIRS[i * 5 + n]}",
                    None,
                    auth,
                    {200},
                ),
            )
        )
    finally:
        server.stop()


def without_samples(figures: dict) -> dict:
    return {name: value for name, value in figures.items() if name != "latencies"}


# -- the targets, each beside its ceiling or floor -----------------------------------------


def measure_headline(database_url: str, server: Server, seeded: dict, runs: int, full: bool) -> dict:
    """The targets' figures on the 100k project, with a running ``server`` (one process)."""
    base = f"/api/projects/{seeded['project_id']}"
    auth = {"Authorization": f"Bearer {seeded['key']}"}
    read_base = f"/api/projects/{seeded['read_project_id']}"
    read_auth = {"Authorization": f"Bearer {seeded['read_key']}"}
    rounds = 3 if full else 1
    figures = {}
    bare = BareServer("not-modified")
    try:
        figures["revalidation"] = revalidation(server.port, base, auth, bare.port, rounds, 4 if full else 2)
    finally:
        bare.stop()
    with tempfile.TemporaryDirectory(prefix="loko-bare-") as scratch:
        # The ceiling on the same database: a bare psycopg app on PostgreSQL, sqlite3 on SQLite.
        url = make_url(database_url)
        if url.get_backend_name() == "postgresql":
            plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
            bare = BareServer("patch-pg", plain)
        else:
            bare = BareServer("patch", Path(scratch) / "bare.db")
        two = Server(database_url, processes=2)
        try:
            figures["patch_latency"] = patch_latency(
                server.port, bare.port, base, auth, rounds, 400 if full else 100
            )
            figures["patch_writes"] = patch_throughput(
                server.port, two.port, bare.port, base, auth, rounds, 100 if full else 30
            )
        finally:
            two.stop()
            bare.stop()
    figures["zip_cold"] = cold_zip(database_url, server.port, seeded, runs)
    figures["readers"] = readers_under_writes(server.port, read_base, read_auth, rounds, 3 if full else 2)
    return figures


def wrk_revalidation(port: int, path: str, headers: dict, seconds: int) -> tuple[float, int]:
    """8 keep-alive clients revalidating for ``seconds``: requests/s and answers other than 304,
    with wrk when the machine has it (a load generator in C takes no CPU from the GIL)."""
    wrk = shutil.which("wrk")
    if wrk is None:
        figures = concurrent(port, 8, 250 * seconds, lambda i, n: ("GET", path, None, headers, {304}))
        return figures["requests_per_s"], figures["errors"]
    command = [wrk, "-t2", "-c8", f"-d{seconds}s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    script = ROOT / "bench" / "count_statuses.lua"
    command += ["-s", str(script), f"http://127.0.0.1:{port}{path}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = next(line for line in output.splitlines() if line.startswith("Requests/sec:"))
    others = re.search(r"not 304: (\d+)", output)
    return float(rate.split()[1]), int(others.group(1)) if others else 0


def revalidation(port: int, base: str, auth: dict, bare_port: int, rounds: int, seconds: int) -> dict:
    """If-None-Match on an unchanged export, 8 keep-alive clients, against the bare 304 app."""
    _, headers, _ = request(port, "GET", base + "/translations", headers=auth)
    etag = headers["etag"]
    loko, bare, errors = [], [], 0
    for _ in range(rounds):
        rate, _ = wrk_revalidation(bare_port, "/", {"If-None-Match": BARE_ETAG}, seconds)
        bare.append(rate)
        rate, others = wrk_revalidation(
            port, base + "/translations", {**auth, "If-None-Match": etag}, seconds
        )
        loko.append(rate)
        errors += others
    return {
        "loko_rps": statistics.median(loko),
        "bare_rps": statistics.median(bare),
        "share": statistics.median(ours / theirs for ours, theirs in zip(loko, bare, strict=True)),
        "errors": errors,
    }


def sequential_patches(port: int, path: str, auth: dict, prefix: str, count: int) -> list[float]:
    """``count`` PATCHes from one keep-alive connection (after a few unmeasured ones), each
    changing one of 50 keys; their latencies in seconds."""
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    samples = []
    for n in range(count + 20):
        body = {"key": f"{prefix}.{n % 50}", "fileName": FILES[1], "updates": {"de": {"value": f"v{n}"}}}
        started = time.perf_counter()
        status, _, _ = request(port, "PATCH", path, body, auth, connection)
        if n >= 20:
            samples.append(time.perf_counter() - started)
        assert status == 200, status
    connection.close()
    return samples


def patch_latency(port: int, bare_port: int, base: str, auth: dict, rounds: int, per_round: int) -> dict:
    """One client's PATCH latency against the bare PATCH app, taking turns."""
    loko, bare = [], []
    for turn in range(rounds):
        bare += sequential_patches(bare_port, "/patch", {}, f"bench.latency{turn}", per_round)
        loko += sequential_patches(port, base + "/translations", auth, f"bench.latency{turn}", per_round)
    loko_p, bare_p = percentiles(loko), percentiles(bare)
    return {
        "loko_p50_ms": loko_p["p50_ms"],
        "loko_p99_ms": loko_p["p99_ms"],
        "bare_p50_ms": bare_p["p50_ms"],
        "bare_p99_ms": bare_p["p99_ms"],
        "requests": len(loko),
    }


def many_writers(port: int, path: str, auth: dict, prefix: str, per_client: int) -> dict:
    """16 clients, each PATCHing ``per_client`` keys of its own (every key distinct)."""

    def patch(i, n):
        body = {"key": f"{prefix}.{i}.{n}", "fileName": FILES[3], "updates": {"de": {"value": f"v{n}"}}}
        return "PATCH", path, body, auth, {200}

    return without_samples(concurrent(port, 16, per_client, patch))


def patch_throughput(
    port: int, two_port: int, bare_port: int, base: str, auth: dict, rounds: int, per_client: int
) -> dict:
    """16 x ``per_client`` PATCHes of distinct keys: Loko with one and two processes against
    the bare PATCH app, taking turns."""
    path = base + "/translations"
    one, two, bare, errors = [], [], [], 0
    for turn in range(rounds):
        bare.append(
            many_writers(bare_port, "/patch", {}, f"bench.writers{turn}", per_client)["requests_per_s"]
        )
        for rates, target in ((one, port), (two, two_port)):
            figures = many_writers(target, path, auth, f"bench.writers{turn}.{target}", per_client)
            rates.append(figures["requests_per_s"])
            errors += figures["errors"]
    return {
        "one_process_wps": statistics.median(one),
        "two_processes_wps": statistics.median(two),
        "bare_wps": statistics.median(bare),
        "share": statistics.median(ours / theirs for ours, theirs in zip(one, bare, strict=True)),
        "two_over_one": statistics.median(b / a for a, b in zip(one, two, strict=True)),
        "errors": errors,
        "requests": 16 * per_client,
    }


def cold_zip(database_url: str, port: int, seeded: dict, runs: int) -> dict:
    """READ_FILE in every language as a ZIP, right after a write to that file (a write to
    another file leaves its kept body current), against its floor."""
    base = f"/api/projects/{seeded['read_project_id']}/translations"
    auth = {"Authorization": f"Bearer {seeded['read_key']}"}
    loko, floor = [], []
    for run in range(runs):
        floor.append(zip_floor_once(database_url, seeded["read_project_id"], READ_FILE))
        touch = {"key": "screen.key_00000", "fileName": READ_FILE, "updates": {"en": {"value": f"t{run}"}}}
        assert request(port, "PATCH", base, touch, auth)[0] == 200
        started = time.perf_counter()
        status, headers, body = request(port, "GET", base + f"?fileName={READ_FILE}&zip=true", headers=auth)
        loko.append(time.perf_counter() - started)
        assert status == 200 and headers["content-type"] == "application/zip", status
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        strings = sum(len(orjson.loads(archive.read(name))) for name in archive.namelist())
    return {
        "loko_s": statistics.median(loko),
        "floor_s": statistics.median(floor),
        "ratio": statistics.median(ours / theirs for ours, theirs in zip(loko, floor, strict=True)),
        "strings": strings,
    }


def reader_load(port: int, path: str, auth: dict, seconds: float, writes_per_s: float = 0) -> dict:
    """8 clients reading ``path`` over and over for ``seconds`` (requests/s), while one more
    client changes the project ``writes_per_s`` times a second."""
    deadline = time.perf_counter() + seconds
    counts, errors, lock = [0], [0], threading.Lock()

    def reader():
        connection = HTTPConnection("127.0.0.1", port, timeout=60)
        done = 0
        while time.perf_counter() < deadline:
            status, _, _ = request(port, "GET", path, headers=auth, connection=connection)
            done += 1
            if status != 200:
                with lock:
                    errors[0] += 1
        connection.close()
        with lock:
            counts[0] += done

    def writer():
        connection = HTTPConnection("127.0.0.1", port, timeout=60)
        started, n = time.perf_counter(), 0
        while time.perf_counter() < deadline:
            body = {"key": "bench.writer", "fileName": "bench/writer", "updates": {"en": {"value": f"w{n}"}}}
            request(port, "PATCH", path.split("?")[0], body, auth, connection)
            n += 1
            time.sleep(max(0.0, started + n / writes_per_s - time.perf_counter()))
        connection.close()

    threads = [threading.Thread(target=reader) for _ in range(8)]
    if writes_per_s:
        threads.append(threading.Thread(target=writer))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"requests_per_s": counts[0] / (time.perf_counter() - started), "errors": errors[0]}


def readers_under_writes(
    port: int, base: str, auth: dict, rounds: int, seconds: float, query: str = ""
) -> dict:
    """READ_FILE's JSON export read by 8 clients, with and without 20 writes a second,
    taking turns; ``query`` is added to the readers' path (``&stale=ok``)."""
    path = base + f"/translations?fileName={READ_FILE}{query}"
    request(port, "GET", path, headers=auth)
    quiet, busy, errors = [], [], 0
    for _ in range(rounds):
        for rates, writes_per_s in ((quiet, 0), (busy, 20)):
            figures = reader_load(port, path, auth, seconds, writes_per_s)
            rates.append(figures["requests_per_s"])
            errors += figures["errors"]
    return {
        "quiet_rps": statistics.median(quiet),
        "busy_rps": statistics.median(busy),
        "share": statistics.median(b / q for q, b in zip(quiet, busy, strict=True)),
        "errors": errors,
    }


def seeded_export(database_url: str) -> dict:
    """Seed 100k values, start ``loko serve --processes 2`` and time the first JSON export
    (no statistics refreshed by hand: only what Loko does itself)."""
    seeded = seed(database_url, HEADLINE_VALUES)
    server = Server(database_url, processes=2)
    try:
        auth = {"Authorization": f"Bearer {seeded['key']}"}
        started = time.perf_counter()
        status, _, _ = request(
            server.port, "GET", f"/api/projects/{seeded['project_id']}/translations", headers=auth
        )
        assert status == 200, status
        return {"seconds": time.perf_counter() - started}
    finally:
        server.stop()


# -- profiles ------------------------------------------------------------------------------


def profile_measure(name: str, server_url: str | None, workdir: Path) -> None:
    """Seed a 100k project, run one measure's load against a profiled server, and print the
    profile's top entries (cumulative, then own time)."""
    database = Database(server_url, workdir, "profile")
    stats_file = workdir / "profile.stats"
    try:
        seeded = seed(database.url, HEADLINE_VALUES, read_file=True)
        base = f"/api/projects/{seeded['project_id']}"
        auth = {"Authorization": f"Bearer {seeded['key']}"}
        server = Server(database.url, profile=str(stats_file))
        try:
            if name == "revalidation":
                _, headers, _ = request(server.port, "GET", base + "/translations", headers=auth)
                wrk_revalidation(
                    server.port, base + "/translations", {**auth, "If-None-Match": headers["etag"]}, 4
                )
            elif name == "patch":
                sequential_patches(server.port, base + "/translations", auth, "profile", 1000)
            elif name == "patch-concurrent":
                many_writers(server.port, base + "/translations", auth, "profile", 100)
            elif name == "export":
                for run in range(3):
                    touch = {
                        "key": "bench.touch",
                        "fileName": FILES[0],
                        "updates": {"en": {"value": f"p{run}"}},
                    }
                    request(server.port, "PATCH", base + "/translations", touch, auth)
                    request(server.port, "GET", base + "/translations", headers=auth)
            elif name == "zip":
                cold_zip(database.url, server.port, seeded, 3)
            elif name == "readers":
                read_base = f"/api/projects/{seeded['read_project_id']}"
                read_auth = {"Authorization": f"Bearer {seeded['read_key']}"}
                reader_load(server.port, read_base + f"/translations?fileName={READ_FILE}", read_auth, 4, 20)
        finally:
            server.stop()
        files = [str(path) for path in workdir.glob("profile.stats*")]
        stats = pstats.Stats(*files)
        print(f"\nProfile of {name!r} (server side, every worker thread)\n")
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(20)
    finally:
        database.drop()


# -- the table -----------------------------------------------------------------------------


def summarize(results: list[dict], seconds: float, pg: dict | None) -> dict:
    biggest = results[-1]
    ratio_at = [r for r in results if r["values"] >= 100_000] or results
    headline = next((r["headline"] for r in results if "headline" in r), None)
    summary = {
        "export_json_ratio": max(r["export_json"]["median"] / r["floor"]["median"] for r in ratio_at),
        "export_po_zip_ratio": max(r["export_po_zip"]["median"] / r["floor"]["median"] for r in ratio_at),
        "server_peak_rss_mb": biggest["server_peak_rss_mb"],
        "bulk_upsert_10k_s": max(r["bulk_upsert_10k"]["median"] for r in results),
        "stats_ms": biggest["languages_stats"]["median"] * 1000,
        "history_ms": biggest["history_first_page"]["median"] * 1000,
        "bench_minutes": seconds / 60,
    }
    by_size = {r["values"]: r for r in results}
    if HEADLINE_VALUES in by_size:
        summary["export_cold_ratio"] = by_size[HEADLINE_VALUES]["export_json_floor_ratio"]
    if headline is not None:
        revalidation_, latency, writes = (
            headline["revalidation"],
            headline["patch_latency"],
            headline["patch_writes"],
        )
        summary |= {
            "revalidation_share": revalidation_["share"],
            "patch_p50_ratio": latency["loko_p50_ms"] / latency["bare_p50_ms"],
            "patch_p99_ratio": latency["loko_p99_ms"] / latency["bare_p99_ms"],
            "patch_p99_own": latency["loko_p99_ms"] / latency["loko_p50_ms"],
            "patch_writes_share": writes["share"],
            "patch_two_processes": writes["two_over_one"],
            "zip_cold_ratio": headline["zip_cold"]["ratio"],
            "readers_share": headline["readers"]["share"],
            "patch_p50_ms": latency["loko_p50_ms"],
            "patch_p99_ms": latency["loko_p99_ms"],
            "patch_concurrent_errors": writes["errors"],
        }
    if pg is not None and "postgresql" in pg:
        summary["seeded_export_pg_ratio"] = pg["postgresql"]["seconds"] / pg["sqlite"]["seconds"]
    return summary


def verdict(value: float, target: float, direction: str) -> str:
    if value != value:  # nan: not measured
        return "not measured"
    return "met" if (value >= target if direction == "min" else value <= target) else "MISSED"


def headline_rows(results: list[dict], pg: dict | None) -> list[tuple[str, str, str]]:
    """``(measure, Loko, ceiling or floor)`` lines of the targets' figures."""
    rows = []
    by_size = {r["values"]: r for r in results}
    cold = by_size.get(HEADLINE_VALUES)
    if cold is not None:
        rows.append(
            (
                "cold JSON export, 100k values (s)",
                f"{cold['export_json']['median']:.3f}",
                f"floor {cold['floor']['median']:.3f} (sqlite3/psycopg + orjson)",
            )
        )
    headline = cold.get("headline") if cold else None
    if headline:
        r, lat, w = headline["revalidation"], headline["patch_latency"], headline["patch_writes"]
        z, rd = headline["zip_cold"], headline["readers"]
        rows += [
            (
                "304 revalidation, 8 clients (req/s)",
                f"{r['loko_rps']:,.0f}",
                f"bare 304 app {r['bare_rps']:,.0f}",
            ),
            (
                "PATCH one client p50 (ms)",
                f"{lat['loko_p50_ms']:.3f}",
                f"bare PATCH app {lat['bare_p50_ms']:.3f}",
            ),
            (
                "PATCH one client p99 (ms)",
                f"{lat['loko_p99_ms']:.3f}",
                f"bare PATCH app {lat['bare_p99_ms']:.3f}",
            ),
            (
                "16 x 100 PATCH, 1 process (writes/s)",
                f"{w['one_process_wps']:,.0f}",
                f"bare PATCH app {w['bare_wps']:,.0f}",
            ),
            (
                "16 x 100 PATCH, 2 processes (writes/s)",
                f"{w['two_processes_wps']:,.0f}",
                f"1 process {w['one_process_wps']:,.0f}",
            ),
            (
                f"ZIP, one file x 10 languages, {z['strings']:,} strings (s)",
                f"{z['loko_s']:.3f}",
                f"floor {z['floor_s']:.3f} (driver + zipfile)",
            ),
            (
                "8 readers of a 4,000-key file, 20 writes/s (req/s)",
                f"{rd['busy_rps']:,.1f}",
                f"no writes {rd['quiet_rps']:,.1f}",
            ),
        ]
    if pg is not None:
        for name, figures in pg.items():
            rows.append(
                (f"just-seeded 100k export, 2 processes, {name} (s)", f"{figures['seconds']:.3f}", "")
            )
    return rows


def print_table(results: list[dict], summary: dict, machine: str, pg: dict | None) -> None:
    print(f"\nLoko benchmark on {machine}\n")
    header = f"{'measurement':44}" + "".join(f"{r['values']:>14,}" for r in results)
    print(header)
    print("-" * len(header))
    rows = [
        ("seed through services (s)", lambda r: r["seed_s"]),
        ("  then the memory's index of it (s)", lambda r: r["index_s"]),
        ("floor: raw query + dict + orjson (s)", lambda r: r["floor"]["median"]),
        ("export JSON over HTTP, cold (s)", lambda r: r["export_json"]["median"]),
        ("  ratio to floor", lambda r: r["export_json"]["median"] / r["floor"]["median"]),
        ("export JSON, cached by ETag (s)", lambda r: r.get("export_json_cached", {}).get("median", NAN)),
        ("export JSON ZIP, cold (s)", lambda r: r["export_json_zip"]["median"]),
        ("export PO ZIP, cold (s)", lambda r: r["export_po_zip"]["median"]),
        ("  ratio to floor", lambda r: r["export_po_zip"]["median"] / r["floor"]["median"]),
        ("server peak RSS (MB)", lambda r: r["server_peak_rss_mb"]),
        ("bulk-upsert 10k, half new (s)", lambda r: r["bulk_upsert_10k"]["median"]),
        ("import 100k as 10 requests (s)", lambda r: r.get("import_100k_s", NAN)),
        ("GET languages?stats=true (ms)", lambda r: r["languages_stats"]["median"] * 1000),
        ("GET history first page (ms)", lambda r: r["history_first_page"]["median"] * 1000),
        (
            "live 2-language export, 1 process (req/s)",
            lambda r: r.get("export_live_1proc", {}).get("requests_per_s", NAN),
        ),
        (
            "live 2-language export, 2 processes (req/s)",
            lambda r: r.get("export_live_2proc", {}).get("requests_per_s", NAN),
        ),
        *editor.table_rows(),
    ]
    for label, get in rows:
        print(f"{label:44}" + "".join(f"{get(r):>14.3f}" for r in results))

    print(f"\nTargets, each beside its ceiling or floor in this run ({HEADLINE_VALUES:,} values)\n")
    for measure, loko, beside in headline_rows(results, pg):
        print(f"  {measure:52} {loko:>10}   {beside}")
    print()
    for name, (label, target, direction) in TARGETS.items():
        target = POSTGRES_TARGETS.get(name, target) if machine.endswith("PostgreSQL") else target
        value = summary.get(name, NAN)
        bound = ">=" if direction == "min" else "<="
        print(f"  {label:52} {value:>10.2f}  target {bound} {target:<5}  {verdict(value, target, direction)}")
    print("\nAbsolute targets")
    for name, (label, target) in ABSOLUTE_TARGETS.items():
        value = summary.get(name, NAN)
        print(f"  {label:52} {value:>10.3f}  target <= {target:<5}  {verdict(value, target, 'max')}")
    print("\n".join(editor.target_lines(results[-1]["editor"])))
    print_format_lines(results)


def print_format_lines(results: list[dict]) -> None:
    imports = next((r["imports"] for r in results if "imports" in r), {})
    exports = next(((r["values"], r["format_exports"]) for r in results if "format_exports" in r), None)
    print("\nFormats")
    for name, (label, target) in formats.IMPORT_TARGETS.items():
        value = imports.get(name, NAN)
        print(f"  {label:52} {value:>10.3f}  target <= {target:<5}  {verdict(value, target, 'max')}")
    if exports is None:
        return
    values, seconds = exports
    print(f"  every format's ZIP export of {values:,} values, times the JSON ZIP's {seconds['json']:.2f} s:")
    for name, elapsed in seconds.items():
        ratio = elapsed / seconds["json"]
        target = formats.EXPORT_RATIO_TARGET
        print(f"    {name:50} {ratio:>10.2f}  target <= {target:<5}  {verdict(ratio, target, 'max')}")


def main(argv=None) -> int:
    started = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--quick", action="store_true", help="fewer requests per load test")
    parser.add_argument(
        "--profile",
        choices=PROFILED_MEASURES,
        help="profile the server during one measure and print its top entries (nothing else runs)",
    )
    parser.add_argument("--output", default=str(ROOT / "bench" / "results.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-"))
    if args.profile:
        try:
            profile_measure(args.profile, args.postgres, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return 0
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, " + (
        "PostgreSQL" if args.postgres else "SQLite"
    )
    results, pg = [], {}
    try:
        for values in sizes:
            database = Database(args.postgres, workdir, f"v{values}")
            try:
                print(f"measuring {values:,} values ...", file=sys.stderr, flush=True)
                results.append(measure_size(database.url, values, args.runs, not args.quick))
            finally:
                database.drop()
        print("measuring a just-seeded export ...", file=sys.stderr, flush=True)
        for name, server_url in (("sqlite", None), ("postgresql", args.postgres)):
            if name == "postgresql" and server_url is None:
                continue
            database = Database(server_url, workdir, f"seeded_{name}")
            try:
                pg[name] = seeded_export(database.url)
            finally:
                database.drop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    summary = summarize(results, time.perf_counter() - started, pg)
    print_table(results, summary, machine, pg)
    Path(args.output).write_text(
        json.dumps(
            {"machine": machine, "results": results, "seeded_export": pg, "summary": summary}, indent=2
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
