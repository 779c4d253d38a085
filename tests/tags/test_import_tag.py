"""An import's tag: every key the upload names, created or already there, gets it; the keys
the upload lacks do not; it needs the right to tag; a bad tag is a 400."""

import orjson
import pytest

from loko.auth.models import User
from loko.auth.service import user_actor
from loko.errors import Forbidden
from loko.extensions import db
from loko.imports.service import ImportOptions, import_files
from tests.factories import user_id


def upload(as_caller, project, caller="write_key", **params):
    data = orjson.dumps({"title": "Acme!", "brand.new": "Neu"})
    query = {"fileName": "common", "language": "de", "format": "json", **params}
    url = f"/api/projects/{project.project_id}/import"
    headers = {"Content-Type": "application/octet-stream"}
    return as_caller(caller).post(url, data=data, query_string=query, headers=headers)


def test_every_key_the_upload_names_gets_the_tag(as_caller, api, project):
    response = upload(as_caller, project, tag="release-2")
    assert response.status_code == 200, response.json
    assert response.json["tagged"] == 2
    listed = api("org_owner", "get").json["tags"]
    assert listed == [{"name": "release-2", "keys": 2}]
    exported = as_caller("org_owner").get(
        f"/api/projects/{project.project_id}/translations?language=de&tag=release-2"
    )
    assert exported.json == {"de": {"common": {"brand.new": "Neu", "title": "Acme!"}, "web": {}}}


def test_a_dry_run_tags_nothing(as_caller, api, project):
    response = upload(as_caller, project, tag="web", dryRun="true")
    assert response.status_code == 200, response.json
    assert api("org_owner", "get").json["tags"] == []


def test_the_tag_needs_the_right_to_tag_and_a_valid_name(app, as_caller, api, project):
    options = ImportOptions(format="json", language="de", file_name="common", tag="web")
    with app.app_context(), pytest.raises(Forbidden):
        actor = user_actor(db.session.get(User, user_id(project.users["de_editor"])))
        import_files(actor, project.project_id, orjson.dumps({"title": "Acme"}), options)
    bad = upload(as_caller, project, tag="a b")
    assert bad.status_code == 400, bad.json
    assert "tag" in bad.json["error"]
    assert api("org_owner", "get").json["tags"] == []
