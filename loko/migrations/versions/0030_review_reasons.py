"""values: why a value waits for a review

Revision ID: 0030_review_reasons
Revises: 0029_invitation_note

``translation_values.review_reason``: while a value's state is ``needs-review``, what sent it
there (``source-changed``, ``agent``, ``pre-translated``, ``machine-unedited``,
``memory-unedited``, ``requested`` or ``undone``); NULL in the other states. NULL too for the
values waiting for a review before the upgrade: their cause was not recorded. Added in place
(no table rebuild); no row is touched.
"""

import sqlalchemy as sa
from alembic import op

revision = "0030_review_reasons"
down_revision = "0029_invitation_note"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("translation_values", sa.Column("review_reason", sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table("translation_values", schema=None) as batch_op:
        batch_op.drop_column("review_reason")
