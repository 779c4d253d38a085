"""Revalidation before Flask (loko/exports/revalidation.py): an unchanged export asked for
with its ETag and the project's API key is answered 304 without Flask; every other case
reaches the Flask handler and gets the answer it always got."""

import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy import select, update
from werkzeug.test import Client

from loko.apikeys.models import ApiKey
from loko.database import commit_notices, unit_of_work, utcnow
from loko.database.commit_notices import APPLICATION_NAME
from loko.exports import revalidation
from loko.extensions import db
from tests.factories import CallerClient, make_key, make_org, make_project, make_user
from tests.translation_factories import ProjectApi, project_api


def early_answers(app):
    """The early 304 layer (ExportRevalidation), under the request head limit."""
    return app.wsgi_app.wsgi_app


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.upsert("en", {"title": "Title"})
    return api


@pytest.fixture
def flask_calls(app) -> list[str]:
    """The paths of the requests that reached Flask (past the revalidation middleware)."""
    calls, flask_app = [], early_answers(app).wsgi_app

    def recording(environ, start_response):
        calls.append(environ["PATH_INFO"])
        return flask_app(environ, start_response)

    early_answers(app).wsgi_app = recording
    return calls


def etag_of(api: ProjectApi, **params) -> str:
    response = api.export_response(**params)
    assert response.status_code == 200
    return response.headers["ETag"]


def revalidate(api: ProjectApi, etag: str, client=None, **params):
    client = client or api.client
    return client.get(api.url("/translations"), query_string=params, headers={"If-None-Match": etag})


def test_an_unchanged_export_is_answered_304_without_flask(api, flask_calls):
    etag = etag_of(api)
    flask_calls.clear()
    response = revalidate(api, etag)
    assert response.status_code == 304
    assert response.headers["ETag"] == etag
    assert flask_calls == []


def test_the_early_304_has_the_status_and_headers_of_the_flask_304(app, api):
    etag = etag_of(api)
    path, headers = api.url("/translations"), {**api.client.headers, "If-None-Match": etag}
    early = api.client.client.get(path, headers=headers)
    from_flask = Client(early_answers(app).wsgi_app).get(path, headers=headers)
    assert (early.status, list(early.headers.items())) == (
        from_flask.status,
        list(from_flask.headers.items()),
    )


def test_a_weak_if_none_match_is_answered_304_without_flask(api, flask_calls):
    etag = etag_of(api)
    flask_calls.clear()
    assert revalidate(api, f"W/{etag}").status_code == 304
    assert flask_calls == []


def test_a_query_is_revalidated_with_its_own_etag(api, flask_calls):
    etag = etag_of(api, language="en", zip="true")
    flask_calls.clear()
    response = revalidate(api, etag, language="en", zip="true")
    assert (response.status_code, response.headers["ETag"]) == (304, etag)
    assert flask_calls == []


def test_the_etag_of_another_query_is_not_revalidated(api):
    etag = etag_of(api, language="en")
    assert revalidate(api, etag).status_code == 200


def test_a_changed_project_gets_the_new_export(api):
    etag = etag_of(api)
    api.upsert("en", {"title": "New title"})
    response = revalidate(api, etag)
    assert response.status_code == 200
    assert response.headers["ETag"] != etag
    assert response.json == {"en": {"common": {"title": "New title"}}}


def test_an_unknown_key_gets_401(app, api, flask_calls):
    etag = etag_of(api)
    stranger = CallerClient(app, {"bearer": "loko_" + "x" * 43})
    response = revalidate(api, etag, client=stranger)
    assert response.status_code == 401
    assert flask_calls[-1] == api.url("/translations")


def test_a_revoked_key_gets_401_at_once(api):
    etag = etag_of(api)
    assert api.owner.delete(f"/api/projects/{api.project_id}/keys/{api.key_id}").status_code == 200
    assert revalidate(api, etag).status_code == 401


def test_a_key_of_another_project_gets_403(app, api):
    etag = etag_of(api)
    with app.app_context():
        other = make_project(make_org(make_user()), name="Other")
        key, _ = make_key(other)
    response = revalidate(api, etag, client=CallerClient(app, {"bearer": key}))
    assert response.status_code == 403


def test_a_bad_query_gets_400(api):
    etag = etag_of(api)
    response = revalidate(api, etag, format="xml")
    assert response.status_code == 400
    assert "format" in response.json["error"]


def test_a_key_whose_use_is_due_to_be_noted_goes_through_flask_and_is_noted(app, api, flask_calls):
    etag = etag_of(api)
    long_ago = utcnow() - timedelta(minutes=5)
    with app.app_context(), unit_of_work():
        db.session.execute(update(ApiKey).where(ApiKey.id == api.key_id).values(last_used_at=long_ago))
    flask_calls.clear()
    assert revalidate(api, etag).status_code == 304
    assert flask_calls == [api.url("/translations")]
    with app.app_context():
        noted = db.session.execute(select(ApiKey.last_used_at).where(ApiKey.id == api.key_id)).scalar_one()
    assert noted > long_ago


def test_a_signed_in_user_revalidates_through_flask(api, flask_calls):
    etag = etag_of(api)
    flask_calls.clear()
    assert revalidate(api, etag, client=api.owner).status_code == 304
    assert flask_calls == [api.url("/translations")]


def test_a_head_request_goes_through_flask(api, flask_calls):
    etag = etag_of(api)
    flask_calls.clear()
    response = api.client.open("HEAD", api.url("/translations"), headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert flask_calls == [api.url("/translations")]


def test_a_write_after_a_304_ends_it_at_once(api):
    etag = etag_of(api)
    assert revalidate(api, etag).status_code == 304
    api.upsert("en", {"title": "New title"})
    assert revalidate(api, etag).status_code == 200


def test_a_key_revoked_after_a_304_gets_401_at_once(api):
    etag = etag_of(api)
    assert revalidate(api, etag).status_code == 304
    assert api.owner.delete(f"/api/projects/{api.project_id}/keys/{api.key_id}").status_code == 200
    assert revalidate(api, etag).status_code == 401


def listening(app) -> bool:
    """Whether the app's process tells unchanged data without a query: at once on SQLite
    (its WAL index), on PostgreSQL once its listener for commits listens (waited for)."""
    with app.app_context():
        notices = commit_notices(db.engine)
    if notices is None:
        return True
    deadline = time.monotonic() + 20
    while notices.state() is None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def asked(monkeypatch) -> list:
    """One item per query of the early 304 layer."""
    asked, first = [], revalidation.KEY_AND_VERSIONS.first
    monkeypatch.setattr(revalidation.KEY_AND_VERSIONS, "first", lambda *a: asked.append(1) or first(*a))
    return asked


def test_revalidations_of_an_unchanged_database_ask_it_once(app, api, asked):
    etag = etag_of(api)
    assert listening(app)
    asked.clear()
    assert [revalidate(api, etag).status_code for _ in range(3)] == [304, 304, 304]
    assert len(asked) == 1


def other_process_writes(app, project_id: str) -> None:
    """A write of another process: a connection of its own, outside this app's pool."""
    engine = sa.create_engine(app.config["LOKO_DATABASE_URL"])
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE projects SET data_version = data_version + 1 WHERE id = :id"),
                {"id": project_id},
            )
    finally:
        engine.dispose()


def test_a_commit_of_another_process_ends_a_kept_304(app, api, asked):
    etag = etag_of(api)
    assert listening(app)
    assert revalidate(api, etag).status_code == 304
    other_process_writes(app, api.project_id)
    response = revalidate(api, etag)
    assert response.status_code == 200
    assert response.headers["ETag"] != etag


def test_a_lost_listener_falls_back_to_a_query_per_revalidation(app, api, asked):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL's commit notices; SQLite has its WAL index")
    etag = etag_of(api)
    assert listening(app)
    assert revalidate(api, etag).status_code == 304
    engine = sa.create_engine(app.config["LOKO_DATABASE_URL"])
    try:
        with engine.begin() as connection:
            ended = connection.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                    "WHERE application_name = :name AND datname = current_database()"
                ),
                {"name": APPLICATION_NAME},
            ).scalars()
            assert list(ended) == [True]
    finally:
        engine.dispose()
    other_process_writes(app, api.project_id)
    asked.clear()
    response = revalidate(api, etag)
    assert response.status_code == 200
    etag = response.headers["ETag"]
    # Listening again a moment later; until then every revalidation asks the database.
    assert listening(app)
    asked.clear()
    assert [revalidate(api, etag).status_code for _ in range(3)] == [304, 304, 304]
    assert len(asked) == 1
