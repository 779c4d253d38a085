"""An import given the digest of its dry run (``ImportOptions.expected``): written when it
still does what the preview showed, refused with ChangedSincePreview (a 409 Conflict) and
nothing written when the project changed in between."""

import orjson
import pytest

from loko.auth.actors import UserActor
from loko.auth.models import User
from loko.errors import Conflict
from loko.extensions import db
from loko.imports.service import ChangedSincePreview, ImportOptions, import_files
from tests.factories import user_id
from tests.translation_factories import ProjectApi

UPLOAD = orjson.dumps({"title": "Uploaded"})
OPTIONS = ImportOptions(format="json", language="en", file_name="home")


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    api = ProjectApi(as_caller("write_key"), world.project_id)
    api.upsert("en", {"title": "Old"}, file_name="home")
    return api


def import_as_editor(app, world, **options) -> dict:
    with app.app_context():
        user = db.session.get(User, user_id(world.users["editor"]))
        actor = UserActor(user.id, user.email, user.name)
        return import_files(actor, world.project_id, UPLOAD, ImportOptions(**{**vars(OPTIONS), **options}))


def test_an_import_that_still_matches_its_preview_is_written(app, world, api):
    digest = import_as_editor(app, world, dry_run=True)["digest"]
    import_as_editor(app, world, expected=digest)
    assert api.export()["en"]["home"] == {"title": "Uploaded"}


def test_an_import_whose_preview_is_stale_raises_changed_since_preview(app, world, api):
    digest = import_as_editor(app, world, dry_run=True)["digest"]
    api.upsert("en", {"title": "Edited meanwhile"}, file_name="home")
    with pytest.raises(ChangedSincePreview) as raised:
        import_as_editor(app, world, expected=digest)
    assert isinstance(raised.value, Conflict)
    assert raised.value.status == 409
    assert api.export()["en"]["home"] == {"title": "Edited meanwhile"}
