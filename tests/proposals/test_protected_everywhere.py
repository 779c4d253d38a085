"""Protected reviewed values on the write paths of many values: an import or a find and
replace by whoever may not review leaves a reviewed value as it is and lists it as protected,
an undo by them that would overwrite one is refused naming it; reviewers do all three."""

import io
from types import SimpleNamespace

import orjson
import pytest

from tests.pages.conftest import page_as  # noqa: F401 (a fixture)
from tests.pages.test_import_page import json_upload, preview, text_of
from tests.proposals.conftest import set_settings
from tests.replace.conftest import ticked


@pytest.fixture
def reviewed(key, as_caller):
    """German "Hallo Welt" imported by a write key and reviewed, in a project that protects
    reviewed values; the import's operation id."""
    written = as_caller("write_key").post(
        f"/api/projects/{key.project_id}/import",
        data={"file": (io.BytesIO(orjson.dumps({"greeting": "Hallo Welt"})), "de.json")},
        query_string={"fileName": "common", "language": "de", "format": "json"},
        content_type="multipart/form-data",
    )
    assert written.status_code == 200, written.json
    review = as_caller("reviewer").post(
        f"/api/projects/{key.project_id}/translations/review",
        json={"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "reviewed"},
    )
    assert review.status_code == 200, review.json
    set_settings(as_caller, key.project_id, protectReviewed=True)
    return written.json["operationId"]


def _german(as_caller, key) -> str:
    exported = as_caller("org_owner").get(f"/api/projects/{key.project_id}/translations")
    return exported.json["de"]["common"]["greeting"]


def _import(client, key, value: str, **params):
    return client.post(
        f"/api/projects/{key.project_id}/import",
        data={"file": (io.BytesIO(orjson.dumps({"greeting": value, "farewell": "Tschüss"})), "de.json")},
        query_string={"fileName": "common", "language": "de", "format": "json", **params},
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_write_keys_import_leaves_a_reviewed_value_and_lists_it(key, reviewed, as_caller, dry_run):
    response = _import(as_caller("write_key"), key, "Hallo, Welt", **({"dryRun": "true"} if dry_run else {}))
    assert response.status_code == 200, response.json
    assert response.json["protected"] == [
        {
            "fileName": "common",
            "key": "greeting",
            "language": "de",
            "current": "Hallo Welt",
            "incoming": "Hallo, Welt",
        }
    ]
    assert response.json["summary"]["protected"] == 1 and response.json["updated"] == []
    assert [change["key"] for change in response.json["created"]] == ["farewell"]
    assert _german(as_caller, key) == "Hallo Welt"


def test_without_protection_an_import_changes_a_reviewed_value(key, reviewed, as_caller):
    set_settings(as_caller, key.project_id, protectReviewed=False)
    response = _import(as_caller("write_key"), key, "Hallo, Welt")
    assert response.status_code == 200, response.json
    assert "protected" not in response.json and response.json["summary"]["updated"] == 1
    assert _german(as_caller, key) == "Hallo, Welt"


def _replace(client, key, **body):
    return client.post(
        f"/api/projects/{key.project_id}/replace",
        json={"find": "Welt", "replace": "World", "languages": ["de"], **body},
    )


def test_an_editors_replace_skips_a_reviewed_value_as_protected(key, reviewed, as_caller):
    editor = as_caller("editor")
    preview = _replace(editor, key)
    assert preview.status_code == 200, preview.json
    assert [change.get("protected") for change in preview.json["changes"]] == [True]
    assert "protected" not in _replace(as_caller("reviewer"), key).json["changes"][0]
    applied = _replace(editor, key, dryRun=False, items=ticked(preview.json))
    assert applied.status_code == 200, applied.json
    assert applied.json["applied"] == 0 and applied.json["operationId"] is None
    assert [(item["key"], item["reason"], item["current"]) for item in applied.json["skipped"]] == [
        ("greeting", "protected", "Hallo Welt")
    ]
    assert _german(as_caller, key) == "Hallo Welt"
    by_reviewer = _replace(as_caller("reviewer"), key, dryRun=False, items=ticked(preview.json))
    assert by_reviewer.json["applied"] == 1 and _german(as_caller, key) == "Hallo World"


def test_an_editors_undo_that_would_overwrite_a_reviewed_value_is_refused(key, reviewed, as_caller):
    url = f"/api/projects/{key.project_id}/history/revert"
    body = {"operationId": reviewed, "includeChanged": True}
    refused = as_caller("editor").post(url, json=body)
    assert refused.status_code == 409, refused.json
    assert "common/greeting (de)" in refused.json["error"] and "reviewed" in refused.json["error"]
    assert refused.json["details"]["reviewed"] == [
        {"key": "greeting", "fileName": "common", "language": "de"}
    ]
    assert _german(as_caller, key) == "Hallo Welt"
    assert as_caller("reviewer").post(url, json=body).status_code == 200


def test_without_protection_an_editors_undo_goes_through(key, reviewed, as_caller):
    set_settings(as_caller, key.project_id, protectReviewed=False)
    url = f"/api/projects/{key.project_id}/history/revert"
    response = as_caller("editor").post(url, json={"operationId": reviewed, "includeChanged": True})
    assert response.status_code == 200, response.json


def test_the_import_page_tells_an_editor_the_reviewed_values_it_keeps(key, reviewed, page_as):  # noqa: F811
    editor = page_as("editor")
    response = preview(
        editor,
        SimpleNamespace(project_id=key.project_id),
        json_upload({"greeting": "Hallo, Welt"}, "common.json"),
        language="de",
        fileName="common",
    )
    assert response.status_code == 200, text_of(response)
    assert "1 reviewed value kept: it changes through a proposal" in text_of(response)
