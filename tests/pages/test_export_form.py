"""The overview's export form: any format of the registry, some languages and files or all
of them, as a ZIP or not; a GET to /api/projects/{id}/translations that the session cookie
authenticates."""

import re

import pytest

from loko.formats.registry import FORMAT_NAMES, format_module
from tests.translation_factories import ProjectApi, zip_entries


@pytest.fixture
def translated(as_caller, world):
    api = ProjectApi(as_caller("write_key"), world.project_id)
    api.create("hello", {"en": "Hello", "de": "Hallo"}, file_name="common")
    api.create("title", {"en": "Home"}, file_name="home")


def overview(page_as, world, caller="viewer") -> str:
    return page_as(caller).get(f"/projects/{world.project_id}").get_data(as_text=True)


def export_form(text: str) -> str:
    return re.search(r'<form method="get"[^>]*class="export-form".*?</form>', text, re.DOTALL).group(0)


def download(page_as, world, **fields):
    """The form sent as a browser sends it (checkboxes left unticked are not sent)."""
    return page_as("viewer").get(f"/api/projects/{world.project_id}/translations", query_string=fields)


def test_the_export_form_gets_the_export_page_which_sends_on_to_the_endpoint(page_as, world, translated):
    form = export_form(overview(page_as, world))
    assert f'action="/projects/{world.project_id}/export"' in form
    response = page_as("viewer").get(f"/projects/{world.project_id}/export?format=po&zip=true")
    assert response.status_code == 302
    assert response.location.startswith(f"/api/projects/{world.project_id}/translations?")


def test_an_export_the_form_cannot_make_is_said_on_the_form(page_as, world, translated):
    response = page_as("viewer").get(f"/projects/{world.project_id}/export?format=po")
    assert response.status_code == 400
    form = export_form(response.get_data(as_text=True))
    assert 'role="alert"' in form and "tick one language and one file" in form
    assert "{" not in form.split('role="alert"')[1].split("</p>")[0]


def test_the_export_form_offers_every_format(page_as, world, translated):
    form = export_form(overview(page_as, world))
    for name in FORMAT_NAMES:
        try:
            label = format_module(name).LABEL
        except ImportError:
            continue
        assert f'<option value="{name}"' in form and f">{label}</option>" in form


def test_the_export_form_offers_each_language_and_file(page_as, world, translated):
    form = export_form(overview(page_as, world))
    for code in ("de", "en"):
        assert f'name="language" value="{code}"' in form
    for name in ("common", "home"):
        assert f'name="fileName" value="{name}"' in form
    assert 'name="zip" value="true" checked' in form


def test_the_export_form_downloads_a_zip_of_the_chosen_format(page_as, world, translated):
    response = download(page_as, world, format="po", zip="true", language="en")
    assert response.status_code == 200
    assert sorted(zip_entries(response.data)) == ["en/common.po", "en/home.po"]


def test_the_export_form_downloads_one_file_without_a_zip(page_as, world, translated):
    response = download(page_as, world, format="po", language="de", fileName="common")
    assert response.status_code == 200
    assert response.mimetype == "text/x-gettext-translation"
    assert 'msgstr "Hallo"' in response.get_data(as_text=True)
