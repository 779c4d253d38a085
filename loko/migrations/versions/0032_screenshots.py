"""screenshots: pictures of the app per project, and the regions of keys on them

Revision ID: 0032_screenshots
Revises: 0031_commit_notices

Two new tables; no existing row is touched. The images themselves are files in the data
folder (``screenshots/``), named by their SHA-256.
"""

import sqlalchemy as sa
from alembic import op

revision = "0032_screenshots"
down_revision = "0031_commit_notices"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "screenshots",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("project_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_type", sa.String(length=16), nullable=False),
        sa.Column("created_by_id", sa.String(length=36), nullable=True),
        sa.Column("created_by_name", sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_screenshots_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_screenshots")),
        sa.UniqueConstraint("project_id", "sha256", name="uq_screenshots_project_image"),
    )
    op.create_index("ix_screenshots_project_created", "screenshots", ["project_id", "created_at"])
    op.create_index("ix_screenshots_sha256", "screenshots", ["sha256"])
    op.create_table(
        "screenshot_regions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("screenshot_id", sa.String(length=36), nullable=False),
        sa.Column("translation_id", sa.String(length=36), nullable=False),
        sa.Column("x", sa.Integer(), nullable=False),
        sa.Column("y", sa.Integer(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["screenshot_id"],
            ["screenshots.id"],
            name=op.f("fk_screenshot_regions_screenshot_id_screenshots"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["translation_id"],
            ["translations.id"],
            name=op.f("fk_screenshot_regions_translation_id_translations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_screenshot_regions")),
    )
    op.create_index("ix_screenshot_regions_screenshot", "screenshot_regions", ["screenshot_id"])
    op.create_index("ix_screenshot_regions_translation", "screenshot_regions", ["translation_id"])


def downgrade():
    op.drop_table("screenshot_regions")
    op.drop_table("screenshots")
