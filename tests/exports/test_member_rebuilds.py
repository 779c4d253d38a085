"""ZIP exports rebuilt member by member: after a write, only the members (one file in one
language) whose data changed are written and compressed again, and the archive laid out from
the kept ones is byte for byte the one a build from scratch makes, in every format. A write
to one language of a file leaves the other languages' exports of that file as they were
(ETag, body, kept members); no write ever leaves a kept member or body served under a strong
ETag it does not match."""

import pytest
from werkzeug.test import EnvironBuilder

from loko.exports import service, writers
from loko.exports.cache import ExportCache
from loko.exports.revalidation import ExportRevalidation
from loko.extensions import db
from loko.formats.registry import FORMAT_NAMES
from tests.api.test_export_file_versions import FILE, OTHER, WRITES_TO_FILE, WRITES_TO_OTHER
from tests.translation_factories import ProjectApi, project_api

CACHE = "loko_export_cache"
KEPT_LANGUAGE = "de"


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.upsert("en", {"title": "Title", "body": "Body", "cta": "Go"}, file_name=FILE)
    api.upsert("de", {"title": "Titel", "body": "Inhalt"}, file_name=FILE)
    api.upsert("es", {"title": "Título"}, file_name=FILE)
    api.upsert("en", {"menu": "Menu"}, file_name=OTHER)
    api.upsert("de", {"menu": "Menü"}, file_name=OTHER)
    response = api.patch("/translations/details", {"key": "body", "fileName": FILE, "comment": "Main text"})
    assert response.status_code == 200, response.json
    response = api.owner.put(f"/api/projects/{api.project_id}", json={"source_language": "en"})
    assert response.status_code == 200, response.json
    reviewed = {
        "fileName": FILE,
        "keys": ["title", "body"],
        "languages": [KEPT_LANGUAGE],
        "state": "reviewed",
    }
    response = api.owner.post(api.url("/translations/review"), json=reviewed)
    assert response.status_code == 200, response.json
    return api


@pytest.fixture
def cold(app):
    """``cold(request)``: what ``request()`` answers with an empty cache (no body, no member
    kept), as a process that just started answers it; the app's own cache is left as it was."""
    warm = app.extensions[CACHE]

    def run(request):
        app.extensions[CACHE] = ExportCache(warm.max_bytes, member_bytes=warm.members.max_bytes)
        try:
            return request()
        finally:
            app.extensions[CACHE] = warm

    return run


@pytest.fixture
def deflations(monkeypatch) -> list[int]:
    """The sizes of the members compressed since the test began, in order."""
    sizes = []
    deflate = writers.deflated

    def counted(data: bytes):
        sizes.append(len(data))
        return deflate(data)

    monkeypatch.setattr(writers, "deflated", counted)
    return sizes


def export(api: ProjectApi, **query):
    response = api.export_response(**query)
    assert response.status_code == 200, response.json
    return response


def zipped(api: ProjectApi, format: str, **query) -> bytes:
    response = export(api, format=format, zip="true", **query)
    assert response.mimetype == "application/zip"
    return response.data


# -- a ZIP of kept members is the ZIP built from scratch -----------------------------------


@pytest.mark.parametrize("format", FORMAT_NAMES)
def test_a_zip_rebuilt_from_kept_members_is_byte_identical_to_one_built_from_scratch(api, cold, format):
    queries = ({}, {"fileName": FILE}, {"language": KEPT_LANGUAGE})
    for query in queries:
        assert zipped(api, format, **query) == cold(lambda q=query: zipped(api, format, **q))
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    api.upsert("de", {"menu": "Hauptmenü"}, file_name=OTHER)
    for query in queries:
        rebuilt = zipped(api, format, **query)
        assert rebuilt == cold(lambda q=query: zipped(api, format, **q))


@pytest.mark.parametrize("format", ["json", "po", "arb", "android"])
def test_after_one_value_of_one_language_only_that_member_is_compressed_again(api, deflations, format):
    before = {query: zipped(api, format, **dict(query)) for query in ((), (("fileName", FILE),))}
    deflations.clear()
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    for query, body in before.items():
        assert zipped(api, format, **dict(query)) != body
    # One member (en of FILE), compressed once, laid out again in the project's ZIP.
    assert len(deflations) == 1


def test_a_bilingual_format_rebuilds_every_language_of_a_file_whose_source_language_changed(api, deflations):
    zipped(api, "xliff", fileName=FILE)
    deflations.clear()
    api.set_values("title", {"de": "Neuer Titel"}, file_name=FILE)
    zipped(api, "xliff", fileName=FILE)
    assert len(deflations) == 1  # de alone
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    zipped(api, "xliff", fileName=FILE)
    assert len(deflations) == 1 + 3  # the source language's values are in every language's file


def test_members_are_kept_within_their_bound(app, api):
    members = app.extensions[CACHE].members
    for format in FORMAT_NAMES:
        zipped(api, format)
    assert 0 < members.size <= members.max_bytes
    assert app.config["LOKO_EXPORT_MEMBERS_MB"] * 1024 * 1024 == members.max_bytes


# -- a write to one language leaves the others' exports as they were ---------------------


def test_a_write_to_one_language_keeps_another_language_s_export_its_etag_and_304(api, cold):
    query = {"fileName": FILE, "language": KEPT_LANGUAGE}
    before = export(api, **query)
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    api.upsert("es", {"body": "Texto"}, file_name=FILE)
    after = export(api, **query)
    assert (after.headers["ETag"], after.data) == (before.headers["ETag"], before.data)
    revalidation = api.client.get(
        api.url("/translations"), query_string=query, headers={"If-None-Match": before.headers["ETag"]}
    )
    assert revalidation.status_code == 304
    assert cold(lambda: export(api, **query)).headers["ETag"] == before.headers["ETag"]


def _early_answer(app, api: ProjectApi, query: dict, etag: str) -> str | None:
    """The ETag the revalidation before Flask answers 304 with, or None (to Flask)."""
    environ = EnvironBuilder(
        path=api.url("/translations"),
        query_string=query,
        headers={"If-None-Match": etag, "Authorization": f"Bearer {api.credentials['bearer']}"},
    ).get_environ()
    with app.app_context():
        return ExportRevalidation(None, db.engine).unchanged_etag(environ)


@pytest.mark.parametrize("files", [[FILE], [FILE, OTHER]], ids=["one file", "two files"])
def test_before_flask_a_write_to_another_language_is_a_304_and_one_to_the_language_is_not(app, api, files):
    query = {"fileName": files, "language": [KEPT_LANGUAGE, "es"]}
    etag = export(api, **query).headers["ETag"]
    assert _early_answer(app, api, query, etag) == etag.strip('"')
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    assert _early_answer(app, api, query, etag) == etag.strip('"')
    api.set_values("menu", {"es": "Menú"}, file_name=files[-1])
    assert _early_answer(app, api, query, etag) is None
    assert export(api, **query).headers["ETag"] != etag


def test_before_flask_an_export_of_many_files_in_many_languages_goes_to_flask(app, api):
    query = {
        "fileName": [f"file{n}" for n in range(4)],
        "language": ["de", "es", "fr", "it", "ja", "ko", "pt", "ru"],
    }
    etag = export(api, **query).headers["ETag"]
    assert _early_answer(app, api, query, etag) is None
    response = api.client.get(api.url("/translations"), query_string=query, headers={"If-None-Match": etag})
    assert response.status_code == 304


def test_a_write_to_one_language_is_served_as_kept_to_another_language_s_export(api, monkeypatch):
    query = {"fileName": FILE, "language": KEPT_LANGUAGE}
    body = export(api, **query).data
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    monkeypatch.setattr(service, "_json_document", lambda *args: pytest.fail("built again"))
    assert export(api, **query).data == body


def test_a_write_to_the_language_changes_its_export(api):
    query = {"fileName": FILE, "language": KEPT_LANGUAGE}
    before = export(api, **query)
    api.set_values("title", {KEPT_LANGUAGE: "Neuer Titel"}, file_name=FILE)
    after = export(api, **query)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.json[KEPT_LANGUAGE][FILE]["title"] == "Neuer Titel"


def test_a_write_to_the_source_language_changes_another_language_s_reviewed_values(api):
    query = {"fileName": FILE, "language": KEPT_LANGUAGE, "state": "reviewed"}
    before = export(api, **query)
    assert before.json[KEPT_LANGUAGE][FILE] == {"title": "Titel", "body": "Inhalt"}
    api.set_values("title", {"en": "New title"}, file_name=FILE)  # Titel waits for a review again
    after = export(api, **query)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.json[KEPT_LANGUAGE][FILE] == {"body": "Inhalt"}


def test_a_new_key_in_one_language_changes_every_language_s_po_catalog(api):
    query = {"fileName": FILE, "language": KEPT_LANGUAGE, "format": "po"}
    before = export(api, **query)
    api.set_values("footer", {"en": "Footer"}, file_name=FILE)
    after = export(api, **query)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert b'msgid "footer"' in after.data


# -- no write leaves a stale body or member under a strong ETag --------------------------

FORMATS = ("json", "po", "xliff", "csv", "android")
QUERIES = (
    {"zip": "true"},
    {"zip": "true", "fileName": FILE},
    {"zip": "true", "fileName": FILE, "language": KEPT_LANGUAGE},
    {"fileName": FILE, "language": KEPT_LANGUAGE},
    # A write to the source language's values sends the others' to review.
    {"zip": "true", "fileName": FILE, "state": "reviewed"},
    {"fileName": FILE, "language": KEPT_LANGUAGE, "state": "reviewed"},
)
WRITES = {
    **{f"to the file: {name}": write for name, write in WRITES_TO_FILE.items()},
    **{
        f"to another file: {name}": (None, lambda api, _, w=write: w(api))
        for name, write in WRITES_TO_OTHER.items()
    },
    "a value in another language": (
        None,
        lambda api, _: api.set_values("body", {"es": "Texto"}, file_name=FILE),
    ),
    "values in two languages": (
        None,
        lambda api, _: api.set_values("cta", {"en": "Start", KEPT_LANGUAGE: "Los"}, file_name=FILE),
    ),
    "a value in the language": (
        None,
        lambda api, _: api.set_values("cta", {KEPT_LANGUAGE: "Los"}, file_name=FILE),
    ),
    "a new key in another language": (
        None,
        lambda api, _: api.set_values("footer", {"es": "Pie"}, file_name=FILE),
    ),
    "a bulk upsert of new keys in another language": (
        None,
        lambda api, _: api.upsert("es", {"new": "Nuevo"}, file_name=FILE),
    ),
}


def _single(format: str, query: dict) -> bool:
    """Whether ``query`` asks ``format`` for one file without a ZIP (the JSON document
    takes any query)."""
    return format != "json" and "zip" not in query


def _exports(api: ProjectApi) -> dict:
    answers = {}
    for format in FORMATS:
        for number, query in enumerate(QUERIES):
            if _single(format, query) and format == "csv":
                query = {"fileName": FILE}
            response = export(api, format=format, **query)
            answers[(format, number)] = (response.headers["ETag"], response.data)
    return answers


@pytest.mark.parametrize("prepare, write", WRITES.values(), ids=WRITES.keys())
def test_no_write_leaves_a_stale_export_under_a_strong_etag(api, cold, prepare, write):
    prepared = prepare(api) if prepare else None
    before = _exports(api)
    write(api, prepared)
    after = _exports(api)
    assert after == cold(lambda: _exports(api))
    for name, (etag, body) in after.items():
        if etag == before[name][0]:
            assert body == before[name][1], name
