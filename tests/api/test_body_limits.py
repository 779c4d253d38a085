"""A body larger than its limit is a 413 that names the limit that applied: the import limit
(LOKO_MAX_IMPORT_MB) for imports, raw or multipart (the import page: tests/pages), and the
4 MiB body limit for every other request."""

import io

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from tests.translation_factories import project_api

MIB = 1024 * 1024
IMPORT_LIMIT = "larger than 1 MiB, the import limit (LOKO_MAX_IMPORT_MB)"
BODY_LIMIT = "larger than 4 MiB, the body limit"


@pytest.fixture
def config_overrides():
    return {"LOKO_MAX_IMPORT_MB": 1}


@pytest.fixture
def api(app):
    return project_api(app)


def test_a_raw_import_above_the_import_limit_names_the_import_limit(api):
    response = api.client.post(
        api.url("/import"),
        data=b" " * (2 * MIB),
        query_string={"fileName": "home.json", "language": "en"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 413
    assert IMPORT_LIMIT in response.json["error"]


def test_a_multipart_import_above_the_import_limit_names_the_import_limit(api):
    # Encoded in memory: the test client would spool a large body to a file it never closes.
    upload = FileStorage(io.BytesIO(b" " * (2 * MIB)), "home.json")
    boundary, body = encode_multipart({"file": upload, "language": "en"})
    response = api.client.post(
        api.url("/import"), data=body, content_type=f'multipart/form-data; boundary="{boundary}"'
    )
    assert response.status_code == 413
    assert IMPORT_LIMIT in response.json["error"]


def test_an_import_above_the_body_limit_but_within_the_import_limit_is_not_refused_for_size(app):
    api = project_api(app)
    app.config["LOKO_MAX_IMPORT_MB"] = 8
    response = api.client.post(
        api.url("/import"),
        data=b" " * (5 * MIB) + b"{",
        query_string={"fileName": "home.json", "language": "en"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 400


def test_another_request_above_the_body_limit_names_the_body_limit(api):
    body = {"key": "k", "fileName": "home", "updates": {"en": {"value": "x" * (5 * MIB)}}}
    response = api.client.patch(api.url("/translations"), json=body)
    assert response.status_code == 413
    assert BODY_LIMIT in response.json["error"]
    assert "import" not in response.json["error"]
