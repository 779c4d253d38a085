"""The upgrade to releases (0038): every history entry stored before it keeps every column as
it was, the history's point-in-time indexes exist, and a project upgraded with its history
exports as of a moment before the upgrade."""

from datetime import UTC, datetime

import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from loko.translations import timeline
from tests.selfhost.conftest import app_on, migrate_to

BEFORE = "0034_screenshot_trash"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
TITLE = "00000000-0000-7000-8000-0000000000c1"
CREATED = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
CHANGED = datetime(2026, 3, 2, 9, 30, 15, tzinfo=UTC)
COLUMNS = (
    "id",
    "project_id",
    "translation_id",
    "key",
    "file_name",
    "language",
    "action",
    "old_value",
    "new_value",
    "actor_type",
    "created_at",
)


def rows(url) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            found = connection.exec_driver_sql(
                f"SELECT {', '.join(COLUMNS)} FROM translation_history ORDER BY id"
            )
            return [tuple(row) for row in found]
    finally:
        engine.dispose()


def test_the_history_is_kept_and_read_as_of_a_moment_after_the_upgrade(empty_database_url):
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        dialect = connection.dialect.name
        created, changed = driver_timestamp(CREATED, dialect), driver_timestamp(CHANGED, dialect)
        connection.execute(
            sa.text("INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', :at)"),
            {"id": ORG, "at": created},
        )
        connection.execute(
            sa.text(
                'INSERT INTO projects (id, organization_id, name, "desc", emoji, checks, '
                "data_version, data_updated_at, created_at) VALUES "
                "(:id, :org, 'Web', '', '', '{}', 1, :at, :at)"
            ),
            {"id": PROJECT, "org": ORG, "at": created},
        )
        connection.execute(
            sa.text(
                "INSERT INTO translation_history (project_id, translation_id, key, file_name, language, "
                "action, old_value, new_value, actor_type, created_at) VALUES "
                "(:p, :t, 'title', 'common', 'en', 'created', NULL, 'Title', 'user', :created), "
                "(:p, :t, 'title', 'common', 'en', 'updated', 'Title', 'Heading', 'user', :changed)"
            ),
            {"p": PROJECT, "t": TITLE, "created": created, "changed": changed},
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    assert rows(empty_database_url) == before
    app = app_on(empty_database_url)
    with app.app_context():
        try:
            indexes = {index["name"] for index in sa.inspect(db.engine).get_indexes("translation_history")}
            assert {"ix_translation_history_timeline", "ix_translation_history_keyed"} <= indexes
            assert sa.inspect(db.engine).has_table("releases")
            assert timeline.values_at(PROJECT, CREATED) == {("common", "title", "en"): "Title"}
            assert timeline.values_at(PROJECT, CHANGED) == {("common", "title", "en"): "Heading"}
        finally:
            db.session.remove()
            db.engine.dispose()
