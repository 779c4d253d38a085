"""The import page: an upload is checked by a dry run whose diff the page shows, kept for the
person who sent it, and imported only when they confirm; who may do it, and every refusal
with nothing written."""

import html
import io
import re
import zipfile
from datetime import timedelta
from types import SimpleNamespace

import orjson
import pytest
from sqlalchemy import func, select, update
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from loko.database import utcnow
from loko.extensions import db
from loko.imports.models import PendingImport
from loko.web.csrf import CSRF_FIELD
from tests.factories import make_project
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi

EDITORS = ("editor", "project_admin", "org_admin", "org_owner")


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


def import_path(world, suffix: str = "") -> str:
    return f"/projects/{world.project_id}/import{suffix}"


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def json_upload(document: dict, name: str = "home.json"):
    return (io.BytesIO(orjson.dumps(document)), name)


def multipart_post(browser, path: str, fields: dict):
    """Post a multipart form as a browser would, CSRF token included. The body is encoded in
    memory: the test client would spool a large one to a temporary file it never closes."""
    fields = {
        name: FileStorage(*value) if isinstance(value, tuple) else value for name, value in fields.items()
    }
    boundary, body = encode_multipart({CSRF_FIELD: browser.csrf_token(), **fields})
    return browser.post(path, data=body, content_type=f'multipart/form-data; boundary="{boundary}"')


def preview(browser, world, upload, **fields):
    """Send the import form: the dry run."""
    data = {"file": upload, "language": "en", "mode": "upsert", "removedKeys": "keep", **fields}
    return multipart_post(browser, import_path(world), data)


def pending_id_of(response) -> str:
    return re.search(r'name="pending" value="([^"]+)"', response.get_data(as_text=True)).group(1)


def confirm(browser, world, pending_id: str):
    return browser.submit(import_path(world, "/confirm"), data={"pending": pending_id})


def pending_count(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(PendingImport)).scalar_one()


def exported(api) -> dict:
    return api.export()


# --- who may open it ---------------------------------------------------------------------------


@pytest.mark.parametrize("caller", EDITORS)
def test_import_page_opens_for_callers_who_edit_translations(page_as, world, caller):
    response = page_as(caller).get(import_path(world))
    assert response.status_code == 200
    assert "<h1>Import</h1>" in response.get_data(as_text=True)


def test_import_page_is_refused_to_a_viewer(page_as, world):
    response = page_as("viewer").get(import_path(world))
    assert response.status_code == 403
    assert 'type="file"' not in response.get_data(as_text=True)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_import_page_sends_signed_out_callers_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(import_path(world))
    assert response.status_code == 302
    assert response.location == f"/login?next={import_path(world)}"


def test_import_page_does_not_reveal_a_project_to_an_outsider(page_as, world):
    assert page_as("outsider").get(import_path(world)).status_code == 404


def test_the_import_tab_is_shown_to_editors(page_as, world):
    text = page_as("editor").get(f"/projects/{world.project_id}").get_data(as_text=True)
    assert f'<a href="{import_path(world)}">Import</a>' in text


def test_the_import_tab_is_hidden_from_a_viewer(page_as, world):
    text = page_as("viewer").get(f"/projects/{world.project_id}").get_data(as_text=True)
    assert import_path(world) not in text


def test_a_viewer_cannot_post_an_upload(page_as, app, world, api):
    response = preview(page_as("viewer"), world, json_upload({"title": "Title"}))
    assert response.status_code == 403
    assert pending_count(app) == 0
    assert exported(api) == {}


# --- the form --------------------------------------------------------------------------------


def test_the_form_labels_every_control(page_as, world):
    text = page_as("editor").get(import_path(world)).get_data(as_text=True)
    for name in ("file", "format", "language", "fileName", "pathTemplate"):
        assert f'<label for="f-{name}">' in text
    for value in ("upsert", "only-new", "replace-file"):
        assert f'<label for="mode-{value}">' in text
    for value in ("keep", "trash"):
        assert f'<label for="removed-{value}">' in text
    assert 'enctype="multipart/form-data"' in text


def test_the_format_select_offers_detection_and_every_format(page_as, world):
    text = page_as("editor").get(import_path(world)).get_data(as_text=True)
    assert '<option value="" selected>Detect from the file name</option>' in text
    assert '<option value="json">JSON (flat)</option>' in text
    assert '<option value="po">Gettext PO</option>' in text


def test_the_language_field_suggests_the_project_languages(page_as, world, api):
    api.add_language("de")
    text = page_as("editor").get(import_path(world)).get_data(as_text=True)
    assert '<option value="de">' in text


# --- the dry run -----------------------------------------------------------------------------


def test_the_dry_run_shows_what_would_be_created(page_as, world):
    response = preview(page_as("editor"), world, json_upload({"title": "Title", "body": "Body"}))
    assert response.status_code == 200
    text = text_of(response)
    assert "What this import would change" in text
    assert "2 new 0 changed 0 to the trash 0 conflicts 0 with notes changed 0 unchanged" in text
    assert "home title en Title" in text
    assert "Confirm import" in text


def test_the_dry_run_writes_nothing(page_as, world, api):
    preview(page_as("editor"), world, json_upload({"title": "Title"}))
    assert exported(api) == {}
    assert api.files() == []


def test_the_dry_run_keeps_the_upload_for_its_confirmation(page_as, app, world):
    preview(page_as("editor"), world, json_upload({"title": "Title"}))
    assert pending_count(app) == 1


def test_the_dry_run_shows_changed_values_before_and_after(page_as, world, api):
    api.upsert("en", {"title": "Old title"}, file_name="home")
    text = text_of(preview(page_as("editor"), world, json_upload({"title": "New title"})))
    assert "Changed (1)" in text
    assert "home title en Before Old title After New title" in text


def test_the_dry_run_lists_keys_that_would_go_to_the_trash(page_as, world, api):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="home")
    response = preview(page_as("editor"), world, json_upload({"title": "Title"}), removedKeys="trash")
    assert "To the trash (1) File Key home old" in text_of(response)


def test_the_dry_run_lists_conflicts_of_only_new(page_as, world, api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    response = preview(page_as("editor"), world, json_upload({"title": "Other"}), mode="only-new")
    text = text_of(response)
    assert "Conflicts: left as they are (1)" in text
    assert "In Loko Title Uploaded Other" in text


def test_a_dry_run_that_changes_nothing_says_so_and_offers_no_confirmation(page_as, app, world, api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    response = preview(page_as("editor"), world, json_upload({"title": "Title"}))
    text = text_of(response)
    assert "Nothing would change" in text
    assert "Confirm import" not in text
    assert pending_count(app) == 0


def test_a_long_list_ends_with_how_many_more(page_as, world):
    document = {f"key{number:03}": "Value" for number in range(250)}
    text = text_of(preview(page_as("editor"), world, json_upload(document)))
    assert "New (250)" in text
    assert "… and 50 more." in text


def test_the_file_is_named_after_the_upload_without_its_extension(page_as, world):
    text = text_of(preview(page_as("editor"), world, json_upload({"a": "A"}, "pages/about.json")))
    assert "File in Loko Language Format Keys in the upload about en JSON (flat) 1" in text


def test_a_typed_file_name_is_kept_as_it_is(page_as, world):
    response = preview(page_as("editor"), world, json_upload({"a": "A"}), fileName="web/home")
    assert "Keys in the upload web/home en JSON (flat) 1" in text_of(response)


def test_a_zip_is_placed_by_its_path_template(page_as, world):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("locales/de/home.json", orjson.dumps({"a": "A"}))
    upload = (io.BytesIO(buffer.getvalue()), "all.zip")
    response = preview(
        page_as("editor"), world, upload, language="", pathTemplate="locales/{language}/{fileName}"
    )
    assert "Keys in the upload home de JSON (flat) 1" in text_of(response)


# --- refusals --------------------------------------------------------------------------------


def test_a_file_that_does_not_parse_is_shown_as_the_error_and_writes_nothing(page_as, app, world, api):
    upload = (io.BytesIO(b'{"title": '), "home.json")
    response = preview(page_as("editor"), world, upload)
    assert response.status_code == 400
    assert "is not a valid json file" in alert_of(response)
    assert 'type="file"' in response.get_data(as_text=True)
    assert pending_count(app) == 0
    assert exported(api) == {}


def test_an_upload_without_a_file_is_refused(page_as, world):
    response = multipart_post(page_as("editor"), import_path(world), {"language": "en"})
    assert response.status_code == 400
    assert alert_of(response) == "file: choose a translation file or a ZIP to import."


def test_a_refused_upload_keeps_the_chosen_options(page_as, world):
    upload = (io.BytesIO(b"not json"), "home.json")
    text = preview(page_as("editor"), world, upload, language="pt-BR", mode="only-new").get_data(as_text=True)
    assert 'value="pt-BR"' in text
    assert 'value="only-new" aria-describedby="mode-only-new-hint" checked' in text


def test_an_unknown_language_code_is_refused(page_as, world):
    response = preview(page_as("editor"), world, json_upload({"a": "A"}), language="not a code")
    assert response.status_code == 400
    assert alert_of(response).startswith("language:")


def test_the_upload_needs_the_csrf_token(page_as, app, world, api):
    response = page_as("editor").post(
        import_path(world),
        data={"file": json_upload({"title": "Title"}), "language": "en"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 403
    assert pending_count(app) == 0


def test_the_upload_may_be_larger_than_other_forms(page_as, world):
    upload = (io.BytesIO(b" " * (5 * 1024 * 1024) + b"{"), "home.json")
    response = preview(page_as("editor"), world, upload)
    assert response.status_code == 400
    assert "is not a valid json file" in alert_of(response)


@pytest.mark.parametrize("config_overrides", [{"LOKO_MAX_IMPORT_MB": 1}], ids=["1MB"])
def test_an_upload_over_the_import_limit_is_refused(page_as, app, world):
    upload = (io.BytesIO(b" " * (2 * 1024 * 1024)), "home.json")
    response = preview(page_as("editor"), world, upload)
    assert response.status_code == 413
    assert pending_count(app) == 0


# --- confirming ------------------------------------------------------------------------------


def test_confirming_imports_the_upload(page_as, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title", "body": "Body"})))
    response = confirm(browser, world, pending_id)
    assert response.status_code == 303
    assert response.location.startswith(f"/projects/{world.project_id}/import?imported=")
    assert exported(api) == {"en": {"home": {"body": "Body", "title": "Title"}}}


def test_the_import_just_made_can_be_undone_from_its_page(page_as, world, api):
    api.upsert("en", {"title": "Old"}, file_name="home")
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "New", "body": "Body"})))
    landed = browser.get(confirm(browser, world, pending_id).location)
    assert "Undo this import" in landed.get_data(as_text=True)
    operation = landed.get_data(as_text=True).split('name="operation" value="')[1].split('"')[0]
    response = browser.submit(f"/projects/{world.project_id}/undo", {"operation": operation})
    assert response.status_code == 303
    assert exported(api) == {"en": {"home": {"title": "Old"}}}


def test_confirming_says_what_was_imported(page_as, world, api):
    api.upsert("en", {"title": "Old", "gone": "Gone"}, file_name="home")
    browser = page_as("editor")
    upload = json_upload({"title": "New", "body": "Body"})
    confirm(browser, world, pending_id_of(preview(browser, world, upload, removedKeys="trash")))
    assert notice_of(browser) == "Imported: 1 created, 1 updated, 1 moved to the trash."


def test_confirming_uses_the_options_of_the_dry_run(page_as, world, api):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="home")
    browser = page_as("editor")
    response = preview(browser, world, json_upload({"title": "Title"}), mode="replace-file")
    confirm(browser, world, pending_id_of(response))
    assert exported(api) == {"en": {"home": {"title": "Title"}}}
    assert [item["key"] for item in api.trash_list()["translations"]] == ["old"]


def confirm_after_an_edit(browser, world, api):
    """Preview an upload of ``title``, edit ``title`` in the API, then confirm."""
    api.upsert("en", {"title": "Old"}, file_name="home")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Uploaded"})))
    api.upsert("en", {"title": "Edited meanwhile"}, file_name="home")
    return confirm(browser, world, pending_id)


def test_an_edit_made_after_the_preview_is_not_overwritten_by_the_confirmation(page_as, world, api):
    response = confirm_after_an_edit(page_as("editor"), world, api)
    assert response.status_code == 409
    assert "changed since the preview" in alert_of(response)
    assert exported(api) == {"en": {"home": {"title": "Edited meanwhile"}}}


def test_a_confirmation_refused_for_a_change_shows_the_new_preview_to_confirm(page_as, world, api):
    browser = page_as("editor")
    response = confirm_after_an_edit(browser, world, api)
    assert "Edited meanwhile" in text_of(response)
    assert confirm(browser, world, pending_id_of(response)).status_code == 303
    assert exported(api) == {"en": {"home": {"title": "Uploaded"}}}


def test_an_edit_elsewhere_after_the_preview_does_not_stop_the_confirmation(page_as, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Uploaded"})))
    api.upsert("en", {"other": "Other"}, file_name="elsewhere")
    assert confirm(browser, world, pending_id).status_code == 303
    assert exported(api)["en"]["home"] == {"title": "Uploaded"}


def test_a_confirmed_upload_is_no_longer_kept(page_as, app, world):
    browser = page_as("editor")
    confirm(browser, world, pending_id_of(preview(browser, world, json_upload({"title": "Title"}))))
    assert pending_count(app) == 0


def test_confirming_twice_imports_once_and_asks_to_upload_again(page_as, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    confirm(browser, world, pending_id)
    response = confirm(browser, world, pending_id)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "upload the file again" in alert_of(response)
    assert len(api.history(key="title")) == 1


def test_an_unknown_pending_import_asks_to_upload_again(page_as, world):
    response = confirm(page_as("editor"), world, "01a00000-0000-7000-8000-000000000000")
    assert response.status_code == 404
    assert "upload the file again" in alert_of(response)


def test_another_users_pending_import_is_refused(page_as, app, world, api):
    pending_id = pending_id_of(preview(page_as("editor"), world, json_upload({"title": "Title"})))
    response = confirm(page_as("project_admin"), world, pending_id)
    assert response.status_code == 404
    assert "upload the file again" in alert_of(response)
    assert exported(api) == {}
    assert pending_count(app) == 1


def test_a_pending_import_is_refused_in_another_project(page_as, app, world, api):
    with app.app_context():
        other_id = make_project(SimpleNamespace(id=world.organization_id), name="Docs").id
    browser = page_as("org_owner")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    response = browser.submit(f"/projects/{other_id}/import/confirm", data={"pending": pending_id})
    assert response.status_code == 404
    assert "upload the file again" in alert_of(response)
    assert pending_count(app) == 1


def test_an_expired_pending_import_is_refused_and_removed(page_as, app, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    with app.app_context():
        db.session.execute(update(PendingImport).values(created_at=utcnow() - timedelta(minutes=61)))
        db.session.commit()
    response = confirm(browser, world, pending_id)
    assert response.status_code == 404
    assert "upload the file again" in alert_of(response)
    assert exported(api) == {}
    assert pending_count(app) == 0


def test_a_new_upload_removes_expired_ones(page_as, app, world):
    browser = page_as("editor")
    preview(browser, world, json_upload({"title": "Title"}))
    with app.app_context():
        db.session.execute(update(PendingImport).values(created_at=utcnow() - timedelta(hours=2)))
        db.session.commit()
    preview(browser, world, json_upload({"body": "Body"}))
    assert pending_count(app) == 1


def test_the_confirmation_needs_the_csrf_token(page_as, app, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    response = browser.post(import_path(world, "/confirm"), data={"pending": pending_id})
    assert response.status_code == 403
    assert exported(api) == {}
    assert pending_count(app) == 1


def test_a_viewer_cannot_confirm(page_as, world, api):
    response = confirm(page_as("viewer"), world, "01a00000-0000-7000-8000-000000000000")
    assert response.status_code == 403


# --- cancelling ------------------------------------------------------------------------------


def test_cancelling_forgets_the_upload_and_writes_nothing(page_as, app, world, api):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    response = browser.submit(import_path(world, "/cancel"), data={"pending": pending_id})
    assert response.status_code == 303
    assert response.location == import_path(world)
    assert notice_of(browser) == "Import cancelled: nothing was changed."
    assert pending_count(app) == 0
    assert exported(api) == {}


def test_cancelling_needs_the_csrf_token(page_as, app, world):
    browser = page_as("editor")
    pending_id = pending_id_of(preview(browser, world, json_upload({"title": "Title"})))
    assert browser.post(import_path(world, "/cancel"), data={"pending": pending_id}).status_code == 403
    assert pending_count(app) == 1


def test_the_import_form_tags_every_key_of_the_upload(page_as, world, api, as_caller):
    api.upsert("en", {"title": "Title"}, file_name="home")
    browser = page_as("editor")
    assert 'name="tag"' in browser.get(import_path(world)).get_data(as_text=True)
    upload = json_upload({"title": "Title", "body": "Body"})
    confirm(browser, world, pending_id_of(preview(browser, world, upload, tag="release-2")))
    tags = as_caller("read_key").get(f"/api/projects/{world.project_id}/tags").json
    assert tags == {"tags": [{"name": "release-2", "keys": 2}]}
