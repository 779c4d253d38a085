"""translation memory: a project shares its values with the organization by choice

Revision ID: 0027_memory_sharing
Revises: 0026_memory_short_trigrams

``projects.memory_enabled`` (a project's values were memory for every member of the
organization unless it opted out) becomes ``projects.memory_shared``: whether members who
may not open the project find its values in their lookups. Every project starts unshared,
the safe default; a project's own values still serve whoever may view the project, and
its admins share it on its Settings page (or ``"memory_shared": true``). No row is added or
removed.

Lookups read only the entries of the projects their caller may read, inside the index's own
walks: ``ix_memory_entries_owner`` (id, project_id, unit_id) lets each entry's owner be read
with one probe of a small index, not of the primary key and then the table.
"""
import sqlalchemy as sa
from alembic import op

revision = "0027_memory_sharing"
down_revision = "0026_memory_short_trigrams"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.alter_column(
            "memory_enabled",
            new_column_name="memory_shared",
            existing_type=sa.Boolean(),
            existing_nullable=False,
            server_default=sa.false(),
        )
    op.execute(sa.text("UPDATE projects SET memory_shared = :no").bindparams(no=False))
    op.create_index("ix_memory_entries_owner", "memory_entries", ["id", "project_id", "unit_id"])


def downgrade():
    op.drop_index("ix_memory_entries_owner", table_name="memory_entries")
    # Before sharing was a choice every project's values were memory unless it opted out:
    # a project shared now stays in, and so does every other (as the upgrade found them).
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.alter_column(
            "memory_shared",
            new_column_name="memory_enabled",
            existing_type=sa.Boolean(),
            existing_nullable=False,
            server_default=sa.true(),
        )
    op.execute(sa.text("UPDATE projects SET memory_enabled = :yes").bindparams(yes=True))
