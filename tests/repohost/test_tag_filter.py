"""A repository that holds one tag's keys: the configuration's tag filter (``tags``, all
of them; ``excludeTags``, none of them). A push exports only the keys the filter keeps; a
sync tags every key the files name and trashes only keys the filter keeps."""

import orjson
import pytest

from tests.repohost.conftest import REPOSITORY, configure, stand_in

WEB_FILES = {"locales/en/common.json": orjson.dumps({"title": "Title"})}


@pytest.fixture
def host():
    with stand_in("github") as running:
        yield running


def keys(api, tags: dict[str, tuple[str, ...]]) -> None:
    """Create ``key: tags`` in the file ``common``, each key's English value its name."""
    for key, names in tags.items():
        created = api.create(key, {"en": key.title()}, file_name="common")
        if names:
            answer = api.post("/tags/bulk", {"add": list(names), "ids": [created["id"]]})
            assert answer.status_code == 200, answer.json


@pytest.fixture
def web(api, host):
    """A project of web, iOS and untagged keys, its repository holding the ``web`` keys."""
    keys(api, {"title": ("web",), "checkout": ("web",), "ios.only": ("ios",), "plain": ()})
    response = configure(api, host, tags=["web"])
    assert response.status_code == 200, response.json
    return api


def test_the_configuration_answers_its_tag_filter(web, host):
    saved = web.owner.get(web.url("/repohost")).json["repohost"]
    assert (saved["tags"], saved["excludeTags"]) == (["web"], [])


def test_a_configuration_without_a_filter_keeps_every_key(api, host):
    saved = configure(api, host).json["repohost"]
    assert (saved["tags"], saved["excludeTags"]) == ([], [])


def test_a_push_exports_only_the_keys_with_every_tag_of_the_filter(web, host):
    assert web.post("/repohost/push", {}).status_code == 200
    files = host.git.read_branch(REPOSITORY, "loko/translations")
    assert orjson.loads(files["locales/en/common.json"]) == {"checkout": "Checkout", "title": "Title"}


def test_a_push_leaves_out_the_keys_with_an_excluded_tag(web, host):
    assert configure(web, host, tags=[], excludeTags=["ios"]).status_code == 200
    assert web.post("/repohost/push", {}).status_code == 200
    files = host.git.read_branch(REPOSITORY, "loko/translations")
    assert sorted(orjson.loads(files["locales/en/common.json"])) == ["checkout", "plain", "title"]


def test_a_sync_trashes_only_keys_the_filter_keeps(web, host):
    host.git.add_commit(REPOSITORY, "main", WEB_FILES)
    answer = web.post("/repohost/sync", {"removedKeys": "trash"})
    assert answer.status_code == 200, answer.json
    assert answer.json["changes"]["trashed"] == [{"fileName": "common", "key": "checkout"}]
    assert sorted(web.export()["en"]["common"]) == ["ios.only", "plain", "title"]


def test_a_sync_gives_the_filters_tags_to_every_key_its_files_name(web, host):
    changed = {"locales/en/common.json": orjson.dumps({"title": "T", "new": "N"})}
    host.git.add_commit(REPOSITORY, "main", changed)
    assert web.post("/repohost/sync", {}).status_code == 200
    assert sorted(web.export(tags="web")["en"]["common"]) == ["checkout", "new", "title"]


@pytest.mark.parametrize("field", ["tags", "excludeTags"])
def test_a_tag_that_is_not_valid_is_a_400_naming_the_field(api, host, field):
    response = configure(api, host, **{field: ["no spaces"]})
    assert response.status_code == 400
    assert response.json["error"].startswith(f"{field}")
