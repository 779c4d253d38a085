"""Find and replace's and the tags' figures, through the service layer on SQLite: the preview
of a replacement over 1,000,000 values (a rare term, which reads them all, and a common one,
whose first page fills at once), the apply of 100,000 replacements, and the editor's first
page filtered by a tag.

    python -m bench.replace [--quick]

The project holds 100,000 keys in 10 files and 10 languages (en the source), seeded with a
few set-based statements (a recursive CTE), not through the write path: 1 value in 10 names
Acme, 100 values name Initech; 1 key in 100 carries the tag web, 1 in 7 the tag checkout.
``--quick`` seeds a tenth of it. Each figure is the median of a few runs (the apply runs once:
it changes what it reads).
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.run import Database

LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pl", "pt", "sv", "ja")
FILES = 10
RUNS = 3
TARGETS = {
    "preview_rare_s": ("preview over 1,000,000 values, a term in 100 of them (s)", 2.0),
    "preview_page_s": ("preview's first page (1,000 changes) over 1,000,000 values (s)", 2.0),
    "apply_s": ("apply 100,000 replacements (s)", 5.0),
    "editor_tag_ms": ("editor's first page, tag filter, 1,000,000 values (ms)", 50.0),
}


def seed(keys: int) -> str:
    """The project's keys, values and tags, in a few INSERT ... SELECT statements; its id."""
    from sqlalchemy import text

    from loko.auth.service import create_user
    from loko.database import driver_timestamp, unit_of_work, utcnow
    from loko.extensions import db
    from loko.projects.models import Project
    from loko.projects.service import insert_project

    now = driver_timestamp(utcnow())
    with unit_of_work():
        user, org = create_user("replace@example.test", "bench-password", "Bench")
        project = insert_project(org.id, "Replace")
        project_id, user_id = project.id, user.id
    with unit_of_work():
        db.session.execute(
            text("INSERT INTO project_languages (project_id, code, name, emoji) VALUES (:p, :c, :c, '')"),
            [{"p": project_id, "c": code} for code in LANGUAGES],
        )
        db.session.get(Project, project_id).source_language = "en"
        numbers = "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :keys) "
        db.session.execute(
            text(
                numbers + "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, "
                "updated_at) SELECT printf('00000000-0000-7000-8000-%012d', i), :p, 'file' || (i % :files), "
                "printf('key_%06d', i), printf('key_%010d', i), :now, :now FROM n"
            ),
            {"keys": keys, "p": project_id, "files": FILES, "now": now},
        )
        db.session.execute(
            text(
                "INSERT INTO translation_values (translation_id, language_code, project_id, value, "
                "updated_at, state) SELECT t.id, l.code, :p, CASE "
                "WHEN CAST(substr(t.id, 25) AS INTEGER) % 10 = 0 THEN 'Welcome to Acme, item ' || t.key "
                "WHEN CAST(substr(t.id, 25) AS INTEGER) % :rare = 1 THEN 'Ask Initech about ' || t.key "
                "ELSE 'A plain value for ' || t.key END || ' (' || l.code || ')', :now, 'translated' "
                "FROM translations t CROSS JOIN project_languages l "
                "WHERE t.project_id = :p AND l.project_id = :p"
            ),
            {"p": project_id, "now": now, "rare": keys // 10},
        )
        for tag, every in (("web", 100), ("checkout", 7)):
            db.session.execute(
                text(
                    "INSERT INTO key_tags (translation_id, tag, project_id, created_at) "
                    "SELECT id, :tag, :p, :now FROM translations "
                    "WHERE project_id = :p AND CAST(substr(id, 25) AS INTEGER) % :every = 0"
                ),
                {"tag": tag, "p": project_id, "now": now, "every": every},
            )
    db.session.execute(text("ANALYZE"))
    db.session.commit()
    return project_id, user_id


def timed(call, runs: int = RUNS) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), result


def measure(database_url: str, keys: int) -> dict:
    from sqlalchemy import select

    from loko import create_app
    from loko.auth.models import User
    from loko.auth.service import user_actor
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.replace.schemas import ReplaceRequest
    from loko.replace.service import replace_text
    from loko.tags.filters import TagFilter
    from loko.translations.models import Translation, TranslationValue
    from loko.workspace.editor import EditorFilters, editor_page

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    figures = {}
    with app.app_context():
        upgrade()
        started = time.perf_counter()
        project_id, user_id = seed(keys)
        figures["seed_s"] = time.perf_counter() - started
        figures["values"] = db.session.execute(select(db.func.count()).select_from(TranslationValue)).scalar()
        actor = user_actor(db.session.get(User, user_id))

        def preview(find: str, **more):
            data = ReplaceRequest().load({"find": find, "replace": "Globex", **more})
            return replace_text(actor, project_id, data)

        figures["preview_rare_s"], rare = timed(lambda: preview("Initech"))
        figures["preview_rare_changes"] = len(rare["changes"])
        figures["preview_page_s"], page = timed(lambda: preview("acme", wholeWord=True))
        figures["preview_page_changes"] = len(page["changes"])
        figures["preview_regex_s"], _ = timed(lambda: preview(r"Init\w+", mode="regex"), runs=1)

        wanted = min(100_000, figures["values"] // 10)
        rows = db.session.execute(
            select(TranslationValue.translation_id, TranslationValue.language_code, TranslationValue.value)
            .join(Translation, Translation.id == TranslationValue.translation_id)
            .where(TranslationValue.language_code != "en", TranslationValue.value.contains("Acme"))
            .limit(wanted)
        ).all()
        db.session.rollback()
        body = {
            "find": "Acme",
            "replace": "Globex",
            "matchCase": True,
            "dryRun": False,
            "items": [{"translationId": t, "language": code, "expected": value} for t, code, value in rows],
        }
        started = time.perf_counter()
        data = ReplaceRequest().load(body)
        figures["apply_load_s"] = time.perf_counter() - started
        started = time.perf_counter()
        applied = replace_text(actor, project_id, data)
        figures["apply_s"] = time.perf_counter() - started
        figures["applied"] = applied["applied"]

        def first_page(tags: TagFilter):
            page = editor_page(actor, project_id, EditorFilters(tags=tags), languages=("de", "fr"))
            db.session.rollback()
            return page

        editor_page(actor, project_id, EditorFilters())  # warm
        db.session.rollback()
        seconds, shown = timed(lambda: first_page(TagFilter(("web",))), runs=7)
        figures["editor_tag_ms"], figures["editor_tag_rows"] = seconds * 1000, len(shown.rows)
        seconds, _ = timed(lambda: first_page(TagFilter(("web", "checkout"))), runs=7)
        figures["editor_two_tags_ms"] = seconds * 1000
        seconds, _ = timed(lambda: first_page(TagFilter((), ("web",))), runs=7)
        figures["editor_exclude_ms"] = seconds * 1000
        seconds, _ = timed(lambda: first_page(TagFilter()), runs=7)
        figures["editor_plain_ms"] = seconds * 1000
        db.engine.dispose()
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 keys (100,000 values)")
    args = parser.parse_args(argv)
    keys = 10_000 if args.quick else 100_000
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-replace-"))
    database = Database(None, workdir, "replace")
    try:
        figures = measure(database.url, keys)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    seeded = f"{figures['values']:,} values, SQLite; seeded in {figures['seed_s']:.1f} s"
    print(f"\nFind and replace and tags ({seeded})")
    print(f"{'measure':<70} {'figure':>10} {'target':>8}")
    for name, (label, target) in TARGETS.items():
        value = figures[name]
        print(f"{label:<70} {value:>10.2f} {target:>8g} {'met' if value <= target else 'MISSED'}")
    print(
        f"  preview: {figures['preview_rare_changes']} changes of the rare term, "
        f"{figures['preview_page_changes']} on the first page of the common one; "
        f"a regular expression over every value {figures['preview_regex_s']:.2f} s"
    )
    print(f"  apply: {figures['applied']:,} written; its body loaded in {figures['apply_load_s']:.2f} s")
    print(
        f"  editor: {figures['editor_tag_rows']} rows with web; web and checkout "
        f"{figures['editor_two_tags_ms']:.1f} ms, without web {figures['editor_exclude_ms']:.1f} ms, "
        f"no filter {figures['editor_plain_ms']:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
