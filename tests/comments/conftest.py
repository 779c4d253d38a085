"""A key of the world's project (with English and German) to comment on, and helpers for
its thread's URLs."""

from dataclasses import dataclass

import pytest


@dataclass
class Thread:
    project_id: str
    translation_id: str

    @property
    def url(self) -> str:
        return f"/api/projects/{self.project_id}/translations/{self.translation_id}/comments"

    def comment_url(self, comment_id: str) -> str:
        return f"{self.url}/{comment_id}"


def make_key(client, project_id: str, key: str, languages=("en", "de")) -> str:
    """An active key (made by ``client``, which may edit the project) with the languages."""
    for code in languages:
        response = client.post(f"/api/projects/{project_id}/languages", json={"code": code})
        assert response.status_code in (201, 409), response.json
    response = client.post(
        f"/api/projects/{project_id}/translations",
        json={"key": key, "fileName": "common", "values": {languages[0]: key.title()}},
    )
    assert response.status_code == 201, response.json
    return response.json["translation"]["id"]


@pytest.fixture
def thread(world, as_caller) -> Thread:
    return Thread(world.project_id, make_key(as_caller("org_owner"), world.project_id, "greeting"))


@pytest.fixture
def comment(thread, as_caller):
    """``comment(caller, body, **fields)``: a new comment by ``caller``, as answered."""

    def add(caller="org_owner", body="Is this formal?", **fields):
        response = as_caller(caller).post(thread.url, json={"body": body, **fields})
        assert response.status_code == 201, response.json
        return response.json["comment"]

    return add
