"""Hot paths are set-based: the number of SQL statements of a bulk upsert does not grow with
the number of keys, and an export runs one statement per file of each language, whatever
the number of keys."""

from contextlib import contextmanager

import pytest
from sqlalchemy import event

from loko.extensions import db
from tests.translation_factories import ProjectApi, create_project, link_projects, project_api

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
    """Statements of one export, including those that run while its streamed body is read."""

    def export():
        response = api.export_response(**params)
        assert response.status_code == 200
        assert response.get_data()

    return _statements_for(app, export)


def _project(app, languages, files, size=SMALL) -> ProjectApi:
    api = project_api(app)
    for language in languages:
        for file_name in files:
            api.upsert(language, _items(size), file_name=file_name)
    api.languages()
    return api


def _inheriting_project(app, files) -> ProjectApi:
    """A project whose en-GB inherits en of a linked project holding ``files``."""
    api = project_api(app)
    source_id = create_project(api.owner, api.organization_id, "Main", languages=["en"])
    api.add_language("en-GB")
    link_projects(api.owner, api.project_id, source_id, "en", "en-GB")
    source = ProjectApi(api.owner, source_id)
    for file_name in files:
        source.upsert("en", _items(SMALL), file_name=file_name)
    api.languages()
    return api


EXPORTS = pytest.mark.parametrize(
    "params",
    [{}, {"zip": "true"}, {"zip": "true", "format": "po"}],
    ids=["json", "json-zip", "po-zip"],
)


@EXPORTS
def test_export_statements_do_not_grow_with_keys(app, params):
    small = _project(app, ("en", "de"), ("one", "two"), size=SMALL)
    large = _project(app, ("en", "de"), ("one", "two"), size=LARGE)
    assert _export_statements(app, large, **params) == _export_statements(app, small, **params)


@EXPORTS
def test_export_statements_do_not_grow_with_files(app, params):
    one_file = _project(app, ("en",), ("one",))
    three_files = _project(app, ("en",), ("one", "two", "three"))
    assert _export_statements(app, three_files, **params) == _export_statements(app, one_file, **params)


@EXPORTS
def test_export_statements_do_not_grow_with_languages(app, params):
    one_language = _project(app, ("en",), ("one", "two"))
    three_languages = _project(app, ("en", "de", "fr"), ("one", "two"))
    assert _export_statements(app, three_languages, **params) == _export_statements(
        app, one_language, **params
    )


@EXPORTS
def test_export_of_an_inheriting_language_reads_the_linked_language_once(app, params):
    one_file = _inheriting_project(app, ("one",))
    three_files = _inheriting_project(app, ("one", "two", "three"))
    assert _export_statements(app, three_files, **params) == _export_statements(app, one_file, **params)


def test_export_is_a_handful_of_statements(app, api):
    api.upsert("en", _items(LARGE))
    assert _export_statements(app, api) <= 10


def _patch(api, key, language, file_name="common"):
    response = api.patch(
        "/translations", {"key": key, "fileName": file_name, "updates": {language: {"value": "v"}}}
    )
    assert response.status_code == 200, response.json


def test_a_patch_is_a_handful_of_statements_each_counted(app, api):
    _patch(api, "warm.up", "en")
    # Ten; the file's data version (``stamp_files``), which keeps exports of the project's
    # other files as they were; and the checks of a source value's write: the project's
    # levels, the key's details, its other languages' values (marked needs-review, checked
    # again) and the key's stored issues (deleted).
    assert _statements_for(app, lambda: _patch(api, "greeting", "en")) <= 16


def _statements_of_a_change(app, api, value: str) -> list[str]:
    """The statements of a PATCH changing the stored German value of ``greeting``."""
    body = {"key": "greeting", "fileName": "common", "updates": {"de": {"value": value}}}
    with counted_statements(app) as statements:
        assert api.patch("/translations", body).status_code == 200
    return statements


def test_a_patch_sets_a_value_and_its_review_state_in_one_statement(app, api):
    _patch(api, "greeting", "de")
    statements = _statements_of_a_change(app, api, "Hallo")
    assert len([s for s in statements if s.startswith("UPDATE translation_values")]) == 1


def test_a_patch_of_a_translation_asks_for_no_string_freeze(app, api):
    # Only source texts freeze; on PostgreSQL the question went in the PATCH's first round
    # trip before it knew the languages, and is left unread.
    _patch(api, "greeting", "de")
    statements = _statements_of_a_change(app, api, "Hallo")
    with app.app_context():
        sent_ahead = db.engine.dialect.name == "postgresql"
    assert len([s for s in statements if "FROM releases" in s]) == (1 if sent_ahead else 0)


def test_a_patch_of_a_source_text_asks_for_the_string_freeze(app, api):
    _patch(api, "greeting", "en")
    body = {"key": "greeting", "fileName": "common", "updates": {"en": {"value": "Hello"}}}
    with counted_statements(app) as statements:
        assert api.patch("/translations", body).status_code == 200
    assert len([s for s in statements if "FROM releases" in s]) == 1


def test_a_patch_of_a_value_without_issues_deletes_no_issues(app, api):
    _patch(api, "greeting", "de")
    statements = _statements_of_a_change(app, api, "Hallo")
    assert not [s for s in statements if s.startswith("DELETE")]


def test_a_patch_of_a_value_with_issues_deletes_them(app, api):
    _patch(api, "greeting", "en")  # the source value, "v", has no double space
    _patch(api, "greeting", "de")
    _statements_of_a_change(app, api, "Hallo  Welt")  # a double space
    statements = _statements_of_a_change(app, api, "Hallo Welt")
    assert [s for s in statements if s.startswith("DELETE FROM value_issues")]
    assert api.get("/checks").json["total"] == 0


def test_patch_statements_do_not_grow_with_the_languages_of_the_file(app, api):
    one_language = project_api(app)
    one_language.upsert("en", _items(SMALL), file_name="messages")
    many_languages = project_api(app)
    for language in ("en", "de", "fr", "es", "it"):
        many_languages.upsert(language, _items(SMALL), file_name="messages")
    for project in (one_language, many_languages):
        _patch(project, "warm.up", "en", "messages")
    assert _statements_for(app, lambda: _patch(many_languages, "key.0001", "en", "messages")) == (
        _statements_for(app, lambda: _patch(one_language, "key.0001", "en", "messages"))
    )


def test_a_patch_by_an_api_key_reads_the_projects_rules_with_the_key_on_postgresql(app, api):
    _patch(api, "greeting", "de")
    statements = _statements_of_a_change(app, api, "Hallo")
    with app.app_context():
        with_the_key = db.engine.dialect.name == "postgresql"
    # The key's own lookup runs on a connection of its own, outside these counts.
    asked_alone = [s for s in statements if s.startswith("SELECT projects.id, projects.protect_reviewed")]
    assert len(asked_alone) == (0 if with_the_key else 1)


def test_the_rules_read_with_a_key_answer_the_requests_first_question_only(app, api):
    from loko.auth import policy

    with app.test_request_context():
        policy.rules_read_with_key(api.project_id, True, 3)
        assert policy.project_has_rules(api.project_id)  # as read with the key
        assert not policy.project_has_rules(api.project_id)  # as stored
