"""Many rows written at once: inserted and updated by one executemany, or on PostgreSQL by
COPY (into the table, or into a scratch table an UPDATE reads), the same rows either way."""

from contextlib import nullcontext

from sqlalchemy import select

from loko.database import SESSION_STATEMENTS, unit_of_work, update_rows, utcnow
from loko.database.statements import COPY_INSERT_ABOVE, COPY_UPDATE_ABOVE, driver_timestamp, insert_rows
from loko.extensions import db
from loko.translations.models import Translation, TranslationValue
from tests.translation_factories import project_api

MANY = max(COPY_INSERT_ABOVE, COPY_UPDATE_ABOVE) + 1


def test_many_values_updated_at_once_each_take_their_own_text(app):
    api = project_api(app)
    api.upsert("en", [{"key": f"key.{n:04d}", "value": f"old {n}"} for n in range(MANY)])
    with app.app_context():
        ids = dict(db.session.execute(select(Translation.key, Translation.id)).all())
        stamp = driver_timestamp(utcnow())
        with unit_of_work():
            update_rows(
                TranslationValue.__table__,
                ("value", "updated_at"),
                ("translation_id", "language_code"),
                [(f"new {n}", stamp, ids[f"key.{n:04d}"], "en") for n in range(MANY)],
            )
        stored = dict(
            db.session.execute(select(TranslationValue.translation_id, TranslationValue.value)).all()
        )
    assert stored == {ids[f"key.{n:04d}"]: f"new {n}" for n in range(MANY)}


def _insert_keys(app, file_name: str, pipelined: bool = False) -> list[tuple]:
    """MANY new keys in ``file_name`` by ``insert_rows`` (in a pipelined block or not); the
    file's stored ``(key, comment, deleted_at)`` rows."""
    project_api(app).upsert("en", [{"key": "only", "value": "x"}])
    with app.app_context():
        project_id = db.session.execute(select(Translation.project_id)).scalar_one()
        stamp = driver_timestamp(utcnow())
        rows = [
            (f"{file_name}-{n:05d}", project_id, file_name, f"key.{n}", f"key.{n}", stamp, stamp)
            for n in range(MANY)
        ]
        with unit_of_work(), SESSION_STATEMENTS.pipelined() if pipelined else nullcontext():
            insert_rows(
                Translation.__table__,
                ("id", "project_id", "file_name", "key", "sort_key", "created_at", "updated_at"),
                rows,
            )
        return db.session.execute(
            select(Translation.key, Translation.comment, Translation.deleted_at).where(
                Translation.file_name == file_name
            )
        ).all()


def test_many_rows_inserted_at_once_keep_their_empty_columns_and_times(app):
    stored = _insert_keys(app, "bulk")
    assert len(stored) == MANY
    assert {(comment, deleted) for _key, comment, deleted in stored} == {(None, None)}


def test_many_rows_inserted_in_a_pipelined_block_are_inserted_too(app):
    assert len(_insert_keys(app, "piped", pipelined=True)) == MANY
