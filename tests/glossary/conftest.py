"""What the glossary tests share: the world's organization glossary URLs and a project in
English (its source language) and German with a key to translate."""

import pytest


def glossary_url(world, path: str = "/terms") -> str:
    return f"/api/organizations/{world.organization_id}/glossary{path}"


def add_term(as_caller, world, term="file", translations=(("de", "Datei", False),), **fields) -> dict:
    body = {
        "language": "en",
        "term": term,
        "translations": [{"language": c, "text": t, "forbidden": f} for c, t, f in translations],
        **fields,
    }
    response = as_caller("org_owner").post(glossary_url(world), json=body)
    assert response.status_code == 201, response.json
    return response.json["term"]


@pytest.fixture
def bilingual(app, world, as_caller):
    """The world's project in English (its source language) and German."""
    owner = as_caller("org_owner")
    for code in ("en", "de"):
        response = owner.post(f"/api/projects/{world.project_id}/languages", json={"code": code})
        assert response.status_code == 201, response.json
    return owner


def create_key(client, world, key: str, values: dict, file_name: str = "common") -> dict:
    response = client.post(
        f"/api/projects/{world.project_id}/translations",
        json={"key": key, "fileName": file_name, "values": values},
    )
    assert response.status_code == 201, response.json
    return response.json["translation"]


def issues(client, world, **params) -> list[dict]:
    response = client.get(f"/api/projects/{world.project_id}/checks", query_string={"limit": 1000, **params})
    assert response.status_code == 200, response.json
    return response.json["issues"]
