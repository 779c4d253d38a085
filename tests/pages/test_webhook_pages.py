"""A project's Webhooks page: who may open it, adding an endpoint (its secret shown once),
disabling, enabling, deleting it and delivering a message again, each form with its CSRF
token and a redirect after success (the new secret shown on the page it leads to), and bad
input told on the page."""

import re

import pytest

from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of

MANAGERS = ("project_admin", "org_admin", "org_owner")
URL = "https://hooks.example.test/loko"


def page_path(world) -> str:
    return f"/projects/{world.project_id}/webhooks"


def add(page, world, **fields):
    data = {"form": "create", "url": URL, "description": "CI", "events": ["values.changed"], **fields}
    return page.submit(page_path(world), data)


def hooks(as_caller, world) -> list[dict]:
    return as_caller("org_owner").get(f"/api/projects/{world.project_id}/webhooks").json["webhooks"]


@pytest.mark.parametrize("caller", MANAGERS)
def test_the_page_opens_for_project_managers_with_its_tab(page_as, world, caller):
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 200
    source = response.get_data(as_text=True)
    assert "<h1>Webhooks</h1>" in source
    assert f'href="{page_path(world)}"' in source
    assert "<script>" not in source and "style=" not in source


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_the_page_is_refused_to_a_viewer_or_editor(page_as, world, caller):
    assert page_as(caller).get(page_path(world)).status_code == 403
    assert page_as(caller).submit(page_path(world), {"form": "create", "url": URL}).status_code == 403


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 302
    assert response.location == f"/login?next={page_path(world)}"


def test_an_outsider_is_not_told_the_project_exists(page_as, world):
    assert page_as("outsider").get(page_path(world)).status_code == 404


def test_a_post_without_its_csrf_token_is_refused(page_as, world, as_caller):
    response = page_as("org_owner").post(page_path(world), data={"form": "create", "url": URL})
    assert response.status_code == 403
    assert hooks(as_caller, world) == []


def test_adding_redirects_to_the_page_that_shows_the_secret_once(page_as, world, as_caller):
    page = page_as("project_admin")
    response = add(page, world)
    assert (response.status_code, response.location) == (303, page_path(world))
    shown = page.get(page_path(world)).get_data(as_text=True)
    secret = re.search(r'<code id="webhook-secret"[^>]*>([^<]+)</code>', shown)
    assert secret and secret.group(1).startswith("whsec_")
    again = page.get(page_path(world)).get_data(as_text=True)
    assert secret.group(1) not in again and URL in again
    assert [hook["description"] for hook in hooks(as_caller, world)] == ["CI"]


def test_bad_input_is_told_on_the_page(page_as, world, as_caller):
    response = add(page_as("org_owner"), world, url="ftp://hooks.example.test/")
    assert response.status_code == 400
    assert "url" in alert_of(response)
    assert hooks(as_caller, world) == []


def test_disable_enable_and_delete_redirect_with_a_notice(page_as, world, as_caller):
    page = page_as("org_owner")
    add(page, world)
    (hook,) = hooks(as_caller, world)
    for form, enabled in (("disable", False), ("enable", True)):
        response = page.submit(page_path(world), {"form": form, "webhook": hook["id"]})
        assert (response.status_code, response.location) == (303, page_path(world))
        assert hooks(as_caller, world)[0]["enabled"] is enabled
    response = page.submit(page_path(world), {"form": "delete", "webhook": hook["id"]})
    assert response.status_code == 303
    assert "deleted" in notice_of(page)
    assert hooks(as_caller, world) == []


def test_an_unknown_delivery_is_not_found(page_as, world, as_caller):
    page = page_as("org_owner")
    add(page, world)
    (hook,) = hooks(as_caller, world)
    missing = "0190a0a0-0000-7000-8000-000000000000"
    response = page.submit(
        page_path(world), {"form": "redeliver", "webhook": hook["id"], "delivery": missing}
    )
    assert response.status_code == 404


def test_job_finished_is_offered_and_kept(page_as, world, as_caller):
    page = page_as("project_admin")
    form = page.get(page_path(world)).get_data(as_text=True)
    assert 'value="job.finished"' in form and "Job finished" in form
    response = add(page, world, events=["job.finished", "values.changed"])
    assert response.status_code == 303
    assert hooks(as_caller, world)[0]["events"] == ["values.changed", "job.finished"]
