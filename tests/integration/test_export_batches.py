"""An export reads a few languages a query; however the languages fall into queries, the
bytes are the same."""

import pytest

from loko.exports import service as exports
from loko.exports.cache import ExportCache
from tests.translation_factories import ProjectApi, create_project, link_projects, project_api

QUERIES = pytest.mark.parametrize(
    "params",
    [{}, {"zip": "true"}, {"zip": "true", "format": "po"}, {"language": "de,en-GB", "fileName": "b"}],
    ids=["json", "json-zip", "po-zip", "filtered"],
)


@pytest.fixture
def api(app) -> ProjectApi:
    """Three languages over two files, gaps included, and en-GB inheriting a linked en."""
    api = project_api(app)
    source = ProjectApi(api.owner, create_project(api.owner, api.organization_id, "Main", languages=["en"]))
    source.upsert("en", {"shared": "Hello", "only.main": "Main only"}, file_name="b")
    for language in ("en", "de", "en-GB"):
        api.add_language(language)
    api.upsert("en", {"one": "One", "two": "Two"}, file_name="a")
    api.upsert("de", {"one": "Eins"}, file_name="a")
    api.upsert("en", {"shared": "Hi"}, file_name="b")
    api.upsert("de", {"shared": "Hallo"}, file_name="b")
    link_projects(api.owner, api.project_id, source.project_id, "en", "en-GB")
    return api


def _body(api, params):
    response = api.export_response(**params)
    assert response.status_code == 200
    return response.get_data()


@QUERIES
def test_export_is_the_same_whatever_the_languages_per_query(app, api, monkeypatch, params):
    app.extensions["loko_export_cache"] = ExportCache(0)
    together = _body(api, params)
    monkeypatch.setattr(exports, "ROWS_PER_QUERY", 1)
    assert _body(api, params) == together


def test_inherited_values_fill_the_gaps_of_the_target_language(api):
    document = api.export()
    assert document["en-GB"]["b"] == {"only.main": "Main only", "shared": "Hello"}


@QUERIES
def test_export_is_the_same_whichever_way_the_values_are_read(app, api, monkeypatch, params):
    """SQLite reads a whole project's values by language; every other read goes key by key."""
    app.extensions["loko_export_cache"] = ExportCache(0)
    by_language = _body(api, params)
    monkeypatch.setattr(exports, "_reads_by_language", lambda file_names: False)
    assert _body(api, params) == by_language
