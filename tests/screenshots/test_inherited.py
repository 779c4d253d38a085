"""A project linked to another (a variant that inherits its values) shows, for a key no
screenshot of its own shows, the linked project's screenshots of the same key: in the
editor's details, over MCP and to a language model, with image URLs through its own path,
to whoever sees its screenshots (no right on the linked project needed, as for the values
it inherits)."""

import pytest
from sqlalchemy import select

from loko.auth.models import User
from loko.auth.service import user_actor
from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from loko.screenshots.service import key_screenshots, keys_with_pictures, model_picture, model_pictures
from tests.factories import (
    CallerClient,
    add_org_member,
    make_key,
    make_project,
    make_session,
    make_user,
    set_project_role,
)
from tests.integration.test_query_counts import counted_statements
from tests.mcp.conftest import posted_tool_call
from tests.screenshots.conftest import picture, upload
from tests.translation_factories import OWNER_NAME, ProjectApi, link_projects


@pytest.fixture
def variant(app, api) -> ProjectApi:
    """A project of ``api``'s organization whose en-GB inherits ``api``'s en, called with a
    write key of its own."""
    api.add_language("en")
    with app.app_context():
        project = make_project(db.session.get(Organization, api.organization_id), name="Brand")
        key, _ = make_key(project, name="brand")
        project_id = project.id
    variant = ProjectApi(CallerClient(app, {"bearer": key}), project_id, organization_id=api.organization_id)
    variant.add_language("en-GB")
    link_projects(api.owner, project_id, api.project_id, "en", "en-GB")
    return variant


def placed(api, key_id: str, name="home.png", color=(200, 30, 30)) -> dict:
    """A new screenshot of ``api``'s project showing the key ``key_id``."""
    shot = upload(api.client, api, (name, picture(200, 100, color=color))).json["screenshots"][0]
    body = {"translationId": key_id, "x": 10, "y": 20, "width": 50, "height": 15}
    response = api.client.post(api.url(f"/screenshots/{shot['id']}/regions"), json=body)
    assert response.status_code == 201, response.json
    return shot


def screenshots_over_mcp(variant, key="title") -> list[dict]:
    result = posted_tool_call(variant.client, "get_translation", {"key": key, "fileName": "common"})
    assert not result.get("isError"), result
    return result["structuredContent"]["screenshots"]


def test_a_key_without_screenshots_shows_the_linked_project_s_over_mcp(api, variant):
    shot = placed(api, api.create("title", {"en": "Title"})["id"])
    variant.create("title", {"en-GB": "Title (GB)"})
    (shown,) = screenshots_over_mcp(variant)
    assert shown["id"] == shot["id"]
    assert shown["regions"] == [{"x": 10, "y": 20, "width": 50, "height": 15, "state": "confirmed"}]
    assert shown["url"] == variant.url(f"/screenshots/{shot['id']}/image")
    with variant.client.get(shown["url"]) as image:
        assert image.status_code == 200 and image.mimetype == "image/png"


def test_a_key_with_a_screenshot_of_its_own_shows_only_its_own(api, variant):
    placed(api, api.create("title", {"en": "Title"})["id"])
    own = placed(variant, variant.create("title", {"en-GB": "Title (GB)"})["id"], color=(0, 90, 0))
    assert [shown["id"] for shown in screenshots_over_mcp(variant)] == [own["id"]]


def test_a_key_of_another_name_shows_nothing_of_the_linked_project(api, variant):
    placed(api, api.create("title", {"en": "Title"})["id"])
    variant.create("save", {"en-GB": "Save"})
    assert screenshots_over_mcp(variant, "save") == []


@pytest.fixture
def variant_viewer(app, variant) -> CallerClient:
    """A member with the viewer role on the variant and no role on the linked project."""
    with app.app_context():
        user = make_user()
        add_org_member(db.session.get(Organization, variant.organization_id), user)
        set_project_role(db.session.get(Project, variant.project_id), user, "viewer")
        return CallerClient(app, {"cookie": make_session(user)})


def test_a_viewer_of_the_variant_alone_sees_the_linked_screenshot_in_the_editor(api, variant, variant_viewer):
    shot = placed(api, api.create("title", {"en": "Title"})["id"])
    key_id = variant.create("title", {"en-GB": "Title (GB)"})["id"]
    details = variant_viewer.get(f"/projects/{variant.project_id}/editor/keys/{key_id}")
    assert details.status_code == 200
    preview = variant.url(f"/screenshots/{shot['id']}/image?size=preview")
    assert preview in details.text
    with variant_viewer.get(preview) as image:
        assert image.status_code == 200 and image.mimetype == "image/webp"
    assert variant_viewer.get(shot["urls"]["preview"]).status_code == 403  # no role on the linked project


def test_the_variant_s_path_serves_no_linked_screenshot_of_a_key_it_lacks(api, variant):
    shot = placed(api, api.create("title", {"en": "Title"})["id"])
    variant.create("save", {"en-GB": "Save"})
    assert variant.client.get(variant.url(f"/screenshots/{shot['id']}/image")).status_code == 404


def test_a_project_s_path_serves_no_screenshot_of_a_project_it_is_not_linked_to(api, variant):
    own_key = variant.create("title", {"en-GB": "Title (GB)"})["id"]
    shot = placed(variant, own_key)
    api.create("title", {"en": "Title"})
    assert api.client.get(api.url(f"/screenshots/{shot['id']}/image")).status_code == 404


def test_a_language_model_is_sent_the_linked_project_s_screenshot(app, api, variant):
    placed(api, api.create("title", {"en": "Title"})["id"], name="checkout.png")
    key_id = variant.create("title", {"en-GB": "Title (GB)"})["id"]
    with app.app_context():
        picture_sent = model_picture(variant.project_id, key_id)
    assert picture_sent is not None
    assert picture_sent.data_url.startswith("data:image/jpeg;base64,")
    assert "cut from checkout.png" in picture_sent.note


def test_a_key_s_screenshots_own_or_inherited_are_read_in_one_statement(app, api, variant):
    placed(api, api.create("title", {"en": "Title"})["id"])
    key_id = variant.create("title", {"en-GB": "Title (GB)"})["id"]
    with app.app_context():
        owner = user_actor(db.session.scalars(select(User).where(User.name == OWNER_NAME)).one())
        with counted_statements(app) as statements:
            shown = key_screenshots(owner, variant.project_id, key_id)
    assert len(shown) == 1 and shown[0]["inherited"] is True
    assert len(statements) == 2  # the caller's roles, then the screenshots with their regions


def test_pre_translation_finds_and_is_sent_the_linked_project_s_screenshots(app, api, variant):
    placed(api, api.create("title", {"en": "Title"})["id"], name="checkout.png")
    lent_key = variant.create("title", {"en-GB": "Title (GB)"})["id"]
    own_key = variant.create("save", {"en-GB": "Save"})["id"]
    placed(variant, own_key, name="own.png", color=(0, 90, 0))
    bare_key = variant.create("cancel", {"en-GB": "Cancel"})["id"]
    with app.app_context():
        assert keys_with_pictures(variant.project_id) == {lent_key, own_key}
        pictures = model_pictures(variant.project_id, [lent_key, own_key, bare_key])
    assert set(pictures) == {lent_key, own_key}
    assert "cut from checkout.png" in pictures[lent_key].note
    assert "cut from own.png" in pictures[own_key].note


def test_the_editor_row_of_an_inherited_key_shows_the_linked_project_s_thumbnail(api, variant):
    shot = placed(api, api.create("title", {"en": "Title"})["id"])
    variant.create("title", {"en-GB": "Title (GB)"})
    editor = api.owner.get(f"/projects/{variant.project_id}/editor")
    assert editor.status_code == 200
    assert variant.url(f"/screenshots/{shot['id']}/image?size=thumbnail") in editor.text
    assert shot["urls"]["thumbnail"] not in editor.text
