"""Reverting a value from its history entry (loko.translations.revert): an ordinary write of
the old value, recorded in history with its actor, refused where nothing can be reverted."""

import pytest

from loko.auth.actors import UserActor
from loko.auth.models import User
from loko.errors import Conflict, Forbidden, NotFound
from loko.extensions import db
from loko.translations import revert
from loko.translations.revert import revert_history_entry
from tests.factories import user_id
from tests.translation_factories import ProjectApi


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


def actor(app, world, name) -> UserActor:
    with app.app_context():
        user = db.session.get(User, user_id(world.users[name]))
        return UserActor(user.id, user.email, user.name)


def revert_as(app, world, name, entry_id, project_id=None):
    with app.app_context():
        return revert_history_entry(actor(app, world, name), project_id or world.project_id, entry_id)


def updated_entry(api, key="title", old="Title", new="Heading", file_name="common") -> dict:
    """Create ``key`` with ``old`` in English, change it to ``new``; the 'updated' entry."""
    api.create(key, {"en": old}, file_name=file_name)
    api.set_values(key, {"en": new}, file_name=file_name)
    return api.history(action="updated", key=key)[0]


def test_revert_writes_the_old_value_back(app, world, api):
    entry = updated_entry(api)
    results = revert_as(app, world, "editor", entry["id"])
    assert results["en"]["updated"] is True
    assert api.export() == {"en": {"common": {"title": "Title"}}}


def test_revert_is_recorded_in_history_with_the_actor(app, world, api):
    entry = updated_entry(api)
    revert_as(app, world, "editor", entry["id"])
    latest = api.history()[0]
    assert (latest["action"], latest["old_value"], latest["new_value"]) == ("updated", "Heading", "Title")
    assert latest["actor"] == {"type": "user", "id": user_id(world.users["editor"]), "name": "editor"}


def test_revert_is_refused_for_a_viewer(app, world, api):
    entry = updated_entry(api)
    with pytest.raises(Forbidden):
        revert_as(app, world, "viewer", entry["id"])
    assert api.export() == {"en": {"common": {"title": "Heading"}}}


def test_revert_of_a_trashed_translation_conflicts(app, world, api):
    entry = updated_entry(api)
    api.trash(entry["translation_id"])
    with pytest.raises(Conflict, match="in the trash"):
        revert_as(app, world, "editor", entry["id"])
    assert api.trash_list()["translations"][0]["values"] == {"en": "Heading"}


def test_revert_of_a_purged_translation_conflicts(app, world, api):
    entry = updated_entry(api)
    api.purge(entry["translation_id"])
    with pytest.raises(Conflict, match="deleted permanently"):
        revert_as(app, world, "editor", entry["id"])
    assert api.keys() == []


def test_revert_of_a_creation_conflicts_as_there_is_no_earlier_value(app, world, api):
    api.create("title", {"en": "Title"})
    created = api.history(action="created")[0]
    with pytest.raises(Conflict, match="no earlier value"):
        revert_as(app, world, "editor", created["id"])
    assert api.export() == {"en": {"common": {"title": "Title"}}}


def test_revert_of_another_projects_entry_is_not_found(app, world, api):
    entry = updated_entry(api)
    with pytest.raises(NotFound):
        revert_as(app, world, "outsider", entry["id"], project_id=world.other_project_id)
    assert api.export() == {"en": {"common": {"title": "Heading"}}}


@pytest.mark.parametrize("entry_id", [0, 987654, 2**40])
def test_revert_of_an_unknown_entry_is_not_found(app, world, entry_id):
    with pytest.raises(NotFound):
        revert_as(app, world, "editor", entry_id)


def test_revert_follows_a_renamed_file(app, world, api):
    entry = updated_entry(api, file_name="home")
    assert api.patch("/files", {"fileName": "home", "newFileName": "pages/home"}).status_code == 200
    revert_as(app, world, "editor", entry["id"])
    assert api.export() == {"en": {"pages/home": {"title": "Title"}}}


def test_revert_brings_back_a_value_removed_with_a_language_of_its_file(app, world, api):
    api.create("title", {"en": "Title", "de": "Titel"})
    assert api.delete("/files", {"fileName": "common", "languageCode": "de"}).status_code == 200
    removed = api.history(action="deleted", language="de")[0]
    revert_as(app, world, "editor", removed["id"])
    assert api.export(language="de") == {"de": {"common": {"title": "Titel"}}}


def test_revert_does_not_overwrite_a_change_made_meanwhile(app, world, api, monkeypatch):
    entry = updated_entry(api)
    write = revert.patch_translation

    def after_a_concurrent_change(*args, **kwargs):
        api.set_values("title", {"en": "Concurrent"})
        return write(*args, **kwargs)

    monkeypatch.setattr(revert, "patch_translation", after_a_concurrent_change)
    with pytest.raises(Conflict, match="changed meanwhile"):
        revert_as(app, world, "editor", entry["id"])
    assert api.export() == {"en": {"common": {"title": "Concurrent"}}}
