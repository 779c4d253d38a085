"""PostgreSQL: a notice on commit of what a revalidation reads

Revision ID: 0031_commit_notices
Revises: 0030_review_reasons

On PostgreSQL, a statement that writes ``projects`` (data versions), ``file_versions`` (the
files' and languages' versions) or ``api_keys`` sends ``NOTIFY loko_commits``, which the
database delivers to each listening process once the transaction has committed
(``loko.database.commit_notices``). One notice per transaction: PostgreSQL folds a
transaction's identical notices into one. Nothing changes on SQLite, whose WAL index tells
the same without triggers. No row is touched.
"""

from alembic import op

revision = "0031_commit_notices"
down_revision = "0030_review_reasons"
branch_labels = None
depends_on = None

TABLES = ("projects", "file_versions", "api_keys")


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        "CREATE FUNCTION loko_commit_notice() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM pg_notify('loko_commits', ''); RETURN NULL; END $$"
    )
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_commit_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION loko_commit_notice()"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_commit_notice ON {table}")
    op.execute("DROP FUNCTION IF EXISTS loko_commit_notice()")
