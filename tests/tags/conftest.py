"""A project with the languages en (source) and de and a few keys in two files, seen by every
caller of the permission table, plus an editor limited to de."""

import pytest

from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from tests.factories import CallerClient, add_language, add_org_member, make_session, make_user, user_id
from tests.pages.conftest import PageClient

KEYS = {
    "common": {
        "title": {"en": "Acme", "de": "Acme"},
        "greeting": {"en": "Hello", "de": "Hallo"},
        "cart": {"en": "Cart", "de": "Korb"},
    },
    "web": {"footer": {"en": "Footer", "de": "Fußzeile"}, "menu": {"en": "Menu", "de": "Menü"}},
}


@pytest.fixture
def project(app, world, as_caller):
    """The world's project with KEYS; ``project.ids`` maps ``(file, key)`` to ids."""
    with app.app_context():
        project = db.session.get(Project, world.project_id)
        for code in ("en", "de"):
            add_language(project, code)
        organization = db.session.get(Organization, world.organization_id)
        user = make_user("de_editor@example.test", "de_editor")
        add_org_member(organization, user)
        world.users["de_editor"] = user
        world.credentials["de_editor"] = {"cookie": make_session(user)}
    response = as_caller("org_owner").put(
        f"/api/projects/{world.project_id}/members/{user_id(world.users['de_editor'])}",
        json={"role": "editor", "languages": ["de"]},
    )
    assert response.status_code == 200, response.json
    writer = as_caller("write_key")
    world.ids = {}
    for file_name, keys in KEYS.items():
        for key, values in keys.items():
            response = writer.post(
                f"/api/projects/{world.project_id}/translations",
                json={"key": key, "fileName": file_name, "values": values},
            )
            assert response.status_code == 201, response.json
            world.ids[file_name, key] = response.json["translation"]["id"]
    return world


@pytest.fixture
def api(app, project):
    """``api(caller, method, path, **kwargs)``: a response from /api/projects/{id}/tags + path."""

    def send(caller, method, path="", **kwargs):
        client = CallerClient(app, project.credentials[caller])
        return getattr(client, method)(f"/api/projects/{project.project_id}/tags{path}", **kwargs)

    return send


@pytest.fixture
def tag(api, project):
    """``tag(add=[...], remove=[...], **selection)``: a bulk change by the org owner, asserted."""

    def send(add=(), remove=(), caller="org_owner", **selection):
        response = api(caller, "post", "/bulk", json={"add": list(add), "remove": list(remove), **selection})
        assert response.status_code == 200, response.json
        return response

    return send


@pytest.fixture
def page_as(app, world):
    """``page_as("editor").get("/projects/...")``: that caller's browser."""

    def make(name: str) -> PageClient:
        return PageClient(app, world.credentials[name])

    return make
