"""An import's notes (comment, context and format details): they belong to the key, come from
the source language's file, and every change to them is in the diff before it is made."""

import orjson
import pytest

from tests.api.test_import import archive, imported
from tests.translation_factories import ProjectApi, project_api

PO_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def po(body: str) -> bytes:
    return (PO_HEADER + body).encode()


def exported_po(api: ProjectApi, language: str) -> str:
    response = api.export_response(format="po", language=language, fileName="app")
    assert response.status_code == 200, response.json
    return response.get_data(as_text=True)


def arb(document: dict) -> bytes:
    return orjson.dumps(document)


def test_a_flag_of_one_translation_does_not_reach_the_source_language_file(api):
    api.upsert("en", {"hello": "Hello", "bye": "Bye"}, file_name="app")
    upload = archive(
        {
            "de/app.po": po('#, fuzzy\nmsgid "hello"\nmsgstr "Hallo"\n'),
            "en/app.po": po('msgid "hello"\nmsgstr "Hello"\n'),
        }
    )
    imported(api, upload, format="po")
    assert "fuzzy" not in exported_po(api, "en")


def test_the_source_language_file_gives_the_key_its_notes_whatever_the_order(api):
    api.upsert("en", {"hello": "Hello", "bye": "Bye"}, file_name="app")
    upload = archive(
        {
            "de/app.arb": arb({"@@locale": "de", "hello": "Hallo {name}"}),
            "en/app.arb": arb(
                {
                    "@@locale": "en",
                    "hello": "Hello {name}",
                    "@hello": {"description": "A greeting", "placeholders": {"name": {"type": "String"}}},
                }
            ),
        }
    )
    imported(api, upload, format="arb")
    for language in ("en", "de"):
        response = api.export_response(format="arb", language=language, fileName="app")
        assert orjson.loads(response.data)["@hello"]["description"] == "A greeting"


def test_another_language_file_does_not_replace_the_notes_a_key_has(api):
    imported(
        api,
        po('#. Shown on the home page\nmsgid "hello"\nmsgstr "Hello"\n'),
        language="en",
        fileName="app.po",
    )
    answer = imported(
        api, po('#. Auf der Startseite\nmsgid "hello"\nmsgstr "Hallo"\n'), language="de", fileName="app.po"
    )
    assert answer["notes"] == []
    assert "#. Shown on the home page" in exported_po(api, "de")


def test_another_language_file_gives_notes_to_a_key_that_has_none(api):
    api.upsert("en", {"hello": "Hello", "bye": "Bye"}, file_name="app")
    answer = imported(
        api, po('#. Auf der Startseite\nmsgid "hello"\nmsgstr "Hallo"\n'), language="de", fileName="app.po"
    )
    assert answer["summary"]["notes"] == 1
    assert "#. Auf der Startseite" in exported_po(api, "en")


def test_a_changed_comment_alone_is_in_the_dry_run_diff(api):
    imported(api, po('#. Old note\nmsgid "hello"\nmsgstr "Hello"\n'), language="en", fileName="app.po")
    upload = po('#. New note\nmsgid "hello"\nmsgstr "Hello"\n')
    before = api.export_response().headers["ETag"]
    dry = imported(api, upload, language="en", fileName="app.po", dryRun=True)
    assert api.export_response().headers["ETag"] == before
    assert dry["summary"]["notes"] == 1
    [change] = dry["notes"]
    assert (change["fileName"], change["key"]) == ("app", "hello")
    assert change["old"]["details"] != change["new"]["details"]
    real = imported(api, upload, language="en", fileName="app.po")
    assert {name: real[name] for name in ("summary", "notes")} == {
        name: dry[name] for name in ("summary", "notes")
    }
    assert "#. New note" in exported_po(api, "en")


def test_a_file_without_notes_leaves_the_notes_as_they_are(api):
    imported(api, po('#. A note\nmsgid "hello"\nmsgstr "Hello"\n'), language="en", fileName="app.po")
    answer = imported(api, orjson.dumps({"hello": "Hello"}), language="en", fileName="app", format="json")
    assert answer["notes"] == []
    assert "#. A note" in exported_po(api, "en")
