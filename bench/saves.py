"""Saves beside background work, on a 200,000-value project (5 files x 10 languages x 4,000
keys) imported through the API as a user would: the import's derived work (the memory's
index, the checks of other languages, webhooks, audit) runs in the background as it does
after any import, and the saves made right then must not wait for it.

    python -m bench.saves                                   # SQLite
    python -m bench.saves --postgres "$LOKO_TEST_DATABASE_URL"

Measured against a real ``loko serve`` (the documented defaults):

- the bulk upsert of one file's 4,000 keys in one language, 2,000 of them changed;
- 200 sequential PATCHes (one client, one keep-alive connection) started right after the
  import's last request: p50, p90, p99.
"""

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from http.client import HTTPConnection
from pathlib import Path

from bench.run import LANGUAGES, Database, Server, request, value_text

FILES = [f"module{i}/strings" for i in range(5)]
KEYS_PER_FILE = 4_000
PATCHES = 200
TARGETS = {
    "bulk_upsert_2000_changed_ms": ("bulk upsert, 4,000 keys, 2,000 changed (ms)", 60.0),
    "patch_after_import_p90_ms": ("PATCH right after the import: p90 (ms)", 5.0),
    "patch_after_import_p99_ms": ("PATCH right after the import: p99 (ms)", 10.0),
}


def set_up(database_url: str) -> dict:
    """A user, an empty project with LANGUAGES and a write key (the service layer)."""
    from loko import create_app
    from loko.apikeys.service import issue_api_key
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.languages.service import add_language
    from loko.projects.service import insert_project

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("bench@example.test", "bench-password", "Bench")
            project = insert_project(org.id, "Saves")
            key, _ = issue_api_key(project.id, "bench", "write", created_by=user.id)
            project_id = project.id
        actor = user_actor(db.session.get(User, user.id))
        for code in LANGUAGES:
            with unit_of_work():
                add_language(actor, project_id, code, None, None)
        db.engine.dispose()
    return {"project_id": project_id, "key": key}


def items(rng: random.Random, count: int) -> list[dict]:
    return [{"key": f"screen{n % 40}.key_{n:05d}", "value": value_text(rng, n)} for n in range(count)]


def changed(stored: list[dict], run_number: int) -> list[dict]:
    """``stored`` with its second half changed (differently each run): every key sent, half
    of the values changed, as a file pushed again after an edit of half of it."""
    half = len(stored) // 2
    return stored[:half] + [
        {"key": item["key"], "value": f"{item['value']} (changed {run_number})"} for item in stored[half:]
    ]


def upsert(port: int, base: str, auth: dict, connection, file_name: str, language: str, body: list) -> float:
    payload = {
        "operation": "bulk-upsert",
        "fileName": file_name,
        "languageCode": language,
        "translations": body,
    }
    started = time.perf_counter()
    status, _, data = request(port, "PUT", base + "/translations", payload, auth, connection)
    assert status == 200, (status, data[:300])
    return time.perf_counter() - started


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(database_url: str) -> dict:
    made = set_up(database_url)
    server = Server(database_url)
    try:
        port = server.port
        base = f"/api/projects/{made['project_id']}"
        auth = {"Authorization": f"Bearer {made['key']}"}
        connection = HTTPConnection("127.0.0.1", port, timeout=600)
        rng = random.Random(200_000)
        started = time.perf_counter()
        imported_items = {}
        for file_name in FILES:
            for language in LANGUAGES:
                body = imported_items[file_name, language] = items(rng, KEYS_PER_FILE)
                upsert(port, base, auth, connection, file_name, language, body)
        imported = time.perf_counter() - started
        latencies = []
        for number in range(PATCHES):
            body = {
                "key": f"screen{number % 40}.key_{number:05d}",
                "fileName": FILES[number % len(FILES)],
                "updates": {LANGUAGES[1 + number % 9]: {"value": f"saved {number}"}},
            }
            began = time.perf_counter()
            status, _, data = request(port, "PATCH", base + "/translations", body, auth, connection)
            latencies.append(time.perf_counter() - began)
            assert status == 200, (status, data[:300])
        bulk = []
        for run_number in range(5):
            body = changed(imported_items[FILES[0], "de"], run_number)
            bulk.append(upsert(port, base, auth, connection, FILES[0], "de", body))
            time.sleep(0.5)
        return {
            "import_s": imported,
            "patch_after_import_p50_ms": statistics.median(latencies) * 1000,
            "patch_after_import_p90_ms": percentile(latencies, 0.90) * 1000,
            "patch_after_import_p99_ms": percentile(latencies, 0.99) * 1000,
            "bulk_upsert_2000_changed_ms": statistics.median(bulk) * 1000,
            "bulk_upsert_runs_ms": [round(seconds * 1000, 1) for seconds in bulk],
        }
    finally:
        server.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: SQLite)")
    arguments = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="loko-bench-saves-")
    database = Database(arguments.postgres, workdir=Path(workdir), label="saves")
    try:
        figures = run(database.url)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"  {'200,000 values imported through the API (s)':60} {figures['import_s']:9.1f}")
    print(f"  {'PATCH right after the import: p50 (ms)':60} {figures['patch_after_import_p50_ms']:9.1f}")
    for name, (label, target) in TARGETS.items():
        value = figures[name]
        print(f"  {label:60} {value:9.1f}  target <= {target:g}  {'met' if value <= target else 'MISSED'}")
    print(f"  {'bulk upsert: each of the runs (ms)':60} {figures['bulk_upsert_runs_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
