"""The upgrade to the short texts' trigrams (0026): on PostgreSQL an entry shorter than 20
characters indexed before it gets a row for each of its trigrams, so a short query still
finds it; longer entries and keys get none."""

from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from loko.extensions import db
from loko.memory import index, service
from tests.selfhost.test_upgrade_memory_shingles import indexed_at, upgraded

BEFORE = "0025_memory_shingles"
SHORT = "Save changes"
LONG = "Remember the settings of this workspace for the next session"


@pytest.fixture
def upgraded_postgresql(empty_database_url):
    """A PostgreSQL database with a short and a long entry and a key indexed at 0025 (without
    shingles), then upgraded: (app, scope, short entry's id)."""
    if not empty_database_url.startswith("postgresql"):
        pytest.skip("the shingles are PostgreSQL's")
    app, scopes, (short, _long, _key) = indexed_at(
        empty_database_url,
        BEFORE,
        [("t1", "en", SHORT), ("t2", "en", LONG), ("t1", index.KEY_SCOPE, "save")],
    )
    upgraded(app)
    return app, scopes["en"], short


@contextmanager
def inside(app):
    """The app's context, its connections closed after (the database is dropped next)."""
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


def test_a_short_entry_indexed_before_the_upgrade_is_found_by_a_short_query(upgraded_postgresql):
    app, scope, short = upgraded_postgresql
    query = "Save chunges"
    with inside(app):
        assert short in index.sharing(scope, query, *service._window(len(query), 50), index.PER_SHINGLE)


def test_only_the_short_entry_gets_a_row_for_each_of_its_trigrams(upgraded_postgresql):
    app, _scope, short = upgraded_postgresql
    trigrams = {SHORT.lower()[i : i + 3] for i in range(len(SHORT) - 2)}
    with inside(app):
        rows = db.session.execute(sa.text("SELECT entry_id, count(*) FROM memory_shingles GROUP BY entry_id"))
        assert dict(rows.all()) == {short: len(trigrams)}
