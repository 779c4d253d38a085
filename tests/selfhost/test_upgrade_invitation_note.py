"""The upgrade to invitation notes (0029): an invitation made before it keeps every column as
it was, and has no note."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from loko.organizations.models import Invitation
from tests.selfhost.conftest import app_on, migrate_to

BEFORE = "0028_review_marks"
ORG = "00000000-0000-7000-8000-00000000000a"
ADA, GRACE = "00000000-0000-7000-8000-0000000000a1", "00000000-0000-7000-8000-0000000000a2"
ACCEPTED, PENDING = "00000000-0000-7000-8000-0000000000f1", "00000000-0000-7000-8000-0000000000f2"
CREATED = datetime(2025, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
USED = datetime(2025, 3, 2, 8, 0, tzinfo=UTC)
EXPIRES = datetime(2099, 1, 1, tzinfo=UTC)
COLUMNS = (
    "id",
    "organization_id",
    "role",
    "token_hash",
    "created_by",
    "created_at",
    "expires_at",
    "accepted_at",
    "accepted_by",
    "revoked_at",
)


def invitation_rows(url) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            query = f"SELECT {', '.join(COLUMNS)} FROM organization_invitations ORDER BY id"
            return [tuple(row) for row in connection.exec_driver_sql(query)]
    finally:
        engine.dispose()


@pytest.fixture
def upgraded(empty_database_url):
    """An accepted and a pending invitation at 0028, then the upgrade: (the app, their rows
    before it)."""
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:

        def at(moment):
            return driver_timestamp(moment, connection.dialect.name)

        connection.execute(
            sa.text("INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', :at)"),
            {"id": ORG, "at": at(CREATED)},
        )
        connection.execute(
            sa.text(
                "INSERT INTO users (id, email, name, password_hash, created_at) "
                "VALUES (:id, :email, :name, 'not-a-hash', :at)"
            ),
            [
                {"id": ADA, "email": "ada@example.test", "name": "Ada", "at": at(CREATED)},
                {"id": GRACE, "email": "grace@example.test", "name": "Grace", "at": at(CREATED)},
            ],
        )
        connection.execute(
            sa.text(
                f"INSERT INTO organization_invitations ({', '.join(COLUMNS)}) VALUES "
                "(:id, :org, :role, :hash, :by, :created, :expires, :accepted, :accepted_by, NULL)"
            ),
            [
                {
                    "id": ACCEPTED,
                    "org": ORG,
                    "role": "admin",
                    "hash": "a" * 64,
                    "by": ADA,
                    "created": at(CREATED),
                    "expires": at(EXPIRES),
                    "accepted": at(USED),
                    "accepted_by": GRACE,
                },
                {
                    "id": PENDING,
                    "org": ORG,
                    "role": "member",
                    "hash": "b" * 64,
                    "by": ADA,
                    "created": at(CREATED),
                    "expires": at(EXPIRES),
                    "accepted": None,
                    "accepted_by": None,
                },
            ],
        )
    engine.dispose()
    before = invitation_rows(empty_database_url)
    migrate_to(empty_database_url)
    return app_on(empty_database_url), before


def test_an_invitation_keeps_every_column_after_the_upgrade(upgraded, empty_database_url):
    _app, before = upgraded
    assert len(before) == 2
    assert invitation_rows(empty_database_url) == before


def test_an_invitation_made_before_the_upgrade_has_no_note(upgraded):
    app, _before = upgraded
    with app.app_context():
        try:
            notes = db.session.execute(
                sa.select(Invitation.id, Invitation.note).order_by(Invitation.id)
            ).all()
        finally:
            db.session.remove()
            db.engine.dispose()
    assert [tuple(row) for row in notes] == [(ACCEPTED, None), (PENDING, None)]
