"""Undo's figures, through the service layer on a real database: undoing an import of
100,000 values, and deleting and restoring a language of 100,000 values.

    python -m bench.undo                      # SQLite
    python -m bench.undo --postgres URL       # a throwaway database on that server

The project holds 10 files of 10,000 keys in en and de. The import changes every en value
(a ZIP of the 10 files); the language deleted is de. Each figure is the median of a few runs,
the database restored between them by the undo itself.
"""

import argparse
import io
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import orjson

from bench.run import Database

FILES = [f"section{i}/messages" for i in range(10)]
KEYS = 10_000
RUNS = 3
TARGETS = {
    "undo_import_s": ("undo of a 100,000-value import (s)", 3.0),
    "language_delete_s": ("delete a language of 100,000 values (s)", 3.0),
    "language_restore_s": ("restore it in one step (s)", 3.0),
}


def measure(database_url: str) -> dict:
    from loko import create_app
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.imports.service import ImportOptions, import_files
    from loko.languages.service import delete_language
    from loko.projects.service import insert_project
    from loko.translations.service import bulk_upsert
    from loko.translations.undo import Selection, undo_changes

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    figures = {name: [] for name in TARGETS}
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("undo@example.test", "bench-password", "Bench")
            project_id = insert_project(org.id, "Undo").id
        actor = user_actor(db.session.get(User, user.id))
        for language in ("en", "de"):
            for file_name in FILES:
                items = [{"key": f"key_{i:05d}", "value": f"{language} value {i}"} for i in range(KEYS)]
                bulk_upsert(actor, project_id, file_name, language, items)
        upload = io.BytesIO()
        with zipfile.ZipFile(upload, "w") as archive:
            for file_name in FILES:
                entries = {f"key_{i:05d}": f"imported value {i}" for i in range(KEYS)}
                archive.writestr(f"en/{file_name}.json", orjson.dumps(entries))
        options = ImportOptions(format="json", path_template="{language}/{fileName}.json")
        for _ in range(RUNS):
            answer = import_files(actor, project_id, upload.getvalue(), options)
            assert answer["summary"]["updated"] == len(FILES) * KEYS, answer["summary"]
            started = time.perf_counter()
            undone = undo_changes(actor, project_id, Selection(operation_id=answer["operationId"]))
            figures["undo_import_s"].append(time.perf_counter() - started)
            assert undone["summary"]["updated"] == len(FILES) * KEYS, undone["summary"]

            started = time.perf_counter()
            _, operation_id = delete_language(actor, project_id, "de")
            figures["language_delete_s"].append(time.perf_counter() - started)
            started = time.perf_counter()
            restored = undo_changes(actor, project_id, Selection(operation_id=operation_id))
            figures["language_restore_s"].append(time.perf_counter() - started)
            assert restored["summary"]["created"] == len(FILES) * KEYS, restored["summary"]
        db.engine.dispose()
    return {name: statistics.median(samples) for name, samples in figures.items()}


def table_rows(figures: dict) -> list[tuple[str, str, str]]:
    return [
        (label, f"{figures[name]:.2f}", f"< {target:g}  {'ok' if figures[name] < target else 'MISSED'}")
        for name, (label, target) in TARGETS.items()
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-undo-"))
    database = Database(args.postgres, workdir, "undo")
    try:
        figures = measure(database.url)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nUndo ({'PostgreSQL' if args.postgres else 'SQLite'})")
    for label, value, target in table_rows(figures):
        print(f"  {label:<45} {value:>8}   {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
