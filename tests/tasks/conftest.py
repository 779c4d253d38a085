"""A project with English and German and a few keys, for tasks."""

import pytest

from tests.comments.conftest import make_key
from tests.pages.conftest import page_as  # noqa: F401 (a fixture)


@pytest.fixture
def keys(world, as_caller) -> list[str]:
    owner = as_caller("org_owner")
    made = [make_key(owner, world.project_id, name) for name in ("greeting", "farewell", "title")]
    return made


def make_task(client, project_id, **fields):
    body = {"kind": "translate", "language": "de", "title": "German", "filter": {}, **fields}
    body = {name: value for name, value in body.items() if value is not None}
    response = client.post(f"/api/projects/{project_id}/tasks", json=body)
    assert response.status_code == 201, response.json
    return response.json
