"""The Releases page: listed to whoever sees the project, created and deleted (with CSRF) by
whoever may name releases, compared on a page of its own; the overview announces a string
freeze that holds."""

import html
import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi

MANAGERS = ("project_admin", "org_admin", "org_owner")


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    api = ProjectApi(as_caller("write_key"), world.project_id)
    for code in ("en", "de"):
        api.client.post(api.url("/languages"), json={"code": code})
    return api


def page(world, suffix="") -> str:
    return f"/projects/{world.project_id}/releases{suffix}"


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def release(api: ProjectApi, name: str, **body) -> None:
    response = api.post("/releases", {"name": name, **body})
    assert response.status_code == 201, response.json


@pytest.mark.parametrize("caller", MEMBERS)
def test_every_member_sees_the_releases(page_as, world, api, caller):
    release(api, "v1.0")
    response = page_as(caller).get(page(world))
    assert response.status_code == 200
    assert "v1.0" in text_of(response)
    shows_form = "Create release" in text_of(response)
    assert shows_form is (caller in MANAGERS)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(page(world))
    assert response.status_code in (302, 303)
    assert "/login" in response.headers["Location"]


def test_an_outsider_is_told_not_found(page_as, world):
    assert page_as("outsider").get(page(world)).status_code == 404


@pytest.mark.parametrize("caller", MANAGERS)
def test_a_manager_creates_and_deletes_a_release(page_as, world, api, caller):
    browser = page_as(caller)
    response = browser.submit(page(world), {"form": "create", "name": "v2", "description": "Spring"})
    assert response.status_code == 303, text_of(response)
    assert notice_of(browser) == "Release v2 created."
    assert [item["name"] for item in api.get("/releases").json["releases"]] == ["v2"]
    response = browser.submit(page(world), {"form": "delete", "release": "v2"})
    assert response.status_code == 303
    assert api.get("/releases").json["releases"] == []


@pytest.mark.parametrize("caller", ("viewer", "editor"))
def test_a_member_who_may_not_name_releases_is_refused(page_as, world, api, caller):
    response = page_as(caller).submit(page(world), {"form": "create", "name": "v2"})
    assert response.status_code == 403
    assert "canManageReleases" in alert_of(response)
    assert api.get("/releases").json["releases"] == []


def test_a_form_without_its_csrf_token_is_refused(page_as, world, api):
    response = page_as("org_owner").post(page(world), data={"form": "create", "name": "v2"})
    assert response.status_code in (400, 403)
    assert api.get("/releases").json["releases"] == []


def test_a_bad_name_is_shown_on_the_form(page_as, world):
    response = page_as("org_owner").submit(page(world), {"form": "create", "name": "no spaces"})
    assert response.status_code == 400
    assert "name" in alert_of(response)
    assert 'value="no spaces"' in response.get_data(as_text=True)


def test_the_comparison_page_lists_what_changed(page_as, world, api):
    api.upsert("en", {"a": "A", "b": "B"})
    release(api, "v1")
    api.set_values("a", {"en": "A2"})
    release(api, "v2")
    response = page_as("viewer").get(page(world, "/compare"), query_string={"from": "v1", "with": "v2"})
    assert response.status_code == 303
    shown = page_as("viewer").get(response.headers["Location"])
    assert shown.status_code == 200
    text = text_of(shown)
    assert "v1 → v2" in text
    assert "en: 0 added, 0 removed, 1 changed" in text
    assert "A2" in text


def test_comparing_an_unknown_release_is_not_found(page_as, world):
    assert page_as("viewer").get(page(world, "/v9/compare")).status_code == 404


def test_the_overview_announces_a_string_freeze(page_as, world, api):
    overview = f"/projects/{world.project_id}"
    assert "String freeze" not in text_of(page_as("viewer").get(overview))
    until = datetime.now(UTC) + timedelta(days=3)
    release(
        api,
        "v3",
        freezeFrom=(datetime.now(UTC) - timedelta(minutes=1)).isoformat(),
        freezeUntil=until.isoformat(),
    )
    text = text_of(page_as("viewer").get(overview))
    assert "String freeze for the release v3 until" in text
