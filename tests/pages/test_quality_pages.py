"""The checks on the project pages: their levels on the settings page, and per language on
the overview the values with issues and those waiting for a review."""

import pytest

from tests.pages.conftest import alert_of, notice_of
from tests.pages.test_project_pages import add_translation, project_record, settings_path, text_of


def test_the_settings_page_offers_each_check_at_its_level(page_as, world):
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert 'name="check-max-length"' in text
    assert '<option value="warn" selected>warn</option>' in text


def test_the_checks_form_saves_the_levels(page_as, as_caller, world):
    client = page_as("org_owner")
    client.submit(settings_path(world), {"form": "checks", "check-max-length": "refuse"})
    assert notice_of(client) == "Checks saved."
    assert project_record(as_caller, world.project_id)["checks"]["max-length"] == "refuse"


def test_an_unknown_level_is_named_and_changes_nothing(page_as, as_caller, world):
    response = page_as("org_owner").submit(
        settings_path(world), {"form": "checks", "check-max-length": "loud"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("checks.max-length")
    assert project_record(as_caller, world.project_id)["checks"]["max-length"] == "warn"


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_a_forged_checks_post_by_a_viewer_or_editor_is_refused(page_as, as_caller, world, caller):
    response = page_as(caller).submit(settings_path(world), {"form": "checks", "check-max-length": "off"})
    assert response.status_code == 403
    assert project_record(as_caller, world.project_id)["checks"]["max-length"] == "warn"


def test_the_overview_counts_issues_and_reviews_per_language(page_as, as_caller, world):
    add_translation(as_caller, world, "hello", {"en": "Hello", "de": "Hallo"})
    response = as_caller("write_key").patch(
        f"/api/projects/{world.project_id}/translations/details",
        json={"key": "hello", "fileName": "common", "maxLength": 3},
    )
    assert response.status_code == 200, response.json
    add_translation(as_caller, world, "bye", {"en": "Bye", "de": "Tschüss"})
    as_caller("write_key").patch(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "bye", "fileName": "common", "updates": {"en": {"value": "Goodbye"}}},
    )
    text = text_of(page_as("viewer").get(f"/projects/{world.project_id}"))
    assert "1 with issues, 1 need review" in text
