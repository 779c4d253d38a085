"""users: the language of the account's web pages

Revision ID: 0039_user_locale
Revises: 0038_releases

``users.locale``: the web app's language the user chose on the account page or in the
language switcher (a shipped locale such as ``de`` or ``pt_BR``). Added in place, null for
every user, so every row stays as it was and the browser's Accept-Language decides until
the user chooses.
"""

import sqlalchemy as sa
from alembic import op

revision = "0039_user_locale"
down_revision = "0038_releases"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("users", sa.Column("locale", sa.String(35), nullable=True))


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("locale")
