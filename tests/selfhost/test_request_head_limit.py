"""A query string over the server's limit on the request line and headers, against a real
``loko serve``: waitress refuses it before the app sees it, with the status and the
``{"error": ...}`` body the OpenAPI document states (the in-process app answers alike:
tests/api/test_request_head_limit.py)."""

import json

import pytest

from loko.http import MAX_REQUEST_HEAD
from tests.selfhost.conftest import ServedConnection, migrate_to


@pytest.fixture
def server(tmp_path, serve):
    """A served Loko on SQLite: the limit is waitress's, whatever the database."""
    url = f"sqlite:///{tmp_path / 'loko.db'}"
    migrate_to(url)
    return serve(url, processes=2)


@pytest.mark.slow
def test_a_query_string_over_the_limit_answers_431_with_a_json_error(server):
    connection = ServedConnection(server)
    status, headers, body = connection.request("GET", "/api/health?text=" + "a" * MAX_REQUEST_HEAD)
    assert status == 431
    assert headers["Content-Type"] == "application/json"
    assert "query string" in json.loads(body)["error"]


@pytest.mark.slow
def test_a_query_string_just_under_the_limit_reaches_the_app(server):
    connection = ServedConnection(server)
    status, _, body = connection.request("GET", "/api/health?text=" + "a" * (MAX_REQUEST_HEAD - 1024))
    assert status == 200
    assert json.loads(body)["status"] == "ok"
