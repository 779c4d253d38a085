"""A PO catalog's PO-Revision-Date is the last change of that file in that language, so that
a change to one file or language leaves every other catalog byte-identical (``loko pull``
then leaves ``git diff`` empty)."""

from datetime import UTC, datetime, timedelta

import polib
import pytest
from sqlalchemy import update

from loko.database import unit_of_work, utcnow
from loko.exports import service as exports
from loko.exports.cache import ExportCache
from loko.extensions import db
from loko.projects.models import Project
from loko.translations.models import Translation, TranslationValue
from tests.translation_factories import ProjectApi, create_project, link_projects, project_api

LONG_AGO = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
LONG_AGO_DATE = "2024-01-02 03:04+0000"


@pytest.fixture
def api(app) -> ProjectApi:
    """Two files in en and de, every change dated LONG_AGO; exports are never kept."""
    app.extensions["loko_export_cache"] = ExportCache(0)
    api = project_api(app)
    for file_name in ("one", "two"):
        api.upsert("en", {"greeting": "Hello", "farewell": "Bye"}, file_name=file_name)
        api.upsert("de", {"greeting": "Hallo", "farewell": "Tschüss"}, file_name=file_name)
    date_everything(app, api.project_id, LONG_AGO)
    return api


def date_everything(app, project_id: str, moment: datetime) -> None:
    """Every value and key, and the project itself, as if created and last changed at
    ``moment``."""
    with app.app_context(), unit_of_work():
        db.session.execute(
            update(TranslationValue)
            .where(TranslationValue.project_id == project_id)
            .values(updated_at=moment)
        )
        db.session.execute(
            update(Translation)
            .where(Translation.project_id == project_id)
            .values(created_at=moment, updated_at=moment)
        )
        db.session.execute(
            update(Project).where(Project.id == project_id).values(created_at=moment, data_updated_at=moment)
        )


def date_values(app, project_id: str, language: str, moment: datetime) -> None:
    with app.app_context(), unit_of_work():
        db.session.execute(
            update(TranslationValue)
            .where(TranslationValue.project_id == project_id, TranslationValue.language_code == language)
            .values(updated_at=moment)
        )


def catalogs(api: ProjectApi) -> dict[str, bytes]:
    return api.export_zip(format="po")


def revision(data: bytes) -> str:
    return polib.pofile(data.decode()).metadata["PO-Revision-Date"]


def now_date() -> str:
    return utcnow().strftime("%Y-%m-%d %H:%M+0000")


def test_every_catalog_is_dated_by_its_own_last_change(api):
    assert {name: revision(data) for name, data in catalogs(api).items()} == {
        "de/one.po": LONG_AGO_DATE,
        "de/two.po": LONG_AGO_DATE,
        "en/one.po": LONG_AGO_DATE,
        "en/two.po": LONG_AGO_DATE,
    }


def test_editing_a_value_in_one_file_leaves_the_other_files_catalogs_identical(api):
    before = catalogs(api)
    earliest = now_date()
    api.set_values("greeting", {"en": "Hi"}, file_name="one")
    after = catalogs(api)
    assert after["en/two.po"] == before["en/two.po"]
    assert after["de/two.po"] == before["de/two.po"]
    assert revision(before["en/one.po"]) == LONG_AGO_DATE
    assert earliest <= revision(after["en/one.po"]) <= now_date()


def test_editing_a_value_in_one_language_leaves_the_other_languages_catalog_identical(api):
    before = catalogs(api)
    api.upsert("en", {"greeting": "Hi"}, file_name="one")
    after = catalogs(api)
    assert after["de/one.po"] == before["de/one.po"]
    assert revision(after["en/one.po"]) != LONG_AGO_DATE


def test_a_catalog_is_dated_by_the_latest_value_it_holds_in_its_language(app, api):
    date_values(app, api.project_id, "de", LONG_AGO + timedelta(days=3))
    exported = catalogs(api)
    assert revision(exported["en/one.po"]) == LONG_AGO_DATE
    assert revision(exported["de/one.po"]) == "2024-01-05 03:04+0000"


def test_the_single_file_export_carries_the_same_date(app, api):
    date_values(app, api.project_id, "de", LONG_AGO + timedelta(hours=1))
    response = api.export_response(format="po", language="de", fileName="two")
    assert response.status_code == 200
    assert response.data == catalogs(api)["de/two.po"]
    assert revision(response.data) == "2024-01-02 04:04+0000"


def test_a_new_untranslated_key_moves_the_date_of_every_language_of_its_file(api):
    before = catalogs(api)
    api.upsert("en", {"new": "New"}, file_name="one")
    after = catalogs(api)
    assert 'msgid "new"' in after["de/one.po"].decode()
    assert revision(after["de/one.po"]) != LONG_AGO_DATE
    assert after["de/two.po"] == before["de/two.po"]


def test_a_file_without_values_or_keys_keeps_the_projects_creation(app, api):
    api.create_files("empty", "en")
    date_everything(app, api.project_id, LONG_AGO - timedelta(days=1))
    assert revision(catalogs(api)["en/empty.po"]) == "2024-01-01 03:04+0000"


def test_a_file_with_keys_but_no_values_in_a_language_is_dated_by_its_keys(app, api):
    api.add_language("fr")
    api.create_files("one", "fr")
    assert revision(catalogs(api)["fr/one.po"]) == LONG_AGO_DATE


def test_the_dates_do_not_depend_on_how_the_languages_fall_into_queries(api, monkeypatch):
    api.upsert("en", {"greeting": "Hi"}, file_name="one")
    together = catalogs(api)
    monkeypatch.setattr(exports, "ROWS_PER_QUERY", 1)
    assert catalogs(api) == together


def test_the_catalogs_are_the_same_whichever_way_the_values_are_read(app, api, monkeypatch):
    """SQLite reads a whole project's values by language; every other read goes key by key."""
    date_values(app, api.project_id, "de", LONG_AGO + timedelta(days=3))
    by_language = catalogs(api)
    monkeypatch.setattr(exports, "_reads_by_language", lambda file_names: False)
    assert catalogs(api) == by_language


@pytest.fixture
def linked(app, api):
    """``api``'s en-GB inherits en from a linked project holding file ``one``."""
    source = ProjectApi(api.owner, create_project(api.owner, api.organization_id, "Main", languages=["en"]))
    source.upsert("en", {"greeting": "Hello", "only.main": "Main only"}, file_name="one")
    api.add_language("en-GB")
    api.upsert("en-GB", {"greeting": "Hello there"}, file_name="one")
    link_projects(api.owner, api.project_id, source.project_id, "en", "en-GB")
    date_everything(app, api.project_id, LONG_AGO)
    date_everything(app, source.project_id, LONG_AGO)
    return source


def test_an_inheriting_language_is_dated_by_the_values_it_inherits(api, linked):
    before = catalogs(api)
    assert revision(before["en-GB/one.po"]) == LONG_AGO_DATE
    linked.upsert("en", {"only.main": "Only in main"}, file_name="one")
    after = catalogs(api)
    assert 'msgstr "Only in main"' in after["en-GB/one.po"].decode()
    assert revision(after["en-GB/one.po"]) != LONG_AGO_DATE


def test_a_change_to_an_inherited_value_the_language_overrides_leaves_its_catalog_identical(api, linked):
    before = catalogs(api)
    linked.upsert("en", {"greeting": "Hello, world"}, file_name="one")
    assert catalogs(api)["en-GB/one.po"] == before["en-GB/one.po"]


@pytest.mark.parametrize(
    "text",
    ["2024-01-02 03:04:05.000006", "2024-01-02 03:04:05.5+00", "2024-01-02 08:34:05+05:30"],
    ids=["naive-utc", "utc-offset", "other-offset"],
)
def test_a_timestamp_written_as_text_reads_as_a_utc_moment(text):
    assert exports.utc_moment(text).utcoffset() == timedelta(0)
    assert exports.revision_date(exports.utc_moment(text)) == LONG_AGO_DATE
