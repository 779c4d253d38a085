"""repohosts: the tag filter of a repository's files

Revision ID: 0041_repohost_tags
Revises: 0040_hot_key_updates

A repository can hold one tag's keys only (the `web` strings of a project that also serves
iOS): ``tags`` (keys with every one of them) and ``exclude_tags`` (keys with none of them),
JSON arrays, both empty by default. Existing configurations keep every key.
"""

import sqlalchemy as sa
from alembic import op

revision = "0041_repohost_tags"
down_revision = "0040_hot_key_updates"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("repohosts") as table:
        table.add_column(sa.Column("tags", sa.Text(), nullable=False, server_default="[]"))
        table.add_column(sa.Column("exclude_tags", sa.Text(), nullable=False, server_default="[]"))


def downgrade():
    with op.batch_alter_table("repohosts") as table:
        table.drop_column("exclude_tags")
        table.drop_column("tags")
