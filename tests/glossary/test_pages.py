"""The glossary page of an organization: read by every member, its forms (add, change,
delete, import with a dry run) for owners and admins, with CSRF, errors named on the page."""

import io

import pytest

from tests.glossary.conftest import add_term, glossary_url
from tests.glossary.test_api import CSV
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of, page_as  # noqa: F401  (fixture)


def page_path(world) -> str:
    return f"/orgs/{world.organization_id}/glossary"


def listed(as_caller, world) -> list[dict]:
    return as_caller("org_owner").get(glossary_url(world)).json["terms"]


@pytest.mark.parametrize("caller", MEMBERS)
def test_every_member_reads_the_glossary(page_as, as_caller, world, caller):  # noqa: F811
    add_term(as_caller, world, translations=(("de", "Datei", False), ("de", "Akte", True)))
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "Datei" in text and "<del>Akte</del>" in text
    assert ('name="form" value="add"' in text) == (caller in ("org_admin", "org_owner"))


def test_an_outsider_finds_no_glossary(page_as, world):  # noqa: F811
    assert page_as("outsider").get(page_path(world)).status_code == 404


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_may_not_post_the_forms(page_as, as_caller, world, caller):  # noqa: F811
    response = page_as(caller).submit(page_path(world), {"form": "add", "term": "file", "language": "en"})
    assert response.status_code == 403
    assert listed(as_caller, world) == []


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_may_not_post_the_forms(page_as, as_caller, world, caller):  # noqa: F811
    response = page_as(caller).submit(page_path(world), {"form": "add", "term": "file", "language": "en"})
    assert response.status_code == 401
    assert listed(as_caller, world) == []


def test_a_form_without_the_csrf_token_is_refused(page_as, world):  # noqa: F811
    response = page_as("org_owner").post(
        page_path(world), data={"form": "add", "term": "file", "language": "en"}
    )
    assert response.status_code == 403


def test_a_term_is_added_with_its_translations(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_admin")
    response = browser.submit(
        page_path(world),
        {
            "form": "add",
            "term": "file",
            "language": "en",
            "translations": "de: Datei\nde: !Akte",
            "note": "A doc",
        },
    )
    assert response.status_code == 303, alert_of(response)
    assert notice_of(browser) == "Term added."
    [term] = listed(as_caller, world)
    assert term["translations"] == [
        {"language": "de", "text": "Datei", "forbidden": False},
        {"language": "de", "text": "Akte", "forbidden": True},
    ]


def test_a_bad_translation_line_is_named_on_the_page(page_as, world):  # noqa: F811
    response = page_as("org_owner").submit(
        page_path(world), {"form": "add", "term": "file", "language": "en", "translations": "Datei"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("translations: line 1 is not")


def test_a_term_is_changed_and_deleted(page_as, as_caller, world):  # noqa: F811
    term = add_term(as_caller, world)
    browser = page_as("org_owner")
    response = browser.submit(
        page_path(world),
        {
            "form": "change",
            "term_id": term["id"],
            "term": "file",
            "language": "en",
            "translations": "fr: fichier",
        },
    )
    assert response.status_code == 303, alert_of(response)
    assert listed(as_caller, world)[0]["translations"] == [
        {"language": "fr", "text": "fichier", "forbidden": False}
    ]
    response = browser.submit(page_path(world), {"form": "delete", "term_id": term["id"]})
    assert response.status_code == 303
    assert listed(as_caller, world) == []


def test_an_import_shows_its_dry_run_then_writes(page_as, as_caller, world):  # noqa: F811
    browser = page_as("org_owner")

    def upload(**fields):
        data = {"form": "import", "mode": "merge", "file": (io.BytesIO(CSV.encode()), "terms.csv"), **fields}
        return browser.submit(page_path(world), data, content_type="multipart/form-data")

    response = upload(dry_run="true")
    assert response.status_code == 200
    assert "Dry run: 3 to add" in response.get_data(as_text=True)
    assert listed(as_caller, world) == []
    assert upload().status_code == 303
    assert notice_of(browser) == "Glossary imported: 3 added, 0 changed, 0 deleted, 0 unchanged."
    assert len(listed(as_caller, world)) == 3
