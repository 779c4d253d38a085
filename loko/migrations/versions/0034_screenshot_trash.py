"""screenshots: a deleted screenshot goes to the trash

Revision ID: 0034_screenshot_trash
Revises: 0033_provider_images

``screenshots.deleted_at``: when the screenshot went to the trash (null: it is not there).
Added in place, null for every screenshot, so every row stays as it was and active; its
regions stay with it in the trash. The purge of the trash deletes a screenshot once it has
been there ``LOKO_TRASH_RETENTION_DAYS``.
"""

import sqlalchemy as sa
from alembic import op

revision = "0034_screenshot_trash"
down_revision = "0033_provider_images"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("screenshots", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_screenshots_deleted", "screenshots", ["deleted_at"])


def downgrade():
    op.drop_index("ix_screenshots_deleted", table_name="screenshots")
    with op.batch_alter_table("screenshots", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
