"""A project with the languages en (source), de and fr and a few keys, seen by every caller
of the permission table, plus a reviewer and an editor limited to de."""

import pytest

from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from tests.factories import CallerClient, add_language, add_org_member, make_session, make_user, user_id

VALUES = {
    "greeting": {"en": "Hello", "de": "Hallo Welt", "fr": "Bonjour le monde"},
    "cart": {"en": "{count} items", "de": "{count} Artikel in der Welt", "fr": "{count} articles"},
    "link": {"en": "<b>Home</b>", "de": "<b>Welt</b> entdecken", "fr": "<b>Accueil</b>"},
    "world": {"en": "World", "de": "Weltweit und welt", "fr": "Monde"},
}


@pytest.fixture
def project(app, world, as_caller):
    """The world's project with VALUES in the file ``common``; ``project.ids`` maps keys to ids."""
    with app.app_context():
        project = db.session.get(Project, world.project_id)
        for code in ("en", "de", "fr"):
            add_language(project, code)
        organization = db.session.get(Organization, world.organization_id)
        for name in ("reviewer", "de_editor"):
            user = make_user(f"{name}@example.test", name)
            add_org_member(organization, user)
            world.users[name] = user
            world.credentials[name] = {"cookie": make_session(user)}
    owner = as_caller("org_owner")
    for name, role, languages in (("reviewer", "reviewer", None), ("de_editor", "editor", ["de"])):
        response = owner.put(
            f"/api/projects/{world.project_id}/members/{user_id(world.users[name])}",
            json={"role": role, "languages": languages},
        )
        assert response.status_code == 200, response.json
    writer = as_caller("write_key")
    world.ids = {}
    for key, values in VALUES.items():
        response = writer.post(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "values": values},
        )
        assert response.status_code == 201, response.json
        world.ids[key] = response.json["translation"]["id"]
    return world


@pytest.fixture
def replace(app, project):
    """``replace(caller, **body)``: the response of POST .../replace by that caller."""

    def send(caller, **body):
        client = CallerClient(app, project.credentials[caller])
        return client.post(f"/api/projects/{project.project_id}/replace", json=body)

    return send


@pytest.fixture
def values(app, project, as_caller):
    """``values()``: ``{key: {language: value}}`` of the project, as its export has them."""

    def read():
        response = as_caller("org_owner").get(f"/api/projects/{project.project_id}/translations")
        assert response.status_code == 200, response.json
        found = {}
        for language, files in response.json.items():
            for key, value in files["common"].items():
                found.setdefault(key, {})[language] = value
        return found

    return read


def ticked(preview: dict, *keys) -> list[dict]:
    """The apply's items for the preview's changes of ``keys`` (all when none are named)."""
    return [
        {
            "translationId": change["translationId"],
            "language": change["language"],
            "expected": change["before"],
        }
        for change in preview["changes"]
        if not keys or change["key"] in keys
    ]
