"""The upgrade to tasks and notifications (0037): new tables only, so every project, key and
value stored before it keeps every column as it was, and no task or notification exists."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from tests.selfhost.conftest import app_on, insert_organization_and_project, migrate_to

BEFORE = "0036_proposals"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
TITLE = "00000000-0000-7000-8000-0000000000c1"
AT = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)


def rows(url) -> list[dict]:
    """Every row of the tables the upgrade keeps, as ``{column: value}``."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            found = []
            for table in ("organizations", "projects", "translations"):
                result = connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY id")
                found += [dict(row._mapping) for row in result]
            return found
    finally:
        engine.dispose()


def kept(after: list[dict], before: list[dict]) -> list[dict]:
    """The rows after a later upgrade, in the columns they had before (later upgrades add some)."""
    return [{column: row[column] for column in old} for row, old in zip(after, before, strict=True)]


@pytest.fixture
def upgraded(empty_database_url):
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(AT, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text(
                "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
                "VALUES (:id, :p, 'common', 'title', 'title', :at, :at)"
            ),
            {"id": TITLE, "p": PROJECT, "at": at},
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    return app_on(empty_database_url), before


def test_every_row_is_kept_and_the_new_tables_are_empty(upgraded, empty_database_url):
    _app, before = upgraded
    assert len(before) == 3
    assert kept(rows(empty_database_url), before) == before
    engine = sa.create_engine(empty_database_url)
    try:
        with engine.connect() as connection:
            for table in ("tasks", "task_keys", "task_assignees", "notification_rules", "notifications"):
                assert connection.exec_driver_sql(f"SELECT COUNT(*) FROM {table}").scalar_one() == 0
    finally:
        engine.dispose()
