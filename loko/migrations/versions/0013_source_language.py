"""projects name their source language; keys may carry a maximum length

Revision ID: 0013_source_language
Revises: 0011_canonical_language_codes

A project's source language was guessed on every read (the language with the most values),
so it moved as translators caught up and was unknown before the first value. It becomes a
setting: projects.source_language, filled here with that same guess for existing projects
(ties go to the alphabetically first code; a project without values gets its first language
by code). translations.max_length is a key detail beside its comment and context: nullable,
so adding it rewrites no row.
"""
from alembic import op
import sqlalchemy as sa


revision = '0013_source_language'
down_revision = '0011_canonical_language_codes'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.add_column(sa.Column('source_language', sa.String(length=35), nullable=True))
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('max_length', sa.Integer(), nullable=True))
    _fill_source_languages()


def _fill_source_languages():
    connection = op.get_bind()
    counts = connection.execute(
        sa.text(
            "SELECT v.project_id, v.language_code, COUNT(*) FROM translation_values v "
            "JOIN translations t ON t.id = v.translation_id "
            "WHERE t.deleted_at IS NULL GROUP BY v.project_id, v.language_code"
        )
    ).all()
    best: dict[str, tuple[int, str]] = {}
    for project_id, code, count in counts:
        candidate = (-count, code)
        if project_id not in best or candidate < best[project_id]:
            best[project_id] = candidate
    languages = connection.execute(sa.text("SELECT project_id, code FROM project_languages")).all()
    first: dict[str, str] = {}
    for project_id, code in languages:
        if project_id not in first or code < first[project_id]:
            first[project_id] = code
    chosen = {**first, **{project_id: code for project_id, (_count, code) in best.items()}}
    if chosen:
        connection.execute(
            sa.text("UPDATE projects SET source_language = :code WHERE id = :id"),
            [{"id": project_id, "code": code} for project_id, code in sorted(chosen.items())],
        )


def downgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_column('max_length')
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.drop_column('source_language')
