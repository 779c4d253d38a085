"""On PostgreSQL: a pooled connection is asked whether it is still there only after it sat
idle, and a write's statements sent together (pipelined) are the driver's own."""

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.pool import NullPool

from loko.database import SESSION_STATEMENTS, postgres
from loko.extensions import db
from tests.translation_factories import project_api


@pytest.fixture
def postgres_app(app, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's connections and pipelines; SQLite has neither")
    return app


def _backend_pid(app) -> int:
    with app.app_context():
        pid = db.session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        db.session.remove()
    return pid


def test_a_connection_lost_while_idle_is_replaced_before_a_request_uses_it(
    postgres_app, database_url, monkeypatch
):
    api = project_api(postgres_app)
    lost = _backend_pid(postgres_app)  # back in the pool, idle
    admin = create_engine(database_url, poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": lost})
    admin.dispose()
    monkeypatch.setattr(postgres, "IDLE_PING_SECONDS", 0.0)
    assert api.bulk_upsert_request("en", [{"key": "greeting", "value": "Hello"}]).status_code == 200
    assert _backend_pid(postgres_app) != lost


def test_a_recently_used_connection_is_handed_out_without_a_ping(postgres_app):
    pings = []
    with postgres_app.app_context():
        engine = db.engine
        original = engine.dialect.do_ping
        engine.dialect.do_ping = lambda connection: pings.append(connection) or original(connection)
        try:
            for _ in range(3):
                db.session.execute(select(1))
                db.session.remove()
        finally:
            engine.dialect.do_ping = original
    assert pings == []


def test_a_sqlalchemy_statement_in_a_pipelined_block_is_refused(postgres_app):
    with postgres_app.app_context():
        with pytest.raises(RuntimeError, match="pipelined"), SESSION_STATEMENTS.pipelined():
            db.session.execute(select(1))
        db.session.rollback()


def test_driver_statements_in_a_pipelined_block_read_their_rows(postgres_app):
    with postgres_app.app_context():
        with SESSION_STATEMENTS.pipelined():
            SESSION_STATEMENTS.execute("SET LOCAL statement_timeout = 5000", [()])
            rows = SESSION_STATEMENTS.fetch("SELECT 41 + ?", (1,))
        assert rows == [(42,)]
        db.session.rollback()
