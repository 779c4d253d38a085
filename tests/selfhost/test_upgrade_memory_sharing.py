"""The upgrade to chosen sharing (0027): every project, whether its values were memory or it
had opted out, starts unshared, and keeps every other column and row."""

import pytest
import sqlalchemy as sa

from loko.extensions import db
from tests.selfhost.conftest import app_on, migrate_to

BEFORE = "0026_memory_short_trigrams"
ORG = "00000000-0000-7000-8000-00000000000a"
IN_MEMORY = "00000000-0000-7000-8000-0000000000b1"
OPTED_OUT = "00000000-0000-7000-8000-0000000000b2"


@pytest.fixture
def upgraded(empty_database_url):
    """Two projects at 0026, one whose values were memory and one that opted out; then the
    upgrade. The app."""
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', CURRENT_TIMESTAMP)"
            ),
            {"id": ORG},
        )
        for project, name, memory in ((IN_MEMORY, "Web", True), (OPTED_OUT, "Secret", False)):
            connection.execute(
                sa.text(
                    'INSERT INTO projects (id, organization_id, name, "desc", emoji, checks, '
                    "memory_enabled, data_version, data_updated_at, created_at) VALUES "
                    "(:id, :org, :name, 'kept', '', '{}', :memory, 7, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"id": project, "org": ORG, "name": name, "memory": memory},
            )
    engine.dispose()
    migrate_to(empty_database_url)
    return app_on(empty_database_url)


def rows(app):
    with app.app_context():
        try:
            return db.session.execute(
                sa.text('SELECT id, name, "desc", data_version, memory_shared FROM projects ORDER BY id')
            ).all()
        finally:
            db.session.remove()
            db.engine.dispose()


def test_every_project_is_unshared_after_the_upgrade(upgraded):
    assert [row[4] for row in rows(upgraded)] == [False, False]


def test_the_upgrade_keeps_every_project_as_it_was(upgraded):
    assert [tuple(row[:4]) for row in rows(upgraded)] == [
        (IN_MEMORY, "Web", "kept", 7),
        (OPTED_OUT, "Secret", "kept", 7),
    ]
