"""Resolving a Bearer key: one query on a connection of its own (on SQLite, the calling
thread's), which leaves no session transaction open, and the key's use noted at most once
a minute."""

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from loko.apikeys.models import ApiKey
from loko.auth.service import actor_for_api_key
from loko.database import thread_connection, unit_of_work, utcnow
from loko.extensions import db
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def set_last_used(api: ProjectApi, when) -> None:
    with unit_of_work():
        db.session.execute(update(ApiKey).where(ApiKey.id == api.key_id).values(last_used_at=when))


def last_used(api: ProjectApi):
    return db.session.execute(select(ApiKey.last_used_at).where(ApiKey.id == api.key_id)).scalar_one()


def test_resolving_a_key_leaves_no_transaction_open(app, api):
    with app.app_context():
        set_last_used(api, utcnow())
        actor = actor_for_api_key(api.credentials["bearer"])
        assert actor.project_id == api.project_id
        assert not db.session().in_transaction()


def test_a_key_used_within_the_minute_is_not_noted_again(app, api):
    with app.app_context():
        recently = utcnow() - timedelta(seconds=30)
        set_last_used(api, recently)
        actor_for_api_key(api.credentials["bearer"])
        assert last_used(api) == recently


def test_a_key_last_used_over_a_minute_ago_is_noted_again(app, api):
    with app.app_context():
        long_ago = utcnow() - timedelta(minutes=2)
        set_last_used(api, long_ago)
        actor_for_api_key(api.credentials["bearer"])
        assert last_used(api) > long_ago


@pytest.fixture
def sqlite_engine(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite reads on the calling thread's own connection")
        yield db.engine


def test_on_sqlite_a_thread_reads_on_the_same_connection_each_time(sqlite_engine):
    first = thread_connection(sqlite_engine)
    assert thread_connection(sqlite_engine) is first
    assert not first.in_transaction


def test_on_sqlite_each_thread_reads_on_a_connection_of_its_own(sqlite_engine):
    mine, theirs = thread_connection(sqlite_engine), []
    thread = threading.Thread(target=lambda: theirs.append(thread_connection(sqlite_engine)))
    thread.start()
    thread.join(timeout=30)
    assert theirs and theirs[0] is not mine
