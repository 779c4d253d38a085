"""The sign-in limit (ten failures a minute for one address and email, decisions section 3)
is one limit for the installation, however many processes serve it: counted in the
database, or in Redis when LOKO_RATELIMIT_STORAGE_URI names one."""

import json
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import redis
import sqlalchemy as sa

from loko.auth import service
from loko.auth.attempts import DatabaseAttempts, RedisAttempts, attempt_key, attempt_store
from loko.auth.models import SignInAttempt
from loko.database import utcnow
from loko.extensions import db
from tests.factories import cheap_password_hasher
from tests.mcp.conftest import HANDSHAKE, initialize_message
from tests.selfhost.conftest import app_on, migrate_to

PASSWORD = "correct horse battery"
REDIS_URL = "redis://127.0.0.1:6379/15"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


def login(client, email="ada@example.test", password="wrong password"):
    return client.post("/api/auth/login", json={"email": email, "password": password})


@pytest.fixture
def second_app(app, database_url):
    """A second Loko app on the same database: another process, as far as the limit knows."""
    other = app_on(database_url)
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def ada(client):
    response = client.post("/api/auth/signup", json={"email": "ada@example.test", "password": PASSWORD})
    assert response.status_code == 201


# --- the store -----------------------------------------------------------------------------


@pytest.mark.parametrize("uri", [None, "", "database", "memory://", "memcached://127.0.0.1"])
def test_every_store_but_redis_is_the_database(uri):
    assert isinstance(attempt_store(uri), DatabaseAttempts)


def test_the_default_store_is_the_database(app):
    assert isinstance(app.extensions["loko_sign_in_attempts"], DatabaseAttempts)


def test_stored_counters_name_neither_address_nor_email(app, client, ada):
    login(client)
    with app.app_context():
        (stored,) = db.session.execute(sa.select(SignInAttempt.key_hash)).scalars()
    assert stored == attempt_key("127.0.0.1|ada@example.test")
    assert "ada" not in stored


def test_a_window_that_has_ended_counts_afresh(app, client, ada):
    for _ in range(10):
        login(client)
    with app.app_context():
        db.session.execute(sa.update(SignInAttempt).values(window_ends_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    assert login(client).status_code == 401
    with app.app_context():
        assert db.session.execute(sa.select(SignInAttempt.attempts)).scalar_one() == 1


def test_ended_windows_are_purged_by_the_next_attempt(app):
    with app.app_context():
        ended = utcnow() - timedelta(minutes=5)
        db.session.add_all(
            [SignInAttempt(key_hash=f"{n:064x}", attempts=10, window_ends_at=ended) for n in range(50)]
        )
        db.session.commit()
        DatabaseAttempts().reserve(attempt_key("someone"), 60)
        left = db.session.execute(sa.select(SignInAttempt.key_hash)).scalars().all()
    assert left == [attempt_key("someone")]


def test_a_successful_sign_in_gives_its_attempt_back(app, client, ada):
    for _ in range(9):
        login(client)
    assert login(client, password=PASSWORD).status_code == 200
    assert login(client).status_code == 401
    assert login(client).status_code == 429


def test_sign_in_responses_say_how_many_attempts_remain(client, ada):
    response = login(client)
    assert response.headers["X-RateLimit-Limit"] == "10"
    assert response.headers["X-RateLimit-Remaining"] == "9"


# --- across app instances ------------------------------------------------------------------


def test_the_limit_holds_across_two_app_instances_on_one_database(client, second_app, ada):
    other = second_app.test_client()
    statuses = [login(client if n % 2 else other).status_code for n in range(10)]
    assert statuses == [401] * 10
    assert login(client).status_code == 429
    assert login(other).status_code == 429


def test_a_concurrent_burst_on_two_instances_lets_exactly_ten_through(app, second_app, ada):
    apps = [app, second_app]
    start = threading.Barrier(20)

    def attempt(n):
        client = apps[n % 2].test_client()
        start.wait()
        return login(client).status_code

    with ThreadPoolExecutor(20) as pool:
        statuses = sorted(pool.map(attempt, range(20)))
    assert statuses == [401] * 10 + [429] * 10


@pytest.fixture
def redis_url():
    connection = redis.Redis.from_url(REDIS_URL)
    try:
        connection.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"Redis run skipped: no Redis at {REDIS_URL}")
    finally:
        connection.close()
    return REDIS_URL


def test_the_limit_holds_across_two_instances_sharing_redis(database_url, redis_url):
    apps = [app_on(database_url, LOKO_RATELIMIT_STORAGE_URI=redis_url) for _ in range(2)]
    email = f"{uuid.uuid4().hex}@example.test"  # a counter of its own in the shared Redis
    try:
        assert isinstance(apps[0].extensions["loko_sign_in_attempts"], RedisAttempts)
        clients = [a.test_client() for a in apps]
        statuses = [login(clients[n % 2], email).status_code for n in range(12)]
        refused = login(clients[0], email)
    finally:
        for a in apps:
            with a.app_context():
                db.engine.dispose()
    assert statuses == [401] * 10 + [429] * 2
    assert int(refused.headers["Retry-After"]) > 0
    assert isinstance(refused.json["error"], str)


# --- a real `loko serve --processes 2` -----------------------------------------------------


@pytest.fixture
def two_processes(empty_database_url, serve):
    migrate_to(empty_database_url)
    return serve(empty_database_url, processes=2)


def _sign_up(connection, email):
    status, headers, _body = connection.request(
        "POST", "/api/auth/signup", {"email": email, "password": PASSWORD, "name": email.split("@")[0]}
    )
    assert status == 201
    return _cookie(headers)


def _cookie(headers) -> str:
    (cookie,) = [c for c in headers.get_all("Set-Cookie") if c.startswith("sb-access-token=")]
    return cookie.split(";", 1)[0]


@pytest.mark.slow
def test_twenty_wrong_passwords_over_two_processes_get_ten_401_and_ten_429(two_processes):
    held = two_processes.connections_to_each_worker(10)
    _sign_up(next(iter(held.values()))[0], "ada@example.test")
    connections = [c for worker in held.values() for c in worker]
    start = threading.Barrier(len(connections))

    def attempt(connection):
        start.wait()
        status, headers, body = connection.request(
            "POST", "/api/auth/login", {"email": "ada@example.test", "password": "wrong password"}
        )
        return connection.pid, status, headers.get("Retry-After"), json.loads(body)

    with ThreadPoolExecutor(len(connections)) as pool:
        results = list(pool.map(attempt, connections))
    statuses = sorted(status for _pid, status, _retry, _body in results)
    assert statuses == [401] * 10 + [429] * 10
    assert {pid for pid, *_ in results} == set(held)
    assert all(int(retry) > 0 and "error" in body for _pid, status, retry, body in results if status == 429)


@pytest.mark.slow
def test_sessions_mcp_sessions_and_exports_work_across_processes(two_processes):
    held = two_processes.connections_to_each_worker(1)
    (a,), (b,) = held.values()
    assert a.pid != b.pid

    # A session opened by one process is known to the other.
    cookie = _sign_up(a, "grace@example.test")
    status, _headers, body = b.request("GET", "/api/auth/me", headers={"Cookie": cookie})
    assert status == 200
    organization = json.loads(body)["organizations"][0]["id"]
    status, headers, _body = b.request(
        "POST", "/api/auth/login", {"email": "grace@example.test", "password": PASSWORD}
    )
    assert status == 200
    assert a.request("GET", "/api/auth/me", headers={"Cookie": _cookie(headers)})[0] == 200

    _status, _headers, body = a.request(
        "POST", "/api/projects", {"name": "Web app", "organization_id": organization}, {"Cookie": cookie}
    )
    project = json.loads(body)["project"]["id"]
    _status, _headers, body = b.request(
        "POST", f"/api/projects/{project}/keys", {"name": "ci"}, {"Cookie": cookie}
    )
    bearer = {"Authorization": f"Bearer {json.loads(body)['key']}"}

    # An MCP session opened (initialize) on one process serves tools/list on the other.
    mcp = {**bearer, "Accept": "application/json, text/event-stream"}
    status, headers, _body = a.request("POST", "/api/mcp", initialize_message(), mcp)
    assert status == 200
    session = {"Mcp-Session-Id": headers["Mcp-Session-Id"], "MCP-Protocol-Version": HANDSHAKE}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    status, _headers, body = b.request("POST", "/api/mcp", listing, {**mcp, **session})
    assert status == 200
    assert "upsert_translations" in {tool["name"] for tool in json.loads(body)["result"]["tools"]}

    # An export has one ETag whichever process builds it, and each revalidates the other's.
    update = {"key": "greeting", "fileName": "common", "updates": {"en": {"value": "Hello"}}}
    assert b.request("PATCH", f"/api/projects/{project}/translations", update, bearer)[0] == 200
    exports = [c.request("GET", f"/api/projects/{project}/translations", headers=bearer) for c in (a, b)]
    assert [status for status, _h, _b in exports] == [200, 200]
    assert exports[0][1]["ETag"] == exports[1][1]["ETag"]
    assert exports[0][2] == exports[1][2]
    assert json.loads(exports[0][2]) == {"en": {"common": {"greeting": "Hello"}}}
    for connection in (a, b):
        revalidated = connection.request(
            "GET",
            f"/api/projects/{project}/translations",
            headers={**bearer, "If-None-Match": exports[0][1]["ETag"]},
        )
        assert revalidated[0] == 304
