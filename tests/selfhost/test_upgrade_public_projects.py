"""The upgrade to public projects (0042): every project starts private, keeps every other
column, and nobody is blocked from proposing; the downgrade takes both away again."""

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade

from loko.database import migration_scripts
from loko.database.schema import init_migrations
from loko.extensions import db
from tests.selfhost.conftest import app_on, migrate_to

REVISION = "0042_public_projects"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECTS = ("00000000-0000-7000-8000-0000000000b1", "00000000-0000-7000-8000-0000000000b2")
COLUMNS = ("id", "organization_id", "name", '"desc"', "emoji", "checks", "data_version", "protect_reviewed")


def project_rows(url, columns=COLUMNS) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql(f"SELECT {', '.join(columns)} FROM projects ORDER BY id")
            return [tuple(row) for row in rows]
    finally:
        engine.dispose()


def tables(url) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def before_it(url) -> str:
    app = app_on(url)
    with app.app_context():
        revision = migration_scripts(app).get_revision(REVISION).down_revision
        db.engine.dispose()
    return revision


@pytest.fixture
def upgraded(empty_database_url):
    """Two projects before the upgrade, one protecting reviewed values; then the upgrade:
    the rows before it."""
    previous = before_it(empty_database_url)
    assert previous == "0041_repohost_tags"
    migrate_to(empty_database_url, previous)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', CURRENT_TIMESTAMP)"
            ),
            {"id": ORG},
        )
        for project, name, protect in ((PROJECTS[0], "Web", True), (PROJECTS[1], "App", False)):
            connection.execute(
                sa.text(
                    'INSERT INTO projects (id, organization_id, name, "desc", emoji, checks, data_version, '
                    "protect_reviewed, data_updated_at, created_at) VALUES (:id, :org, :name, 'kept', '', "
                    "'{}', 4, :protect, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"id": project, "org": ORG, "name": name, "protect": protect},
            )
    engine.dispose()
    before = project_rows(empty_database_url)
    migrate_to(empty_database_url)
    return before


def test_every_project_is_private_and_kept_after_the_upgrade(upgraded, empty_database_url):
    assert len(upgraded) == 2
    assert project_rows(empty_database_url) == upgraded
    assert [row[0] for row in project_rows(empty_database_url, ("public",))] == [False, False]


def test_nobody_is_blocked_after_the_upgrade(upgraded, empty_database_url):
    assert "proposal_blocks" in tables(empty_database_url)
    engine = sa.create_engine(empty_database_url)
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT COUNT(*) FROM proposal_blocks").scalar_one() == 0
    finally:
        engine.dispose()


def test_the_downgrade_takes_the_setting_and_the_blocks_away(upgraded, empty_database_url):
    app = app_on(empty_database_url)
    with app.app_context():
        try:
            init_migrations(app)
            downgrade(revision="0041_repohost_tags")
        finally:
            db.engine.dispose()
    assert "proposal_blocks" not in tables(empty_database_url)
    assert project_rows(empty_database_url) == upgraded
