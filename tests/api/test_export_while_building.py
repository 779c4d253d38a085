"""While one request builds a newer export of a project, the others of the process that say
they accept an older body (``Cache-Control: max-stale``, ``stale=ok``) get the body it
replaces, always with that body's own ETag (stale while revalidate); the others wait for
the newer body and get the same bytes."""

import threading

import orjson
import pytest

from tests.factories import CallerClient
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.upsert("en", {"title": "Old title"})
    return api


def exported(api: ProjectApi, headers=None, **params) -> tuple[str, bytes]:
    """The ETag and the body of an export, read to its end."""
    response = api.client.get(api.url("/translations"), headers=headers or {}, query_string=params)
    return response.headers["ETag"], response.get_data()


class Waiting:
    """An export request (no older body accepted) in a thread of its own."""

    def __init__(self, app, api: ProjectApi, headers=None):
        self.result = None
        client = ProjectApi(CallerClient(app, api.credentials), api.project_id)
        self.thread = threading.Thread(target=self._run, args=(client, headers))
        self.thread.start()

    def _run(self, client, headers):
        self.result = exported(client, headers)

    def join(self) -> tuple[str, bytes]:
        self.thread.join(timeout=60)
        return self.result


class Building:
    """An export request, in a thread of its own, whose body has begun to stream and waits
    for ``finish`` (a suspended response keeps its request context open in its thread)."""

    def __init__(self, app, api: ProjectApi):
        self.started, self.resume = threading.Event(), threading.Event()
        self.etag = self.body = None
        self.thread = threading.Thread(target=self._run, args=(CallerClient(app, api.credentials), api))
        self.thread.start()
        assert self.started.wait(timeout=30)

    def _run(self, client, api):
        response = client.get(api.url("/translations"), buffered=False)
        self.etag = response.headers["ETag"]
        chunks = response.iter_encoded()
        first = next(chunks)
        self.started.set()
        self.resume.wait(timeout=30)
        self.body = first + b"".join(chunks)
        response.close()

    def finish(self) -> bytes:
        self.resume.set()
        self.thread.join(timeout=30)
        return self.body


@pytest.mark.parametrize(
    ("headers", "params"),
    [({"Cache-Control": "max-stale"}, {}), ({"Cache-Control": "max-stale=60"}, {}), ({}, {"stale": "ok"})],
    ids=["max-stale", "max-stale=60", "stale=ok"],
)
def test_a_request_accepting_an_older_body_gets_it_with_its_own_etag(app, api, headers, params):
    old = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    served = exported(api, headers, **params)
    building.finish()
    assert served == old
    assert building.etag != old[0]


def test_a_request_not_accepting_an_older_body_waits_for_the_newer_one(app, api):
    old = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    waiting = Waiting(app, api)
    body = building.finish()
    assert waiting.join() == (building.etag, body)
    assert building.etag != old[0]
    assert orjson.loads(body) == {"en": {"common": {"title": "New title"}}}


def test_an_older_body_is_not_given_beyond_the_seconds_of_max_stale(app, api):
    old = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    waiting = Waiting(app, api, {"Cache-Control": "max-stale=0"})
    body = building.finish()
    assert waiting.join() == (building.etag, body) != old


def test_the_older_etag_is_answered_304_while_its_successor_is_built(app, api):
    old_etag, _ = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    response = api.client.get(
        api.url("/translations"), headers={"If-None-Match": old_etag, "Cache-Control": "max-stale"}
    )
    building.finish()
    assert (response.status_code, response.headers["ETag"]) == (304, old_etag)


def test_without_max_stale_the_older_etag_is_not_answered_304(app, api):
    old_etag, _ = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    waiting = Waiting(app, api, {"If-None-Match": old_etag})
    body = building.finish()
    assert waiting.join() == (building.etag, body)


def test_once_the_newer_body_is_built_it_is_the_one_served(app, api):
    exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    body = building.finish()
    assert exported(api) == (building.etag, body)
    assert orjson.loads(body) == {"en": {"common": {"title": "New title"}}}


def test_a_read_after_a_write_gets_the_new_body_when_nothing_is_being_built(api):
    old_etag, _ = exported(api)
    api.upsert("en", {"title": "New title"})
    etag, body = exported(api)
    assert etag != old_etag
    assert orjson.loads(body) == {"en": {"common": {"title": "New title"}}}
