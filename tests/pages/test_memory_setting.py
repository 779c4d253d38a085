"""The project settings page's translation memory form: sharing the project's values with
the organization's memory, saved as PUT /api/projects/{id} saves it, and refused to those
who may not change settings."""

from tests.pages.conftest import notice_of
from tests.pages.test_project_pages import project_record, settings_path, text_of

CHECKBOX = '<input type="checkbox" id="f-memory_shared" name="memory_shared" value="true"'


def test_the_settings_page_offers_sharing_unticked_for_a_new_project(page_as, world):
    text = text_of(page_as("project_admin").get(settings_path(world)))
    assert CHECKBOX + ">" in text
    assert "Share this project's translations with the organization's memory" in text


def test_the_settings_page_says_what_sharing_means(page_as, world):
    text = text_of(page_as("project_admin").get(settings_path(world)))
    assert "even members who may not open this project" in text


def test_a_project_is_shared_and_unshared_again(page_as, as_caller, world):
    browser = page_as("project_admin")
    response = browser.submit(settings_path(world), {"form": "memory", "memory_shared": ["true", "false"]})
    assert response.status_code == 303
    assert notice_of(browser) == "Translation memory setting saved."
    assert project_record(as_caller, world.project_id)["memory_shared"] is True
    assert CHECKBOX + " checked>" in text_of(browser.get(settings_path(world)))
    browser.submit(settings_path(world), {"form": "memory", "memory_shared": "false"})
    assert project_record(as_caller, world.project_id)["memory_shared"] is False


def test_an_editor_cannot_share_the_project(page_as, as_caller, world):
    page_as("editor").submit(settings_path(world), {"form": "memory", "memory_shared": ["true", "false"]})
    assert project_record(as_caller, world.project_id)["memory_shared"] is False
