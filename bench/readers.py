"""The readers-under-writes measure of bench/run.py on its own: 8 clients reading a 4,000-key
file's JSON export, with and without 20 writes a second, taking turns; prints the share of
the quiet rate kept under writes (the target is at least 50%). With ``--stale``, the readers
say they accept an older body while a newer one is built (``stale=ok``), as a runtime reader
may; without it, each read is at least as new as every write acknowledged before it.

    python -m bench.readers                       # SQLite
    python -m bench.readers --stale               # readers that accept an older body
    python -m bench.readers --postgres "$LOKO_TEST_DATABASE_URL"
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench.run import READ_FILE, Database, Server, reader_load, request, seed


def readers_under_writes(port: int, base: str, auth: dict, rounds: int, seconds: float, query: str) -> dict:
    """bench.run's ``readers_under_writes``, with ``query`` added to the readers' path."""
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--stale", action="store_true", help="readers send stale=ok")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-"))
    database = Database(args.postgres, workdir, "readers")
    try:
        seeded = seed(database.url, 1_000, read_file=True)
        server = Server(database.url)
        try:
            figures = readers_under_writes(
                server.port,
                f"/api/projects/{seeded['read_project_id']}",
                {"Authorization": f"Bearer {seeded['read_key']}"},
                args.rounds,
                args.seconds,
                "&stale=ok" if args.stale else "",
            )
        finally:
            server.stop()
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
