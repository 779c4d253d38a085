"""Who may call which foundation endpoint (decisions section 3).

The world: one project in organization "Acme" (owner, org admin, and members who are
project admin, editor and viewer), an outsider who owns another organization, and keys
of the project (read, write, revoked) and of the outsider's project.
"""

import base64
import uuid

import pytest

from loko.auth.models import User
from loko.extensions import db
from tests.factories import CALLERS, CallerClient, expire_session, make_session, user_id

TMX = base64.b64encode(
    b'<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>Save</seg></tuv>'
    b'<tuv xml:lang="de"><seg>Speichern</seg></tuv></tu></body></tmx>'
).decode()

# Expected status per caller, in the order of CALLERS:
#  anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key,
#  viewer, editor, project_admin, org_admin, org_owner, outsider
PERMISSION_TABLE = [
    ("GET", "/api/projects/{project}", None, (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)),
    (
        "PUT",
        "/api/projects/{project}",
        {"name": "Renamed"},
        (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404),
    ),
    (
        "DELETE",
        "/api/projects/{project}",
        None,
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404),
    ),
    (
        "GET",
        "/api/projects/{project}/keys",
        None,
        (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404),
    ),
    (
        "POST",
        "/api/projects/{project}/keys",
        {"name": "deploy"},
        (401, 401, 401, 403, 403, 403, 403, 403, 201, 201, 201, 404),
    ),
    (
        "DELETE",
        "/api/projects/{project}/keys/{spare_key}",
        None,
        (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404),
    ),
    (
        "PUT",
        "/api/projects/{project}/members/{viewer}",
        {"role": "editor"},
        (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404),
    ),
    ("GET", "/api/projects", None, (401, 401, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200)),
    (
        "POST",
        "/api/projects",
        {"name": "New", "organization_id": "{organization}"},
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 201, 201, 404),
    ),
    ("GET", "/api/organizations", None, (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 200)),
    (
        "POST",
        "/api/organizations",
        {"name": "Second"},
        (401, 401, 401, 403, 403, 403, 201, 201, 201, 201, 201, 201),
    ),
    (
        "GET",
        "/api/organizations/{organization}/members",
        None,
        (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 404),
    ),
    (
        "POST",
        "/api/organizations/{organization}/members",
        {"email": "outsider@example.test", "role": "member"},
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 201, 201, 404),
    ),
    (
        "DELETE",
        "/api/organizations/{organization}/members/{viewer}",
        None,
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404),
    ),
    # The translation memory. The world's project has no source language, so whoever may
    # look up is told 409; who sees which matches: tests/memory/test_scope.py.
    (
        "GET",
        "/api/projects/{project}/memory?text=Save&language=de",
        None,
        (401, 401, 401, 403, 409, 409, 409, 409, 409, 409, 409, 404),
    ),
    (
        "PUT",
        "/api/projects/{project}",
        {"memory_shared": True},
        (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404),
    ),
    (
        "GET",
        "/api/organizations/{organization}/memory.tmx",
        None,
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404),
    ),
    (
        "POST",
        "/api/organizations/{organization}/memory/imports",
        {"file": TMX},
        (401, 401, 401, 403, 403, 403, 403, 403, 403, 202, 202, 404),
    ),
    # The review queue: whoever sees the translations (tests/api/test_review_queue.py).
    (
        "GET",
        "/api/projects/{project}/translations/review?state=needs-review",
        None,
        (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404),
    ),
    # Releases (tests/releases/): seen by whoever sees the translations; named and deleted by
    # the project's admins (the organization's owners and admins) and write keys.
    (
        "GET",
        "/api/projects/{project}/releases",
        None,
        (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404),
    ),
    (
        "POST",
        "/api/projects/{project}/releases",
        {"name": "v1.0"},
        (401, 401, 401, 403, 403, 201, 403, 403, 201, 201, 201, 404),
    ),
    (
        "GET",
        "/api/projects/{project}/releases/v9/compare",
        None,
        (401, 401, 401, 403, 404, 404, 404, 404, 404, 404, 404, 404),
    ),
    (
        "DELETE",
        "/api/projects/{project}/releases/v9",
        None,
        (401, 401, 401, 403, 403, 404, 403, 403, 404, 404, 404, 404),
    ),
    ("GET", "/api/auth/me", None, (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 200)),
    ("POST", "/api/auth/logout", None, (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 200)),
]

ENDPOINTS = [(method, path, body) for method, path, body, _ in PERMISSION_TABLE]
PROJECT_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if endpoint[1].startswith("/api/projects/")]
SESSION_ONLY_ENDPOINTS = [
    (method, path, body)
    for method, path, body, statuses in PERMISSION_TABLE
    if statuses[CALLERS.index("write_key")] == 403 and statuses[CALLERS.index("org_owner")] < 400
]


def _ids(endpoints):
    return [f"{method} {path}" for method, path, _ in endpoints]


def _cases():
    for method, path, body, statuses in PERMISSION_TABLE:
        assert len(statuses) == len(CALLERS), f"{method} {path} needs one status per caller"
        for caller, status in zip(CALLERS, statuses, strict=True):
            yield pytest.param(method, path, body, caller, status, id=f"{method} {path} as {caller}")


def _fill(template, world):
    ids = {
        "project": world.project_id,
        "organization": world.organization_id,
        "spare_key": world.key_ids["spare_key"],
        "viewer": user_id(world.users["viewer"]),
    }
    if isinstance(template, str):
        return template.format(**ids)
    if isinstance(template, dict):
        return {name: _fill(value, world) for name, value in template.items()}
    return template


def _call(client, method, path, body, world, **ids):
    path = _fill(path, world)
    for name, value in ids.items():
        path = path.replace(getattr(world, name), value)
    kwargs = {} if body is None else {"json": _fill(body, world)}
    return client.open(method, path, **kwargs)


@pytest.mark.parametrize(("method", "path", "body", "caller", "status"), list(_cases()))
def test_permission_table(as_caller, world, method, path, body, caller, status):
    response = _call(as_caller(caller), method, path, body, world)
    assert response.status_code == status, response.json
    if status >= 400:
        assert isinstance(response.json["error"], str)


@pytest.mark.parametrize(("method", "path", "body"), SESSION_ONLY_ENDPOINTS, ids=_ids(SESSION_ONLY_ENDPOINTS))
@pytest.mark.parametrize("caller", ["read_key", "write_key"])
def test_api_key_on_session_only_endpoint_is_told_a_session_is_required(
    as_caller, world, method, path, body, caller
):
    response = _call(as_caller(caller), method, path, body, world)
    assert response.status_code == 403
    assert "session" in response.json["error"]


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=_ids(ENDPOINTS))
def test_expired_session_is_unauthorized(app, world, method, path, body):
    with app.app_context():
        token = make_session(db.session.get(User, user_id(world.users["org_owner"])))
        expire_session(token)
    response = _call(CallerClient(app, {"cookie": token}), method, path, body, world)
    assert response.status_code == 401


@pytest.mark.parametrize(("method", "path", "body"), PROJECT_ENDPOINTS, ids=_ids(PROJECT_ENDPOINTS))
def test_missing_project_is_not_found_for_an_org_owner(as_caller, world, method, path, body):
    missing = str(uuid.uuid4())
    response = _call(as_caller("org_owner"), method, path, body, world, project_id=missing)
    assert response.status_code == 404


@pytest.mark.parametrize(("method", "path", "body"), PROJECT_ENDPOINTS, ids=_ids(PROJECT_ENDPOINTS))
def test_key_of_another_project_is_forbidden_before_the_project_is_looked_up(
    as_caller, world, method, path, body
):
    missing = str(uuid.uuid4())
    response = _call(as_caller("other_project_key"), method, path, body, world, project_id=missing)
    assert response.status_code == 403
    assert "does not belong to this project" in response.json["error"]


# canEdit, canDelete, canViewTranslations, canEditTranslations
PERMISSION_FLAGS = [
    ("read_key", (False, False, True, False)),
    ("write_key", (False, False, True, True)),
    ("viewer", (False, False, True, False)),
    ("editor", (False, False, True, True)),
    ("project_admin", (True, False, True, True)),
    ("org_admin", (True, True, True, True)),
    ("org_owner", (True, True, True, True)),
]


@pytest.mark.parametrize(("caller", "flags"), PERMISSION_FLAGS, ids=[c for c, _ in PERMISSION_FLAGS])
def test_project_permission_flags_describe_the_caller(as_caller, world, caller, flags):
    project = as_caller(caller).get(f"/api/projects/{world.project_id}").json["project"]
    can_edit, can_delete, can_view, can_edit_translations = flags
    assert project["canEdit"] is can_edit
    assert project["canDelete"] is can_delete
    assert project["canViewTranslations"] is can_view
    assert project["canEditTranslations"] is can_edit_translations


@pytest.mark.parametrize(("caller", "flags"), PERMISSION_FLAGS, ids=[c for c, _ in PERMISSION_FLAGS])
def test_project_list_carries_the_same_flags(as_caller, world, caller, flags):
    projects = as_caller(caller).get("/api/projects").json["projects"]
    (project,) = [p for p in projects if p["id"] == world.project_id]
    assert (
        project["canEdit"],
        project["canDelete"],
        project["canViewTranslations"],
        project["canEditTranslations"],
    ) == flags
