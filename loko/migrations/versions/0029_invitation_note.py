"""invitations: an optional note that tells pending links apart

Revision ID: 0029_invitation_note
Revises: 0028_review_marks

``organization_invitations.note`` (at most 200 characters, e.g. "for Maria, German
reviewer"): whoever makes an invitation link may say whom it is for, and the members page
lists it with the pending links. NULL for the invitations made before the upgrade. Added in
place (no table rebuild); no row is touched.
"""

import sqlalchemy as sa
from alembic import op

revision = "0029_invitation_note"
down_revision = "0028_review_marks"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("organization_invitations", sa.Column("note", sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table("organization_invitations", schema=None) as batch_op:
        batch_op.drop_column("note")
