"""An Android strings.xml holding resource references and escaped ``\\@`` literals, through
the real import and export: the source file and its translation come back byte-identical
(keys in the order the export writes them, sorted)."""

import pytest

from tests.translation_factories import ProjectApi, project_api

SOURCE = b"""<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_title" translatable="false">@string/app_name</string>
    <string name="handle">\\@home</string>
    <string-array name="labels">
        <item>@string/first</item>
        <item>\\@second</item>
    </string-array>
    <string name="ok">@android:string/ok</string>
    <string name="text_color">?android:attr/x</string>
</resources>
"""
TRANSLATION = b"""<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="handle">\\@zuhause</string>
    <string-array name="labels">
        <item>@string/first</item>
        <item>\\@zweite</item>
    </string-array>
    <string name="ok">@android:string/ok</string>
    <string name="text_color">Farbe</string>
</resources>
"""


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def _import(api: ProjectApi, data: bytes, language: str) -> None:
    response = api.client.post(
        api.url("/import"),
        data=data,
        query_string={"format": "android", "language": language, "fileName": "strings"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json


def _export(api: ProjectApi, language: str) -> bytes:
    response = api.export_response(format="android", language=language, fileName="strings")
    assert response.status_code == 200, response.json
    return response.data


def test_references_and_escaped_literals_come_back_as_they_went_in(api):
    _import(api, SOURCE, "en")
    assert _export(api, "en") == SOURCE


def test_a_translation_comes_back_as_it_went_in_beside_the_source(api):
    _import(api, SOURCE, "en")
    _import(api, TRANSLATION, "de")
    assert _export(api, "de") == TRANSLATION
    assert _export(api, "en") == SOURCE


def test_the_zip_export_keeps_references_unescaped(api):
    _import(api, SOURCE, "en")
    assert api.export_zip(format="android")["en/strings.xml"] == SOURCE


TITLE = b"""<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="title">%s</string>
</resources>
"""


def test_a_reference_only_the_translation_has_comes_back_a_reference(api):
    _import(api, TITLE % b"Shop", "en")
    _import(api, TITLE % b"@string/shop_de", "de")
    assert _export(api, "de") == TITLE % b"@string/shop_de"
