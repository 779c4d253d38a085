"""The upgrade to proposals (0036): every project, language and member stored before it keeps
every column as it was; each language takes values directly (mode direct), no project
protects reviewed values, the contributor role is allowed, and there are no proposals."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from tests.selfhost.conftest import empty_database_url, migrate_to  # noqa: F401 (a fixture)

BEFORE = "0034_screenshot_trash"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
USER = "00000000-0000-7000-8000-0000000000c1"
OTHER = "00000000-0000-7000-8000-0000000000c2"
TITLE = "00000000-0000-7000-8000-0000000000d1"
AT = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
TABLES = {
    "projects": "id, organization_id, name, checks, data_version, memory_shared, source_language",
    "project_languages": "project_id, code, name, emoji",
    "project_members": "project_id, user_id, role, languages",
    "translation_values": "translation_id, language_code, value, state",
}


def rows(url) -> dict:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return {
                table: sorted(
                    tuple(row) for row in connection.exec_driver_sql(f"SELECT {columns} FROM {table}")
                )
                for table, columns in TABLES.items()
            }
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):  # noqa: F811
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(AT, connection.dialect.name)
        run = lambda sql, **params: connection.execute(sa.text(sql), {"at": at, **params})  # noqa: E731
        run("INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', :at)", id=ORG)
        for user, email in ((USER, "ed@example.test"), (OTHER, "vi@example.test")):
            run(
                "INSERT INTO users (id, email, name, password_hash, created_at) "
                "VALUES (:id, :email, 'Ed', 'x', :at)",
                id=user,
                email=email,
            )
        run(
            'INSERT INTO projects (id, organization_id, name, "desc", emoji, checks, data_version, '
            "data_updated_at, created_at, source_language) VALUES "
            "(:id, :org, 'Web', '', '', '{}', 3, :at, :at, 'en')",
            id=PROJECT,
            org=ORG,
        )
        for code in ("en", "de"):
            run(
                "INSERT INTO project_languages (project_id, code, name, emoji) VALUES (:p, :code, :code, '')",
                p=PROJECT,
                code=code,
            )
        run(
            "INSERT INTO project_members (project_id, user_id, role, languages) "
            "VALUES (:p, :u, 'editor', '[\"de\"]')",
            p=PROJECT,
            u=USER,
        )
        run(
            "INSERT INTO project_members (project_id, user_id, role) VALUES (:p, :u, 'reviewer')",
            p=PROJECT,
            u=OTHER,
        )
        run(
            "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
            "VALUES (:id, :p, 'common', 'title', 'title', :at, :at)",
            id=TITLE,
            p=PROJECT,
        )
        run(
            "INSERT INTO translation_values "
            "(translation_id, language_code, project_id, value, updated_at, state) "
            "VALUES (:t, 'de', :p, 'Titel', :at, 'reviewed')",
            t=TITLE,
            p=PROJECT,
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    return before


def test_every_row_keeps_its_columns(upgraded, empty_database_url):  # noqa: F811
    assert rows(empty_database_url) == upgraded
    assert len(upgraded["project_members"]) == 2


def test_languages_stay_direct_projects_unprotected_and_contributors_allowed(upgraded, empty_database_url):  # noqa: F811
    engine = sa.create_engine(empty_database_url)
    try:
        with engine.begin() as connection:
            modes = connection.exec_driver_sql(
                "SELECT code, proposal_mode, auto_accept_votes FROM project_languages ORDER BY code"
            ).all()
            protect = connection.exec_driver_sql("SELECT protect_reviewed FROM projects").scalar_one()
            connection.exec_driver_sql(
                f"UPDATE project_members SET role = 'contributor' WHERE user_id = '{OTHER}'"
            )
            count = connection.exec_driver_sql("SELECT count(*) FROM proposals").scalar_one()
    finally:
        engine.dispose()
    assert [tuple(row) for row in modes] == [("de", "direct", None), ("en", "direct", None)]
    assert (bool(protect), count) == (False, 0)
