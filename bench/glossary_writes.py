"""What an organization's glossary costs on the write paths.

    python -m bench.glossary_writes                    # SQLite
    python -m bench.glossary_writes --postgres URL     # a throwaway database on that server

Through the service layer, in two organizations alike but for their glossary (none, and
1,000 terms with a German translation each, a tenth of them found in the sources): a bulk
upsert of 10,000 new German values over 10,000 English sources, and 300 one-value writes
(each a bulk upsert of one item), alternating which organization goes first. Figures: the
bulk write's time and its checks' step (``quality.values_written``), the one-value writes'
median.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.checks_writes import _app, _owner, _project
from bench.run import Database

KEYS = 10_000
TERMS = 1_000
SINGLE_WRITES = 300
RUNS = 3


def _glossary(organization_id: str) -> None:
    from loko.database import unit_of_work
    from loko.extensions import db
    from loko.glossary.models import Glossary, GlossaryTerm, GlossaryTranslation

    with unit_of_work():
        db.session.add(Glossary(organization_id=organization_id, revision=1))
        for i in range(TERMS):
            term = GlossaryTerm(organization_id=organization_id, language="en", term=f"term{i}")
            db.session.add(term)
            db.session.flush()
            db.session.add(GlossaryTranslation(term_id=term.id, language="de", text=f"Begriff{i}"))


def _sources(i: int) -> str:
    # A tenth of the sources hold a glossary term.
    return f"Source {i} with term{i % TERMS}" if i % 10 == 0 else f"Source {i} with nothing"


def measure(app) -> dict:
    from loko.translations import history
    from loko.translations.service import bulk_upsert

    spent = [0.0]
    values_written = history.values_written

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return values_written(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    history.values_written = timed
    figures = {(what, kind): [] for what in ("bulk", "step", "single") for kind in ("none", "glossary")}
    with app.app_context():
        owners = {"none": _owner("plain"), "glossary": _owner("glossary")}
        _glossary(owners["glossary"][1])
    for run in range(RUNS):
        for kind in sorted(owners, reverse=run % 2 == 1):
            with app.app_context():
                actor, organization_id = owners[kind]
                project_id = _project(organization_id, f"run{run}", "{}")
                sources = [{"key": f"key_{i:05d}", "value": _sources(i)} for i in range(KEYS)]
                bulk_upsert(actor, project_id, "messages", "en", sources)
                items = [{"key": f"key_{i:05d}", "value": f"Übersetzung {i}"} for i in range(KEYS)]
                spent[0] = 0.0
                started = time.perf_counter()
                bulk_upsert(actor, project_id, "messages", "de", items)
                figures["bulk", kind].append(time.perf_counter() - started)
                figures["step", kind].append(spent[0])
                singles = []
                for i in range(SINGLE_WRITES):
                    started = time.perf_counter()
                    item = {"key": f"key_{i * 10:05d}", "value": f"Neu {i}"}
                    bulk_upsert(actor, project_id, "messages", "de", [item])
                    singles.append(time.perf_counter() - started)
                figures["single", kind].append(statistics.median(singles))
    history.values_written = values_written
    return {name: statistics.median(samples) for name, samples in figures.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="loko-glossary-bench-"))
    database = Database(args.postgres, folder, "glossary")
    try:
        medians = measure(_app(database.url))
    finally:
        database.drop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{'measure':<44}{'no glossary':>14}{'1,000 terms':>14}")
    for what, label, unit, scale in (
        ("bulk", "bulk upsert of 10,000 values", "s", 1),
        ("step", "  of which the checks' step", "s", 1),
        ("single", "one-item bulk upsert, median", "ms", 1000),
    ):
        plain, with_glossary = medians[what, "none"] * scale, medians[what, "glossary"] * scale
        print(f"{label + f' ({unit})':<44}{plain:>14.3f}{with_glossary:>14.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
