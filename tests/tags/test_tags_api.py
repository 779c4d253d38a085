"""The tag endpoints: a project's tags with their counts, one key's tags, the bulk change by
ids or by filter (atomic), each caller's rights, bad input, and the undo of a tagging."""

import pytest

from tests.factories import CALLERS, CallerClient


def ids(project, *names):
    return [project.ids[name] for name in names]


def test_tags_are_listed_with_the_active_keys_carrying_each(api, project, tag):
    tag(add=["web", "checkout"], ids=ids(project, ("common", "cart"), ("web", "menu")))
    tag(add=["web"], ids=ids(project, ("web", "footer")))
    response = api("read_key", "get")
    assert response.status_code == 200, response.json
    assert response.json == {"tags": [{"name": "checkout", "keys": 2}, {"name": "web", "keys": 3}]}


def test_a_key_in_the_trash_is_not_counted_and_keeps_its_tags(api, project, tag, as_caller):
    menu = project.ids["web", "menu"]
    tag(add=["web"], ids=[menu])
    owner = as_caller("org_owner")
    trashed = owner.delete(f"/api/projects/{project.project_id}/translations", json={"id": menu})
    assert trashed.status_code == 200, trashed.json
    assert api("org_owner", "get").json == {"tags": []}
    restored = owner.post(f"/api/projects/{project.project_id}/translations/trash", json={"id": menu})
    assert restored.status_code == 200, restored.json
    assert api("org_owner", "get").json == {"tags": [{"name": "web", "keys": 1}]}


def test_one_keys_tags_are_added_and_removed(api, project):
    title = project.ids["common", "title"]
    added = api("write_key", "patch", f"/keys/{title}", json={"add": ["brand", "web"]})
    assert added.status_code == 200, added.json
    assert added.json["tags"] == ["brand", "web"]
    assert added.headers["Loko-Operation"] == added.json["operationId"]
    changed = api("write_key", "patch", f"/keys/{title}", json={"add": ["ios"], "remove": ["web"]})
    assert changed.json["tags"] == ["brand", "ios"]
    read = api("read_key", "get", f"/keys/{title}")
    expected = {"translationId": title, "key": "title", "fileName": "common", "tags": ["brand", "ios"]}
    assert read.json == expected


def test_a_change_that_changes_nothing_is_no_operation(api, project):
    title = project.ids["common", "title"]
    api("write_key", "patch", f"/keys/{title}", json={"add": ["web"]})
    again = api("write_key", "patch", f"/keys/{title}", json={"add": ["web"], "remove": ["ios"]})
    assert again.status_code == 200
    assert again.json["operationId"] is None
    assert "Loko-Operation" not in again.headers


def test_the_bulk_change_by_filter_takes_every_matching_key(api, project, tag):
    result = tag(add=["web"], filter={"fileName": "web"}).json
    assert (result["matched"], result["added"], result["removed"]) == (2, 2, 0)
    tag(add=["checkout"], ids=ids(project, ("common", "cart"), ("web", "menu")))
    narrowed = tag(add=["both"], filter={"tags": ["web", "checkout"]}).json
    assert (narrowed["matched"], narrowed["added"]) == (1, 1)
    others = tag(add=["plain"], filter={"excludeTags": ["web", "checkout"]}).json
    assert (others["matched"], others["added"]) == (2, 2)  # title and greeting
    searched = tag(remove=["plain"], filter={"search": "GREET"}).json
    assert (searched["matched"], searched["removed"]) == (1, 1)
    assert {item["name"]: item["keys"] for item in api("org_owner", "get").json["tags"]} == {
        "both": 1,
        "checkout": 2,
        "plain": 1,
        "web": 2,
    }


def test_an_empty_filter_takes_every_active_key(tag):
    assert tag(add=["all"], filter={}).json["matched"] == 5


def test_an_unknown_id_writes_nothing_and_names_it(api, project):
    unknown = "00000000-0000-7000-8000-000000000999"
    body = {"add": ["web"], "ids": [project.ids["common", "title"], unknown]}
    response = api("org_owner", "post", "/bulk", json=body)
    assert response.status_code == 404, response.json
    assert response.json["error"].startswith("ids.1:")
    assert api("org_owner", "get").json == {"tags": []}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"add": ["web"]}, "ids"),
        ({"add": ["web"], "ids": [], "filter": {}}, "ids"),
        ({"add": ["a b"], "filter": {}}, "add"),
        ({"add": ["x" * 51], "filter": {}}, "add"),
        ({"add": ["_web"], "filter": {}}, "add"),
        ({"add": ["a,b"], "filter": {}}, "add"),
        ({"add": [""], "filter": {}}, "add"),
        ({"add": [7], "filter": {}}, "add"),
        ({"filter": {}}, "add"),
        ({"add": ["web"], "remove": ["web"], "filter": {}}, "remove"),
        ({"add": [f"t{n}" for n in range(51)], "filter": {}}, "add"),
        ({"add": ["web"], "ids": ["not-an-id"]}, "ids"),
        ({"add": ["web"], "filter": {"tags": ["a b"]}}, "filter"),
        ({"add": ["web"], "filter": {"colour": "red"}}, "filter"),
        ({"add": ["web"], "filter": {}, "extra": 1}, "extra"),
    ],
)
def test_bad_bulk_input_is_a_400_naming_its_field(api, body, field):
    response = api("org_owner", "post", "/bulk", json=body)
    assert response.status_code == 400, response.json
    assert field in response.json["error"] + str(response.json.get("details", "")), response.json


def test_a_bad_key_id_or_tag_on_one_key_is_refused(api, project):
    title = project.ids["common", "title"]
    assert api("org_owner", "patch", f"/keys/{title}", json={"add": ["no spaces"]}).status_code == 400
    missing = api("org_owner", "patch", "/keys/00000000-0000-7000-8000-000000000999", json={"add": ["web"]})
    assert missing.status_code == 404, missing.json
    assert api("org_owner", "patch", f"/keys/{title}", json={}).status_code == 400


# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key,
# viewer, editor, project_admin, org_admin, org_owner, outsider
READ = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
WRITE = (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404)


@pytest.mark.parametrize(("caller", "read", "write"), list(zip(CALLERS, READ, WRITE, strict=True)))
def test_who_may_read_and_change_tags(app, project, caller, read, write):
    client = CallerClient(app, project.credentials[caller])
    base = f"/api/projects/{project.project_id}/tags"
    title = project.ids["common", "title"]
    listed = client.get(base)
    one = client.get(f"{base}/keys/{title}")
    changed = client.patch(f"{base}/keys/{title}", json={"add": ["web"]})
    bulk = client.post(f"{base}/bulk", json={"add": ["ios"], "filter": {}})
    assert (listed.status_code, one.status_code) == (read, read), listed.json
    assert (changed.status_code, bulk.status_code) == (write, write), (changed.json, bulk.json)
    for response in (listed, one, changed, bulk):
        if response.status_code >= 400:
            assert "error" in response.json


def test_a_member_limited_to_a_language_may_not_tag(api, project):
    response = api("de_editor", "post", "/bulk", json={"add": ["web"], "filter": {}})
    assert response.status_code == 403, response.json
    assert api("de_editor", "get").status_code == 200


def test_the_undo_of_a_tagging_takes_back_its_tags_and_can_be_undone_again(api, project, tag, as_caller):
    owner = as_caller("org_owner")
    title, cart = project.ids["common", "title"], project.ids["common", "cart"]
    tag(add=["old"], ids=[title])
    operation = tag(add=["web"], remove=["old"], ids=[title, cart]).json["operationId"]
    assert api("org_owner", "get", f"/keys/{title}").json["tags"] == ["web"]
    listed = owner.get(f"/api/projects/{project.project_id}/operations?kind=tag")
    assert operation in [item["id"] for item in listed.json["operations"]], listed.json
    revert = f"/api/projects/{project.project_id}/history/revert"
    preview = owner.post(revert, json={"operationId": operation, "dryRun": True})
    assert preview.status_code == 200, preview.json
    assert preview.json["summary"]["updated"] == 3
    assert api("org_owner", "get", f"/keys/{title}").json["tags"] == ["web"]
    undone = owner.post(revert, json={"operationId": operation})
    assert undone.status_code == 200, undone.json
    assert api("org_owner", "get", f"/keys/{title}").json["tags"] == ["old"]
    assert api("org_owner", "get", f"/keys/{cart}").json["tags"] == []
    again = owner.post(revert, json={"operationId": operation})
    assert again.status_code == 409, again.json
    redone = owner.post(revert, json={"operationId": undone.json["operationId"]})
    assert redone.status_code == 200, redone.json
    assert api("org_owner", "get", f"/keys/{title}").json["tags"] == ["web"]


def test_a_tag_changed_again_since_is_left_as_it_is_by_the_undo(api, project, tag, as_caller):
    title, cart = project.ids["common", "title"], project.ids["common", "cart"]
    operation = tag(add=["web"], ids=[title, cart]).json["operationId"]
    tag(remove=["web"], ids=[cart])
    undone = as_caller("org_owner").post(
        f"/api/projects/{project.project_id}/history/revert", json={"operationId": operation}
    )
    assert undone.status_code == 200, undone.json
    assert undone.json["summary"]["conflicts"] == 1
    assert undone.json["conflicts"][0]["key"] == "cart"
    assert api("org_owner", "get", f"/keys/{title}").json["tags"] == []


def test_the_undo_of_a_tagging_needs_the_right_to_tag(api, project, tag, as_caller):
    operation = tag(add=["web"], filter={}).json["operationId"]
    limited = as_caller("de_editor").post(
        f"/api/projects/{project.project_id}/history/revert", json={"operationId": operation}
    )
    assert limited.status_code == 403, limited.json
