"""The upgrade that leaves room in the keys' pages (0040): every key keeps every column as it
was, and on PostgreSQL the keys' table fills its new pages to half."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp, migration_scripts
from loko.extensions import db
from tests.selfhost.conftest import app_on, insert_organization_and_project, migrate_to

REVISION = "0040_hot_key_updates"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
KEYS = ("00000000-0000-7000-8000-0000000000c1", "00000000-0000-7000-8000-0000000000c2")
WRITTEN = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
COLUMNS = (
    "id",
    "project_id",
    "file_name",
    "key",
    "sort_key",
    "created_at",
    "updated_at",
    "deleted_at",
    "comment",
)


def key_rows(url) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql(f"SELECT {', '.join(COLUMNS)} FROM translations ORDER BY id")
            return [tuple(row) for row in rows]
    finally:
        engine.dispose()


def fill_factor(url) -> list[str] | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.exec_driver_sql(
                "SELECT reloptions FROM pg_class WHERE relname = 'translations'"
            ).scalar_one()
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):
    """Two keys, one of them in the trash, before the upgrade; then the upgrade: the rows
    before it."""
    app = app_on(empty_database_url)
    with app.app_context():
        before_it = migration_scripts(app).get_revision(REVISION).down_revision
        db.engine.dispose()
    migrate_to(empty_database_url, before_it)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(WRITTEN, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text(
                f"INSERT INTO translations ({', '.join(COLUMNS)}) "
                "VALUES (:id, :p, 'common', :key, :sort, :at, :at, :gone, :note)"
            ),
            [
                {
                    "id": KEYS[0],
                    "key": "title",
                    "sort": "title",
                    "gone": None,
                    "note": "Top",
                    "p": PROJECT,
                    "at": at,
                },
                {
                    "id": KEYS[1],
                    "key": "old",
                    "sort": "old",
                    "gone": at,
                    "note": None,
                    "p": PROJECT,
                    "at": at,
                },
            ],
        )
    engine.dispose()
    before = key_rows(empty_database_url)
    migrate_to(empty_database_url)
    return before


def test_every_key_keeps_every_column_after_the_upgrade(upgraded, empty_database_url):
    assert len(upgraded) == 2
    assert key_rows(empty_database_url) == upgraded


def test_on_postgresql_the_keys_table_fills_its_pages_to_half(upgraded, empty_database_url):
    if not empty_database_url.startswith("postgresql"):
        pytest.skip("a fill factor is PostgreSQL's")
    assert fill_factor(empty_database_url) == ["fillfactor=50"]
