"""POST /projects/{id}/import: one file or a ZIP, the diff it answers (the same for a dry
run), the modes, and every refusal with nothing written."""

import io
import zipfile

import orjson
import pytest

from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def json_file(document: dict) -> bytes:
    return orjson.dumps(document)


def upload(api: ProjectApi, data: bytes, content_type: str = "application/octet-stream", **params):
    params = {key: ("true" if value is True else value) for key, value in params.items()}
    return api.client.post(
        api.url("/import"), data=data, query_string=params, headers={"Content-Type": content_type}
    )


def imported(api: ProjectApi, data: bytes, **params) -> dict:
    response = upload(api, data, **params)
    assert response.status_code == 200, response.json
    return response.json


def archive(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as zipped:
        for name, data in members.items():
            zipped.writestr(name, data)
    return buffer.getvalue()


def data_version(api: ProjectApi) -> str:
    return api.export_response().headers["ETag"]


def test_a_file_creates_its_keys_and_values(api):
    answer = imported(
        api, json_file({"title": "Title", "body": "Body"}), fileName="home", language="en", format="json"
    )
    assert answer["summary"] == {
        "created": 2,
        "updated": 0,
        "unchanged": 0,
        "trashed": 0,
        "removed": 0,
        "conflicts": 0,
        "notes": 0,
    }
    assert {(c["key"], c["value"]) for c in answer["created"]} == {("title", "Title"), ("body", "Body")}
    assert api.export() == {"en": {"home": {"body": "Body", "title": "Title"}}}


def test_the_format_is_detected_from_the_file_name(api):
    answer = imported(api, json_file({"a": "A"}), fileName="home.json", language="en")
    assert answer["files"] == [{"fileName": "home", "language": "en", "format": "json", "entries": 1}]


def test_nested_json_is_detected_as_json_nested(api):
    answer = imported(api, json_file({"a": {"b": "B"}}), fileName="home.json", language="en")
    assert answer["files"][0]["format"] == "json-nested"
    assert api.export() == {"en": {"home": {"a.b": "B"}}}


def test_a_changed_value_is_listed_with_old_and_new(api):
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    answer = imported(
        api, json_file({"title": "New title", "body": "Body"}), fileName="home", language="en", format="json"
    )
    assert answer["summary"]["updated"] == 1 and answer["summary"]["unchanged"] == 1
    assert answer["updated"] == [
        {"fileName": "home", "key": "title", "language": "en", "old": "Title", "new": "New title"}
    ]


def test_history_records_each_imported_change_with_the_caller(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    imported(api, json_file({"title": "New", "body": "Body"}), fileName="home", language="en", format="json")
    entries = api.history(fileName="home")
    assert [(e["key"], e["action"], e["old_value"], e["new_value"]) for e in entries[:2]] == [
        ("body", "created", None, "Body"),
        ("title", "updated", "Title", "New"),
    ] or [(e["key"], e["action"], e["old_value"], e["new_value"]) for e in entries[:2]] == [
        ("title", "updated", "Title", "New"),
        ("body", "created", None, "Body"),
    ]
    assert {e["actor"]["type"] for e in entries[:2]} == {"api_key"}


def test_a_dry_run_answers_the_same_diff_and_writes_nothing(api):
    api.upsert("en", {"title": "Title", "gone": "Gone"}, file_name="home")
    before = data_version(api)
    body = json_file({"title": "New", "body": "Body"})
    params = {"fileName": "home", "language": "en", "format": "json", "removedKeys": "trash"}
    dry = imported(api, body, dryRun="true", **params)
    assert data_version(api) == before
    assert api.export() == {"en": {"home": {"gone": "Gone", "title": "Title"}}}
    real = imported(api, body, **params)
    assert dry["dryRun"] is True and real["dryRun"] is False
    assert dry["operationId"] is None and real["operationId"]
    own = ("dryRun", "operationId")
    assert {k: v for k, v in dry.items() if k not in own} == {k: v for k, v in real.items() if k not in own}


def test_keys_missing_from_the_file_are_kept_by_default(api):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="home")
    answer = imported(api, json_file({"title": "Title"}), fileName="home", language="en", format="json")
    assert answer["summary"]["trashed"] == 0
    assert api.keys(fileName="home") == ["old", "title"]


def test_removed_keys_trash_moves_missing_keys_to_the_trash(api):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="home")
    answer = imported(
        api, json_file({"title": "Title"}), fileName="home", language="en", format="json", removedKeys="trash"
    )
    assert answer["trashed"] == [{"fileName": "home", "key": "old"}]
    assert api.keys(fileName="home") == ["title"]
    assert [t["key"] for t in api.trash_list()["translations"]] == ["old"]


def test_removed_keys_trash_keeps_keys_the_uploaded_language_has_not_translated(api):
    api.upsert("en", {"title": "Title", "new": "New"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    answer = imported(
        api, json_file({"title": "Titel"}), fileName="home", language="de", format="json", removedKeys="trash"
    )
    assert answer["trashed"] == []
    assert api.keys(fileName="home") == ["new", "title"]


def test_replace_file_trashes_the_keys_the_file_lacks(api):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="home")
    imported(
        api, json_file({"title": "Title"}), fileName="home", language="en", format="json", mode="replace-file"
    )
    assert api.keys(fileName="home") == ["title"]


def test_only_new_adds_missing_values_and_lists_differing_ones_as_conflicts(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    answer = imported(
        api,
        json_file({"title": "Other", "body": "Body"}),
        fileName="home",
        language="en",
        format="json",
        mode="only-new",
    )
    assert answer["conflicts"] == [
        {"fileName": "home", "key": "title", "language": "en", "current": "Title", "incoming": "Other"}
    ]
    assert api.export() == {"en": {"home": {"body": "Body", "title": "Title"}}}


def test_a_zip_imports_every_member_placed_by_the_path_template(api):
    members = {
        "locales/en/home.json": json_file({"title": "Title"}),
        "locales/de/home.json": json_file({"title": "Titel"}),
        "locales/de/auth/login.json": json_file({"submit": "Anmelden"}),
    }
    answer = imported(api, archive(members), pathTemplate="locales/{language}/{fileName}.json", format="json")
    assert answer["summary"]["created"] == 3
    assert api.export() == {
        "de": {"auth/login": {"submit": "Anmelden"}, "home": {"title": "Titel"}},
        "en": {"home": {"title": "Title"}},
    }


def test_an_export_zip_imports_back_with_the_default_template(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    exported = api.export_response(zip="true").data
    answer = imported(api, exported)
    assert answer["summary"] == {
        "created": 0,
        "updated": 0,
        "unchanged": 2,
        "trashed": 0,
        "removed": 0,
        "conflicts": 0,
        "notes": 0,
    }


def test_a_csv_export_zip_imports_back_with_the_default_template(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    exported = api.export_response(zip="true", format="csv").data
    answer = imported(api, exported)
    assert (answer["summary"]["unchanged"], answer["summary"]["created"]) == (2, 0)


def test_a_multipart_upload_takes_the_file_and_its_name(api):
    response = api.client.post(
        api.url("/import"),
        data={"file": (io.BytesIO(json_file({"a": "A"})), "home.json"), "language": "en"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.json
    assert api.export() == {"en": {"home": {"a": "A"}}}


def test_a_multipart_form_field_stands_for_the_query_parameter_of_its_name(api):
    response = api.client.post(
        api.url("/import"),
        query_string={"language": "de", "dryRun": "true"},
        data={"file": (io.BytesIO(json_file({"a": "A"})), "home.json"), "language": "en", "dryRun": "false"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.json
    assert api.export() == {"en": {"home": {"a": "A"}}}


def test_a_read_key_may_dry_run(app, world, as_caller):
    response = as_caller("read_key").post(
        f"/api/projects/{world.project_id}/import",
        data=json_file({"a": "A"}),
        query_string={"fileName": "home", "language": "en", "format": "json", "dryRun": "true"},
    )
    assert response.status_code == 200, response.json


@pytest.mark.parametrize(
    ("caller", "status"), [("read_key", 403), ("viewer", 403), ("anonymous", 401), ("outsider", 404)]
)
def test_a_real_import_needs_edit_rights(world, as_caller, caller, status):
    response = as_caller(caller).post(
        f"/api/projects/{world.project_id}/import",
        data=json_file({"a": "A"}),
        query_string={"fileName": "home", "language": "en", "format": "json"},
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == status


# Refusals: a 400 naming the problem, and nothing written.


def assert_refused(api: ProjectApi, data: bytes, fragment: str, **params) -> None:
    before = data_version(api)
    response = upload(api, data, **params)
    assert response.status_code == 400, response.json
    assert fragment in response.json["error"], response.json["error"]
    assert data_version(api) == before
    assert api.export() == {"en": {"home": {"kept": "Kept"}}}


@pytest.fixture
def kept(api) -> ProjectApi:
    api.upsert("en", {"kept": "Kept"}, file_name="home")
    return api


def test_an_unknown_format_is_refused(kept):
    assert_refused(kept, b"{}", "format", fileName="home", language="en", format="docx")


def test_a_file_whose_format_cannot_be_told_is_refused(kept):
    assert_refused(kept, b"{}", "cannot tell the format", fileName="home", language="en")


def test_a_file_that_does_not_parse_is_refused_naming_the_line(kept):
    assert_refused(kept, b'{\n"a": "A",\n"b": \n}', "line 4", fileName="home", language="en", format="json")


def test_a_key_over_256_characters_is_refused(kept):
    assert_refused(kept, json_file({"k" * 257: "v"}), "key", fileName="home", language="en", format="json")


def test_a_value_over_8192_characters_is_refused(kept):
    assert_refused(kept, json_file({"k": "v" * 8193}), "8,192", fileName="home", language="en", format="json")


def test_a_value_with_a_nul_character_is_refused(kept):
    assert_refused(kept, json_file({"k": "a\u0000b"}), "NUL", fileName="home", language="en", format="json")


def test_a_language_a_csv_file_has_no_column_for_is_refused(kept):
    assert_refused(
        kept, b"key,en\nkept,Kept\n", "no column 'de'", fileName="home", language="de", format="csv"
    )


def test_a_file_name_over_256_characters_is_refused(kept):
    assert_refused(kept, json_file({"k": "v"}), "fileName", fileName="f" * 257, language="en", format="json")


def test_a_missing_language_is_refused(kept):
    assert_refused(kept, json_file({"k": "v"}), "language", fileName="home", format="json")


def test_an_archive_member_outside_the_archive_is_refused(kept):
    members = {"en/ok.json": json_file({"a": "A"}), "../evil.json": json_file({"b": "B"})}
    assert_refused(kept, archive(members), "outside the archive")


def test_a_zip_bomb_is_refused(kept):
    members = {"en/bomb.json": b'{"a": "' + b"a" * (50 * 1024 * 1024) + b'"}'}
    assert_refused(kept, archive(members), "too much data")


def test_a_damaged_zip_is_refused(kept):
    stored = archive({"en/ok.json": json_file({"a": "A"})}, zipfile.ZIP_STORED)
    damaged = stored.replace(b'"A"', b'"B"')  # no longer what its CRC-32 says
    assert_refused(kept, damaged, "damaged")


def test_a_zip_compressed_with_a_method_that_cannot_be_read_is_refused(kept):
    ppmd = (98).to_bytes(2, "little")
    stored = archive({"en/ok.json": json_file({"a": "A"})}, zipfile.ZIP_STORED)
    local, central = stored.index(b"PK\x03\x04"), stored.index(b"PK\x01\x02")
    # The method of the member (PPMd), in its local header and in the central directory.
    data = bytearray(stored)
    data[local + 8 : local + 10] = ppmd
    data[central + 10 : central + 12] = ppmd
    assert_refused(kept, bytes(data), "compression method that cannot be read")


def test_a_member_not_matching_the_template_is_refused_and_the_others_are_not_written(kept):
    members = {"locales/en/ok.json": json_file({"a": "A"}), "stray.json": json_file({"b": "B"})}
    assert_refused(
        kept, archive(members), "does not match", pathTemplate="locales/{language}/{fileName}.json"
    )


def test_one_bad_member_of_a_zip_writes_nothing(kept):
    members = {"en/ok.json": json_file({"a": "A"}), "de/bad.json": b"{not json"}
    assert_refused(kept, archive(members), "de/bad.json")


def test_more_than_100000_entries_are_refused(kept):
    document = {f"k{i}": "v" for i in range(100_001)}
    assert_refused(kept, json_file(document), "100,000", fileName="home", language="en", format="json")


def test_a_zip_over_100000_entries_is_refused_before_its_last_member_is_read(kept):
    members = {f"en/part{n}.json": json_file({f"k{i}": "v" for i in range(60_000)}) for n in range(2)}
    members["en/broken.json"] = b"{not json"  # never read: the count stops the import first
    assert_refused(kept, archive(members), "100,000")


def test_an_empty_upload_is_refused(kept):
    assert_refused(kept, b"", "empty", fileName="home", language="en", format="json")


def test_a_signed_in_browser_may_send_only_json_here(world, as_caller):
    response = as_caller("editor").post(
        f"/api/projects/{world.project_id}/import",
        data=b"title = Title",
        query_string={"fileName": "home", "language": "en", "format": "properties"},
        headers={"Content-Type": "text/plain"},
    )
    assert response.status_code == 415


def test_an_unknown_mode_is_refused(kept):
    assert_refused(
        kept, json_file({"a": "A"}), "mode", fileName="home", language="en", format="json", mode="merge"
    )


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE resources [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<resources><string name="kept">&lol3;</string></resources>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE resources [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<resources><string name="kept">&secret;</string></resources>
"""


@pytest.mark.parametrize(
    "document", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["billion-laughs", "external-entity"]
)
def test_xml_with_entities_is_refused(kept, document):
    assert_refused(kept, document, "android", fileName="home", language="en", format="android")
