"""Deleting a project deletes its screenshots' files after the deletion commits, except the
files a screenshot of another project still names."""

import pytest

from loko import events
from loko.auth.models import User
from loko.auth.service import user_actor
from loko.extensions import db
from loko.projects.service import delete_project
from tests.screenshots.conftest import picture, stored_files, upload
from tests.translation_factories import project_api


def owner_actor(app, api):
    with app.app_context():
        return user_actor(db.session.scalars(db.select(User).where(User.name == "Owner")).one())


def test_deleting_a_project_removes_its_screenshots_files(app, api):
    upload(api.client, api, ("home.png", picture(color=(1, 2, 3))), ("menu.png", picture(color=(4, 5, 6))))
    assert len(stored_files(app)) == 6  # two images, each with its thumbnail and preview
    assert api.owner.delete(api.url()).status_code == 200
    assert stored_files(app) == []


def test_deleting_a_project_keeps_a_file_another_project_shows(app, api):
    upload(api.client, api, ("home.png", picture(color=(1, 2, 3))), ("menu.png", picture(color=(4, 5, 6))))
    other = project_api(app)
    shared = upload(other.client, other, ("same.png", picture(color=(1, 2, 3))))
    assert shared.status_code == 201, shared.json
    sha256 = shared.json["screenshots"][0]["sha256"]
    assert api.owner.delete(api.url()).status_code == 200
    assert stored_files(app) == sorted(
        [f"{sha256}.png", f"{sha256}.preview.webp", f"{sha256}.thumbnail.webp"]
    )
    image = other.client.get(shared.json["screenshots"][0]["urls"]["image"])
    assert image.status_code == 200


def test_a_project_deletion_that_rolls_back_keeps_the_files(app, api):
    upload(api.client, api, ("home.png", picture()))
    before = stored_files(app)

    def refuse(_project_ids):
        raise RuntimeError("a listener refuses the deletion")

    events.listen_to_project_deletes(refuse)
    try:
        with app.app_context(), pytest.raises(RuntimeError):
            delete_project(owner_actor(app, api), api.project_id)
    finally:
        events.DELETE_LISTENERS.remove(refuse)
    assert stored_files(app) == before
    assert api.client.get(api.url("/screenshots")).json["total"] == 1


def test_deleting_an_organization_removes_its_projects_screenshots_files(app, api):
    upload(api.client, api, ("home.png", picture(color=(7, 8, 9))))
    assert len(stored_files(app)) == 3
    deleted = api.owner.delete(f"/api/organizations/{api.organization_id}")
    assert deleted.status_code == 200, deleted.json
    assert stored_files(app) == []
