"""The editor, the trash and the history as a member limited to some languages sees them:
the other languages read-only, no control to write them, and no key management."""

import re

import pytest

from tests.factories import add_org_member, make_session, make_user, user_id
from tests.pages.conftest import PageClient
from tests.translation_factories import ProjectApi


@pytest.fixture
def limited(app, world, as_caller):
    """The project with en, de and fr, a key in each, and an editor and a reviewer limited
    to de; returns a browser for each."""
    writer = ProjectApi(as_caller("write_key"), world.project_id)
    for code in ("en", "de", "fr"):
        writer.add_language(code)
    writer.create("greeting", {"en": "Hello", "de": "Hallo", "fr": "Bonjour"})
    browsers = {}
    for name, role in (("de_editor", "editor"), ("de_reviewer", "reviewer")):
        with app.app_context():
            user = make_user(f"{name}@example.test", name)
            from loko.extensions import db
            from loko.organizations.models import Organization

            add_org_member(db.session.get(Organization, world.organization_id), user)
            cookie = make_session(user)
            member_id = user_id(user)
        response = as_caller("org_owner").put(
            f"/api/projects/{world.project_id}/members/{member_id}", json={"role": role, "languages": ["de"]}
        )
        assert response.status_code == 200
        browsers[name] = PageClient(app, {"cookie": cookie})
    return browsers


def cells(response) -> dict[str, str]:
    """Each value cell's opening tag, by language."""
    return {code: tag for tag, code in re.findall(r'(<td class="v" data-l="([^"]+)"[^>]*>)', response.text)}


def editor(browser, world):
    response = browser.get(f"/projects/{world.project_id}/editor?lang=de&lang=fr")
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("caller", ["de_editor", "de_reviewer"])
def test_cells_of_other_languages_are_read_only(limited, world, caller):
    shown = cells(editor(limited[caller], world))
    assert {code: "aria-readonly" in tag for code, tag in shown.items()} == {
        "en": True,
        "de": False,
        "fr": True,
    }


def test_the_columns_of_other_languages_say_read_only(limited, world):
    text = editor(limited["de_editor"], world).text
    assert re.search(r'<code>fr</code> <span class="badge">read-only</span>', text)
    assert not re.search(r'<code>de</code>[^<]*<span class="badge">read-only</span>', text)


def test_a_limited_editor_gets_no_key_controls(limited, world):
    text = editor(limited["de_editor"], world).text
    assert "data-create" not in text
    assert "data-select" not in text
    assert 'data-can-manage="false"' in text


def test_an_unlimited_editor_keeps_them(page_as, limited, world):
    text = editor(page_as("editor"), world).text
    assert "data-create" in text
    assert 'data-can-manage="true"' in text
    assert "aria-readonly" not in re.sub(r'<table class="editor-grid"[^>]*>', "", text)


def test_a_limited_reviewer_may_mark_only_their_language_reviewed(app, limited, world, as_caller):
    api = ProjectApi(as_caller("org_owner"), world.project_id)
    response = api.post(
        "/translations/review",
        {"fileName": "common", "keys": ["greeting"], "languages": ["de", "fr"], "state": "needs-review"},
    )
    assert response.status_code == 200
    text = editor(limited["de_reviewer"], world).text
    assert 'aria-label="Mark reviewed: greeting in de"' in text
    assert 'aria-label="Mark reviewed: greeting in fr"' not in text
    assert 'data-review-all="de"' in text
    assert 'data-review-all="fr"' not in text


def test_the_key_s_details_are_read_only_to_a_limited_editor(limited, world, as_caller):
    translation_id = ProjectApi(as_caller("write_key"), world.project_id).create("other", {"en": "Other"})[
        "id"
    ]
    response = limited["de_editor"].get(f"/projects/{world.project_id}/editor/keys/{translation_id}")
    assert response.status_code == 200
    assert 'name="comment"' not in response.text


def test_the_trash_offers_a_limited_editor_no_restore(limited, world, as_caller):
    writer = ProjectApi(as_caller("write_key"), world.project_id)
    writer.trash(writer.create("old", {"en": "Old"})["id"])
    response = limited["de_editor"].get(f"/projects/{world.project_id}/trash")
    assert response.status_code == 200
    assert "/trash/restore" not in response.text


def test_the_history_offers_reverts_in_the_member_s_languages_only(limited, world, as_caller):
    writer = ProjectApi(as_caller("write_key"), world.project_id)
    writer.set_values("greeting", {"de": "Servus", "fr": "Salut"})
    text = limited["de_editor"].get(f"/projects/{world.project_id}/history").text
    assert "for greeting in de" in text
    assert "for greeting in fr" not in text


def test_the_settings_page_shows_and_sets_a_member_s_languages(app, limited, world, page_as):
    owner = page_as("org_owner")
    page = owner.get(f"/projects/{world.project_id}/settings").text
    assert re.search(r'name="languages" value="de"', page)
    with app.app_context():
        from loko.auth.models import User
        from loko.extensions import db

        member_id = db.session.execute(db.select(User.id).where(User.name == "de_editor")).scalar_one()
    response = owner.submit(
        f"/projects/{world.project_id}/settings",
        {"form": "member", "user_id": member_id, "role": "editor", "languages": "de, fr"},
    )
    assert response.status_code == 303
    assert 'value="de, fr"' in owner.get(f"/projects/{world.project_id}/settings").text


@pytest.mark.parametrize(("page", "control"), [("languages", "Add language"), ("files", "New file")])
def test_the_languages_and_files_pages_offer_a_limited_editor_no_changes(limited, world, page, control):
    response = limited["de_editor"].get(f"/projects/{world.project_id}/{page}")
    assert response.status_code == 200
    assert control not in response.text


def test_the_project_list_says_which_languages_a_member_translates(limited, world):
    response = limited["de_editor"].get(f"/orgs/{world.organization_id}")
    assert "translate de" in response.text


def test_the_pretranslate_page_offers_a_limited_editor_their_languages_only(limited, world):
    response = limited["de_editor"].get(f"/projects/{world.project_id}/pretranslate")
    assert response.status_code == 200
    offered = re.findall(r'name="languages" value="([^"]+)"', response.text)
    assert offered == ["de"]


def _suggested(response) -> list[str]:
    datalist = response.text.split('<datalist id="project-languages">')[1].split("</datalist>")[0]
    return re.findall(r'<option value="([^"]+)">', datalist)


def test_the_import_page_suggests_a_limited_editor_their_languages_only(limited, world):
    response = limited["de_editor"].get(f"/projects/{world.project_id}/import")
    assert response.status_code == 200
    assert _suggested(response) == ["de"]


def test_the_import_page_suggests_every_language_to_an_editor_not_limited(limited, world, page_as):
    response = page_as("editor").get(f"/projects/{world.project_id}/import")
    assert response.status_code == 200
    assert sorted(_suggested(response)) == ["de", "en", "fr"]
