"""An export of a whole project by an API key is recorded once; a 304, an export of named
files and an export by a person are not."""

from sqlalchemy import event

from loko.extensions import db
from tests.audit.helpers import recorded
from tests.translation_factories import KEY_NAME, project_api


def full_exports(app, api):
    return recorded(app, api.organization_id, "export.full")


def test_a_whole_export_by_a_key_is_recorded(app):
    api = project_api(app)
    api.add_language("en")
    api.create("greeting", {"en": "Hello"})
    assert api.get("/translations", format="po", zip="true").status_code == 200
    (event,) = full_exports(app, api)
    assert event["actor"] == ("api_key", api.key_id, KEY_NAME)
    assert event["target"] == ("project", api.project_id, "Web app")
    assert event["details"] == {"format": "po", "zip": True, "languages": None, "reviewedOnly": False}


def test_a_revalidated_export_answered_304_is_not_recorded(app):
    api = project_api(app)
    etag = api.get("/translations").headers["ETag"]
    response = api.client.get(api.url("/translations"), headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert len(full_exports(app, api)) == 1


def test_an_export_of_named_files_is_not_recorded(app):
    api = project_api(app)
    api.add_language("en")
    api.create("greeting", {"en": "Hello"})
    assert api.get("/translations", fileName="common").status_code == 200
    assert full_exports(app, api) == []


def test_an_export_by_a_person_is_not_recorded(app):
    api = project_api(app)
    assert api.owner.get(api.url("/translations")).status_code == 200
    assert full_exports(app, api) == []


def test_the_audit_adds_one_statement_to_an_export(app):
    api = project_api(app)
    api.get("/translations")  # warm the caches
    seen = []
    with app.app_context():
        engine = db.engine

    def listener(_connection, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", listener)
    try:
        api.get("/translations", stale="ok")
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert sum("audit_events" in statement for statement in seen) == 1
