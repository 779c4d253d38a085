"""translation memory: a project's opt-out, imported TMX units, the trigram index

Revision ID: 0019_memory
Revises: 0024_audit

projects.memory_enabled (true for every existing project: their values are memory).
memory_units holds imported TMX units; memory_entries and memory_scopes index every value and
unit by scope (organization and language), length and text; memory_state is how far the index
has read the history of writes (nothing yet: the first refresh indexes every value). The
trigram index is an FTS5 table (tokenize=trigram) on SQLite and a pg_trgm GIN index on
PostgreSQL. Where the pg_trgm extension cannot be created, the index is left out, with a
message; lookups then read memory_entries without it (slower), and the memory's next
refresh (a background job) adds it once the extension can be created.
"""

import logging

from alembic import op
import sqlalchemy as sa


revision = "0019_memory"
down_revision = "0024_audit"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("memory_enabled", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
    op.create_table(
        "memory_units",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("organization_id", sa.String(length=36), nullable=False),
        sa.Column("source_language", sa.String(length=35), nullable=False),
        sa.Column("target_language", sa.String(length=35), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_memory_units_organization_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_units")),
    )
    op.create_index(
        "ix_memory_units_scope", "memory_units", ["organization_id", "source_language", "target_language"]
    )
    op.create_table(
        "memory_scopes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("organization_id", sa.String(length=36), nullable=False),
        sa.Column("language_code", sa.String(length=35), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_scopes")),
        sa.UniqueConstraint(
            "organization_id", "language_code", name=op.f("uq_memory_scopes_organization_id")
        ),
    )
    op.create_table(
        "memory_entries",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("translation_id", sa.String(length=36), nullable=True),
        sa.Column("language_code", sa.String(length=35), nullable=False),
        sa.Column("project_id", sa.String(length=36), nullable=True),
        sa.Column("unit_id", sa.String(length=36), nullable=True),
        sa.Column("digest", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_entries")),
    )
    op.create_index(
        "uq_memory_entries_value",
        "memory_entries",
        ["translation_id", "language_code"],
        unique=True,
        sqlite_where=sa.text("translation_id IS NOT NULL"),
        postgresql_where=sa.text("translation_id IS NOT NULL"),
    )
    op.create_index(
        "uq_memory_entries_unit",
        "memory_entries",
        ["unit_id"],
        unique=True,
        sqlite_where=sa.text("unit_id IS NOT NULL"),
        postgresql_where=sa.text("unit_id IS NOT NULL"),
    )
    op.create_index("ix_memory_entries_digest", "memory_entries", ["digest", "id"])
    op.create_table(
        "memory_state",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("indexed_to", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("settled_to", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("rebuilt_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_state")),
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute("CREATE VIRTUAL TABLE memory_trigrams USING fts5(text, tokenize='trigram')")
    else:
        _postgres_trigram_index()


def _postgres_trigram_index():
    bind = op.get_bind()
    try:
        with bind.begin_nested():
            bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except sa.exc.DBAPIError as error:
        log.warning(
            "pg_trgm is not available (%s): translation memory and the editor's search work "
            "without their trigram index, more slowly. Install the PostgreSQL contrib package "
            "(or ask the database's administrator for CREATE EXTENSION pg_trgm): the memory's "
            "next refresh, a background job, then adds the index.",
            str(error).splitlines()[0],
        )
        return
    bind.exec_driver_sql(
        "CREATE INDEX ix_memory_entries_trigrams ON memory_entries USING gin (text gin_trgm_ops)"
    )


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS memory_trigrams")
    op.drop_table("memory_state")
    op.drop_index("ix_memory_entries_digest", table_name="memory_entries")
    op.drop_index("uq_memory_entries_unit", table_name="memory_entries")
    op.drop_index("uq_memory_entries_value", table_name="memory_entries")
    op.drop_table("memory_entries")
    op.drop_table("memory_scopes")
    op.drop_index("ix_memory_units_scope", table_name="memory_units")
    op.drop_table("memory_units")
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_column("memory_enabled")
