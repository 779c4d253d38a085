"""Who may see and change a project's screenshots: every kind of caller, as the policy
says (viewers and read keys see, editors and write keys change, strangers get 404, another
project's key 403, nobody 401); and how an image is served."""

import io
import zipfile

import pytest

from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from tests.factories import (
    CallerClient,
    add_org_member,
    make_key,
    make_org,
    make_project,
    make_session,
    make_user,
    set_project_role,
)
from tests.screenshots.conftest import picture, upload


@pytest.fixture
def shot(api) -> dict:
    return upload(api.client, api, ("home.png", picture(200, 100))).json["screenshots"][0]


@pytest.fixture
def callers(app, api):
    """Clients of each kind, by name."""
    with app.app_context():
        project = db.session.get(Project, api.project_id)
        organization = db.session.get(Organization, api.organization_id)
        clients = {}
        for role in ("viewer", "editor"):
            user = make_user()
            add_org_member(organization, user)
            set_project_role(project, user, role)
            clients[role] = CallerClient(app, {"cookie": make_session(user)})
        clients["stranger"] = CallerClient(app, {"cookie": make_session(make_user())})
        read_key, _ = make_key(project, scope="read", name="reader")
        clients["read key"] = CallerClient(app, {"bearer": read_key})
        other = make_project(make_org(make_user()), name="Other")
        other_key, _ = make_key(other, name="other")
        clients["other project's key"] = CallerClient(app, {"bearer": other_key})
    clients["nobody"] = CallerClient(app, {})
    clients["owner"] = api.owner
    clients["write key"] = api.client
    return clients


SEE = {"owner": 200, "editor": 200, "viewer": 200, "write key": 200, "read key": 200}
DENIED = {"stranger": 404, "other project's key": 403, "nobody": 401}


@pytest.mark.parametrize("caller", [*SEE, *DENIED])
def test_who_sees_a_screenshot_and_its_image(callers, api, shot, caller):
    expected = SEE.get(caller) or DENIED[caller]
    client = callers[caller]
    assert client.get(api.url("/screenshots")).status_code == expected
    assert client.get(api.url(f"/screenshots/{shot['id']}")).status_code == expected
    assert client.get(shot["urls"]["thumbnail"]).status_code == expected


UPLOAD = {"write key": 201, "read key": 403, "other project's key": 403, "nobody": 401}
# The cross-site write guard takes only JSON bodies from a session: a person uploads through
# the project's pages; the REST upload is for keys.
SESSION_UPLOAD = ("owner", "editor", "viewer", "stranger")


@pytest.mark.parametrize("caller", [*UPLOAD, *SESSION_UPLOAD])
def test_who_uploads_a_screenshot(callers, api, caller):
    response = upload(callers[caller], api, ("a.png", picture()))
    assert response.status_code == UPLOAD.get(caller, 415)


@pytest.mark.parametrize("caller", ["owner", "editor", "viewer", "write key", "read key", *DENIED])
def test_who_places_and_deletes(callers, api, shot, caller):
    key = api.create("title", {"en": "Title"})["id"]
    client = callers[caller]
    body = {"translationId": key, "x": 0, "y": 0, "width": 10, "height": 10}
    response = client.post(api.url(f"/screenshots/{shot['id']}/regions"), json=body)
    allowed = caller in ("owner", "editor", "write key")
    assert response.status_code == (201 if allowed else DENIED.get(caller, 403))
    deleted = client.delete(api.url(f"/screenshots/{shot['id']}"))
    assert deleted.status_code == (200 if allowed else DENIED.get(caller, 403))


def test_an_image_is_served_with_its_type_nosniff_and_an_etag(api, shot):
    response = api.client.get(shot["urls"]["image"])
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.data.startswith(b"\x89PNG")
    again = api.client.get(shot["urls"]["image"], headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    preview = api.client.get(shot["urls"]["preview"])
    assert preview.mimetype == "image/webp" and preview.data[8:12] == b"WEBP"


def test_an_unknown_size_is_a_400_naming_size(api, shot):
    response = api.client.get(shot["urls"]["image"], query_string={"size": "../../secret"})
    assert response.status_code == 400
    assert "size" in response.json["error"]


def test_a_screenshot_of_another_project_is_404(app, api, shot):
    other = CallerClient(app, {"bearer": api.credentials["bearer"]})
    with app.app_context():
        second = make_project(make_org(make_user()), name="Second")
        second_id = second.id
    assert other.get(f"/api/projects/{second_id}/screenshots/{shot['id']}").status_code == 403
    missing = api.client.get(api.url("/screenshots/01a228d9-1d58-7cb1-b197-abdcdd707137"))
    assert missing.status_code == 404 and "screenshotId" in missing.json["error"]


@pytest.mark.parametrize("caller", [*SEE, *DENIED])
def test_who_exports_the_screenshot_archive(callers, api, shot, caller):
    response = callers[caller].get(api.url("/screenshots/archive"))
    assert response.status_code == (SEE.get(caller) or DENIED[caller])


def archive_of_one_image() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        zipped.writestr("a.png", picture())
    return buffer.getvalue()


IMPORT = {"write key": 200, "read key": 403, "other project's key": 403, "nobody": 401}


@pytest.mark.parametrize("caller", [*IMPORT, *SESSION_UPLOAD])
def test_who_imports_a_screenshot_archive(callers, api, caller):
    response = callers[caller].post(
        api.url("/screenshots/archive"), data=archive_of_one_image(), content_type="application/zip"
    )
    assert response.status_code == IMPORT.get(caller, 415)


@pytest.mark.parametrize(
    ("caller", "expected"), [("read key", 200), ("other project's key", 403), ("nobody", 401)]
)
def test_a_dry_run_of_an_archive_needs_read_access(callers, api, caller, expected):
    response = callers[caller].post(
        api.url("/screenshots/archive"),
        data=archive_of_one_image(),
        content_type="application/zip",
        query_string={"dryRun": "true"},
    )
    assert response.status_code == expected
