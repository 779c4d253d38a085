"""Who may call the translation, trash, history, file and language endpoints (decisions 3).

Every call acts on valid data made with the project's write key (a translation with
values, a trashed translation, a file, a language), so a refusal can only come from the
caller's permissions. Each caller who may write gets its own copy of that data.
"""

import pytest

from tests.factories import CALLERS
from tests.translation_factories import ProjectApi

READ = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)


def _write(status):
    """A write: keys and roles with canEditTranslations succeed, read-only callers get 403."""
    return (401, 401, 401, 403, 403, status, 403, status, status, status, status, 404)


def _admin(status):
    """A structural change: project admins and organization owners and admins only; an API
    key is told that a session is needed."""
    return (401, 401, 401, 403, 403, 403, 403, 403, status, status, status, 404)


# Expected status per caller, in the order of CALLERS:
#  anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key,
#  viewer, editor, project_admin, org_admin, org_owner, outsider
# Placeholders name the data of one seed (see ``seed``).
PERMISSION_TABLE = [
    ("GET", "/translations", None, READ),
    ("POST", "/translations", {"key": "new{n}", "fileName": "common", "values": {"en": "New"}}, _write(201)),
    (
        "PUT",
        "/translations",
        {
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": "en",
            "translations": [{"key": "{key}", "value": "Changed"}],
        },
        _write(200),
    ),
    (
        "PUT",
        "/translations",
        {"operation": "bulk-delete", "fileName": "common", "keys": ["{key}"]},
        _write(200),
    ),
    (
        "PATCH",
        "/translations",
        {"key": "{key}", "fileName": "common", "updates": {"en": {"value": "x"}}},
        _write(200),
    ),
    ("DELETE", "/translations", {"id": "{id}"}, _write(200)),
    ("DELETE", "/translations", {"id": "{id}", "permanent": True}, _write(200)),
    ("GET", "/translations/trash", None, READ),
    ("POST", "/translations/trash", {"id": "{trashed}"}, _write(200)),
    ("DELETE", "/translations/trash", {"id": "{trashed}"}, _write(200)),
    ("GET", "/translations/keys", None, READ),
    ("GET", "/translations/history", None, READ),
    ("GET", "/files", None, READ),
    ("POST", "/files", {"fileName": "new{n}", "languages": [{"code": "en"}]}, _write(201)),
    ("PATCH", "/files", {"fileName": "{file}", "newFileName": "renamed{n}"}, _write(200)),
    ("DELETE", "/files", {"fileName": "{file}"}, _write(200)),
    ("DELETE", "/files", {"fileName": "common", "languageCode": "{language}"}, _write(200)),
    ("GET", "/languages", None, READ),
    ("POST", "/languages", {"code": "{new_language}"}, _write(201)),
    ("PATCH", "/languages", {"currentCode": "{language}", "name": "Renamed"}, _write(200)),
    ("PATCH", "/languages", {"currentCode": "{language}", "code": "{language}-AT"}, _write(200)),
    ("DELETE", "/languages", {"code": "{language}"}, _admin(200)),
    ("DELETE", "/languages", {"code": "{language}", "permanent": True}, _admin(200)),
    ("GET", "/operations", None, READ),
    ("POST", "/history/revert", {"actorType": "api_key", "skipChanged": True}, _write(200)),
]
LANGUAGES = ("de", "fr", "it", "es", "nl")
NEW_LANGUAGES = ("da", "fi", "pl", "cs", "hu")


def _case_id(method, path, body):
    detail = ""
    if isinstance(body, dict):
        detail = body.get("operation") or ("permanent" if body.get("permanent") else "")
        detail = detail or ("languageCode" if "languageCode" in body else "")
        detail = detail or ("code" if "code" in body and "currentCode" in body else "")
    return f"{method} {path}" + (f" ({detail})" if detail else "")


def _statuses(statuses, allowed: bool) -> dict:
    assert len(statuses) == len(CALLERS)
    return {c: s for c, s in zip(CALLERS, statuses, strict=True) if (s < 400) == allowed}


def _params(method_filter):
    return [
        pytest.param(m, p, b, s, id=_case_id(m, p, b)) for m, p, b, s in PERMISSION_TABLE if method_filter(m)
    ]


def seed(api: ProjectApi, n: int) -> dict:
    """One set of data to act on; returns the values of the placeholders."""
    language = LANGUAGES[n]
    key = f"seed{n}"
    translation = api.create(key, {"en": "Seed", language: "Saat"})
    trashed = api.create(f"trashed{n}", {"en": "Trashed"})
    api.trash(trashed["id"])
    api.create_files(f"old{n}", "en")
    return {
        "n": n,
        "key": key,
        "id": translation["id"],
        "trashed": trashed["id"],
        "file": f"old{n}",
        "language": language,
        "new_language": NEW_LANGUAGES[n],
    }


def _fill(template, values):
    if isinstance(template, str):
        return template.format(**values)
    if isinstance(template, list):
        return [_fill(item, values) for item in template]
    if isinstance(template, dict):
        return {_fill(name, values): _fill(item, values) for name, item in template.items()}
    return template


@pytest.fixture
def writer(as_caller, world) -> ProjectApi:
    return ProjectApi(as_caller("write_key"), world.project_id)


def _etag(as_caller, world):
    return ProjectApi(as_caller("org_owner"), world.project_id).export_response().headers["ETag"]


def _call(as_caller, world, caller, method, path, body):
    url = f"/api/projects/{world.project_id}{path}"
    return as_caller(caller).open(method, url, **({} if body is None else {"json": body}))


@pytest.mark.parametrize(("method", "path", "body", "statuses"), _params(lambda m: True))
def test_callers_without_the_permission_are_refused_and_change_nothing(
    as_caller, world, writer, method, path, body, statuses
):
    body = _fill(body, seed(writer, 0))
    expected = _statuses(statuses, allowed=False)
    before = _etag(as_caller, world)
    actual = {}
    for caller in expected:
        response = _call(as_caller, world, caller, method, path, body)
        actual[caller] = response.status_code
        assert isinstance(response.json["error"], str), caller
    assert actual == expected
    assert _etag(as_caller, world) == before


@pytest.mark.parametrize(("method", "path", "body", "statuses"), _params(lambda m: m == "GET"))
def test_callers_who_may_view_are_served(as_caller, world, writer, method, path, body, statuses):
    seed(writer, 0)
    expected = _statuses(statuses, allowed=True)
    actual = {caller: _call(as_caller, world, caller, method, path, body).status_code for caller in expected}
    assert actual == expected


@pytest.mark.parametrize(("method", "path", "body", "statuses"), _params(lambda m: m != "GET"))
def test_callers_who_may_edit_succeed(as_caller, world, writer, method, path, body, statuses):
    expected = _statuses(statuses, allowed=True)
    values = [seed(writer, n) for n in range(len(expected))]
    actual, changed = {}, {}
    for caller, own in zip(expected, values, strict=True):
        before = _etag(as_caller, world)
        response = _call(as_caller, world, caller, method, path, _fill(body, own))
        actual[caller] = response.status_code
        changed[caller] = _etag(as_caller, world) != before
    assert actual == expected
    assert changed == dict.fromkeys(expected, True)


@pytest.mark.parametrize("caller", ["read_key", "viewer"])
def test_read_only_callers_are_told_which_permission_is_missing(as_caller, world, writer, caller):
    seed(writer, 0)
    api = ProjectApi(as_caller(caller), world.project_id)
    response = api.patch(
        "/translations", {"key": "seed0", "fileName": "common", "updates": {"en": {"value": "x"}}}
    )
    assert response.status_code == 403
    assert "canEditTranslations" in response.json["error"]


def test_history_names_the_user_who_wrote(as_caller, world, writer):
    seed(writer, 0)
    editor = ProjectApi(as_caller("editor"), world.project_id)
    editor.set_values("seed0", {"en": "By the editor"})
    (entry,) = editor.history(action="updated")
    assert entry["actor"]["type"] == "user"
    assert entry["actor"]["name"] == "editor"
