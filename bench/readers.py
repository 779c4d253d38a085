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
import sys
import tempfile
from pathlib import Path

from bench.run import Database, Server, readers_under_writes, seed


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
