"""keys sorted in natural order in the editor (item1, item2, item10)

Revision ID: 0012_natural_key_order
Revises: 0013_source_language

The editor lists a file's keys by the database's comparison of the key, so item10 came
before item2. Each key gets a sort key (its digit runs zero-padded to one width, see
``natural_sort_key``), written with the key by every insert, and a partial index over the
active keys in that order, which the editor's pages walk. Existing rows are filled here,
a few thousand per statement.
"""
import re

from alembic import op
import sqlalchemy as sa


revision = '0012_natural_key_order'
down_revision = '0013_source_language'
branch_labels = None
depends_on = None

BATCH = 5000
DIGITS = re.compile(r"[0-9]+")
NUMBER_WIDTH = 10
MAX_SORT_KEY_BYTES = 500


def natural_sort_key(key):
    """A copy of loko.translations.models.natural_sort_key as of this revision."""
    padded = DIGITS.sub(lambda digits: digits.group().rjust(NUMBER_WIDTH, "0"), key)
    encoded = padded.encode()
    if len(encoded) <= MAX_SORT_KEY_BYTES:
        return padded
    return encoded[:MAX_SORT_KEY_BYTES].decode(errors="ignore")


def upgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sort_key', sa.Text(), nullable=False, server_default=''))
    connection = op.get_bind()
    translations = sa.table('translations', sa.column('id', sa.String), sa.column('key', sa.String),
                            sa.column('sort_key', sa.Text))
    update = (
        translations.update()
        .where(translations.c.id == sa.bindparam('row_id'))
        .values(sort_key=sa.bindparam('new_sort_key'))
    )
    last = ''
    while True:
        rows = connection.execute(
            sa.select(translations.c.id, translations.c.key)
            .where(translations.c.id > last)
            .order_by(translations.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        changed = [
            {'row_id': row_id, 'new_sort_key': natural_sort_key(key)}
            for row_id, key in rows
        ]
        connection.execute(update, changed)
        last = rows[-1][0]
    op.create_index(
        'ix_translations_active_natural',
        'translations',
        ['project_id', 'file_name', 'sort_key', 'key'],
        unique=False,
        sqlite_where=sa.text('deleted_at IS NULL'),
        postgresql_where=sa.text('deleted_at IS NULL'),
    )


def downgrade():
    op.drop_index(
        'ix_translations_active_natural',
        table_name='translations',
        sqlite_where=sa.text('deleted_at IS NULL'),
        postgresql_where=sa.text('deleted_at IS NULL'),
    )
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_column('sort_key')
