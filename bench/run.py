"""Loko's benchmark suite: measures the service against the floor of what Python and the
database can do, in the same run, and prints one table (also written to bench/results.json).

    make bench                       # SQLite, 10k / 100k / 1M values
    make bench-pg                    # the same on LOKO_TEST_DATABASE_URL's server
    python -m bench.run --sizes 10000,100000 --runs 3

Every project is seeded through the service layer (10 languages x 10 files), then a real
``loko serve`` (waitress, the documented defaults) answers real HTTP requests on 127.0.0.1.
"""

import argparse
import contextlib
import json
import os
import platform
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
from http.client import HTTPConnection
from pathlib import Path

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from bench import editor

ROOT = Path(__file__).resolve().parent.parent
NAN = float("nan")
SMALLEST = 10_000
CACHEABLE_VALUES = 100_000  # larger exports are bigger than the per-process cache keeps
LANGUAGES = ["en", "de", "fr", "es", "it", "pt-BR", "ja", "zh-Hans", "ru", "pl"]
FILES = [f"section{i}/messages" for i in range(10)]
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

TARGETS = {
    "export_json_ratio": ("JSON export / floor", 1.5),
    "export_po_zip_ratio": ("PO ZIP export / floor", 4.0),
    "server_peak_rss_mb": ("server peak RSS, 1M export (MB)", 250),
    "bulk_upsert_10k_s": ("bulk-upsert 10,000 items (s)", 0.5),
    "patch_p50_ms": ("single PATCH p50 (ms)", 5),
    "patch_p99_ms": ("single PATCH p99 (ms)", 25),
    "patch_concurrent_errors": ("16 concurrent writers: errors", 0),
    "export_304_rps": ("304 export path (req/s, higher is better)", 1500),
    "stats_ms": ("GET /languages?stats=true, 1M (ms)", 100),
    "history_ms": ("GET /translations/history, 1M (ms)", 100),
}


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


def seed(database_url: str, values: int) -> dict:
    """Create a user, a project and keys, and fill the project through the service layer."""
    from flask_migrate import upgrade

    from loko import create_app
    from loko.apikeys.service import issue_api_key
    from loko.auth.models import User
    from loko.auth.service import create_user, open_session, user_actor
    from loko.database import unit_of_work
    from loko.extensions import db
    from loko.projects.service import insert_project
    from loko.translations.service import bulk_upsert

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    keys_per_file = values // (len(LANGUAGES) * len(FILES))
    rng = random.Random(values)
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("bench@example.test", "bench-password", "Bench")
            project = insert_project(org.id, "Bench")
            key, _ = issue_api_key(project.id, "bench", "write", created_by=user.id)
            session = open_session(user.id, 1)
            project_id = project.id
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
        db.engine.dispose()
    return {"project_id": project_id, "key": key, "session": session, "seed_s": seconds}


# -- the floor -----------------------------------------------------------------------------

FLOOR_QUERY = (
    "SELECT v.language_code, t.file_name, t.key, v.value FROM translation_values v "
    "JOIN translations t ON t.id = v.translation_id "
    "WHERE v.project_id = {mark} AND t.deleted_at IS NULL"
)


def floor_once(database_url: str, project_id: str) -> float:
    """Raw driver query of every value + nested dict + orjson: what no export can beat."""
    url = make_url(database_url)
    started = time.perf_counter()
    if url.get_backend_name() == "sqlite":
        import sqlite3

        connection = sqlite3.connect(url.database)
        rows = connection.execute(FLOOR_QUERY.format(mark="?"), (project_id,)).fetchall()
        connection.close()
    else:
        import psycopg

        with psycopg.connect(
            url.set(drivername="postgresql").render_as_string(hide_password=False)
        ) as connection:
            rows = connection.execute(FLOOR_QUERY.format(mark="%s"), (project_id,)).fetchall()
    document = {}
    for language, file_name, key, value in rows:
        document.setdefault(language, {}).setdefault(file_name, {})[key] = value
    orjson.dumps(document)
    return time.perf_counter() - started


# -- the server and the HTTP client --------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, database_url: str, processes: int = 1):
        self.port = free_port()
        env = {**os.environ, "LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"}
        command = [str(Path(sys.executable).parent / "loko"), "serve", "--port", str(self.port)]
        if processes > 1:
            command += ["--processes", str(processes)]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _, _ = request(self.port, "GET", "/api/health")
                if status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("loko serve did not start")

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
        self.process.wait(timeout=30)


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
    return {"requests_per_s": clients * per_client / elapsed, "errors": errors[0], **percentiles(latencies)}


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return {"p50_ms": pick(0.50), "p99_ms": pick(0.99)}


# -- the measurements ----------------------------------------------------------------------


def measure_size(database_url: str, values: int, runs: int, full: bool, processes_lever: bool) -> dict:
    seeded = seed(database_url, values)
    project, key = seeded["project_id"], seeded["key"]
    auth = {"Authorization": f"Bearer {key}"}
    base = f"/api/projects/{project}"
    result = {"values": values, "seed_s": seeded["seed_s"]}

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

        # Each floor run goes right before an export run, so both see the machine alike.
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
        result["floor"] = summary_of(floor_samples)
        if values <= CACHEABLE_VALUES:
            result["export_json_cached"] = timed(export_only(""), runs)
        result["server_rss_before_mb"] = rss_before
        result["server_peak_rss_mb"] = server.peak_rss_mb()

        result["export_304"] = not_modified_throughput(server.port, base, auth, full)
        result["languages_stats"] = timed(
            lambda: request(server.port, "GET", base + "/languages?stats=true", headers=auth), runs
        )
        result["history_first_page"] = timed(
            lambda: request(server.port, "GET", base + "/translations/history", headers=auth), runs
        )

        def patch(i, n):
            body = {
                "key": f"bench.patch_{i}_{n % 50}",
                "fileName": FILES[1],
                "updates": {"de": {"value": f"v{n}"}},
            }
            return "PATCH", base + "/translations", body, auth, {200}

        sequential = 2000 if full else 300
        result["patch_sequential"] = concurrent(server.port, 1, sequential, patch)
        result["patch_concurrent"] = concurrent(server.port, 16, 100 if full else 30, patch)

        def bulk(prefix, count, changed_from):
            items = [
                {
                    "key": f"section.sub.key_{i:06d}" if i < changed_from else f"{prefix}.{i:06d}",
                    "value": f"new {i}",
                }
                for i in range(count)
            ]
            return {
                "operation": "bulk-upsert",
                "fileName": FILES[2],
                "languageCode": "en",
                "translations": items,
            }

        bulk_samples = []
        for run in range(runs):
            body = bulk(f"bulk{run}", 10_000, 5_000)
            started = time.perf_counter()
            status, _, _ = request(server.port, "PUT", base + "/translations", body, auth)
            bulk_samples.append(time.perf_counter() - started)
            assert status == 200, status
        result["bulk_upsert_10k"] = summary_of(bulk_samples)
        if values == SMALLEST:
            result["import_100k_s"] = import_100k(server.port, base, auth)
    finally:
        server.stop()
    result["editor"] = editor.measure_editor(database_url, project, seeded["session"])

    if processes_lever:
        for processes in (1, 2):
            result[f"export_live_{processes}proc"] = live_export_throughput(
                database_url, base, auth, processes
            )
        server = Server(database_url, processes=2)
        try:
            result["export_304_2proc"] = not_modified_throughput(server.port, base, auth, full)
        finally:
            server.stop()
    return result


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


def not_modified_throughput(port: int, base: str, auth: dict, full: bool, etag: str | None = None) -> dict:
    """16 clients asking for an unchanged export with its ETag: with wrk when the machine
    has it (a load generator in C takes no CPU from the GIL), else with Python threads."""
    if etag is None:
        _, headers, _ = request(port, "GET", base + "/translations", headers=auth)
        etag = headers["etag"]
    wrk = shutil.which("wrk")
    if wrk is None:
        return concurrent(
            port,
            16,
            200 if full else 50,
            lambda i, n: ("GET", base + "/translations", None, {**auth, "If-None-Match": etag}, {304}),
        )
    command = [wrk, "-t2", "-c16", f"-d{5 if full else 2}s", "-H", f"Authorization: {auth['Authorization']}"]
    command += ["-H", f"If-None-Match: {etag}", f"http://127.0.0.1:{port}{base}/translations"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = next(line for line in output.splitlines() if line.startswith("Requests/sec:"))
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", output))
    return {"requests_per_s": float(rate.split()[1]), "errors": errors, "tool": "wrk"}


BARE_ETAG = '"' + "0" * 32 + '"'
BARE_304_APP = """
import sys, waitress
def app(environ, start_response):
    start_response("304 Not Modified", [("ETag", '"' + "0" * 32 + '"')])
    return []
waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, _quiet=True)
"""


def bare_waitress_304(full: bool) -> dict:
    """The ceiling of the 304 path: a bare WSGI function answering 304 under waitress with
    Loko's thread count, loaded the same way (no framework, no database)."""
    if shutil.which("wrk") is None:
        return {}
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", BARE_304_APP, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        return not_modified_throughput(port, "", {"Authorization": "Bearer -"}, full, etag=BARE_ETAG)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


LANGUAGE_PAIRS = [f"{a},{b}" for i, a in enumerate(LANGUAGES) for b in LANGUAGES[i + 1 :]]


def live_export_throughput(database_url: str, base: str, auth: dict, processes: int) -> dict:
    """Exports that no cache can answer (each asks for a different pair of languages),
    4 clients at once: what more processes buy once the GIL holds one process to one core."""
    server = Server(database_url, processes=processes)
    try:
        return concurrent(
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
    finally:
        server.stop()


def summarize(results: list[dict]) -> dict:
    biggest = results[-1]
    by_size = {r["values"]: r for r in results}
    ratio_at = [r for r in results if r["values"] >= 100_000] or results
    return {
        "export_json_ratio": max(r["export_json"]["median"] / r["floor"]["median"] for r in ratio_at),
        "export_po_zip_ratio": max(r["export_po_zip"]["median"] / r["floor"]["median"] for r in ratio_at),
        "server_peak_rss_mb": biggest["server_peak_rss_mb"],
        "bulk_upsert_10k_s": max(r["bulk_upsert_10k"]["median"] for r in results),
        "patch_p50_ms": max(r["patch_sequential"]["p50_ms"] for r in results),
        "patch_p99_ms": max(r["patch_sequential"]["p99_ms"] for r in results),
        "patch_concurrent_errors": sum(r["patch_concurrent"]["errors"] for r in results),
        "export_304_rps": min(r["export_304"]["requests_per_s"] for r in results),
        "stats_ms": biggest["languages_stats"]["median"] * 1000,
        "history_ms": biggest["history_first_page"]["median"] * 1000,
        "sizes": sorted(by_size),
    }


def met(name: str, value: float, target: float) -> bool:
    return value >= target if name == "export_304_rps" else value <= target


def print_table(results: list[dict], summary: dict, machine: str) -> None:
    print(f"\nLoko benchmark on {machine}\n")
    header = f"{'measurement':42}" + "".join(f"{r['values']:>14,}" for r in results)
    print(header)
    print("-" * len(header))
    rows = [
        ("seed through services (s)", lambda r: r["seed_s"]),
        ("floor: raw query + dict + orjson (s)", lambda r: r["floor"]["median"]),
        ("export JSON over HTTP (s)", lambda r: r["export_json"]["median"]),
        ("  ratio to floor", lambda r: r["export_json"]["median"] / r["floor"]["median"]),
        ("export JSON, cached by ETag (s)", lambda r: r.get("export_json_cached", {}).get("median", NAN)),
        ("export JSON ZIP (s)", lambda r: r["export_json_zip"]["median"]),
        ("export PO ZIP (s)", lambda r: r["export_po_zip"]["median"]),
        ("  ratio to floor", lambda r: r["export_po_zip"]["median"] / r["floor"]["median"]),
        ("server peak RSS (MB)", lambda r: r["server_peak_rss_mb"]),
        ("304 export, 16 clients (req/s)", lambda r: r["export_304"]["requests_per_s"]),
        (
            "304 export, 2 processes (req/s)",
            lambda r: r.get("export_304_2proc", {}).get("requests_per_s", float("nan")),
        ),
        ("bulk-upsert 10k, half new (s)", lambda r: r["bulk_upsert_10k"]["median"]),
        ("import 100k as 10 requests (s)", lambda r: r.get("import_100k_s", NAN)),
        ("PATCH sequential p50 (ms)", lambda r: r["patch_sequential"]["p50_ms"]),
        ("PATCH sequential p99 (ms)", lambda r: r["patch_sequential"]["p99_ms"]),
        ("PATCH 16 clients (req/s)", lambda r: r["patch_concurrent"]["requests_per_s"]),
        ("PATCH 16 clients errors", lambda r: r["patch_concurrent"]["errors"]),
        ("GET languages?stats=true (ms)", lambda r: r["languages_stats"]["median"] * 1000),
        ("GET history first page (ms)", lambda r: r["history_first_page"]["median"] * 1000),
        (
            "live 2-language export, 1 process (req/s)",
            lambda r: r.get("export_live_1proc", {}).get("requests_per_s", float("nan")),
        ),
        (
            "live 2-language export, 2 processes (req/s)",
            lambda r: r.get("export_live_2proc", {}).get("requests_per_s", float("nan")),
        ),
        *editor.table_rows(),
    ]
    for label, get in rows:
        print(f"{label:42}" + "".join(f"{get(r):>14.3f}" for r in results))
    print("\nTargets")
    for name, (label, target) in TARGETS.items():
        value = summary[name]
        ratio = value / target if target else float(value)
        verdict = "met" if met(name, value, target) else "MISSED"
        print(f"  {label:46} {value:>10.3f}  target {target:>8}  ratio {ratio:>6.2f}  {verdict}")
    print("\n".join(editor.target_lines(results[-1]["editor"])))
    ceiling = summary["bare_waitress_304_rps"]
    print(
        f"\n  Ceiling of the 304 path: a bare WSGI function under waitress answers {ceiling:,.0f} req/s;"
        f" Loko reaches {summary['export_304_rps'] / ceiling:.0%} of it."
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--quick", action="store_true", help="fewer requests per load test")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-"))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, " + (
        "PostgreSQL" if args.postgres else "SQLite"
    )
    results = []
    try:
        for values in sizes:
            database = Database(args.postgres, workdir, f"v{values}")
            try:
                print(f"measuring {values:,} values ...", file=sys.stderr, flush=True)
                results.append(
                    measure_size(
                        database.url, values, args.runs, not args.quick, processes_lever=values == 100_000
                    )
                )
            finally:
                database.drop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    summary = summarize(results)
    summary["bare_waitress_304_rps"] = bare_waitress_304(not args.quick).get("requests_per_s", NAN)
    print_table(results, summary, machine)
    Path(args.output).write_text(
        json.dumps({"machine": machine, "results": results, "summary": summary}, indent=2)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
