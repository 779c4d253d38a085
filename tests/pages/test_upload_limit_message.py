"""The import page refuses an upload above LOKO_MAX_IMPORT_MB with a 413 page naming that
limit."""

import io

import pytest

from tests.pages.test_import_page import preview, text_of

MIB = 1024 * 1024
IMPORT_LIMIT = "larger than 1 MiB, the import limit (LOKO_MAX_IMPORT_MB)"


@pytest.fixture
def config_overrides():
    return {"LOKO_MAX_IMPORT_MB": 1}


def test_the_import_page_names_the_import_limit(page_as, world):
    upload = (io.BytesIO(b" " * (2 * MIB)), "home.json")
    response = preview(page_as("editor"), world, upload)
    assert response.status_code == 413
    assert IMPORT_LIMIT in text_of(response)
