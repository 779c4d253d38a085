"""The project settings page's translation memory form: the opt-out, saved as
PUT /api/projects/{id} saves it, and refused to those who may not change settings."""

from tests.pages.conftest import notice_of
from tests.pages.test_project_pages import project_record, settings_path, text_of


def test_the_settings_page_offers_the_memory_setting(page_as, world):
    text = text_of(page_as("project_admin").get(settings_path(world)))
    assert '<label for="f-memory_enabled">' in text
    assert '<option value="true" selected>are translation memory</option>' in text


def test_a_project_opts_out_of_the_memory_and_back(page_as, as_caller, world):
    browser = page_as("project_admin")
    response = browser.submit(settings_path(world), {"form": "memory", "memory_enabled": "false"})
    assert response.status_code == 303
    assert notice_of(browser) == "Translation memory setting saved."
    assert project_record(as_caller, world.project_id)["memory_enabled"] is False
    assert '<option value="false" selected>' in text_of(browser.get(settings_path(world)))
    browser.submit(settings_path(world), {"form": "memory", "memory_enabled": "true"})
    assert project_record(as_caller, world.project_id)["memory_enabled"] is True


def test_an_editor_cannot_change_the_memory_setting(page_as, as_caller, world):
    page_as("editor").submit(settings_path(world), {"form": "memory", "memory_enabled": "false"})
    assert project_record(as_caller, world.project_id)["memory_enabled"] is True
