"""values: who last changed a value's review state, and when

Revision ID: 0028_review_marks
Revises: 0027_memory_sharing

``translation_values.review_changed_at`` and ``review_changed_by`` (the name of the person
who marked the value reviewed, or asked for a review again): an undo of changes made before
it lists the value as changed since, rather than taking a reviewer's approval away unasked.
Both are NULL for the values stored before the upgrade. Added in place (no table rebuild);
no row is touched.
"""

import sqlalchemy as sa
from alembic import op

revision = "0028_review_marks"
down_revision = "0027_memory_sharing"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "translation_values", sa.Column("review_changed_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("translation_values", sa.Column("review_changed_by", sa.String(length=128), nullable=True))


def downgrade():
    with op.batch_alter_table("translation_values", schema=None) as batch_op:
        batch_op.drop_column("review_changed_by")
        batch_op.drop_column("review_changed_at")
