"""Point-in-time exports' figures: the export of a project of 100,000 values as it was a week
ago, a week of heavy history later (1,000,000 history entries in all), and the export of the
present beside it, through the export service on a real database.

    python -m bench.releases                      # SQLite
    python -m bench.releases --postgres URL       # a throwaway database on that server
    python -m bench.releases --postgres URL --explain   # and the plan of the history's read

The project holds 10 files of 5,000 keys in en and de. Its history is seeded set-based (one
INSERT ... SELECT each): every value created two weeks ago, changed 4 times in the week
after, then 5 times more in the last week; the moment asked for is a week ago. The data is
not analyzed (a planner without statistics, as after an import). Each figure is the median
of a few runs; the machine may be shared, so read them as orders of magnitude.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.run import Database

FILES = 10
KEYS = 5_000
LANGUAGES = ("en", "de")
BEFORE, AFTER = 4, 5  # changes of each value before and after the moment
RUNS = 3
TARGETS = {
    "past_export_s": ("export as of a week ago, 100,000 values (s)", 1.0),
    "present_export_s": ("export of the present, 100,000 values (s)", 1.0),
}


def _numbers(count: int, sqlite: bool) -> str:
    if sqlite:
        return f"WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {count - 1})"
    return f"WITH n(i) AS (SELECT generate_series(0, {count - 1}))"


def _seed(connection, project_id: str, start: datetime) -> int:
    """Keys, values and 1,000,000 history entries, set-based. Returns the entries' count."""
    sqlite = connection.dialect.name == "sqlite"
    values = FILES * KEYS * len(LANGUAGES)

    def run(sql: str) -> None:
        connection.exec_driver_sql(sql if sqlite else sql.replace("%", "%%"))

    def stamp(seconds: str) -> str:
        if sqlite:
            base = start.strftime("%Y-%m-%d %H:%M:%S")
            return f"strftime('%Y-%m-%d %H:%M:%f', '{base}', '+' || ({seconds}) || ' seconds') || '000'"
        return f"(TIMESTAMPTZ '{start.isoformat()}' + ({seconds}) * INTERVAL '1 second')"

    def translation_id(number: str) -> str:
        return f"printf('%036d', {number})" if sqlite else f"lpad(({number})::text, 36, '0')"

    def file_of(number: str) -> str:
        return f"'section' || (({number}) / {KEYS}) || '/messages'"

    def key_of(number: str) -> str:
        return f"'key_' || (({number}) % {KEYS})"

    keys = FILES * KEYS
    run(
        f"INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
        f"{_numbers(keys, sqlite)} SELECT {translation_id('i')}, '{project_id}', {file_of('i')}, "
        f"{key_of('i')}, {key_of('i')}, {stamp('0')}, {stamp('0')} FROM n"
    )
    week = 7 * 24 * 3600
    # Entry i, in time order (ids grow with time, as written): version i / values of value
    # v = i % values (key v / 2, in en or de): version 0 created two weeks ago, 1..BEFORE in
    # the week after, then AFTER more in the last week; the text is the value's version.
    per_value = 1 + BEFORE + AFTER
    entries = values * per_value
    language = "CASE WHEN (i % 2) = 0 THEN 'en' ELSE 'de' END"
    number = f"((i % {values}) / 2)"
    version = f"(i / {values})"
    spread = f"((i % {values}) / 100.0)"
    when = (
        f"CASE WHEN {version} = 0 THEN {spread} WHEN {version} <= {BEFORE} "
        f"THEN {version} * {week // (BEFORE + 1)} + {spread} "
        f"ELSE {week} + ({version} - {BEFORE}) * {week // (AFTER + 1)} + {spread} END"
    )
    text = f"'v' || {version} || ' of ' || {key_of(number)}"
    old = f"CASE WHEN {version} = 0 THEN NULL ELSE 'v' || ({version} - 1) || ' of ' || {key_of(number)} END"
    run(
        "INSERT INTO translation_history (project_id, translation_id, key, file_name, language, action, "
        "old_value, new_value, actor_type, created_at) "
        f"{_numbers(entries, sqlite)} SELECT '{project_id}', {translation_id(number)}, {key_of(number)}, "
        f"{file_of(number)}, {language}, CASE WHEN {version} = 0 THEN 'created' ELSE 'updated' END, "
        f"{old}, {text}, 'user', {stamp(when)} FROM n"
    )
    run(
        "INSERT INTO translation_values (translation_id, language_code, project_id, value, updated_at) "
        f"{_numbers(values, sqlite)} SELECT {translation_id('i / 2')}, "
        f"CASE WHEN i % 2 = 0 THEN 'en' ELSE 'de' END, '{project_id}', "
        f"'v{per_value - 1} of ' || {key_of('i / 2')}, {stamp(str(2 * week))} FROM n"
    )
    for code in LANGUAGES:
        for index in range(FILES):
            run(
                "INSERT INTO file_records (id, project_id, file_name, language_code) VALUES "
                f"('{index:08d}-0000-7000-8000-{code:0>12}', '{project_id}', "
                f"'section{index}/messages', '{code}')"
            )
    return entries


def _timed(make) -> float:
    started = time.perf_counter()
    make()
    return time.perf_counter() - started


def measure(database_url: str, explain: bool = False) -> dict:
    from loko import create_app
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.exports import service as exports
    from loko.exports.cache import ExportCache
    from loko.extensions import db
    from loko.languages.service import ensure_languages
    from loko.projects.models import Project
    from loko.projects.service import insert_project
    from loko.translations import timeline

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    figures = {name: [] for name in TARGETS}
    now = datetime.now(UTC)
    start = now - timedelta(days=14, minutes=5)
    moment = (now - timedelta(days=7)).isoformat()
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("releases@example.test", "bench-password", "Bench")
            project_id = insert_project(org.id, "Releases").id
            db.session.get(Project, project_id).created_at = start - timedelta(minutes=1)
            ensure_languages(project_id, list(LANGUAGES))
        with unit_of_work():
            entries = _seed(db.session.connection(), project_id, start)
        actor = user_actor(db.session.get(User, user.id))

        def export(**past) -> bytes:
            query = exports.ExportQuery(**past)
            project, query, etag = exports.authorize(actor, project_id, query)
            # A cache of its own each time: the present is built, not served again.
            body = exports.build_export(project, query, etag, ExportCache(0, member_bytes=0)).body
            data = body if isinstance(body, bytes) else b"".join(body)
            db.session.rollback()
            return data

        past = export(as_of=moment)
        assert past.count(b'"v4 of ') == FILES * KEYS * len(LANGUAGES), "the past export is not a week ago's"
        for _ in range(RUNS):
            figures["past_export_s"].append(_timed(lambda: export(as_of=moment)))
            figures["present_export_s"].append(_timed(lambda: export(format="json", zip=True)))
        if explain and db.engine.dialect.name == "postgresql":
            parameters = {
                "project_id": project_id,
                "at": timeline.parse_instant(moment),
                "languages": list(LANGUAGES),
            }
            compiled = timeline.values_statement(languages=True).compile(dialect=db.engine.dialect)
            expanded = compiled.construct_expanded_state(compiled.construct_params(parameters))
            connection = db.session.connection()
            connection.exec_driver_sql(timeline.WIDER)
            plan = [
                row[0]
                for row in connection.exec_driver_sql(
                    "EXPLAIN (ANALYZE, BUFFERS) " + expanded.statement, expanded.parameters
                )
            ]
            print("\nPlan of the history's read as of a week ago (unanalyzed data):")
            print("\n".join(plan))
            db.session.rollback()
        db.engine.dispose()
    result = {name: statistics.median(samples) for name, samples in figures.items()}
    result["entries"] = entries
    return result


def table_rows(figures: dict) -> list[tuple[str, str, str]]:
    return [
        (label, f"{figures[name]:.2f}", f"< {target:g}  {'ok' if figures[name] < target else 'MISSED'}")
        for name, (label, target) in TARGETS.items()
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--explain", action="store_true", help="print the read's plan (PostgreSQL)")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-releases-"))
    database = Database(args.postgres, workdir, "releases")
    try:
        figures = measure(database.url, args.explain)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    database_name = "PostgreSQL" if args.postgres else "SQLite"
    print(f"\nPoint-in-time exports ({database_name}, {figures['entries']:,} history entries)")
    for label, value, target in table_rows(figures):
        print(f"  {label:<48} {value:>8}   {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
