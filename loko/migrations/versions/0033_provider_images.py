"""machine providers: whether a language model sees images

Revision ID: 0033_provider_images
Revises: 0032_screenshots

``machine_providers.sees_images``: a provider of the OpenAI-compatible kind marked as seeing
images is sent, with a key's suggestion, the screenshot that shows the key. Added in place
with false for every provider: nothing is sent that was not before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0033_provider_images"
down_revision = "0032_screenshots"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "machine_providers",
        sa.Column("sees_images", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade():
    with op.batch_alter_table("machine_providers", schema=None) as batch_op:
        batch_op.drop_column("sees_images")
