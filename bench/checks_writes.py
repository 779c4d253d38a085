"""What the checks cost on the write paths, and the "values with issues" list.

    python -m bench.checks_writes                      # SQLite
    python -m bench.checks_writes --postgres URL       # a throwaway database on that server

Writes, through the service layer: a bulk upsert of 100,000 new values (de, over 100,000
en source values, 1% of the keys with a maximum length their value exceeds) and an import of
a 100,000-entry file changing every one of them; each with every check off and with every
check at its default level (warn). Each figure is the median of a few runs, each run on a
project of its own. The list: GET /checks's query (its service) on a project of 1,000,000
values of which a few thousand have issues, SQLite only (with --postgres too).
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

from bench.run import Database

KEYS = 100_000
RUNS = 4
LIST_FILES = 10
LIST_KEYS = 50_000  # per file, in en and de: 1,000,000 values
LIST_ISSUES = 3_000
LIST_RUNS = 5
WRITE_TARGET = 0.15
LIST_TARGET_MS = 150


def _app(database_url: str):
    from loko import create_app
    from loko.database import upgrade_schema as upgrade

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    return app


def _owner(label: str):
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import unit_of_work
    from loko.extensions import db

    with unit_of_work():
        user, org = create_user(f"{label}@example.test", "bench-password", "Bench")
    return user_actor(db.session.get(User, user.id)), org.id


def _project(organization_id: str, name: str, levels: str) -> str:
    from loko.database import unit_of_work
    from loko.extensions import db
    from loko.projects.models import Project
    from loko.projects.service import insert_project

    with unit_of_work():
        project_id = insert_project(organization_id, name).id
        db.session.get(Project, project_id).checks = levels
    return project_id


def _limit_some_keys(project_id: str, every: int = 100) -> None:
    """Every ``every``-th key holds 8 characters: its de value is longer."""
    from sqlalchemy import text

    from loko.database import unit_of_work
    from loko.extensions import db

    with unit_of_work():
        db.session.execute(
            text("UPDATE translations SET max_length = 8 WHERE project_id = :p AND key LIKE :pattern"),
            {"p": project_id, "pattern": "%" + "0" * len(str(every - 1))},
        )


def measure_writes(apps: dict) -> dict:
    """``apps``: an app per level ("off", "warn"), each on a database of its own, so both
    grow alike (a database's statistics are refreshed as its tables grow)."""
    from loko.checks import registry
    from loko.imports.service import ImportOptions, import_files
    from loko.translations import history
    from loko.translations.service import bulk_upsert

    off = orjson.dumps(dict.fromkeys(registry.CHECKS, "off")).decode()
    figures = {(path, level): [] for path in ("bulk", "import") for level in apps}
    # The time spent in the checks' step itself (``quality.values_written``), summed per write:
    # on a machine shared with other work it varies less than the writes' own time.
    spent = [0.0]
    values_written = history.values_written

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return values_written(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    history.values_written = timed
    step = {(path, level): [] for path in ("bulk", "import") for level in apps}
    issues = {}
    owners = {}
    for level, app in apps.items():
        with app.app_context():
            owners[level] = _owner("checks")
    for run in range(RUNS):
        # Alternate which level goes first, so neither always runs on a cooler machine.
        for level in sorted(apps, reverse=run % 2 == 1):
            with apps[level].app_context():
                actor, organization_id = owners[level]
                project_id = _project(organization_id, f"run{run}", off if level == "off" else "{}")
                bulk_upsert(
                    actor,
                    project_id,
                    "messages",
                    "en",
                    [{"key": f"key_{i:06d}", "value": f"Source {i}"} for i in range(KEYS)],
                )
                _limit_some_keys(project_id)
                items = [{"key": f"key_{i:06d}", "value": f"Übersetzung {i}"} for i in range(KEYS)]
                spent[0] = 0.0
                started = time.perf_counter()
                counts = bulk_upsert(actor, project_id, "messages", "de", items)
                figures["bulk", level].append(time.perf_counter() - started)
                step["bulk", level].append(spent[0])
                assert counts["created"] == KEYS, counts
                document = orjson.dumps({f"key_{i:06d}": f"Neue Übersetzung {i}" for i in range(KEYS)})
                options = ImportOptions(format="json", language="de", file_name="messages")
                spent[0] = 0.0
                started = time.perf_counter()
                answer = import_files(actor, project_id, document, options)
                figures["import", level].append(time.perf_counter() - started)
                step["import", level].append(spent[0])
                assert answer["summary"]["updated"] == KEYS, answer["summary"]
                issues[level] = _issue_count(project_id)
    history.values_written = values_written
    medians = {name: statistics.median(samples) for name, samples in figures.items()}
    steps = {name: statistics.median(samples) for name, samples in step.items()}
    return {"medians": medians, "issues": issues, "samples": figures, "steps": steps}


def _issue_count(project_id: str) -> int:
    from sqlalchemy import func, select

    from loko.extensions import db
    from loko.quality.models import ValueIssue

    return db.session.execute(
        select(func.count()).select_from(ValueIssue).where(ValueIssue.project_id == project_id)
    ).scalar()


def measure_list(app) -> dict:
    from sqlalchemy import text

    from loko.database import unit_of_work
    from loko.extensions import db
    from loko.quality.review import list_issues
    from loko.translations.service import bulk_upsert

    with app.app_context():
        actor, organization_id = _owner("list")
        project_id = _project(organization_id, "List", "{}")
        for language in ("en", "de"):
            for file_number in range(LIST_FILES):
                items = [{"key": f"key_{i:06d}", "value": f"{language} {i}"} for i in range(LIST_KEYS)]
                bulk_upsert(actor, project_id, f"file{file_number}", language, items)
        # A few thousand values with an issue: their keys hold 1 character.
        with unit_of_work():
            ids = db.session.execute(
                text("SELECT id FROM translations WHERE project_id = :p ORDER BY id LIMIT :n"),
                {"p": project_id, "n": LIST_ISSUES},
            ).scalars()
            db.session.execute(
                text(
                    "INSERT INTO value_issues (translation_id, language_code, check_code, project_id, "
                    "message, fix) VALUES (:t, 'de', 'max-length', :p, 'Too long.', NULL)"
                ),
                [{"t": t, "p": project_id} for t in ids],
            )
        db.session.execute(text("ANALYZE"))
        db.session.commit()
        timings = {}
        for name, filters in (
            ("any check", {}),
            ("check and language", {"check": "max-length", "language": "de"}),
            ("file", {"fileName": "file0"}),
        ):
            samples = []
            for _ in range(LIST_RUNS):
                started = time.perf_counter()
                page = list_issues(actor, project_id, filters, 100, 0)
                samples.append((time.perf_counter() - started) * 1000)
                db.session.rollback()
            timings[name] = (statistics.median(samples), page["total"])
    return timings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--skip-list", action="store_true", help="only the writes")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-checks-"))
    databases = {level: Database(args.postgres, workdir, f"checks_{level}") for level in ("off", "warn")}
    try:
        apps = {level: _app(database.url) for level, database in databases.items()}
        writes = measure_writes(apps)
        listing = None if args.skip_list else measure_list(apps["warn"])
        for app in apps.values():
            with app.app_context():
                from loko.extensions import db

                db.engine.dispose()
    finally:
        for database in databases.values():
            database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nChecks on the write paths ({'PostgreSQL' if args.postgres else 'SQLite'}), median of {RUNS}")
    medians = writes["medians"]
    for path, label in (("bulk", "bulk upsert of 100,000 values"), ("import", "import of 100,000 entries")):
        off, warn = medians[path, "off"], medians[path, "warn"]
        added = warn / off - 1
        verdict = "ok" if added < WRITE_TARGET else "MISSED"
        print(
            f"  {label:<32} off {off:6.2f} s   warn {warn:6.2f} s   +{added * 100:5.1f}%"
            f"   (< {WRITE_TARGET * 100:.0f}%  {verdict})"
        )
    print(f"  issues stored: off {writes['issues']['off']}, warn {writes['issues']['warn']}")
    for (path, level), samples in writes["samples"].items():
        print(
            f"  {path} {level}: " + ", ".join(f"{sample:.2f}" for sample in samples) + " s; "
            f"checks' step (states, checks, issues) {writes['steps'][path, level]:.2f} s"
        )
    if listing is not None:
        print(f"\nThe issues list on 1,000,000 values with {LIST_ISSUES:,} issues (first page of 100)")
        for name, (milliseconds, total) in listing.items():
            verdict = "ok" if milliseconds < LIST_TARGET_MS else "MISSED"
            print(f"  {name:<20} {milliseconds:7.1f} ms ({total} issues)  (< {LIST_TARGET_MS} ms  {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
