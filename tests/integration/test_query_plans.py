"""Hot queries keep their plan on a PostgreSQL database whose statistics do not know the data
yet (a project just seeded or imported, autovacuum off or lagging), and bulk writes bring
the statistics up to date themselves."""

import pytest
from sqlalchemy import text

from loko.database import ANALYZE_BASE_ROWS
from loko.exports.service import VALUE_ROWS_BY_LANGUAGE, VALUE_ROWS_IN_FILES
from loko.extensions import db
from tests.translation_factories import project_api

KEYS = ANALYZE_BASE_ROWS


@pytest.fixture
def postgres(app):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL planner test: runs when LOKO_TEST_DATABASE_URL is set")
    return app


def _items(count):
    return {f"key.{i:05d}": f"value {i}" for i in range(count)}


def _analyzed(table):
    """ANALYZE sets the row estimate that ``_forget_statistics`` cleared."""
    return db.session.execute(
        text("SELECT reltuples >= 0 FROM pg_class WHERE relname = :table"), {"table": table}
    ).scalar_one()


def _forget_statistics():
    """Make the tables look freshly loaded: no statistics, an estimated size of zero rows."""
    for table in ("translations", "translation_values"):
        db.session.execute(text(f"DELETE FROM pg_statistic WHERE starelid = '{table}'::regclass"))
        db.session.execute(
            text(f"UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE relname = '{table}'")
        )
    db.session.commit()


def test_a_large_bulk_upsert_analyzes_the_tables_it_grew(postgres):
    api = project_api(postgres)
    with postgres.app_context():
        _forget_statistics()
    api.upsert("en", _items(KEYS))
    with postgres.app_context():
        assert _analyzed("translation_values")
        assert _analyzed("translations")


def test_a_small_bulk_upsert_leaves_statistics_to_autovacuum(postgres):
    api = project_api(postgres)
    with postgres.app_context():
        _forget_statistics()
    api.upsert("en", _items(10))
    with postgres.app_context():
        assert not _analyzed("translation_values")


def test_export_query_reads_values_by_primary_key_without_statistics(postgres):
    api = project_api(postgres)
    for file_name in ("a", "b", "c"):
        for language in ("en", "de"):
            api.upsert(language, _items(300), file_name=file_name)
    with postgres.app_context():
        _forget_statistics()
        query = VALUE_ROWS_IN_FILES.params(
            project_id=api.project_id, languages=["de", "en"], file_names=["b"]
        )
        compiled = query.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True})
        plan = "\n".join(row[0] for row in db.session.connection().exec_driver_sql(f"EXPLAIN {compiled}"))
    assert "pk_translation_values" in plan
    # Either index of a file's active keys (by key, or in the editor's natural order).
    assert "uq_translations_active_key" in plan or "ix_translations_active_natural" in plan
    assert "ix_translation_values_project_language" not in plan
    assert "ix_translations_trash" not in plan


def test_sqlite_reads_a_whole_project_through_the_language_index(app):
    api = project_api(app)
    api.upsert("en", _items(10))
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's way of reading a whole project")
        query = VALUE_ROWS_BY_LANGUAGE.params(project_id=api.project_id, languages=["de", "en"])
        compiled = query.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True})
        plan = " ".join(
            str(row) for row in db.session.connection().exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")
        )
    assert "ix_translation_values_project_language" in plan
