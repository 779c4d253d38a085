"""translation memory on PostgreSQL: every trigram of the short texts in memory_shingles

Revision ID: 0026_memory_short_trigrams
Revises: 0025_memory_shingles

PostgreSQL only. Fuzzy lookups of texts shorter than 20 characters read memory_shingles
too: each entry (but keys) whose text is shorter than 20 characters gets a row for the hash
of every 3-character piece of its lower-cased text, beside its sampled 8-character shingles.
They are added here for the entries already indexed, so short lookups keep finding them;
no other row is touched.
"""
from alembic import op

revision = "0026_memory_short_trigrams"
down_revision = "0025_memory_shingles"
branch_labels = None
depends_on = None

# As loko.memory.index adds them for each new entry (a trigram's hash equal to one of the
# entry's shingles' would only count twice in a lookup's tally: not worth reading the table).
FILL = (
    "INSERT INTO memory_shingles (hash, entry_id) "
    "SELECT DISTINCT hashtext(substr(e.folded, i, 3)), e.id FROM ("
    "SELECT id, lower(text) AS folded FROM memory_entries "
    "WHERE language_code <> '' AND length(lower(text)) < 20 OFFSET 0) e "
    "CROSS JOIN LATERAL generate_series(1, length(e.folded) - 2) AS i"
)
EMPTIED = (
    "DELETE FROM memory_shingles s USING ("
    "SELECT DISTINCT hashtext(substr(e.folded, i, 3)) AS hash, e.id FROM ("
    "SELECT id, lower(text) AS folded FROM memory_entries "
    "WHERE language_code <> '' AND length(lower(text)) < 20 OFFSET 0) e "
    "CROSS JOIN LATERAL generate_series(1, length(e.folded) - 2) AS i) t "
    "WHERE s.hash = t.hash AND s.entry_id = t.id"
)


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FILL)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    # The trigrams only: an 8-character shingle with the same hash goes too, and is found
    # again by the memory's next rebuild.
    op.execute(EMPTIED)
