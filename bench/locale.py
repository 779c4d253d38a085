"""The editor's figures in each language of the web app, on one project of 100,000 values:
the first page (target < 50 ms in any language), a search and what the first view
transfers, with ``LOKO_DEFAULT_LOCALE`` set to each (no Accept-Language is sent).

    python -m bench.locale [--values 100000] [--locales en,de,ja,ar] [--postgres URL]
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench import editor
from bench.run import Database, seed

FIGURES = ("first_page_ms", "search_ms", "transfer_kb")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=100_000)
    parser.add_argument("--locales", default="en,de,ja,ar")
    parser.add_argument("--postgres", default=None)
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-locale-"))
    database = Database(args.postgres, workdir, "locale")
    try:
        print(f"seeding {args.values:,} values ...", file=sys.stderr, flush=True)
        seeded = seed(database.url, args.values)
        rows = []
        for locale in args.locales.split(","):
            os.environ["LOKO_DEFAULT_LOCALE"] = locale
            figures = editor.measure_editor(database.url, seeded["project_id"], seeded["session"])
            rows.append((locale, figures))
    finally:
        os.environ.pop("LOKO_DEFAULT_LOCALE", None)
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{'locale':8}" + "".join(f"{name:>16}" for name in FIGURES))
    for locale, figures in rows:
        print(f"{locale:8}" + "".join(f"{figures[name]:>16.2f}" for name in FIGURES))
    target = editor.TARGETS["first_page_ms"][1]
    slowest = max(figures["first_page_ms"] for _locale, figures in rows)
    print(f"editor first page, slowest language: {slowest:.2f} ms (target < {target} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
