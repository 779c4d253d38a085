"""Exports rebuilt member by member, on a 200,000-value project (5 files x 10 languages x
4,000 keys): how long a file's 10-language ZIP takes right after one value of one language
changed (only that language's member is written and compressed again), and whether the
one-language export of that file stays as it was (same ETag, same body, served as kept)
after a write to another language.

    python -m bench.members                                   # SQLite
    python -m bench.members --postgres "$LOKO_TEST_DATABASE_URL"

Each figure is a median of ``--runs`` requests to a real ``loko serve`` (the documented
defaults, without job workers), each right after a PATCH of one value in English of the
file it reads; the "every member" rows follow a change to a language's name, which every
member depends on (a shared change), as a cold build of the same archive; the floor reads
the file with the raw driver and zips it with zipfile (bench/run.py's), and the floor of one
member reads one language of it, writes its JSON and deflates it.
"""

import argparse
import io
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
import zipfile
import zlib
from http.client import HTTPConnection
from pathlib import Path

import orjson

from bench.run import (
    FILE_FLOOR_QUERY,
    LANGUAGES,
    READ_FILE,
    READ_FILE_KEYS,
    Database,
    Server,
    driver_rows,
    request,
    value_text,
    zip_floor_once,
)
from bench.run import seed as run_seed

FILES = [READ_FILE, *(f"module{i}/strings" for i in range(4))]
KEYS_PER_FILE = READ_FILE_KEYS
FILE = READ_FILE  # the file whose exports are measured
WRITTEN, KEPT = "en", "de"  # the language written, and the one whose export must stay
ZIP_FORMATS = ("json", "po", "arb", "android")
WARM_UP = 16  # twice the server's threads
TARGETS = {
    "json_zip_after_one_value_ms": ("a file's 10-language JSON ZIP after one value changed (ms)", 40.0),
}


def seed(database_url: str) -> dict:
    """bench/run.py's readers' project (READ_FILE, 4,000 keys in 10 languages), and the
    other files added through bulk upserts (``fill``) by a server of their own."""
    seeded = run_seed(database_url, 1_000, read_file=True)
    seeded = {"project_id": seeded["read_project_id"], "key": seeded["read_key"]}
    server = Server(database_url)
    try:
        fill(Client(server.port, seeded["project_id"], seeded["key"]))
    finally:
        server.stop()
    return seeded


def fill(client: "Client") -> None:
    """The project's other files, in every language."""
    rng = random.Random(200_000)
    for file_name in FILES:
        if file_name == READ_FILE:
            continue
        for language in LANGUAGES:
            items = [
                {"key": f"screen{i % 40}.key_{i:05d}", "value": value_text(rng, i)}
                for i in range(KEYS_PER_FILE)
            ]
            body = {
                "operation": "bulk-upsert",
                "fileName": file_name,
                "languageCode": language,
                "translations": items,
            }
            status, _, _ = request(client.port, "PUT", client.base + "/translations", body, client.auth)
            assert status == 200, status


class Client:
    """One keep-alive connection to the server, as one API key of the project."""

    def __init__(self, port: int, project_id: str, key: str):
        self.port = port
        self.base = f"/api/projects/{project_id}"
        self.auth = {"Authorization": f"Bearer {key}"}
        self.connection = HTTPConnection("127.0.0.1", port, timeout=300)
        self.writes = 0

    def write(self, language: str = WRITTEN, file_name: str = FILE) -> None:
        """Change one value of ``language`` in ``file_name``."""
        self.writes += 1
        body = {
            "key": "screen.key_00007",
            "fileName": file_name,
            "updates": {language: {"value": f"changed {self.writes} {uuid.uuid4().hex[:6]}"}},
        }
        path = self.base + "/translations"
        status, _, _ = request(self.port, "PATCH", path, body, self.auth, self.connection)
        assert status == 200, status

    def rename(self) -> None:
        """A change every member depends on (a language's name: a change the project's
        files share)."""
        self.writes += 1
        body = {"currentCode": KEPT, "name": f"German {self.writes}"}
        status, _, _ = request(self.port, "PATCH", self.base + "/languages", body, self.auth, self.connection)
        assert status == 200, status

    def export(self, query: str, headers: dict | None = None) -> tuple[float, int, dict, bytes]:
        started = time.perf_counter()
        status, response_headers, body = request(
            self.port,
            "GET",
            f"{self.base}/translations?{query}",
            None,
            {**self.auth, **(headers or {})},
            self.connection,
        )
        return time.perf_counter() - started, status, response_headers, body


MEMBER_FLOOR_QUERY = FILE_FLOOR_QUERY + " AND v.language_code = {mark}"


def member_floor_once(database_url: str, project_id: str) -> float:
    """What rebuilding one member costs at the least: FILE's values in WRITTEN read with the
    raw driver, one sorted JSON object, deflated (the export's compression level)."""
    started = time.perf_counter()
    rows = driver_rows(database_url, MEMBER_FLOOR_QUERY, (project_id, FILE, WRITTEN))
    data = orjson.dumps({key: value for _, key, value in rows}, option=orjson.OPT_SORT_KEYS)
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    compressor.compress(data) + compressor.flush()
    return time.perf_counter() - started


def zip_query(format: str, file_name: str | None = FILE) -> str:
    query = f"format={format}&zip=true"
    return query + (f"&fileName={file_name}" if file_name else "")


def after_writes(client: Client, query: str, runs: int, change) -> list[float]:
    """Seconds of the export ``query`` right after ``change(client)``, ``runs`` times (the
    first export, which fills what is kept, is not counted)."""
    client.export(query)
    samples = []
    for _ in range(runs):
        change(client)
        elapsed, status, headers, body = client.export(query)
        assert status == 200 and headers["content-type"] == "application/zip", (status, body[:200])
        samples.append(elapsed)
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert archive.testzip() is None
    return samples


def kept_after_another_language(client: Client, runs: int) -> dict:
    """The one-language JSON export of FILE after a write to another language of FILE:
    whether its ETag and body stay, its time, and a revalidation's status."""
    query = f"fileName={FILE}&language={KEPT}"
    _, status, headers, body = client.export(query)
    assert status == 200, status
    etag, same, samples, statuses = headers["etag"], True, [], []
    for _ in range(runs):
        client.write(WRITTEN)
        elapsed, status, headers_after, body_after = client.export(query)
        samples.append(elapsed)
        same = same and status == 200 and headers_after["etag"] == etag and body_after == body
        statuses.append(client.export(query, {"If-None-Match": etag})[1])
    return {
        "unchanged": same,
        "ms": statistics.median(samples) * 1000,
        "revalidation_statuses": sorted(set(statuses)),
        "bytes": len(body),
    }


def measure(database_url: str, runs: int) -> dict:
    # No job workers: the memory's refresh of the values written here would run beside the
    # measures (the measures are of the exports alone).
    os.environ["LOKO_WORKER_THREADS"] = "0"
    seeded = seed(database_url)
    server = Server(database_url)
    figures = {}
    try:
        client = Client(server.port, seeded["project_id"], seeded["key"])
        # Each of the server's threads reads through a database connection of its own: a
        # first use of each, not the steady state, is left out.
        after_writes(client, zip_query("json"), WARM_UP, Client.write)
        for format in ZIP_FORMATS:
            figures[f"{format}_zip_after_one_value_ms"] = (
                statistics.median(after_writes(client, zip_query(format), runs, Client.write)) * 1000
            )
        figures["json_zip_every_member_ms"] = (
            statistics.median(after_writes(client, zip_query("json"), runs, Client.rename)) * 1000
        )
        figures["member_floor_ms"] = (
            statistics.median(member_floor_once(database_url, seeded["project_id"]) for _ in range(runs))
            * 1000
        )
        figures["json_zip_floor_ms"] = (
            statistics.median(zip_floor_once(database_url, seeded["project_id"], FILE) for _ in range(runs))
            * 1000
        )
        figures["project_json_zip_after_one_value_ms"] = (
            statistics.median(after_writes(client, zip_query("json", None), runs, Client.write)) * 1000
        )
        figures["project_json_zip_every_member_ms"] = (
            statistics.median(after_writes(client, zip_query("json", None), runs, Client.rename)) * 1000
        )
        figures["one_language_after_another"] = kept_after_another_language(client, runs)
        figures["server_peak_rss_mb"] = server.peak_rss_mb()
    finally:
        server.stop()
    return figures


def print_figures(figures: dict, machine: str) -> None:
    values = len(FILES) * len(LANGUAGES) * KEYS_PER_FILE
    print(
        f"\nExports member by member on {machine}: {values:,} values "
        f"({len(FILES)} files x {len(LANGUAGES)} languages x {KEYS_PER_FILE:,} keys)\n"
    )
    rows = [
        *(
            (
                f"{name} ZIP of one file, after one {WRITTEN} value changed (ms)",
                f"{name}_zip_after_one_value_ms",
            )
            for name in ZIP_FORMATS
        ),
        ("json ZIP of one file, every member rebuilt (ms)", "json_zip_every_member_ms"),
        ("  floor: driver + zipfile, one file (ms)", "json_zip_floor_ms"),
        (f"  floor of one member: driver + orjson + deflate, {WRITTEN} of the file (ms)", "member_floor_ms"),
        ("json ZIP of the project, after one value changed (ms)", "project_json_zip_after_one_value_ms"),
        ("json ZIP of the project, every member rebuilt (ms)", "project_json_zip_every_member_ms"),
        ("server peak RSS (MB)", "server_peak_rss_mb"),
    ]
    for label, name in rows:
        print(f"  {label:68} {figures[name]:>9.1f}")
    kept = figures["one_language_after_another"]
    verdict = "unchanged (served as kept)" if kept["unchanged"] else "CHANGED"
    print(
        f"  {f'one-language ({KEPT}) JSON export of the file after a write to {WRITTEN}':68} "
        f"{kept['ms']:>9.1f}  {verdict}; If-None-Match: {kept['revalidation_statuses']}"
    )
    print()
    for name, (label, target) in TARGETS.items():
        value = figures[name]
        print(f"  {label:68} {value:>9.1f}  target <= {target:<5}  {'met' if value <= target else 'MISSED'}")
    met = kept["unchanged"] and kept["revalidation_statuses"] == [304]
    label = "one-language export after a write to another language"
    print(f"  {label:68} {'':>9}  target unchanged  {'met' if met else 'MISSED'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, " + (
        "PostgreSQL" if args.postgres else "SQLite"
    )
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-"))
    database = Database(args.postgres, workdir, "members")
    try:
        print("measuring exports member by member ...", file=sys.stderr, flush=True)
        figures = measure(database.url, args.runs)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print_figures(figures, machine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
