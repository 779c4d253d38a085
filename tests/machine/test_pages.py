"""The machine translation section of the organization's settings page: shown to owners and
admins only, its forms (add, change, test, disable, remove) with CSRF, errors named, the key
never shown."""

import pytest

from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of, page_as  # noqa: F401  (fixture)


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


def settings_path(world) -> str:
    return f"/orgs/{world.organization_id}/settings"


def forms_path(world) -> str:
    return f"/orgs/{world.organization_id}/machine-providers"


def listed(as_caller, world) -> list[dict]:
    return (
        as_caller("org_owner")
        .get(f"/api/organizations/{world.organization_id}/machine-providers")
        .json["providers"]
    )


def add(browser, world, service, **fields):
    data = {
        "form": "add",
        "kind": service.name,
        "name": "Team DeepL",
        "base_url": service.url,
        "api_key": API_KEY,
        "model": "llama3.1",
        "enabled": "true",
        "language_instructions": "de: Use the informal du.",
        **fields,
    }
    return browser.submit(forms_path(world), data)


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_see_the_section_with_labelled_fields(page_as, world, caller):  # noqa: F811
    text = page_as(caller).get(settings_path(world)).get_data(as_text=True)
    assert '<h2 id="machine-heading">Machine translation</h2>' in text
    for label in ('for="m-kind"', 'for="m-base_url"', 'for="m-api_key"', 'for="m-instruction"'):
        assert label in text
    assert 'name="csrf_token"' in text


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_may_not_post_the_forms(page_as, world, caller):  # noqa: F811
    with stand_in("deepl") as deepl:
        assert add(page_as(caller), world, deepl).status_code == 403


def test_an_outsider_finds_no_form(page_as, world):  # noqa: F811
    with stand_in("deepl") as deepl:
        assert add(page_as("outsider"), world, deepl).status_code == 404


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_may_not_post_the_forms(page_as, as_caller, world, caller):  # noqa: F811
    with stand_in("deepl") as deepl:
        assert add(page_as(caller), world, deepl).status_code == 401
    assert listed(as_caller, world) == []


def test_a_form_without_the_csrf_token_is_refused(page_as, world):  # noqa: F811
    browser = page_as("org_owner")
    assert browser.post(forms_path(world), data={"form": "add", "kind": "deepl"}).status_code == 403


def test_a_provider_is_added_and_its_key_never_shown(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_owner")
    with stand_in("deepl") as deepl:
        response = add(browser, world, deepl)
    assert response.status_code == 303
    assert notice_of(browser) == "Provider added."
    [provider] = listed(as_caller, world)
    assert provider["name"] == "Team DeepL"
    assert provider["languageInstructions"] == {"de": "Use the informal du."}
    page = browser.get(settings_path(world)).get_data(as_text=True)
    assert "Team DeepL" in page and API_KEY[-4:] in page and API_KEY not in page


def test_the_test_button_reports_the_translation(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_admin")
    with stand_in("libretranslate") as libre:
        add(browser, world, libre, name="Libre")
        [provider] = listed(as_caller, world)
        browser.submit(forms_path(world), {"form": "test", "provider": provider["id"]})
    assert notice_of(browser) == "Test passed: “Hello {name}” came back as “[de] Hello {name}”."


def test_a_provider_is_changed_disabled_and_removed(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_owner")
    with stand_in("openai") as model:
        add(browser, world, model, name="Local")
    [provider] = listed(as_caller, world)
    changed = {"form": "change", "provider": provider["id"], "name": "Local model", "model": "qwen2.5"}
    assert browser.submit(forms_path(world), changed).status_code == 303
    disabled = browser.submit(forms_path(world), {"form": "disable", "provider": provider["id"]})
    assert disabled.status_code == 303
    [provider] = listed(as_caller, world)
    assert (provider["name"], provider["model"], provider["enabled"], provider["hasKey"]) == (
        "Local model",
        "qwen2.5",
        False,
        True,
    )
    removed = browser.submit(forms_path(world), {"form": "delete", "provider": provider["id"]})
    assert removed.status_code == 303
    assert listed(as_caller, world) == []


def test_bad_input_is_shown_naming_the_field(page_as, world):  # noqa: F811
    browser = page_as("org_owner")
    with stand_in("deepl") as deepl:
        response = add(browser, world, deepl, base_url="ftp://deepl.example")
    assert response.status_code == 400
    assert "baseUrl" in alert_of(response)


def test_a_language_instruction_without_a_code_is_refused(page_as, world):  # noqa: F811
    with stand_in("deepl") as deepl:
        response = add(page_as("org_owner"), world, deepl, language_instructions="Use du.")
    assert response.status_code == 400
    assert "language_instructions: line 1" in alert_of(response)


def test_a_language_model_is_marked_as_seeing_images_from_the_page(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_owner")
    with stand_in("openai") as model:
        assert add(browser, world, model, name="Vision", sees_images="true").status_code == 303
    [provider] = listed(as_caller, world)
    assert (provider["name"], provider["seesImages"]) == ("Vision", True)
    assert 'name="sees_images"' in browser.get(settings_path(world)).get_data(as_text=True)
