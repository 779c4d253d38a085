"""The world's project with English (source) and German, one key to propose for, and the
callers proposals add to the world's: a reviewer, two contributors and an editor of German."""

from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from tests.factories import add_org_member, make_session, make_user, set_project_role

# The world's callers and the ones added here, for the authorization matrices.
PEOPLE = {"reviewer": "reviewer", "contributor": "contributor", "contributor2": "contributor"}
# Signed-in people who are not members of the project: two outside the organization (public
# visitors of a public project, one of them blocked from proposing by the tests that need it)
# and one in the organization without a project role.
STRANGERS = {"visitor": None, "blocked_visitor": None, "org_member": "member"}


@pytest.fixture
def people(app, world):
    """Adds a reviewer, two contributors and the strangers to the world (their credentials
    under their names)."""
    with app.app_context():
        for name, role in PEOPLE.items():
            user = make_user(f"{name}@example.test", name.title())
            add_org_member(SimpleNamespace(id=world.organization_id), user, "member")
            set_project_role(SimpleNamespace(id=world.project_id), user, role)
            world.users[name] = user
            world.credentials[name] = {"cookie": make_session(user)}
        for name, org_role in STRANGERS.items():
            user = make_user(f"{name}@example.test", name.replace("_", " ").title())
            if org_role:
                add_org_member(SimpleNamespace(id=world.organization_id), user, org_role)
            world.users[name] = user
            world.credentials[name] = {"cookie": make_session(user)}
    return world


@dataclass
class Key:
    project_id: str
    translation_id: str

    @property
    def base(self) -> str:
        return f"/api/projects/{self.project_id}/proposals"

    def url(self, proposal_id: str, action: str = "") -> str:
        return f"{self.base}/{proposal_id}" + (f"/{action}" if action else "")


def make_key(client, project_id: str, key: str, values=None) -> str:
    for code in ("en", "de"):
        response = client.post(f"/api/projects/{project_id}/languages", json={"code": code})
        assert response.status_code in (201, 409), response.json
    response = client.post(
        f"/api/projects/{project_id}/translations",
        json={"key": key, "fileName": "common", "values": values or {"en": key.title()}},
    )
    assert response.status_code == 201, response.json
    return response.json["translation"]["id"]


@pytest.fixture
def key(people, as_caller) -> Key:
    return Key(people.project_id, make_key(as_caller("org_owner"), people.project_id, "greeting"))


@pytest.fixture
def proposal(key, as_caller):
    """``proposal(caller, text)``: a new open proposal in German, as answered."""

    def make(caller="contributor", text="Hallo", language="de", translation_id=None):
        response = as_caller(caller).post(
            key.base,
            json={"translationId": translation_id or key.translation_id, "language": language, "text": text},
        )
        assert response.status_code == 201, response.json
        return response.json["proposal"]

    return make


def set_settings(as_caller, project_id: str, **body):
    response = as_caller("org_owner").patch(f"/api/projects/{project_id}/proposal-settings", json=body)
    assert response.status_code == 200, response.json
    return response.json


def make_public(as_caller, project_id: str, public: bool = True) -> None:
    response = as_caller("org_owner").put(f"/api/projects/{project_id}", json={"public": public})
    assert response.status_code == 200 and response.json["project"]["public"] is public, response.json


def block(as_caller, project_id: str, user_id: str) -> None:
    response = as_caller("org_owner").put(f"/api/projects/{project_id}/proposal-blocks/{user_id}")
    assert response.status_code == 201, response.json
