"""Error responses: always JSON ``{error: string}`` under /api (decisions section 4)."""

import json
import uuid

import pytest

MIB = 1024 * 1024


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


def padded_json(document: dict, size: int) -> bytes:
    """``document`` as JSON, padded with trailing spaces to exactly ``size`` bytes."""
    body = json.dumps(document).encode()
    return body + b" " * (size - len(body))


def test_unknown_api_route_is_a_json_404(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.is_json
    assert "/api/no-such-thing" in response.json["error"]


def test_unknown_api_route_is_a_json_404_for_writes_too(client):
    response = client.post("/api/no-such-thing", json={})
    assert response.status_code == 404
    assert response.is_json


def test_wrong_method_is_a_json_405_with_allow_header(client):
    response = client.patch("/api/projects")
    assert response.status_code == 405
    assert response.is_json
    assert isinstance(response.json["error"], str)
    allowed = {method.strip() for method in response.headers["Allow"].split(",")}
    assert {"GET", "POST"} <= allowed
    assert "PATCH" not in allowed


def test_body_above_4_mib_is_a_json_413(owner):
    response = owner.post(
        "/api/organizations", data=padded_json({"name": "Big"}, 4 * MIB + 1), content_type="application/json"
    )
    assert response.status_code == 413
    assert "4 MiB" in response.json["error"]


def test_body_of_exactly_4_mib_is_accepted(owner):
    response = owner.post(
        "/api/organizations", data=padded_json({"name": "Big"}, 4 * MIB), content_type="application/json"
    )
    assert response.status_code == 201


def test_malformed_json_is_a_400(owner):
    response = owner.post("/api/organizations", data='{"name": ', content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json["error"]


@pytest.mark.parametrize("body", ["[]", '["name"]', '"name"', "42", "null"])
def test_json_body_that_is_not_an_object_is_a_400(owner, body):
    response = owner.post("/api/organizations", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "object" in response.json["error"]


def test_unknown_field_is_a_400_naming_it(owner):
    response = owner.post("/api/organizations", json={"name": "Beta", "nmae": "typo"})
    assert response.status_code == 400
    assert "nmae" in response.json["error"]
    assert "nmae" in response.json["details"]


def test_validation_error_details_name_each_field(owner, world):
    response = owner.post("/api/projects", json={"name": "n" * 33, "organization_id": "nope"})
    assert response.status_code == 400
    assert set(response.json["details"]) == {"name", "organization_id"}


def test_invalid_request_writes_nothing(owner):
    owner.post("/api/organizations", json={"name": "Beta", "nmae": "typo"})
    names = [o["name"] for o in owner.get("/api/organizations").json["organizations"]]
    assert names == ["Acme"]


def test_unexpected_error_is_a_json_500_without_traceback(app):
    def explode():
        raise RuntimeError("secret internals")

    app.add_url_rule("/api/explode", "explode", explode)
    response = app.test_client().get("/api/explode")
    assert response.status_code == 500
    assert response.json["error"].startswith("Internal server error (request ")
    body = response.get_data(as_text=True)
    assert "Traceback" not in body
    assert "secret internals" not in body


# Every error the foundation endpoints produce, each as (caller, method, path, request, status).
ERROR_CASES = [
    ("anonymous", "GET", "/api/nowhere", {}, 404),
    ("anonymous", "DELETE", "/api/organizations", {}, 405),
    ("anonymous", "GET", "/api/auth/me", {}, 401),
    ("unknown_key", "GET", "/api/projects", {}, 401),
    ("write_key", "GET", "/api/auth/me", {}, 403),
    ("outsider", "GET", "/api/projects/{project}", {}, 404),
    ("viewer", "PUT", "/api/projects/{project}", {"json": {"name": "X"}}, 403),
    ("org_owner", "POST", "/api/organizations", {"data": "{", "content_type": "application/json"}, 400),
    ("org_owner", "POST", "/api/organizations", {"json": {"name": ""}}, 400),
    ("org_owner", "POST", "/api/organizations", {"data": "name=X"}, 415),
    (
        "org_owner",
        "POST",
        "/api/organizations",
        {"json": {"name": "X"}, "headers": {"Origin": "http://x.test"}},
        403,
    ),
    (
        "org_owner",
        "POST",
        "/api/organizations/{organization}/members",
        {"json": {"email": "viewer@example.test", "role": "member"}},
        409,
    ),
    (
        "org_owner",
        "POST",
        "/api/organizations",
        {"data": b"{" + b" " * (4 * MIB), "content_type": "application/json"},
        413,
    ),
    ("org_owner", "GET", f"/api/organizations/{uuid.UUID(int=1)}/members", {}, 404),
]


@pytest.mark.parametrize(
    ("caller", "method", "path", "request_kwargs", "status"),
    ERROR_CASES,
    ids=[f"{status} {method} {path} as {caller}" for caller, method, path, _, status in ERROR_CASES],
)
def test_every_error_body_has_a_string_error(as_caller, world, caller, method, path, request_kwargs, status):
    path = path.format(project=world.project_id, organization=world.organization_id)
    response = as_caller(caller).open(method, path, **request_kwargs)
    assert response.status_code == status
    assert response.is_json
    assert isinstance(response.json["error"], str)
    assert response.json["error"]


def test_body_above_4_mib_on_login_is_a_json_413(client):
    response = client.post(
        "/api/auth/login",
        data=padded_json({"email": "ada@example.test", "password": "x"}, 4 * MIB + 1),
        content_type="application/json",
    )
    assert response.status_code == 413
    assert isinstance(response.json["error"], str)
