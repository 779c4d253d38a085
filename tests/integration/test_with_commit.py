"""On PostgreSQL, the statements a transaction sends with its COMMIT (``with_commit``) go as
one query with their values written in as literals: a value holding a quote, a question mark
or braces arrives as it was, and a statement given the wrong number of values is refused."""

import pytest
from sqlalchemy import text

from loko.database import unit_of_work, with_commit
from loko.extensions import db
from tests.translation_factories import project_api


@pytest.fixture
def project_id(app) -> str:
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("with_commit sends statements with the COMMIT on PostgreSQL only")
    return project_api(app).project_id


def _name_of(app, project_id: str) -> str:
    with app.app_context():
        return db.session.execute(
            text("SELECT name FROM projects WHERE id = :id"), {"id": project_id}
        ).scalar()


def test_a_value_sent_with_the_commit_arrives_as_it_was(app, project_id):
    written = "It's {0}? {} ; COMMIT"
    with app.app_context(), unit_of_work():
        with_commit("UPDATE projects SET name = ? WHERE id = ?", (written, project_id))
    assert _name_of(app, project_id) == written


def test_a_statement_with_too_few_values_is_refused_and_writes_nothing(app, project_id):
    before = _name_of(app, project_id)
    import psycopg  # PostgreSQL's run only

    with app.app_context(), pytest.raises(psycopg.ProgrammingError, match="placeholders"), unit_of_work():
        with_commit("UPDATE projects SET name = ? WHERE id = ?", ("changed",))
    assert _name_of(app, project_id) == before
