"""Every path of the service spec's endpoint list answers as written: with and without a
trailing slash, directly (no redirect), and a write sent to either form does what its body
says. The spec writes some paths with the slash (``PUT /api/projects/{project-id}/``)."""

import re
from pathlib import Path

import pytest

from tests.translation_factories import ProjectApi, project_api

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "service-spec.md"
SPEC_ENDPOINT = re.compile(r"^(?:### |\| )(GET|POST|PUT|PATCH|DELETE) \|? ?(/api/\S*)", re.MULTILINE)
# The spec's endpoints, spelled as the spec spells them.
ENDPOINTS = (
    "GET /api/projects/{project-id}/translations",
    "POST /api/projects/{project-id}/translations",
    "PUT /api/projects/{project-id}/translations",
    "PATCH /api/projects/{project-id}/translations",
    "DELETE /api/projects/{project-id}/translations",
    "POST /api/projects/{project-id}/translations/trash",
    "DELETE /api/projects/{project-id}/translations/trash",
    "GET /api/projects/{project-id}/files",
    "POST /api/projects/{project-id}/files",
    "DELETE /api/projects/{project-id}/files",
    "PATCH /api/projects/{project-id}/languages",
    "GET /api/projects/{project-id}/languages",
    "PUT /api/projects/{project-id}/",
    "POST /api/projects/{project-id}/keys",
    "GET /api/projects/{project-id}/translations/trash",
    "GET /api/projects/{project-id}/translations/keys",
    "GET /api/projects/{project-id}/translations/history",
    "PATCH /api/projects/{project-id}/files",
    "POST /api/projects/{project-id}/languages",
    "DELETE /api/projects/{project-id}/languages",
    "GET /api/projects/{project-id}",
    "DELETE /api/projects/{project-id}",
    "GET /api/projects/{project-id}/keys",
    "DELETE /api/projects/{project-id}/keys/{key-id}",
    "GET /api/mcp",
    "POST /api/mcp",
    "DELETE /api/mcp",
    "GET /api/projects/{project-id}/repohost",
    "POST /api/projects/{project-id}/repohost",
    "DELETE /api/projects/{project-id}/repohost",
    "POST /api/projects/{project-id}/repohost/push",
    "POST /api/projects/{project-id}/repohost/sync",
)
SAFE = tuple(endpoint for endpoint in ENDPOINTS if endpoint.startswith("GET "))
WRITES = tuple(endpoint for endpoint in ENDPOINTS if not endpoint.startswith("GET "))
FORMS = {"without-slash": "", "with-slash": "/"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "spec-paths", "version": "1.0"},
    },
}


@pytest.fixture
def api(app) -> ProjectApi:
    """A project with one translation in English and German, and a trashed one."""
    api = project_api(app)
    api.create("greeting", {"en": "Hello", "de": "Hallo"})
    api.trash(api.create("farewell", {"en": "Bye"})["id"])
    return api


def _concrete(api: ProjectApi, endpoint: str, form: str, key_id: str = "") -> tuple[str, str]:
    method, path = endpoint.split(" ")
    path = path.replace("{project-id}", api.project_id).replace("{key-id}", key_id)
    return method, path.rstrip("/") + FORMS[form]


def _skip_unless_served(app, endpoint: str, path: str) -> None:
    method = endpoint.split(" ")[0]
    if not app.url_map.bind("localhost").test(path.rstrip("/"), method=method):
        pytest.skip(f"{endpoint} is in the spec but not served yet")


def _by_owner(api: ProjectApi, method: str, path: str, body: dict | None = None):
    return api.owner.open(method, path, json=body)


def test_every_endpoint_of_the_spec_is_listed():
    if not SPEC.is_file():
        pytest.skip(f"the service spec is not beside the repository ({SPEC})")
    in_spec = {f"{method} {path}" for method, path in SPEC_ENDPOINT.findall(SPEC.read_text())}
    assert in_spec == set(ENDPOINTS)


@pytest.mark.parametrize("endpoint", SAFE)
def test_safe_path_answers_the_same_with_a_trailing_slash(app, api, endpoint):
    _skip_unless_served(app, endpoint, _concrete(api, endpoint, "without-slash")[1])
    # The MCP endpoint takes only a project API key.
    caller = api if endpoint.endswith("/api/mcp") else api.as_client(api.owner)
    bare, slashed = (_answer(caller, _concrete(api, endpoint, form)[1]) for form in FORMS)
    assert bare == slashed
    assert bare[0] in (200, 405), bare


def _answer(caller: ProjectApi, path: str) -> tuple:
    """Status and body (an error's message names the path as sent, so only its presence counts)."""
    with caller.client.get(path, headers=MCP_HEADERS) as response:
        body = response.json
        if response.status_code >= 400:
            body = set(body)
        return response.status_code, body if body is not None else response.data


def _put_project(api, method, path):
    response = _by_owner(api, method, path, {"name": "Renamed", "desc": "Settings"})
    assert response.status_code == 200, response.json
    project = api.owner.get(api.url()).json["project"]
    assert (project["name"], project["desc"]) == ("Renamed", "Settings")


def _delete_project(api, method, path):
    response = _by_owner(api, method, path)
    assert response.status_code == 200, response.json
    assert api.owner.get(api.url()).status_code == 404


def _create_translation(api, method, path):
    body = {"key": "title", "fileName": "home", "values": {"en": "Hi"}}
    response = api.client.open(method, path, json=body)
    assert response.status_code == 201, response.json
    assert api.export()["en"]["home"] == {"title": "Hi"}


def _bulk_upsert(api, method, path):
    body = {
        "operation": "bulk-upsert",
        "fileName": "common",
        "languageCode": "fr",
        "translations": [{"key": "greeting", "value": "Bonjour"}],
    }
    response = api.client.open(method, path, json=body)
    assert response.json == {"created": 1, "updated": 0, "unchanged": 0}
    assert api.export()["fr"]["common"] == {"greeting": "Bonjour"}


def _patch_translation(api, method, path):
    body = {"key": "greeting", "fileName": "common", "updates": {"de": {"value": "Servus"}}}
    response = api.client.open(method, path, json=body)
    assert response.status_code == 200, response.json
    assert set(response.json["results"]) == {"de"}
    assert api.export()["de"]["common"] == {"greeting": "Servus"}


def _trash_translation(api, method, path):
    translation_id = api.create("doomed", {"en": "Doomed"})["id"]
    response = api.client.open(method, path, json={"id": translation_id})
    assert response.json == {"success": True}
    assert "doomed" in [t["key"] for t in api.trash_list()["translations"]]


def _restore_translation(api, method, path):
    (trashed,) = api.trash_list()["translations"]
    response = _by_owner(api, method, path, {"id": trashed["id"]})
    assert response.status_code == 200, response.json
    assert response.json["data"]["translation"]["id"] == trashed["id"]
    active_keys = api.keys()
    assert "farewell" in active_keys


def _purge_translation(api, method, path):
    (trashed,) = api.trash_list()["translations"]
    response = api.client.open(method, path, json={"id": trashed["id"]})
    assert response.json == {"success": True}
    assert api.trash_list()["total"] == 0


def _create_files(api, method, path):
    body = {"fileName": "checkout", "languages": [{"code": "en"}, {"code": "fr", "name": "Français"}]}
    response = api.client.open(method, path, json=body)
    assert response.status_code == 201, response.json
    assert {(f["file_name"], f["language"]) for f in api.files(fileName="checkout")} == {
        ("checkout", "en"),
        ("checkout", "fr"),
    }


def _rename_file(api, method, path):
    response = api.client.open(method, path, json={"fileName": "common", "newFileName": "shared"})
    assert response.status_code == 200, response.json
    assert {f["file_name"] for f in api.files()} == {"shared"}


def _delete_file(api, method, path):
    response = api.client.open(method, path, json={"fileName": "common", "languageCode": "de"})
    assert response.json == {"success": True}
    assert {f["language"] for f in api.files(fileName="common")} == {"en"}


def _add_language(api, method, path):
    response = api.client.open(method, path, json={"code": "it"})
    assert response.status_code == 201, response.json
    assert "it" in api.codes()


def _update_language(api, method, path):
    response = api.client.open(method, path, json={"currentCode": "de", "name": "Deutsch", "emoji": "🇩🇪"})
    assert response.status_code == 200, response.json
    german = next(language for language in api.languages() if language["code"] == "de")
    assert (german["name"], german["emoji"]) == ("Deutsch", "🇩🇪")


def _delete_language(api, method, path):
    response = _by_owner(api, method, path, {"code": "de"})
    assert response.status_code == 200, response.json
    assert api.codes() == ["en"]


def _create_api_key(api, method, path):
    response = _by_owner(api, method, path, {"name": "deploy", "scope": "read"})
    assert response.status_code == 201, response.json
    assert (response.json["apiKey"]["name"], response.json["apiKey"]["scope"]) == ("deploy", "read")
    assert response.json["key"].startswith("loko_")


def _revoke_api_key(api, method, path):
    response = _by_owner(api, method, path)
    assert response.json == {"success": True}
    assert api.get("/languages").status_code == 401


def _mcp_message(api, method, path):
    response = api.client.open(method, path, json=INITIALIZE, headers=MCP_HEADERS)
    assert response.status_code == 200, response.json
    assert response.json["id"] == 1
    assert response.json["result"]["serverInfo"]["name"]
    assert response.headers["Mcp-Session-Id"]


def _mcp_end_session(api, method, path):
    opened = api.client.post("/api/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    session = opened.headers["Mcp-Session-Id"]
    response = api.client.open(method, path, headers={"Mcp-Session-Id": session})
    assert response.status_code == 204
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    again = api.client.post("/api/mcp", json=ping, headers={**MCP_HEADERS, "Mcp-Session-Id": session})
    assert again.status_code == 404


# The repository endpoints end to end are in tests/repohost; here each shows that it read
# the request at this path (no repository is configured, and none is reachable).


def _configure_repohost(api, method, path):
    body = {"provider": "github", "repository": "acme/app", "token": "t", "api_url": "http://10.0.0.1/api"}
    response = _by_owner(api, method, path, body)
    assert response.status_code == 400 and response.json["error"].startswith("api_url")


def _delete_repohost(api, method, path):
    response = _by_owner(api, method, path)
    assert response.status_code == 404 and "no repository" in response.json["error"]


def _push_repohost(api, method, path):
    response = api.client.open(method, path, json={})
    assert response.status_code == 404 and "no repository" in response.json["error"]


def _sync_repohost(api, method, path):
    response = api.client.open(method, path, json={"removedKeys": "everything"})
    assert response.status_code == 400 and "removedKeys" in response.json["error"]


# Each write, sent to the given path, checks that its body was honoured.
HONOURED = {
    "POST /api/projects/{project-id}/translations": _create_translation,
    "PUT /api/projects/{project-id}/translations": _bulk_upsert,
    "PATCH /api/projects/{project-id}/translations": _patch_translation,
    "DELETE /api/projects/{project-id}/translations": _trash_translation,
    "POST /api/projects/{project-id}/translations/trash": _restore_translation,
    "DELETE /api/projects/{project-id}/translations/trash": _purge_translation,
    "POST /api/projects/{project-id}/files": _create_files,
    "PATCH /api/projects/{project-id}/files": _rename_file,
    "DELETE /api/projects/{project-id}/files": _delete_file,
    "POST /api/projects/{project-id}/languages": _add_language,
    "PATCH /api/projects/{project-id}/languages": _update_language,
    "DELETE /api/projects/{project-id}/languages": _delete_language,
    "PUT /api/projects/{project-id}/": _put_project,
    "DELETE /api/projects/{project-id}": _delete_project,
    "POST /api/projects/{project-id}/keys": _create_api_key,
    "DELETE /api/projects/{project-id}/keys/{key-id}": _revoke_api_key,
    "POST /api/mcp": _mcp_message,
    "DELETE /api/mcp": _mcp_end_session,
    "POST /api/projects/{project-id}/repohost": _configure_repohost,
    "DELETE /api/projects/{project-id}/repohost": _delete_repohost,
    "POST /api/projects/{project-id}/repohost/push": _push_repohost,
    "POST /api/projects/{project-id}/repohost/sync": _sync_repohost,
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("endpoint", WRITES)
def test_write_honours_its_body_at_either_form_of_the_path(app, api, endpoint, form):
    method, path = _concrete(api, endpoint, form, key_id=api.key_id)
    _skip_unless_served(app, endpoint, path)
    HONOURED[endpoint](api, method, path)
