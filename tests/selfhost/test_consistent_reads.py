"""Consistent exports under load, against a real ``loko serve`` (SQLite and PostgreSQL): one
ETag never names two bodies, a client's export after its own acknowledged write shows that
write, and a reader that accepts an older body (``Cache-Control: max-stale``) gets that
body's own ETag."""

import json
import threading
import time
from collections import defaultdict

import pytest

from tests.selfhost.conftest import ServedConnection, migrate_to

PASSWORD = "correct horse battery"
READERS, WRITERS = 6, 3
SECONDS = 3.0  # how long the load runs; no assertion depends on it


@pytest.fixture
def served(empty_database_url, serve):
    """A running server, a project with a few values and a write key of it."""
    migrate_to(empty_database_url)
    server = serve(empty_database_url, processes=2)
    connection = ServedConnection(server)
    status, headers, _ = connection.request(
        "POST", "/api/auth/signup", {"email": "ada@example.test", "password": PASSWORD, "name": "Ada"}
    )
    assert status == 201
    (cookie,) = [
        c.split(";", 1)[0] for c in headers.get_all("Set-Cookie") if c.startswith("sb-access-token=")
    ]
    _, _, body = connection.request("GET", "/api/auth/me", headers={"Cookie": cookie})
    organization = json.loads(body)["organizations"][0]["id"]
    _, _, body = connection.request(
        "POST", "/api/projects", {"name": "Web", "organization_id": organization}, {"Cookie": cookie}
    )
    project = json.loads(body)["project"]["id"]
    _, _, body = connection.request(
        "POST", f"/api/projects/{project}/keys", {"name": "ci"}, {"Cookie": cookie}
    )
    bearer = {"Authorization": f"Bearer {json.loads(body)['key']}"}
    path = f"/api/projects/{project}/translations"
    for i in range(50):
        update = {"key": f"k{i:03d}", "fileName": "common", "updates": {"en": {"value": f"v{i}"}}}
        assert connection.request("PATCH", path, update, bearer)[0] == 200
    connection.close()
    return server, path, bearer


def patch(connection, path, bearer, key, value):
    update = {"key": key, "fileName": "common", "updates": {"en": {"value": value}}}
    status, _, body = connection.request("PATCH", path, update, bearer)
    assert status == 200, body


def run_load(served, reader_headers):
    """READERS readers and WRITERS writers for SECONDS; each writer reads the export after
    each of its writes. Returns ``({etag: {bodies}}, [misses], [errors])``, a miss being an
    export by a writer that lacks the value that writer had just written."""
    server, path, bearer = served
    bodies, misses, errors = defaultdict(set), [], []
    lock = threading.Lock()
    deadline = time.monotonic() + SECONDS
    start = threading.Barrier(READERS + WRITERS)

    def seen(status, headers, body):
        assert status == 200, (status, body)
        with lock:
            bodies[headers["ETag"]].add(body)
        return json.loads(body)

    def reader(index):
        connection = ServedConnection(server)
        headers = {**bearer, **reader_headers(index)}
        start.wait(timeout=30)
        while time.monotonic() < deadline:
            seen(*connection.request("GET", path, headers=headers))
        connection.close()

    def writer(index):
        connection = ServedConnection(server)
        start.wait(timeout=30)
        n = 0
        while time.monotonic() < deadline:
            value = f"w{index}-{n}"
            patch(connection, path, bearer, f"writer{index}", value)
            document = seen(*connection.request("GET", path, headers=bearer))
            if document["en"]["common"].get(f"writer{index}") != value:
                with lock:
                    misses.append((value, document["en"]["common"].get(f"writer{index}")))
            n += 1
        connection.close()

    def guarded(function, index):
        try:
            function(index)
        except BaseException as error:  # reported by the test
            with lock:
                errors.append(repr(error))

    threads = [threading.Thread(target=guarded, args=(reader, i)) for i in range(READERS)]
    threads += [threading.Thread(target=guarded, args=(writer, i)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 120)
    return bodies, misses, errors


@pytest.mark.slow
def test_under_writes_an_etag_names_one_body_and_a_writer_reads_its_write(served):
    bodies, misses, errors = run_load(served, lambda index: {})
    assert errors == []
    assert len(bodies) > 1  # the writes were seen
    assert {etag: len(found) for etag, found in bodies.items() if len(found) > 1} == {}
    assert misses == []


@pytest.mark.slow
def test_readers_accepting_an_older_body_get_that_body_s_etag(served):
    def reader_headers(index):
        return {"Cache-Control": "max-stale" if index % 2 else "max-stale=5"}

    bodies, misses, errors = run_load(served, reader_headers)
    assert errors == []
    assert {etag: len(found) for etag, found in bodies.items() if len(found) > 1} == {}
    assert misses == []


def export_of(connection, path, bearer, file_name, etag=None):
    headers = {**bearer, **({"If-None-Match": etag} if etag else {})}
    return connection.request("GET", f"{path}?fileName={file_name}", headers=headers)


def test_across_processes_a_write_to_another_file_keeps_a_file_s_etag_and_one_to_it_changes_it(served):
    server, path, bearer = served
    first, second = (connections[0] for connections in server.connections_to_each_worker(1).values())

    def write_other(value):
        other = {"key": "menu", "fileName": "other", "updates": {"en": {"value": value}}}
        assert first.request("PATCH", path, other, bearer)[0] == 200

    write_other("Menu")
    status, headers, _ = export_of(second, path, bearer, "common")
    assert status == 200
    etag = headers["ETag"]
    assert export_of(first, path, bearer, "common")[1]["ETag"] == etag  # each process keeps it

    write_other("Main menu")
    assert export_of(second, path, bearer, "common", etag)[0] == 304
    assert export_of(first, path, bearer, "common")[1]["ETag"] == etag

    patch(first, path, bearer, "k000", "changed")
    status, headers, body = export_of(second, path, bearer, "common", etag)
    assert status == 200
    assert headers["ETag"] != etag
    assert json.loads(body)["en"]["common"]["k000"] == "changed"


def test_across_processes_a_304_never_answers_for_a_write_the_other_process_acknowledged(served):
    server, path, bearer = served
    first, second = (connections[0] for connections in server.connections_to_each_worker(1).values())
    status, headers, _ = export_of(second, path, bearer, "common")
    assert status == 200
    stale = []
    for n in range(40):
        etag = headers["ETag"]
        assert export_of(second, path, bearer, "common", etag)[0] == 304  # kept by the reader
        patch(first, path, bearer, "k001", f"v{n}")
        status, headers, body = export_of(second, path, bearer, "common", etag)
        if status != 200 or json.loads(body)["en"]["common"]["k001"] != f"v{n}":
            stale.append(n)
    assert stale == []
