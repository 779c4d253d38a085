"""The upgrade to the account's language (0039): every user stored before it keeps every
column as it was, and chose no language (the browser's decides)."""

from datetime import UTC, datetime

import sqlalchemy as sa

from loko.database import driver_timestamp
from tests.selfhost.conftest import migrate_to

BEFORE = "0034_screenshot_trash"
USERS = ("00000000-0000-7000-8000-0000000000a1", "00000000-0000-7000-8000-0000000000a2")
CREATED = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
COLUMNS = ("id", "email", "name", "password_hash", "created_at")


def rows(url, columns=COLUMNS) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            found = connection.exec_driver_sql(f"SELECT {', '.join(columns)} FROM users ORDER BY id")
            return [tuple(row) for row in found]
    finally:
        engine.dispose()


def test_users_keep_every_column_and_choose_no_language_after_the_upgrade(empty_database_url):
    migrate_to(empty_database_url, BEFORE)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        at = driver_timestamp(CREATED, connection.dialect.name)
        connection.execute(
            sa.text(
                "INSERT INTO users (id, email, name, password_hash, created_at) "
                "VALUES (:id, :email, :name, 'argon2-hash', :at)"
            ),
            [
                {"id": user, "email": f"u{index}@example.test", "name": f"User {index}", "at": at}
                for index, user in enumerate(USERS)
            ],
        )
    engine.dispose()
    before = rows(empty_database_url)
    migrate_to(empty_database_url)
    assert len(before) == 2
    assert rows(empty_database_url) == before
    assert rows(empty_database_url, ("id", "locale")) == [(USERS[0], None), (USERS[1], None)]
