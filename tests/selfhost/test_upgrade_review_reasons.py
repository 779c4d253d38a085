"""The upgrade to review reasons (0030): the values stored before it keep every column as they
were, and those already waiting for a review have no reason (it was not recorded)."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from loko.translations.models import TranslationValue
from tests.selfhost.conftest import app_on, insert_organization_and_project, migrate_to

BEFORE = "0029_invitation_note"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
TITLE = "00000000-0000-7000-8000-0000000000c1"
WRITTEN = datetime(2025, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
COLUMNS = (
    "translation_id",
    "language_code",
    "project_id",
    "value",
    "updated_at",
    "state",
    "review_changed_at",
    "review_changed_by",
)


def value_rows(url) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            query = f"SELECT {', '.join(COLUMNS)} FROM translation_values ORDER BY language_code"
            return [tuple(row) for row in connection.exec_driver_sql(query)]
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):
    """A key at 0029 with an English value, a German one waiting for a review and a French one
    reviewed; then the upgrade: (the app, the values' rows before it)."""
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(WRITTEN, connection.dialect.name)
        insert_organization_and_project(connection, ORG, PROJECT, at)
        connection.execute(
            sa.text("INSERT INTO project_languages (project_id, code, name, emoji) VALUES (:p, :c, :c, '')"),
            [{"p": PROJECT, "c": code} for code in ("de", "en", "fr")],
        )
        connection.execute(
            sa.text(
                "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
                "VALUES (:id, :p, 'common', 'title', 'title', :at, :at)"
            ),
            {"id": TITLE, "p": PROJECT, "at": at},
        )
        connection.execute(
            sa.text(
                f"INSERT INTO translation_values ({', '.join(COLUMNS)}) "
                "VALUES (:t, :c, :p, :v, :at, :state, :review_at, :by)"
            ),
            [
                {**row, "t": TITLE, "p": PROJECT, "at": at}
                for row in (
                    {"c": "de", "v": "Titel", "state": "needs-review", "review_at": None, "by": None},
                    {"c": "en", "v": "Title", "state": "translated", "review_at": None, "by": None},
                    {"c": "fr", "v": "Titre", "state": "reviewed", "review_at": at, "by": "Ada"},
                )
            ],
        )
    engine.dispose()
    before = value_rows(empty_database_url)
    migrate_to(empty_database_url)
    return app_on(empty_database_url), before


def test_a_value_keeps_every_column_after_the_upgrade(upgraded, empty_database_url):
    _app, before = upgraded
    assert len(before) == 3
    assert value_rows(empty_database_url) == before


def test_a_value_stored_before_the_upgrade_has_no_reason(upgraded):
    app, _before = upgraded
    with app.app_context():
        try:
            reasons = db.session.execute(
                sa.select(TranslationValue.language_code, TranslationValue.review_reason).order_by(
                    TranslationValue.language_code
                )
            ).all()
        finally:
            db.session.remove()
            db.engine.dispose()
    assert [tuple(row) for row in reasons] == [("de", None), ("en", None), ("fr", None)]
