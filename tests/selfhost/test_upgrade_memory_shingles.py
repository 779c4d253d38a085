"""The upgrade to the memory's shingles (0025): on PostgreSQL the entries indexed before it get
their shingles, so a longer text still finds them at once; SQLite keeps its FTS5 index and
gets no such table."""

import pytest
import sqlalchemy as sa

from loko.database import upgrade_schema as upgrade
from loko.extensions import db
from loko.memory import index, service
from tests.selfhost.conftest import app_on, migrate_to

BEFORE = "0023_language_roles"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT = "00000000-0000-7000-8000-0000000000b1"
SOURCE = "Remember the settings of this workspace for the next session"
KEY = "settings.remember_for_next_session"


def entry(connection, scope: int, translation_id: str, language: str, value: str) -> int:
    entry_id = index.id_range(scope, len(value), len(value))[0]
    connection.execute(
        sa.text(
            "INSERT INTO memory_entries (id, translation_id, language_code, project_id, digest, text) "
            "VALUES (:id, :translation, :language, :project, :digest, :text)"
        ),
        {
            "id": entry_id,
            "translation": translation_id,
            "language": language,
            "project": PROJECT,
            "digest": index.digest(value),
            "text": value,
        },
    )
    return entry_id


def indexed_at(url, revision: str, entries) -> tuple:
    """A database migrated to ``revision`` whose memory holds ``entries`` (translation id,
    language, text: the en scope's or the keys'), inserted as the memory indexed them then;
    the app, the scopes by language and the entries' ids."""
    migrate_to(url, revision)
    app = app_on(url)
    with app.app_context():
        try:
            with db.engine.begin() as connection:
                scopes = {
                    language: connection.execute(
                        sa.text(
                            "INSERT INTO memory_scopes (organization_id, language_code) "
                            "VALUES (:org, :language) RETURNING id"
                        ),
                        {"org": ORG, "language": language},
                    ).scalar_one()
                    for language in ("en", index.KEY_SCOPE)
                }
                ids = [
                    entry(connection, scopes[language], translation_id, language, text)
                    for translation_id, language, text in entries
                ]
        finally:
            db.engine.dispose()
    return app, scopes, ids


def indexed_before_the_upgrade(url):
    """The entries of a value and of its key, as the memory indexed them before 0025; the
    app, the value's scope and both entries' ids."""
    app, scopes, (value, key) = indexed_at(url, BEFORE, [("t1", "en", SOURCE), ("t1", index.KEY_SCOPE, KEY)])
    return app, scopes["en"], value, key


def upgraded(app):
    with app.app_context():
        try:
            upgrade()
        finally:
            db.engine.dispose()


@pytest.fixture
def upgraded_postgresql(empty_database_url):
    """A PostgreSQL database indexed at 0023 and then upgraded: (app, scope, value entry)."""
    if not empty_database_url.startswith("postgresql"):
        pytest.skip("the shingles are PostgreSQL's")
    app, scope, value, _key = indexed_before_the_upgrade(empty_database_url)
    upgraded(app)
    return app, scope, value


def test_the_entries_indexed_before_the_upgrade_are_found_through_their_shingles(upgraded_postgresql):
    app, scope, value = upgraded_postgresql
    query = "Remember the settings of this workspace for the next sessions"
    with app.app_context():
        try:
            hits = index.sharing(scope, query, *service._window(len(query), 50), index.PER_SHINGLE)
            assert value in hits
        finally:
            db.session.remove()
            db.engine.dispose()


def test_the_upgrade_gives_keys_no_shingles(upgraded_postgresql):
    app, _scope, value = upgraded_postgresql
    with app.app_context():
        try:
            with db.engine.connect() as connection:
                owners = connection.execute(
                    sa.text("SELECT DISTINCT entry_id FROM memory_shingles")
                ).scalars()
                assert list(owners) == [value]
        finally:
            db.engine.dispose()


def test_sqlite_keeps_its_fts5_index_and_gets_no_shingles(empty_database_url):
    if not empty_database_url.startswith("sqlite"):
        pytest.skip("SQLite's index")
    app = app_on(empty_database_url)
    upgraded(app)
    with app.app_context():
        try:
            tables = sa.inspect(db.engine).get_table_names()
            assert "memory_shingles" not in tables
            assert "memory_trigrams" in tables
        finally:
            db.engine.dispose()
