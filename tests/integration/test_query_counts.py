"""Hot paths are set-based: the number of SQL statements of an export or a bulk upsert
does not grow with the number of keys."""

from contextlib import contextmanager

import pytest
from sqlalchemy import event

from loko.extensions import db
from tests.translation_factories import ProjectApi, project_api

SMALL, LARGE = 50, 500


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.add_language("en")  # also notes the key's first use, which is kept out of the counts
    return api


@contextmanager
def counted_statements(app):
    """Collect the SQL statements sent to the database inside the block."""
    with app.app_context():
        engine = db.engine
    statements = []

    def count(_connection, _cursor, statement, _parameters, _context, _executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def _items(size, prefix="key", value="v"):
    return {f"{prefix}.{i:04d}": f"{value} {i}" for i in range(size)}


def _statements_for(app, call):
    with counted_statements(app) as statements:
        call()
    return len(statements)


def test_bulk_upsert_creating_keys_uses_a_constant_number_of_statements(app, api):
    small = _statements_for(app, lambda: api.upsert("en", _items(SMALL), file_name="small"))
    large = _statements_for(app, lambda: api.upsert("en", _items(LARGE), file_name="large"))
    assert large == small


def test_bulk_upsert_updating_keys_uses_a_constant_number_of_statements(app, api):
    api.upsert("en", _items(SMALL), file_name="small")
    api.upsert("en", _items(LARGE), file_name="large")
    small = _statements_for(app, lambda: api.upsert("en", _items(SMALL, value="new"), file_name="small"))
    large = _statements_for(app, lambda: api.upsert("en", _items(LARGE, value="new"), file_name="large"))
    assert large == small


def _export_statements(app, api, **params):
    def export():
        assert api.export_response(**params).status_code == 200

    return _statements_for(app, export)


@pytest.mark.parametrize(
    "params",
    [{}, {"zip": "true"}, {"zip": "true", "format": "po"}],
    ids=["json", "json-zip", "po-zip"],
)
def test_export_uses_a_constant_number_of_statements(app, params):
    small_project, large_project = project_api(app), project_api(app)
    for api, size in ((small_project, SMALL), (large_project, LARGE)):
        for language in ("en", "de"):
            api.upsert(language, _items(size), file_name="one")
            api.upsert(language, _items(size), file_name="two")
        api.languages()
    assert _export_statements(app, large_project, **params) == _export_statements(
        app, small_project, **params
    )


def test_export_is_a_handful_of_statements(app, api):
    api.upsert("en", _items(LARGE))
    assert _export_statements(app, api) <= 10
