"""tags on keys

Revision ID: 0035_key_tags
Revises: 0034_screenshot_trash

``key_tags``: the tags on each key (a tag is a name within its project, there while a key
carries it), going with the key when it is purged. ``key_tag_changes``: each tag added to or
removed from a key by an operation (a tagging or its undo), for the undo. Two new tables:
every existing row stays as it was, and no key has a tag.
"""

import sqlalchemy as sa
from alembic import op

revision = "0035_key_tags"
down_revision = "0034_screenshot_trash"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "key_tags",
        sa.Column(
            "translation_id",
            sa.String(length=36),
            sa.ForeignKey("translations.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("tag", sa.String(length=50), primary_key=True),
        sa.Column(
            "project_id", sa.String(length=36), sa.ForeignKey("projects.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_key_tags_project_tag", "key_tags", ["project_id", "tag", "translation_id"])
    op.create_table(
        "key_tag_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "project_id", sa.String(length=36), sa.ForeignKey("projects.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("operation_id", sa.String(length=36), nullable=False),
        sa.Column("translation_id", sa.String(length=36), nullable=False),
        sa.Column("tag", sa.String(length=50), nullable=False),
        sa.Column("action", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_key_tag_changes_operation", "key_tag_changes", ["operation_id"])
    op.create_index("ix_key_tag_changes_translation", "key_tag_changes", ["translation_id", "id"])


def downgrade():
    op.drop_index("ix_key_tag_changes_translation", table_name="key_tag_changes")
    op.drop_index("ix_key_tag_changes_operation", table_name="key_tag_changes")
    op.drop_table("key_tag_changes")
    op.drop_index("ix_key_tags_project_tag", table_name="key_tags")
    op.drop_table("key_tags")
