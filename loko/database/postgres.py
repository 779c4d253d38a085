"""PostgreSQL's planner statistics after bulk writes (``refresh_statistics``)."""

from sqlalchemy import bindparam, text

from loko.extensions import db

# PostgreSQL's own rule for autoanalyze: a table is analyzed again once the rows changed
# since the last ANALYZE exceed 50 plus 10% of its size. Loko applies it itself after bulk
# writes, because autovacuum may be off or lag a bulk load, and a planner that still
# believes a table is empty picks nested loops over the whole table.
ANALYZE_BASE_ROWS = 1000
ANALYZE_SCALE = 0.1
STALE_STATISTICS = text(
    "SELECT c.relname, c.reltuples, coalesce(s.n_mod_since_analyze, 0) "
    "FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
    "WHERE c.relname IN :tables AND c.relnamespace = to_regnamespace(current_schema())::oid"
).bindparams(bindparam("tables", expanding=True))


def refresh_statistics(written: dict[str, int]) -> list[str]:
    """After a bulk write has committed: ANALYZE (on PostgreSQL) each table of ``written``
    (``{table: rows written}``) whose changes since its last ANALYZE exceed PostgreSQL's
    autoanalyze threshold. Returns the tables analyzed."""
    if db.engine.dialect.name != "postgresql" or max(written.values(), default=0) < ANALYZE_BASE_ROWS:
        return []
    session = db.session()
    stale = []
    for name, estimate, changed in session.execute(STALE_STATISTICS, {"tables": list(written)}):
        # Statistics reach pg_stat_user_tables up to a second after a commit: this write's
        # own rows are counted on top, which may count them twice but never misses them.
        changed += written[name]
        if changed >= ANALYZE_BASE_ROWS and changed > ANALYZE_SCALE * max(estimate, 0):
            stale.append(name)
    for name in sorted(stale):
        session.execute(text(f"ANALYZE {session.get_bind().dialect.identifier_preparer.quote(name)}"))
    session.commit()
    return sorted(stale)
