"""A tag pushed to the repository (the signed push webhook, refs/tags/<tag>) names a release
of the project as it is then; a deleted tag, a tag that is no release name and one the
project already has make none."""

import json

import orjson
import pytest

from tests.repohost.test_api import signed


def deliver_tag(client, configured, host, tag: str, deleted: bool = False):
    payload = {"ref": f"refs/tags/{tag}"}
    if deleted:
        payload |= {"deleted": True, "after": "0" * 40}
    body = json.dumps(payload).encode()
    event = "Tag Push Hook" if host.name == "gitlab" else "push"
    return client.post(
        configured.url("/repohost/webhook"),
        data=body,
        headers=signed(host, configured.webhook_secret, body, event=event),
    )


def releases_of(configured) -> list[str]:
    return [item["name"] for item in configured.get("/releases").json["releases"]]


def test_a_pushed_tag_names_a_release(client, configured, host):
    configured.upsert("en", {"title": "Title"}, file_name="common")
    response = deliver_tag(client, configured, host, "v1.2")
    assert response.status_code == 200, response.json
    assert "release v1.2" in response.json["reason"]
    release = configured.get("/releases/v1.2").json["release"]
    assert release["tag"] == "v1.2"
    configured.upsert("en", {"title": "Changed"}, file_name="common")
    exported = orjson.loads(configured.get("/translations", release="v1.2").data)
    assert exported == {"en": {"common": {"title": "Title"}}}


def test_a_tag_pushed_again_makes_no_second_release(client, configured, host):
    deliver_tag(client, configured, host, "v1")
    response = deliver_tag(client, configured, host, "v1")
    assert response.status_code == 200
    assert "already has a release" in response.json["reason"]
    assert releases_of(configured) == ["v1"]


@pytest.mark.parametrize("tag", ["nightly build", "-x"])
def test_a_tag_that_is_no_release_name_makes_none(client, configured, host, tag):
    response = deliver_tag(client, configured, host, tag)
    assert response.status_code == 200
    assert "not a release name" in response.json["reason"]
    assert releases_of(configured) == []


def test_a_deleted_tag_makes_no_release(client, configured, host):
    response = deliver_tag(client, configured, host, "v2", deleted=True)
    assert response.status_code == 200
    assert releases_of(configured) == []
