"""Proposals' figures, through the service layer on a real database: the review queue's
first page with 100,000 open proposals (by votes, and filtered by language and file), and a
bulk accept of the best-voted proposal of 10,000 keys (one operation), then its undo.

    python -m bench.proposals                      # SQLite
    python -m bench.proposals --postgres URL       # a throwaway database on that server
    python -m bench.proposals --quick              # 10,000 proposals instead of 100,000

The project holds 10 files of 10,000 keys in English; each key has one open German proposal
with a few net votes, made a second apart in random order of the keys (written straight
into the table: seeding is not measured). Each figure
is the median of a few runs.
"""

import argparse
import hashlib
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.run import Database

FILES = [f"section{i}/messages" for i in range(10)]
RUNS = 5
ACCEPTED = 10_000
TARGETS = {
    "queue_first_page_ms": ("queue's first page, 100,000 open proposals (ms)", 50.0),
    "queue_filtered_ms": ("  the same, one language and file, oldest first (ms)", 50.0),
    "bulk_accept_s": ("bulk accept of 10,000 keys' best-voted proposals (s)", 3.0),
    "undo_bulk_accept_s": ("  its undo (s)", 3.0),
}


def measure(database_url: str, proposals: int) -> dict:
    from sqlalchemy import insert, select

    from loko import create_app
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import new_id, unit_of_work, utcnow
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.languages.service import add_language
    from loko.projects.service import insert_project
    from loko.proposals import service
    from loko.proposals.models import Proposal
    from loko.translations.models import Translation
    from loko.translations.service import bulk_upsert
    from loko.translations.undo import Selection, undo_changes

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    keys = proposals // len(FILES)
    figures = {name: [] for name in TARGETS}
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("proposals@example.test", "bench-password", "Bench")
            project_id = insert_project(org.id, "Proposals").id
        actor = user_actor(db.session.get(User, user.id))
        for code in ("en", "de"):
            add_language(actor, project_id, code, None, None)
        for file_name in FILES:
            items = [{"key": f"key_{i:05d}", "value": f"en value {i}"} for i in range(keys)]
            bulk_upsert(actor, project_id, file_name, "en", items)
        rng = random.Random(proposals)
        ids = (
            db.session.execute(select(Translation.id).where(Translation.project_id == project_id))
            .scalars()
            .all()
        )
        # Proposals arrive over time across the files, not file by file.
        ids = list(ids)
        rng.shuffle(ids)
        started_at = utcnow() - timedelta(days=30)
        rows = []
        for index, translation_id in enumerate(ids):
            text = f"de proposal {index}"
            rows.append(
                {
                    "id": new_id(),
                    "project_id": project_id,
                    "translation_id": translation_id,
                    "language_code": "de",
                    "text": text,
                    "text_digest": hashlib.sha256(text.encode()).hexdigest(),
                    "origin": "person",
                    "author_type": "system",
                    "author_id": None,
                    "author_name": "Contributor",
                    "created_at": started_at + timedelta(seconds=index),
                    "state": "open",
                    "votes": rng.randint(-2, 6),
                }
            )
        with unit_of_work():
            for start in range(0, len(rows), 5000):
                db.session.execute(insert(Proposal), rows[start : start + 5000])
        db.session.commit()

        filters = {"sort": "votes"}
        narrowed = {"sort": "oldest", "language": "de", "fileName": FILES[3]}
        for _ in range(RUNS):
            for name, chosen in (("queue_first_page_ms", filters), ("queue_filtered_ms", narrowed)):
                started = time.perf_counter()
                page = service.list_queue(actor, project_id, dict(chosen), 50)
                figures[name].append((time.perf_counter() - started) * 1000)
                assert len(page["proposals"]) == 50
                db.session.rollback()

        chosen = ids[: min(ACCEPTED, len(ids))]
        items = [{"translationId": translation_id, "language": "de"} for translation_id in chosen]
        for _ in range(3):
            started = time.perf_counter()
            accepted = service.bulk_accept(actor, project_id, {"items": items})
            figures["bulk_accept_s"].append(time.perf_counter() - started)
            assert accepted["accepted"] == len(chosen), accepted
            started = time.perf_counter()
            undo_changes(actor, project_id, Selection(operation_id=accepted["operationId"]))
            figures["undo_bulk_accept_s"].append(time.perf_counter() - started)
        db.engine.dispose()
    return {name: statistics.median(samples) for name, samples in figures.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--quick", action="store_true", help="10,000 proposals instead of 100,000")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-proposals-"))
    database = Database(args.postgres, workdir, "proposals")
    try:
        figures = measure(database.url, 10_000 if args.quick else 100_000)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nProposals ({'PostgreSQL' if args.postgres else 'SQLite'})")
    for name, (label, target) in TARGETS.items():
        value = figures[name]
        verdict = "ok" if value < target else "MISSED"
        print(f"  {label:<58} {value:>9.2f}   < {target:g}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
