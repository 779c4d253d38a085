"""keys keep the comment, context and format details of imported files

Revision ID: 0005_key_notes
Revises: 0004_trash_index_partial

Imported files carry more than keys and values: a translator's comment, gettext's msgctxt,
the details a format needs to write a key back as it was read (ARB placeholders, Android
string arrays). Three nullable columns, so adding them rewrites no row.
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_key_notes'
down_revision = '0004_trash_index_partial'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('comment', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('context', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('meta', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_column('meta')
        batch_op.drop_column('context')
        batch_op.drop_column('comment')
