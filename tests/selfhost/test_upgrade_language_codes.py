"""The upgrade to canonical language codes (0011): rows written by the previous schema, with
codes stored as given, come out with canonical codes; two spellings of one language are
merged when their values agree, and the upgrade is refused, naming them, when they do not."""

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from loko.database import driver_timestamp
from loko.extensions import db
from tests.selfhost.conftest import app_on, migrate_to
from tests.selfhost.test_upgrade import insert, rows_of

BEFORE = "0010_invitations"
ORG = "00000000-0000-7000-8000-00000000000a"
PROJECT, VARIANT = "00000000-0000-7000-8000-0000000000b1", "00000000-0000-7000-8000-0000000000b2"
GREETING, TITLE, BYE = (f"00000000-0000-7000-8000-0000000000d{n}" for n in range(1, 4))
CREATED = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def fill(connection, at, languages, values, links=("EN", "pt_br")):
    """A project with ``languages`` and ``values`` (``(translation, code, value)``), a file
    record per language, a history entry per value, and a project linked to it."""
    insert(connection, "organizations", [(ORG, "Acme", at(CREATED))], columns=("id", "name", "created_at"))
    insert(
        connection,
        "projects",
        [
            (PROJECT, ORG, "Web app", "", "", None, None, None, 1, at(CREATED), at(CREATED)),
            (VARIANT, ORG, "Brand", "", "", PROJECT, links[0], links[1], 1, at(CREATED), at(CREATED)),
        ],
        columns=(
            "id",
            "organization_id",
            "name",
            '"desc"',
            "emoji",
            "linked_project_id",
            "linked_language_code",
            "linked_language_target_code",
            "data_version",
            "data_updated_at",
            "created_at",
        ),
    )
    insert(
        connection,
        "project_languages",
        [(PROJECT, code, name, "") for code, name in languages] + [(VARIANT, "pt_br", "Portuguese", "🇧🇷")],
    )
    insert(
        connection,
        "translations",
        [
            (GREETING, PROJECT, "common", "greeting", at(CREATED), at(CREATED)),
            (TITLE, PROJECT, "common", "title", at(CREATED), at(CREATED)),
            (BYE, PROJECT, "common", "bye", at(CREATED), at(CREATED)),
        ],
        columns=("id", "project_id", "file_name", "key", "created_at", "updated_at"),
    )
    insert(
        connection,
        "translation_values",
        [(t, code, PROJECT, value, at(CREATED)) for t, code, value in values],
    )
    records = [(PROJECT, code) for code, _name in languages] + [(VARIANT, "pt_br")]
    insert(
        connection,
        "file_records",
        [
            (f"00000000-0000-7000-8000-0000000001{n:02}", project, "common", code)
            for n, (project, code) in enumerate(records)
        ],
    )
    insert(
        connection,
        "translation_history",
        [
            (PROJECT, t, "k", "common", code, "created", None, value, "user", None, "Ada", at(CREATED))
            for t, code, value in values
        ]
        + [
            (
                PROJECT,
                GREETING,
                "greeting",
                "common",
                "FR",
                "purged",
                "Bonjour",
                None,
                "user",
                None,
                "Ada",
                at(CREATED),
            )
        ],
        columns=(
            "project_id",
            "translation_id",
            "key",
            "file_name",
            "language",
            "action",
            "old_value",
            "new_value",
            "actor_type",
            "actor_id",
            "actor_name",
            "created_at",
        ),
    )


def at_previous_schema(url, languages, values, **kwargs):
    migrate_to(url, BEFORE)
    app = app_on(url)
    with app.app_context():
        try:
            dialect = db.engine.dialect.name
            with db.engine.begin() as connection:
                fill(connection, lambda value: driver_timestamp(value, dialect), languages, values, **kwargs)
        finally:
            db.engine.dispose()
    return app


def read(app, table, columns):
    with app.app_context():
        try:
            with db.engine.connect() as connection:
                return rows_of(connection, table, columns)
        finally:
            db.engine.dispose()


def version(app) -> str:
    with app.app_context():
        try:
            with db.engine.connect() as connection:
                return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        finally:
            db.engine.dispose()


AGREEING = dict(
    languages=[("EN", "English (upper)"), ("en", "English"), ("pt_br", "Portuguese"), ("xx_old", "Old")],
    values=[
        (GREETING, "EN", "Hello"),
        (GREETING, "en", "Hello"),  # the same value on both sides
        (TITLE, "EN", "Title"),  # one side only
        (BYE, "en", "Bye"),  # the other side only
        (GREETING, "pt_br", "Olá"),
        (GREETING, "xx_old", "?"),
    ],
)


def test_codes_become_canonical_and_agreeing_spellings_merge(empty_database_url, caplog):
    app = at_previous_schema(empty_database_url, **AGREEING)
    migrate_to(empty_database_url)
    assert read(app, "project_languages", ["project_id", "code", "name"]) == sorted(
        [
            (PROJECT, "en", "English"),
            (PROJECT, "pt-BR", "Portuguese"),
            (PROJECT, "xx_old", "Old"),
            (VARIANT, "pt-BR", "Portuguese"),
        ],
        key=repr,
    )
    assert read(app, "translation_values", ["translation_id", "language_code", "value"]) == sorted(
        [
            (GREETING, "en", "Hello"),
            (TITLE, "en", "Title"),
            (BYE, "en", "Bye"),
            (GREETING, "pt-BR", "Olá"),
            (GREETING, "xx_old", "?"),
        ],
        key=repr,
    )
    assert read(app, "file_records", ["project_id", "language_code"]) == sorted(
        [(PROJECT, "en"), (PROJECT, "pt-BR"), (PROJECT, "xx_old"), (VARIANT, "pt-BR")], key=repr
    )
    assert sorted(code for (code,) in read(app, "translation_history", ["language"])) == [
        "en",
        "en",
        "en",
        "en",
        "fr",
        "pt-BR",
        "xx_old",
    ]
    assert read(app, "projects", ["id", "linked_language_code", "linked_language_target_code"]) == sorted(
        [(PROJECT, None, None), (VARIANT, "en", "pt-BR")], key=repr
    )
    assert "'xx_old' is not a known language code; left as it is" in caplog.text


def test_the_upgraded_project_lists_its_languages_by_canonical_code(empty_database_url):
    from loko.languages.service import language_rows

    app = at_previous_schema(empty_database_url, **AGREEING)
    migrate_to(empty_database_url)
    with app.app_context():
        try:
            assert [row["code"] for row in language_rows(PROJECT)] == ["en", "pt-BR", "xx_old"]
        finally:
            db.session.remove()
            db.engine.dispose()


def test_disagreeing_spellings_refuse_the_upgrade_naming_them(empty_database_url, caplog):
    app = at_previous_schema(
        empty_database_url,
        languages=[("EN", "English (upper)"), ("en", "English")],
        values=[(GREETING, "EN", "Hi"), (GREETING, "en", "Hello"), (TITLE, "EN", "Title")],
    )
    with pytest.raises(SystemExit):
        migrate_to(empty_database_url)
    message = caplog.text
    assert "Project 'Web app'" in message and PROJECT in message
    assert "the languages 'EN' and 'en', which all become 'en'" in message
    assert "common / greeting: EN 'Hi', en 'Hello'" in message
    assert "rename all but one of them" in message
    assert version(app) == BEFORE
    assert read(app, "project_languages", ["project_id", "code"]) == sorted(
        [(PROJECT, "EN"), (PROJECT, "en"), (VARIANT, "pt_br")], key=repr
    )
