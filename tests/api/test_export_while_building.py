"""While one request builds a newer export of a project, the others of the process get the
body it replaces, always with that body's own ETag (stale while revalidate)."""

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


def exported(api: ProjectApi) -> tuple[str, bytes]:
    """The ETag and the body of an export, read to its end."""
    response = api.export_response()
    return response.headers["ETag"], response.get_data()


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


def test_while_a_newer_body_is_built_the_older_one_goes_out_with_its_own_etag(app, api):
    old = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    served = exported(api)
    building.finish()
    assert served == old
    assert building.etag != old[0]


def test_the_older_etag_is_answered_304_while_its_successor_is_built(app, api):
    old_etag, _ = exported(api)
    api.upsert("en", {"title": "New title"})
    building = Building(app, api)
    response = api.client.get(api.url("/translations"), headers={"If-None-Match": old_etag})
    building.finish()
    assert (response.status_code, response.headers["ETag"]) == (304, old_etag)


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
