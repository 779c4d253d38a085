"""Direct writes in a server of two processes (``loko serve --processes 2``): each process
keeps the key it checked while only such writes follow, the other process's included, and
drops it at the first other change (a key revoked through the other process)."""

import json

import pytest

from tests.selfhost.conftest import ServedConnection, migrate_to

PASSWORD = "correct horse battery"


@pytest.fixture
def two_workers(empty_database_url, serve):
    """A connection to each worker process, a project's write key and the owner's cookie."""
    migrate_to(empty_database_url)
    server = serve(empty_database_url, processes=2)
    first, second = (connections[0] for connections in server.connections_to_each_worker(1).values())
    status, headers, _ = first.request(
        "POST", "/api/auth/signup", {"email": "ada@example.test", "password": PASSWORD, "name": "Ada"}
    )
    assert status == 201
    (cookie,) = [
        c.split(";", 1)[0] for c in headers.get_all("Set-Cookie") if c.startswith("sb-access-token=")
    ]
    session = {"Cookie": cookie}
    _, _, body = first.request("GET", "/api/auth/me", headers=session)
    organization = json.loads(body)["organizations"][0]["id"]
    _, _, body = first.request(
        "POST", "/api/projects", {"name": "Web", "organization_id": organization}, session
    )
    project = json.loads(body)["project"]["id"]
    _, _, body = first.request("POST", f"/api/projects/{project}/keys", {"name": "ci"}, session)
    created = json.loads(body)
    bearer = {"Authorization": f"Bearer {created['key']}"}
    return first, second, project, bearer, session, created["apiKey"]["id"]


def patch(connection: ServedConnection, project: str, bearer: dict, n: int) -> int:
    update = {"key": f"k{n % 7}", "fileName": "common", "updates": {"en": {"value": f"v{n}"}}}
    return connection.request("PATCH", f"/api/projects/{project}/translations", update, bearer)[0]


def test_a_key_revoked_through_one_process_is_refused_at_once_by_the_other(two_workers):
    first, second, project, bearer, session, key_id = two_workers
    assert first.pid != second.pid
    # Both processes check the key, then keep it while each writes after the other.
    for n in range(40):
        assert patch(first if n % 2 else second, project, bearer, n) == 200
    status, _, _ = first.request("DELETE", f"/api/projects/{project}/keys/{key_id}", headers=session)
    assert status == 200
    assert patch(second, project, bearer, 40) == 401
    assert patch(first, project, bearer, 41) == 401


def test_writes_alternating_between_the_processes_all_land(two_workers):
    first, second, project, bearer, _session, _key_id = two_workers
    for n in range(60):
        assert patch(first if n % 2 else second, project, bearer, n) == 200
    status, _, body = first.request("GET", f"/api/projects/{project}/translations", headers=bearer)
    assert status == 200
    assert json.loads(body)["en"]["common"] == {f"k{n % 7}": f"v{n}" for n in range(53, 60)}
