"""The upgrade to a repository's tag filter (0041): every repository configuration stored
before it keeps every column as it was and holds every key (no tag filter)."""

from datetime import UTC, datetime

import sqlalchemy as sa

from loko.database import driver_timestamp
from tests.selfhost.conftest import insert_organization_and_project, migrate_to

BEFORE = "0040_hot_key_updates"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
WRITTEN = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
COLUMNS = (
    "project_id",
    "provider",
    "repository",
    "branch",
    "path",
    "format",
    "api_url",
    "token_encrypted",
    "webhook_secret_encrypted",
    "created_at",
    "updated_at",
)


def rows(url, columns=COLUMNS) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            found = connection.exec_driver_sql(f"SELECT {', '.join(columns)} FROM repohosts")
            return [tuple(row) for row in found]
    finally:
        engine.dispose()


def test_a_repository_keeps_every_column_and_every_key_after_the_upgrade(empty_database_url):
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(WRITTEN, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text(
                f"INSERT INTO repohosts ({', '.join(COLUMNS)}) VALUES (:p, 'github', 'acme/app', "
                "'main', 'locales/{language}/{fileName}.json', 'json', NULL, 'sealed-token', "
                "'sealed-secret', :at, :at)"
            ),
            {"p": PROJECT, "at": at},
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    assert len(before) == 1
    assert rows(empty_database_url) == before
    assert rows(empty_database_url, ("tags", "exclude_tags")) == [("[]", "[]")]
