"""Fixtures in the flaskr style: ``app``, ``client``, ``runner``, plus a populated ``world``.

Every database test runs on SQLite and, when LOKO_TEST_DATABASE_URL names a PostgreSQL
server, again on a throwaway database created on it for this run and dropped afterwards.
The schema is built once per database by the real migrations; each test then starts
from empty tables.
"""

import atexit
import dataclasses
import gc
import os
import shutil
import tempfile
import uuid

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient
from jinja2 import BytecodeCache
from sqlalchemy.engine import make_url
from werkzeug.routing import Rule

from loko import create_app
from loko.database import upgrade_schema as upgrade
from loko.extensions import db

PG_ENV = "LOKO_TEST_DATABASE_URL"


def _compile_each_url_builder_once():
    """Each test builds a fresh app, and werkzeug compiles two URL-building functions from
    generated source for each of its routes: most of ``create_app``'s time. Such a function
    depends only on the rule's parsed parts and defaults, so the test run compiles each once
    (a rule whose defaults cannot be a key is compiled as werkzeug does)."""
    compile_builder = Rule._compile_builder
    compiled = {}

    def cached(self, append_unknown=True):
        key = (self.rule, tuple(self._trace), tuple(sorted((self.defaults or {}).items())), append_unknown)
        try:
            return compiled[key]
        except TypeError:
            return compile_builder(self, append_unknown)
        except KeyError:
            compiled[key] = compile_builder(self, append_unknown)
            return compiled[key]

    Rule._compile_builder = cached


_compile_each_url_builder_once()


def pytest_collection_finish(session):
    """Each test builds an app, an engine and a world whose objects outlive Python's young
    collections: with the default thresholds a full collection ran every few tests and took
    a third of the run. What was loaded before the first test is frozen out of every
    collection, and the young generations are collected less often (a little more memory)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


class _CompiledTemplates(BytecodeCache):
    """The test run's templates, compiled once and shared by every test's app (Jinja's own
    bytecode cache, kept in memory; a changed template has a new checksum)."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


class WholeBodyClient(FlaskClient):
    """A test client that reads each response to its end, as an HTTP server sends it: a
    streamed export left half-read would hold its build open, and the next request for the
    same project would wait for it (``buffered=False`` still reads as the test goes)."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


def _postgres_database():
    server_url = make_url(os.environ[PG_ENV])
    name = f"loko_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        # A throwaway database: its commits need not wait for the disk.
        connection.exec_driver_sql(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    return admin, name, server_url.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(request, tmp_path_factory):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'loko.db'}"
        _migrate(url)
        yield url
        return
    if not os.environ.get(PG_ENV):
        pytest.skip(
            f"PostgreSQL run skipped: set {PG_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1/postgres)"
        )
    admin, name, url = _postgres_database()
    try:
        _migrate(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def _migrate(url):
    app = create_app(_test_config(url))
    with app.app_context():
        upgrade()
        db.engine.dispose()


def _scratch_screenshots() -> str:
    """One folder per test process for the images of screenshots (never the repository's
    instance folder), removed at exit; a test that counts files gives its own."""
    global _SCREENSHOTS
    if _SCREENSHOTS is None:
        _SCREENSHOTS = tempfile.mkdtemp(prefix="loko-test-screenshots-")
        atexit.register(shutil.rmtree, _SCREENSHOTS, True)
    return _SCREENSHOTS


_SCREENSHOTS = None


def _test_config(url, **overrides):
    return {
        "TESTING": True,
        "LOKO_DATABASE_URL": url,
        "LOKO_SECRET_KEY": "test-secret-key",
        "LOKO_ALLOW_SIGNUP": True,
        "LOKO_RATELIMIT_STORAGE_URI": "memory://",
        "LOKO_SCREENSHOTS_DIR": _scratch_screenshots(),
        **overrides,
    }


def _empty_tables():
    """Children first, so foreign keys never object (faster than TRUNCATE on small tables)."""
    with db.engine.begin() as connection:
        for table in reversed(db.metadata.sorted_tables):
            connection.execute(table.delete())
        # The memory's FTS5 index (SQLite) and shingles (PostgreSQL): outside the models'
        # metadata.
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("DELETE FROM memory_trigrams")
        else:
            connection.exec_driver_sql("DELETE FROM memory_shingles")


@pytest.fixture
def config_overrides():
    """Override in a test module (or with indirect parametrisation) to change settings."""
    return {}


@pytest.fixture
def app(database_url, config_overrides):
    app = create_app(_test_config(database_url, **config_overrides))
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    app.test_client_class = WholeBodyClient
    with app.app_context():
        _empty_tables()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# The world's rows as first built on each database, put back under fresh ids for each later
# test (a few multi-row INSERTs instead of some thirty transactions through the factories).
_WORLD_ROWS: dict[str, tuple] = {}


@pytest.fixture
def world(app, database_url):
    from tests.factories import build_world, restore_world, world_rows

    with app.app_context():
        if database_url in _WORLD_ROWS:
            return restore_world(*_WORLD_ROWS[database_url])
        empty = not any(rows for _table, rows in world_rows())
        built = build_world()
        if empty:  # other fixtures of the test wrote nothing first: the rows are the world's
            # A copy: a test may add callers to the world it is given.
            kept = dataclasses.replace(
                built,
                users=dict(built.users),
                credentials=dict(built.credentials),
                key_ids=dict(built.key_ids),
            )
            _WORLD_ROWS[database_url] = (kept, world_rows())
        return built


@pytest.fixture
def as_caller(app, world):
    """``as_caller("editor").get(...)``: a test client sending that caller's credentials."""
    from tests.factories import CallerClient

    def make(name):
        return CallerClient(app, world.credentials[name])

    return make
