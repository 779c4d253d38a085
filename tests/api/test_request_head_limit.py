"""A request whose line and header fields reach the server's limit (waitress's
``max_request_header_size``, ``loko.http.MAX_REQUEST_HEAD``) answers 431 with a JSON error
in-process too, before any view, and the OpenAPI document states the status on every
operation (the served answer: tests/selfhost/test_request_head_limit.py)."""

from loko.http import HEAD_COUNTED, MAX_REQUEST_HEAD, RequestHeadLimit, request_head_size
from tests.translation_factories import project_api


def test_an_export_with_a_query_string_over_the_limit_answers_431_naming_the_query_string(app):
    api = project_api(app)
    response = api.client.get(api.url("/translations"), query_string={"fileName": "a" * MAX_REQUEST_HEAD})
    assert response.status_code == 431
    assert response.mimetype == "application/json"
    assert "query string" in response.json["error"]


def test_a_single_patch_with_a_query_string_over_the_limit_answers_431(app):
    # A PATCH by key is answered before Flask's request handling (loko.translations.direct).
    api = project_api(app)
    response = api.client.patch(
        api.url("/translations"),
        query_string={"x": "a" * MAX_REQUEST_HEAD},
        json={"key": "greeting", "fileName": "common", "updates": {"en": {"value": "Hi"}}},
    )
    assert response.status_code == 431
    assert "query string" in response.json["error"]


def test_a_query_string_just_under_the_limit_is_read(app):
    api = project_api(app)
    response = api.client.get(
        api.url("/translations"), query_string={"fileName": "common", "x": "a" * (MAX_REQUEST_HEAD - 2048)}
    )
    assert response.status_code == 400
    assert response.json["error"].startswith("x: ")


def test_the_head_size_counts_the_request_line_and_each_header_as_sent():
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/api/health?a=1",
        "PATH_INFO": "/api/health",
        "QUERY_STRING": "a=1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "localhost",
        "CONTENT_TYPE": "application/json",
        "wsgi.input": None,
    }
    sent = "GET /api/health?a=1 HTTP/1.1\r\nHOST: localhost\r\nCONTENT_TYPE: application/json"
    assert request_head_size(environ) == len(sent)


def test_the_document_states_431_on_every_operation(client):
    document = client.get("/api/openapi.json").json
    missing = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "431" not in operation["responses"]
    ]
    assert missing == []


def test_a_request_a_server_has_counted_already_is_not_counted_again():
    seen = []

    def inner(environ, start_response):
        seen.append(environ["PATH_INFO"])
        start_response("200 OK", [])
        return [b""]

    long_header = "a" * MAX_REQUEST_HEAD
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "HTTP_X_LONG": long_header, HEAD_COUNTED: True}
    assert RequestHeadLimit(inner)(environ, lambda *_: None) == [b""]
    assert seen == ["/"]
