"""translations: room in each page for a key's next version (PostgreSQL)

Revision ID: 0040_hot_key_updates
Revises: 0039_user_locale

Every write of a key's values sets the key's ``updated_at``, a column no index holds. With
pages full (PostgreSQL's default fill factor, 100), each such UPDATE puts the new row
version on another page and adds an entry to each of the table's four indexes; with half of
each page free, the new version stays on its page (a heap-only tuple) and no index changes:
an undo or an import that touches 100,000 keys updates them about ten times faster. The
table takes about twice the room. Pages already written keep their fill until the table is
rewritten (``VACUUM FULL translations``); new pages get the room. Nothing changes on SQLite,
and no row changes anywhere.
"""

from alembic import op

revision = "0040_hot_key_updates"
down_revision = "0039_user_locale"
branch_labels = None
depends_on = None

FILL_FACTOR = 50


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE translations SET (fillfactor = {FILL_FACTOR})")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE translations RESET (fillfactor)")
