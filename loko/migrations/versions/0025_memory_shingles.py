"""translation memory on PostgreSQL: sampled shingles of each entry, read through a btree

Revision ID: 0025_memory_shingles
Revises: 0023_language_roles

PostgreSQL only (SQLite finds its candidates through the FTS5 table of 0019_memory).
memory_shingles holds, for each memory entry but keys, the hashes of some 8-character pieces
of its lower-cased text (those whose hash is a multiple of 8, of 4 in a text shorter than 64
characters, and the smallest), with the entry's id; fuzzy lookups of longer texts read it through its btree on (hash, entry_id).
It is filled here from the existing entries, so lookups keep finding them; no other row is
touched.
"""
from alembic import op
import sqlalchemy as sa


revision = "0025_memory_shingles"
down_revision = "0023_language_roles"
branch_labels = None
depends_on = None

# As loko.memory.index fills it for each new entry.
FILL = (
    "INSERT INTO memory_shingles (hash, entry_id) "
    "WITH every AS MATERIALIZED ("
    "SELECT e.id AS entry_id, length(e.folded) AS chars, hashtext(substr(e.folded, i, 8)) AS hash "
    "FROM (SELECT id, lower(text) AS folded FROM memory_entries e "
    "WHERE e.language_code <> '' OFFSET 0) e "
    "CROSS JOIN LATERAL generate_series(1, greatest(length(e.folded) - 7, 1)) AS i) "
    "SELECT hash, entry_id FROM every WHERE mod(hash, CASE WHEN chars < 64 THEN 4 ELSE 8 END) = 0 "
    "UNION SELECT min(hash), entry_id FROM every GROUP BY entry_id"
)


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.create_table(
        "memory_shingles",
        sa.Column("hash", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.BigInteger(), nullable=False),
    )
    op.execute(FILL)
    op.create_index("ix_memory_shingles", "memory_shingles", ["hash", "entry_id"])


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_index("ix_memory_shingles", table_name="memory_shingles")
    op.drop_table("memory_shingles")
