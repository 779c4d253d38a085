"""A deleted screenshot goes to the trash with its regions: left out of the lists, the key's
screenshots, the counts and the pictures sent to a language model, its image not served;
restored with its regions, or purged after the keys' retention (its files once no screenshot
names them); uploading its picture again brings it back."""

from datetime import timedelta

import pytest
from sqlalchemy import update

from loko.auth.actors import ApiKeyActor
from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs.registry import SCHEDULES
from loko.screenshots import service
from loko.screenshots.jobs import PURGE_TRASH, read_screenshot
from loko.screenshots.models import Screenshot
from tests.screenshots.conftest import picture, stored_files, upload


def screenshot(api, name="home.png", color=(200, 30, 30)) -> dict:
    return upload(api.client, api, (name, picture(400, 300, color=color))).json["screenshots"][0]


def place(api, shot, translation_id) -> None:
    body = {"translationId": translation_id, "x": 10, "y": 20, "width": 100, "height": 30}
    assert api.client.post(api.url(f"/screenshots/{shot['id']}/regions"), json=body).status_code == 201


def trash(api, shot):
    return api.client.delete(api.url(f"/screenshots/{shot['id']}"))


def restore(api, shot):
    return api.client.post(api.url(f"/screenshots/{shot['id']}/restore"))


def listed(api, **query) -> dict:
    response = api.client.get(api.url("/screenshots"), query_string=query)
    assert response.status_code == 200, response.json
    return response.json


def actor_of(api) -> ApiKeyActor:
    return ApiKeyActor(id=api.key_id, name="write", project_id=api.project_id, scope="write")


def deleted_days_ago(app, shot, days: int) -> None:
    with app.app_context(), unit_of_work():
        db.session.execute(
            update(Screenshot)
            .where(Screenshot.id == shot["id"])
            .values(deleted_at=utcnow() - timedelta(days=days))
        )


def test_a_deleted_screenshot_leaves_the_list_and_is_not_shown_or_served(api, keys):
    shot = screenshot(api)
    place(api, shot, keys["title"])
    assert trash(api, shot).status_code == 200
    assert listed(api) == {"screenshots": [], "total": 0}
    assert listed(api, translationId=keys["title"])["total"] == 0
    assert api.client.get(api.url(f"/screenshots/{shot['id']}")).status_code == 404
    for url in shot["urls"].values():
        missing = api.client.get(url)
        assert missing.status_code == 404 and "screenshotId" in missing.json["error"]


def test_the_trash_lists_deleted_screenshots_with_their_regions_latest_deleted_first(app, api, keys):
    first, second = screenshot(api, "a.png"), screenshot(api, "b.png", color=(1, 2, 3))
    place(api, first, keys["title"])
    trash(api, first)
    trash(api, second)
    deleted_days_ago(app, first, 1)
    trashed = listed(api, trashed="true")
    assert trashed["total"] == 2
    assert [shot["name"] for shot in trashed["screenshots"]] == ["b.png", "a.png"]
    assert [shot["regions"] for shot in trashed["screenshots"]] == [0, 1]
    assert all(shot["deletedAt"] for shot in trashed["screenshots"])
    assert listed(api, trashed="false")["total"] == 0


def test_a_restored_screenshot_comes_back_with_its_regions(api, keys):
    shot = screenshot(api)
    place(api, shot, keys["title"])
    trash(api, shot)
    response = restore(api, shot)
    assert response.status_code == 200, response.json
    restored = response.json["screenshot"]
    assert restored["deletedAt"] is None
    assert [region["key"] for region in restored["regionList"]] == ["title"]
    assert listed(api)["total"] == 1
    assert listed(api, translationId=keys["title"])["total"] == 1
    assert api.client.get(shot["urls"]["thumbnail"]).status_code == 200


def test_restoring_a_screenshot_not_in_the_trash_is_a_409_naming_it(api):
    shot = screenshot(api)
    response = restore(api, shot)
    assert response.status_code == 409
    assert response.json["error"].startswith("screenshotId")


def test_deleting_a_screenshot_already_in_the_trash_is_a_409(api):
    shot = screenshot(api)
    trash(api, shot)
    again = trash(api, shot)
    assert again.status_code == 409 and again.json["error"].startswith("screenshotId")


def test_restoring_an_unknown_screenshot_is_a_404_naming_it(api):
    response = api.client.post(api.url("/screenshots/01a228d9-1d58-7cb1-b197-abdcdd707137/restore"))
    assert response.status_code == 404 and response.json["error"].startswith("screenshotId")


def test_a_bad_trashed_or_permanent_flag_is_a_400_naming_it(api):
    shot = screenshot(api)
    response = api.client.get(api.url("/screenshots"), query_string={"trashed": "maybe"})
    assert response.status_code == 400 and "trashed" in response.json["error"]
    bad = api.client.delete(api.url(f"/screenshots/{shot['id']}"), query_string={"permanent": "maybe"})
    assert bad.status_code == 400 and "permanent" in bad.json["error"]


def test_a_trashed_screenshot_keeps_its_files_until_it_is_deleted_permanently(app, api):
    shot = screenshot(api)
    trash(api, shot)
    assert len(stored_files(app)) == 3
    response = api.client.delete(api.url(f"/screenshots/{shot['id']}"), query_string={"permanent": "true"})
    assert response.status_code == 200
    assert stored_files(app) == []
    assert listed(api, trashed="true")["total"] == 0


def test_uploading_the_picture_of_a_trashed_screenshot_restores_it_with_its_regions(api, keys):
    shot = screenshot(api)
    place(api, shot, keys["title"])
    trash(api, shot)
    (again,) = upload(api.client, api, ("again.png", picture(400, 300))).json["screenshots"]
    assert (again["id"], again["created"], again["restored"], again["regions"]) == (
        shot["id"],
        False,
        True,
        1,
    )
    assert listed(api)["total"] == 1 and listed(api, trashed="true")["total"] == 0
    (third,) = upload(api.client, api, ("again.png", picture(400, 300))).json["screenshots"]
    assert (third["created"], third["restored"]) == (False, False)


def test_screenshots_in_the_trash_count_towards_the_project_limit(app, api):
    app.config["LOKO_SCREENSHOTS_PER_PROJECT"] = 1
    trash(api, screenshot(api))
    refused = upload(api.client, api, ("other.png", picture(color=(9, 9, 9))))
    assert refused.status_code == 400 and refused.json["error"].startswith("files")


def test_the_purge_deletes_screenshots_trashed_longer_than_the_retention(app, api, keys):
    old, recent, active = (
        screenshot(api, "old.png"),
        screenshot(api, "new.png", (1, 1, 1)),
        screenshot(api, "kept.png", (2, 2, 2)),
    )
    place(api, old, keys["title"])
    trash(api, old)
    trash(api, recent)
    deleted_days_ago(app, old, 31)
    deleted_days_ago(app, recent, 29)
    with app.app_context():
        assert service.purge_expired_screenshots(0) == 0
        assert service.purge_expired_screenshots(30) == 1
    assert [shot["id"] for shot in listed(api, trashed="true")["screenshots"]] == [recent["id"]]
    assert [shot["id"] for shot in listed(api)["screenshots"]] == [active["id"]]
    assert len(stored_files(app)) == 6  # the files of the recent and the active ones


def test_the_purge_keeps_the_files_another_project_s_screenshot_names(app, api, other_api):
    shot = screenshot(api)
    screenshot(other_api)
    trash(api, shot)
    deleted_days_ago(app, shot, 40)
    with app.app_context():
        assert service.purge_expired_screenshots(30) == 1
    assert len(stored_files(app)) == 3
    assert other_api.client.get(listed(other_api)["screenshots"][0]["urls"]["image"]).status_code == 200


def test_the_purge_runs_daily_with_the_keys_retention(app, api):
    assert SCHEDULES[PURGE_TRASH].every == timedelta(days=1)
    shot = screenshot(api)
    trash(api, shot)
    deleted_days_ago(app, shot, app.config["LOKO_TRASH_RETENTION_DAYS"] + 1)
    from loko.screenshots.jobs import purge_trash

    with app.app_context():
        answer = purge_trash(None, {})
    assert answer == {"purged": 1, "retentionDays": app.config["LOKO_TRASH_RETENTION_DAYS"]}
    assert stored_files(app) == []


def test_loko_purge_trash_purges_the_screenshots_too(app, api, runner):
    shot = screenshot(api)
    trash(api, shot)
    deleted_days_ago(app, shot, 8)
    result = runner.invoke(args=["purge-trash", "--days", "7"])
    assert result.exit_code == 0, result.output
    assert "purged 1 screenshot(s) trashed more than 7 day(s) ago" in result.output
    assert stored_files(app) == []


def test_the_coverage_counts_active_screenshots_and_their_keys_only(app, api, keys):
    kept, gone = screenshot(api, "kept.png"), screenshot(api, "gone.png", (4, 4, 4))
    place(api, kept, keys["title"])
    place(api, gone, keys["save"])
    trash(api, gone)
    with app.app_context():
        assert service.coverage(actor_of(api), api.project_id) == {"screenshots": 1, "keysWithout": 1}
    trash(api, kept)
    with app.app_context():
        assert service.coverage(actor_of(api), api.project_id) == {"screenshots": 0, "keysWithout": None}


def test_a_key_s_screenshots_and_pictures_leave_out_the_trashed_ones(app, api, keys):
    shot = screenshot(api)
    place(api, shot, keys["title"])
    with app.app_context():
        assert [s["id"] for s in service.key_screenshots(actor_of(api), api.project_id, keys["title"])] == [
            shot["id"]
        ]
        assert set(service.model_pictures(api.project_id, [keys["title"]])) == {keys["title"]}
        assert service.keys_with_pictures(api.project_id) == {keys["title"]}
    trash(api, shot)
    with app.app_context():
        assert service.key_screenshots(actor_of(api), api.project_id, keys["title"]) == []
        assert service.model_picture(api.project_id, keys["title"]) is None
        assert service.model_pictures(api.project_id, [keys["title"]]) == {}
        assert service.keys_with_pictures(api.project_id) == set()


def test_a_trashed_screenshot_is_not_read_by_ocr(app, api):
    shot = screenshot(api)
    trash(api, shot)
    with app.app_context():
        answer = read_screenshot(None, {"screenshotId": shot["id"]})
    assert answer["proposed"] == 0 and answer["note"] == "the screenshot was deleted"


def test_regions_of_a_trashed_screenshot_cannot_be_placed(api, keys):
    shot = screenshot(api)
    trash(api, shot)
    body = {"translationId": keys["title"], "x": 0, "y": 0, "width": 5, "height": 5}
    response = api.client.post(api.url(f"/screenshots/{shot['id']}/regions"), json=body)
    assert response.status_code == 404 and response.json["error"].startswith("screenshotId")


def test_the_restore_endpoint_is_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").json["paths"]
    restore_path = paths["/api/projects/{project_id}/screenshots/{screenshot_id}/restore"]
    assert set(restore_path) >= {"post"}
    assert "409" in restore_path["post"]["responses"]
    listing = paths["/api/projects/{project_id}/screenshots"]["get"]
    assert "trashed" in {parameter["name"] for parameter in listing["parameters"]}
    deleting = paths["/api/projects/{project_id}/screenshots/{screenshot_id}"]["delete"]
    assert "permanent" in {parameter["name"] for parameter in deleting["parameters"]}


@pytest.fixture
def other_api(app):
    from tests.translation_factories import project_api

    return project_api(app)
