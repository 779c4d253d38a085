"""Translations, files and languages made through the real HTTP API.

``ProjectApi`` wraps a test client (usually ``as_caller("write_key")``) and one project.
Its plain methods (``post``, ``patch`` ...) return the response for status checks; the
named helpers (``create``, ``upsert`` ...) assert success and return the useful part.
"""

import io
import zipfile

import orjson

from tests.factories import CallerClient, make_key, make_org, make_project, make_session, make_user

DEFAULT_FILE = "common"
OWNER_NAME = "Owner"
KEY_NAME = "ci"


class ProjectApi:
    """One caller's view of one project's translation, file and language endpoints."""

    def __init__(self, client, project_id: str, **context):
        self.client = client
        self.project_id = project_id
        self.base = f"/api/projects/{project_id}"
        self.organization_id = context.get("organization_id")
        self.key_id = context.get("key_id")
        self.credentials = context.get("credentials")
        self.owner = context.get("owner")

    def as_client(self, client) -> "ProjectApi":
        """The same project seen by another caller."""
        return ProjectApi(client, self.project_id, organization_id=self.organization_id, owner=self.owner)

    def url(self, path: str = "") -> str:
        return self.base + path

    def get(self, path: str, **params):
        return self.client.get(self.base + path, query_string=params)

    def post(self, path: str, body: dict):
        return self.client.post(self.base + path, json=body)

    def put(self, path: str, body: dict):
        return self.client.put(self.base + path, json=body)

    def patch(self, path: str, body: dict):
        return self.client.patch(self.base + path, json=body)

    def delete(self, path: str, body: dict):
        return self.client.delete(self.base + path, json=body)

    # Translations

    def create(self, key: str, values: dict | None = None, file_name: str = DEFAULT_FILE) -> dict:
        response = self.post("/translations", {"key": key, "fileName": file_name, "values": values or {}})
        assert response.status_code == 201, response.json
        return response.json["translation"]

    def set_values(self, key: str, values: dict, file_name: str = DEFAULT_FILE) -> dict:
        updates = {code: {"value": value} for code, value in values.items()}
        response = self.patch("/translations", {"key": key, "fileName": file_name, "updates": updates})
        assert response.status_code == 200, response.json
        return response.json["results"]

    def bulk_upsert_request(self, language: str, items, file_name: str = DEFAULT_FILE):
        if isinstance(items, dict):
            items = [{"key": key, "value": value} for key, value in items.items()]
        return self.put(
            "/translations",
            {
                "operation": "bulk-upsert",
                "fileName": file_name,
                "languageCode": language,
                "translations": items,
            },
        )

    def upsert(self, language: str, items, file_name: str = DEFAULT_FILE) -> dict:
        response = self.bulk_upsert_request(language, items, file_name)
        assert response.status_code == 200, response.json
        return response.json

    def bulk_delete(self, keys: list[str], file_name: str = DEFAULT_FILE, permanent: bool = False) -> dict:
        body = {"operation": "bulk-delete", "fileName": file_name, "keys": keys, "permanent": permanent}
        response = self.put("/translations", body)
        assert response.status_code == 200, response.json
        return response.json

    def trash(self, translation_id: str) -> None:
        response = self.delete("/translations", {"id": translation_id})
        assert response.status_code == 200, response.json

    def purge(self, translation_id: str) -> None:
        response = self.delete("/translations", {"id": translation_id, "permanent": True})
        assert response.status_code == 200, response.json

    def restore(self, translation_id: str) -> dict:
        response = self.post("/translations/trash", {"id": translation_id})
        assert response.status_code == 200, response.json
        return response.json["data"]["translation"]

    def trash_list(self, **params) -> dict:
        response = self.get("/translations/trash", **params)
        assert response.status_code == 200, response.json
        return response.json

    def keys(self, **params) -> list[str]:
        response = self.get("/translations/keys", **params)
        assert response.status_code == 200, response.json
        return response.json["keys"]

    # Export

    def export_response(self, **params):
        return self.get("/translations", **params)

    def export(self, **params) -> dict:
        response = self.export_response(**params)
        assert response.status_code == 200, response.json
        assert response.mimetype == "application/json"
        return orjson.loads(response.data)

    def export_zip(self, **params) -> dict[str, bytes]:
        response = self.export_response(zip="true", **params)
        assert response.status_code == 200, response.json
        assert response.mimetype == "application/zip"
        return zip_entries(response.data)

    # History

    def history_page(self, **params) -> dict:
        response = self.get("/translations/history", **params)
        assert response.status_code == 200, response.json
        return response.json

    def history(self, **filters) -> list[dict]:
        """Every entry matching ``filters``, newest first, following the cursor."""
        entries, cursor = [], None
        while True:
            params = {**filters, "limit": 500, **({"cursor": cursor} if cursor else {})}
            page = self.history_page(**params)
            entries += page["history"]
            cursor = page["next_cursor"]
            if cursor is None:
                return entries

    # Files and languages

    def files(self, **params) -> list[dict]:
        response = self.get("/files", **params)
        assert response.status_code == 200, response.json
        return response.json["files"]

    def create_files(self, file_name: str, *codes: str) -> list[dict]:
        response = self.post("/files", {"fileName": file_name, "languages": [{"code": c} for c in codes]})
        assert response.status_code in (200, 201), response.json
        return response.json["files"]

    def languages(self, **params) -> list[dict]:
        response = self.get("/languages", **params)
        assert response.status_code == 200, response.json
        return response.json["languages"]

    def add_language(self, code: str, **details) -> list[dict]:
        response = self.post("/languages", {"code": code, **details})
        assert response.status_code == 201, response.json
        return response.json["languages"]

    def codes(self) -> list[str]:
        return [language["code"] for language in self.languages()]


def project_api(app) -> ProjectApi:
    """A new project in a new organization, called with a write key of the project.

    ``api.owner`` is a client signed in as the organization's owner, ``api.key_id`` the
    key's id (its name is ``KEY_NAME``) and ``api.credentials`` what ``CallerClient`` needs
    to call as the key.
    """
    with app.app_context():
        owner = make_user(name=OWNER_NAME)
        organization = make_org(owner)
        project = make_project(organization, name="Web app")
        key, key_id = make_key(project, name=KEY_NAME)
        token = make_session(owner)
        project_id, organization_id = project.id, organization.id
    return ProjectApi(
        CallerClient(app, {"bearer": key}),
        project_id,
        organization_id=organization_id,
        key_id=key_id,
        credentials={"bearer": key},
        owner=CallerClient(app, {"cookie": token}),
    )


def zip_entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def create_project(owner_client, organization_id: str, name: str, languages=()) -> str:
    """A project made through POST /api/projects by an org owner or admin; returns its id."""
    response = owner_client.post("/api/projects", json={"name": name, "organization_id": organization_id})
    assert response.status_code == 201, response.json
    project_id = response.json["project"]["id"]
    api = ProjectApi(owner_client, project_id)
    for code in languages:
        api.add_language(code)
    return project_id


def link_projects(owner_client, project_id: str, linked_project_id: str, source: str, target: str):
    """Make ``project_id``'s language ``target`` inherit ``source`` of ``linked_project_id``."""
    response = owner_client.put(
        f"/api/projects/{project_id}",
        json={
            "linked_project_id": linked_project_id,
            "linked_language_code": source,
            "linked_language_target_code": target,
        },
    )
    assert response.status_code == 200, response.json
    return response.json["project"]


def caller_id(client) -> str:
    """The user id behind a session-authenticated client."""
    response = client.get("/api/auth/me")
    assert response.status_code == 200, response.json
    return response.json["user"]["id"]
