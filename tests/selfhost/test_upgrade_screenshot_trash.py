"""The upgrade to the screenshots' trash (0034): every screenshot and region stored before it
keeps every column as it was, and every screenshot is active (in no trash)."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from loko.screenshots.models import Screenshot
from tests.selfhost.conftest import app_on, insert_organization_and_project, migrate_to

BEFORE = "0033_provider_images"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
TITLE = "00000000-0000-7000-8000-0000000000c1"
SHOTS = ("00000000-0000-7000-8000-0000000000d1", "00000000-0000-7000-8000-0000000000d2")
REGION = "00000000-0000-7000-8000-0000000000e1"
UPLOADED = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
SHOT_COLUMNS = (
    "id",
    "project_id",
    "name",
    "sha256",
    "format",
    "width",
    "height",
    "size",
    "created_at",
    "created_by_type",
    "created_by_id",
    "created_by_name",
)
REGION_COLUMNS = ("id", "screenshot_id", "translation_id", "x", "y", "width", "height", "state", "created_at")


def rows(url) -> tuple[list[tuple], list[tuple]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            shots = connection.exec_driver_sql(
                f"SELECT {', '.join(SHOT_COLUMNS)} FROM screenshots ORDER BY id"
            )
            regions = connection.exec_driver_sql(
                f"SELECT {', '.join(REGION_COLUMNS)} FROM screenshot_regions"
            )
            return [tuple(row) for row in shots], [tuple(row) for row in regions]
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):
    """Two screenshots at 0033, one with a key's region; then the upgrade: (the app, the
    rows before it)."""
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(UPLOADED, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text(
                "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
                "VALUES (:id, :p, 'common', 'title', 'title', :at, :at)"
            ),
            {"id": TITLE, "p": PROJECT, "at": at},
        )
        connection.execute(
            sa.text(
                f"INSERT INTO screenshots ({', '.join(SHOT_COLUMNS)}) VALUES "
                "(:id, :p, :name, :sha, 'PNG', 400, 300, 1234, :at, 'api_key', :by, 'ci')"
            ),
            [
                {
                    "id": shot,
                    "p": PROJECT,
                    "name": f"{index}.png",
                    "sha": str(index) * 64,
                    "at": at,
                    "by": ORG,
                }
                for index, shot in enumerate(SHOTS)
            ],
        )
        connection.execute(
            sa.text(
                f"INSERT INTO screenshot_regions ({', '.join(REGION_COLUMNS)}) VALUES "
                "(:id, :s, :t, 10, 20, 100, 30, 'confirmed', :at)"
            ),
            {"id": REGION, "s": SHOTS[0], "t": TITLE, "at": at},
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    return app_on(empty_database_url), before


def test_screenshots_and_regions_keep_every_column_after_the_upgrade(upgraded, empty_database_url):
    _app, before = upgraded
    assert (len(before[0]), len(before[1])) == (2, 1)
    assert rows(empty_database_url) == before


def test_a_screenshot_stored_before_the_upgrade_is_in_no_trash(upgraded):
    app, _before = upgraded
    with app.app_context():
        try:
            deleted = db.session.execute(
                sa.select(Screenshot.id, Screenshot.deleted_at).order_by(Screenshot.id)
            ).all()
        finally:
            db.session.remove()
            db.engine.dispose()
    assert [tuple(row) for row in deleted] == [(SHOTS[0], None), (SHOTS[1], None)]
