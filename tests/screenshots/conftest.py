import io
from pathlib import Path

import pytest
from PIL import Image

from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def config_overrides(tmp_path):
    return {"LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots")}


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


@pytest.fixture
def keys(api) -> dict[str, str]:
    """Two keys of the project: ``{key: translation id}``."""
    return {key: api.create(key, {"en": text})["id"] for key, text in (("title", "Title"), ("save", "Save"))}


def picture(width=64, height=48, kind="PNG", color=(200, 30, 30), **save) -> bytes:
    """An image made here, in memory."""
    out = io.BytesIO()
    mode = "RGB" if kind == "JPEG" else "RGBA"
    Image.new(mode, (width, height), color).save(out, kind, **save)
    return out.getvalue()


def upload(client, api, *files, **kwargs):
    """POST the ``(name, bytes)`` files as a multipart upload."""
    data = {"files": [(io.BytesIO(content), name) for name, content in files]}
    return client.post(api.url("/screenshots"), data=data, content_type="multipart/form-data", **kwargs)


def stored_files(app) -> list[str]:
    """The names of the files in the screenshots' folder."""
    folder = Path(app.config["LOKO_SCREENSHOTS_DIR"])
    return sorted(path.name for path in folder.rglob("*") if path.is_file()) if folder.exists() else []
