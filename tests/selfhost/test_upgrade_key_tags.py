"""The upgrade to tags on keys (0035): every key and value stored before it keeps every
column as it was, no key has a tag, and a key can be tagged once it has run."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from loko.tags.models import KeyTag
from tests.selfhost.conftest import app_on, insert_organization_and_project, migrate_to

BEFORE = "0034_screenshot_trash"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
KEYS = ("00000000-0000-7000-8000-0000000000c1", "00000000-0000-7000-8000-0000000000c2")
WRITTEN = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
KEY_COLUMNS = ("id", "project_id", "file_name", "key", "sort_key", "created_at", "updated_at", "deleted_at")
LANGUAGE_ROW = "INSERT INTO project_languages (project_id, code, name, emoji) VALUES (:p, 'en', 'en', '')"
VALUE_COLUMNS = ("translation_id", "language_code", "project_id", "value", "state")


def rows(url) -> tuple[list[tuple], list[tuple]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            keys = connection.exec_driver_sql(
                f"SELECT {', '.join(KEY_COLUMNS)} FROM translations ORDER BY id"
            )
            values = connection.exec_driver_sql(
                f"SELECT {', '.join(VALUE_COLUMNS)} FROM translation_values ORDER BY translation_id"
            )
            return [tuple(row) for row in keys], [tuple(row) for row in values]
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):
    """Two keys (one in the trash) with a value each at 0034; then the upgrade: (the app, the
    rows before it)."""
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(WRITTEN, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text(LANGUAGE_ROW),
            {"p": PROJECT},
        )
        connection.execute(
            sa.text(
                "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at, "
                "deleted_at) VALUES (:id, :p, 'common', :key, :sort, :at, :at, :deleted)"
            ),
            [
                {"id": KEYS[0], "p": PROJECT, "key": "title", "sort": "title", "at": at, "deleted": None},
                {"id": KEYS[1], "p": PROJECT, "key": "old", "sort": "old", "at": at, "deleted": at},
            ],
        )
        connection.execute(
            sa.text(
                "INSERT INTO translation_values (translation_id, language_code, project_id, value, "
                "updated_at) VALUES (:t, 'en', :p, :value, :at)"
            ),
            [{"t": key, "p": PROJECT, "value": f"Value {n}", "at": at} for n, key in enumerate(KEYS)],
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    return app_on(empty_database_url), before


def test_keys_and_values_keep_every_column_after_the_upgrade(upgraded, empty_database_url):
    _app, before = upgraded
    assert (len(before[0]), len(before[1])) == (2, 2)
    assert rows(empty_database_url) == before


def test_no_key_has_a_tag_after_the_upgrade_and_one_can_be_tagged(upgraded):
    app, _before = upgraded
    with app.app_context():
        try:
            assert db.session.query(KeyTag).count() == 0
            db.session.add(KeyTag(translation_id=KEYS[0], tag="web", project_id=PROJECT))
            db.session.commit()
            assert [(tag.translation_id, tag.tag) for tag in db.session.query(KeyTag)] == [(KEYS[0], "web")]
        finally:
            db.session.remove()
            db.engine.dispose()
